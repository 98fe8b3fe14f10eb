#include "src/llm/llm_stats.h"

#include <algorithm>

namespace eok::llm {

void LlmStats::record_call(const ChatResponse& r) {
  std::lock_guard lock(mutex_);
  totals_.calls += 1;
  totals_.attempts += r.attempts;
  totals_.retries += std::max(0, r.attempts - 1);
  totals_.latency_seconds += r.latency_seconds;
  if (!r.ok) {
    totals_.failures += 1;
    return;
  }
  totals_.prompt_tokens += r.usage.prompt_tokens;
  totals_.completion_tokens += r.usage.completion_tokens;
  totals_.cost += r.cost;
  if (r.usage_estimated) totals_.estimated_usage_calls += 1;
}

void LlmStats::record_budget_refusal() {
  std::lock_guard lock(mutex_);
  totals_.budget_refusals += 1;
}

void LlmStats::record_cache_hit() {
  std::lock_guard lock(mutex_);
  totals_.cache_hits += 1;
}

void LlmStats::record_cache_miss() {
  std::lock_guard lock(mutex_);
  totals_.cache_misses += 1;
}

LlmTotals LlmStats::totals() const {
  std::lock_guard lock(mutex_);
  return totals_;
}

}  // namespace eok::llm
