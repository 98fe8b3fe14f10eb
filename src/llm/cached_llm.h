// A caching decorator over any Llm: an exact request answered before is answered from the response cache
// without a call; a new one goes to the inner client and its ok reply is stored.
//
// Replay mode (no inner client): answers from the cache alone; a request not in the cache comes back as
// ChatError::cache_miss naming its hash, and nothing is sent anywhere.
//
// Contract: a hit has cache_hit = true, attempts 0, latency 0 and cost 0, and consumes no budget (it is
// not a call). A damaged entry is logged and treated as a miss (replay: a cache_miss that says what is
// wrong). Two threads missing on the same request at once both call the inner client. Thread-safe when
// the inner client is.
#pragma once

#include <memory>
#include <string>

#include "src/llm/llm.h"
#include "src/llm/llm_stats.h"
#include "src/llm/response_cache.h"

namespace eok::llm {

class CachedLlm : public Llm {
 public:
  // `model` must be the model the inner client sends: it is part of the key. `inner` null = replay mode.
  // `stats` (may be null) receives cache hits and replay misses; it must outlive this client.
  CachedLlm(std::shared_ptr<const ResponseCache> cache, std::string model, std::unique_ptr<Llm> inner,
            LlmStats* stats = nullptr);

  ChatResponse chat(const ChatRequest& request) override;
  std::string describe() const override;

  bool replay() const { return inner_ == nullptr; }

 private:
  std::shared_ptr<const ResponseCache> cache_;
  const std::string model_;
  std::unique_ptr<Llm> inner_;
  LlmStats* const stats_;
};

}  // namespace eok::llm
