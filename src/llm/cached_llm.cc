#include "src/llm/cached_llm.h"

#include "src/common/error.h"
#include "src/common/log.h"
#include "src/llm/chat_protocol.h"

namespace eok::llm {

CachedLlm::CachedLlm(std::shared_ptr<const ResponseCache> cache, std::string model, std::unique_ptr<Llm> inner,
                     LlmStats* stats)
    : cache_(std::move(cache)), model_(std::move(model)), inner_(std::move(inner)), stats_(stats) {
  if (!cache_) throw ConfigError("CachedLlm needs a response cache");
  if (model_.empty()) {
    throw ConfigError("the LLM response cache is keyed by the model: set the model (EOK_LLM_MODEL) the run used");
  }
}

std::string CachedLlm::describe() const {
  if (replay()) return "replay of " + cache_->directory().string() + " (no LLM), model " + model_;
  return inner_->describe() + ", responses cached in " + cache_->directory().string();
}

ChatResponse CachedLlm::chat(const ChatRequest& request) {
  const nlohmann::json body = chat_request_body(model_, request);
  const std::string hash = chat_request_hash(body);
  CacheLookup lookup = cache_->find(hash, body);
  if (lookup.status == CacheLookup::Status::hit) {
    ChatResponse response = std::move(lookup.response);
    response.cache_hit = true;
    if (stats_ != nullptr) stats_->record_cache_hit();
    return response;
  }
  if (lookup.status == CacheLookup::Status::damaged) log::warn("{}", lookup.problem);

  if (replay()) {
    ChatResponse response;
    response.error = ChatError::cache_miss;
    response.request_hash = hash;
    response.message =
        lookup.status == CacheLookup::Status::damaged
            ? "replay: " + lookup.problem
            : "replay: request " + hash + (request.purpose.empty() ? "" : " (" + request.purpose + ")") +
                  " is not in the response cache " + cache_->directory().string() +
                  "; a replay must ask exactly what the recorded run asked (same model, prompts, temperature, "
                  "max_tokens, seed), or run without replay to ask the LLM";
    if (stats_ != nullptr) stats_->record_cache_miss();
    return response;
  }

  ChatResponse response = inner_->chat(request);
  response.request_hash = hash;  // the key this client files it under, whatever the inner client computed
  if (response.ok) {
    try {
      cache_->store(hash, body, response, request.purpose);
    } catch (const Error& e) {
      // The reply is good and paid for: hand it back even if it cannot be kept.
      log::warn("{}", e.what());
    }
  }
  return response;
}

}  // namespace eok::llm
