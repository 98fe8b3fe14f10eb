// Builds the chat client a run uses: the response cache over the HTTP client, or the cache alone for a
// replay.
#pragma once

#include <filesystem>
#include <memory>

#include "src/llm/llm.h"
#include "src/llm/llm_settings.h"
#include "src/llm/llm_stats.h"

namespace eok::llm {

// - replay: CachedLlm over `cache_dir` with no inner client (nothing is ever sent; `settings.model` must
//   be the model the recorded run used, since it is part of every key).
// - otherwise: CachedLlm over HttpLlm(settings, budget), or the bare HttpLlm when `cache_dir` is empty.
// `stats` (may be null, must outlive the client) receives calls from HttpLlm and cache hits/misses from
// CachedLlm. Throws ConfigError for unusable settings or a replay without a cache directory.
std::unique_ptr<Llm> make_llm(const LlmSettings& settings, const LlmBudget& budget,
                              const std::filesystem::path& cache_dir, bool replay, LlmStats* stats);

}  // namespace eok::llm
