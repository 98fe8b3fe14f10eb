#include "src/llm/llm_factory.h"

#include "src/common/error.h"
#include "src/llm/cached_llm.h"
#include "src/llm/http_llm.h"
#include "src/llm/response_cache.h"

namespace eok::llm {

std::unique_ptr<Llm> make_llm(const LlmSettings& settings, const LlmBudget& budget,
                              const std::filesystem::path& cache_dir, bool replay, LlmStats* stats) {
  if (replay) {
    if (cache_dir.empty()) throw ConfigError("replay needs the LLM response cache of the recorded run; none was given");
    return std::make_unique<CachedLlm>(std::make_shared<ResponseCache>(cache_dir), settings.model, nullptr, stats);
  }
  auto http = std::make_unique<HttpLlm>(settings, budget, stats);
  if (cache_dir.empty()) return http;
  return std::make_unique<CachedLlm>(std::make_shared<ResponseCache>(cache_dir), settings.model, std::move(http),
                                     stats);
}

}  // namespace eok::llm
