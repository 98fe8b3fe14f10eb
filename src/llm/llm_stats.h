// Token, cost and call accounting for a run: what the LLM client did, summed over all threads.
//
// Who records what: HttpLlm records every call it sends (and every budget refusal); CachedLlm records
// cache hits and replay misses. A cache hit is not a call: it adds no tokens, no cost and no latency.
#pragma once

#include <cstdint>
#include <mutex>

#include "src/llm/llm.h"

namespace eok::llm {

struct LlmTotals {
  int64_t calls = 0;     // chat requests sent to the server (one call may take several attempts)
  int64_t attempts = 0;  // HTTP requests, retries included
  int64_t retries = 0;   // attempts beyond the first of each call
  int64_t failures = 0;  // calls that ended with ok == false after their retries
  int64_t cache_hits = 0;
  int64_t cache_misses = 0;                          // replay lookups that found nothing (nothing was sent)
  int64_t budget_refusals = 0;                       // calls refused because the budget was spent (nothing was sent)
  int64_t prompt_tokens = 0, completion_tokens = 0;  // of successful calls, estimated where usage was absent
  int64_t estimated_usage_calls = 0;                 // successful calls whose usage was estimated
  double cost = 0;
  double latency_seconds = 0;  // summed wall time of calls, retries and backoff included
};

// Thread-safe accumulator; one per run, shared by every client of the run.
class LlmStats {
 public:
  // A chat() answered by the server side (HttpLlm): ok or failed after retries.
  void record_call(const ChatResponse& response);
  void record_budget_refusal();
  void record_cache_hit();
  void record_cache_miss();
  LlmTotals totals() const;

 private:
  mutable std::mutex mutex_;
  LlmTotals totals_;
};

}  // namespace eok::llm
