// Which LLM endpoint a command uses: the one configured (llm.* keys, EOK_LLM_* in the environment), else a
// server found on this machine, else none. Shared by `eok search` and `eok mine`.
#pragma once

#include <optional>
#include <string>

#include "src/common/config.h"
#include "src/llm/llm_settings.h"

namespace eok::llm {

struct LlmChoice {
  std::optional<LlmSettings> settings;  // nullopt: no LLM
  std::string why;                      // one line: where it came from, or why there is none
};

// Reads llm.base_url, llm.model, llm.api_key, timeouts, retries, concurrency and prices from `config`.
// Without a base URL and with llm.discover on, probes the usual local ports (discovery.h). A configured
// server without a model is asked for its first one. Throws ConfigError when a configured server lists no
// model; an absent LLM is not an error (settings is nullopt and `why` says what to set).
LlmChoice choose_llm(const Config& config);

// The embedding endpoint of mine.embedder = http: choose_llm's server with mine.embedding_model. Throws
// ConfigError saying what to set when there is no server or no embedding model.
LlmSettings embedding_settings(const Config& config);

}  // namespace eok::llm
