// Enforces an LlmBudget across threads: a call is admitted only while calls, tokens and cost are below
// their limits.
//
// Contract: reserve_call() counts the call at once, so max_calls is never exceeded even under concurrency;
// tokens and cost are charged when a reply arrives, so those two limits can be overshot by the calls
// already in flight. Thread-safe.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "src/llm/llm.h"
#include "src/llm/llm_settings.h"

namespace eok::llm {

class BudgetGuard {
 public:
  explicit BudgetGuard(LlmBudget budget);

  // nullopt: go ahead (the call is counted). Otherwise why the call may not be sent.
  std::optional<std::string> reserve_call();
  void charge(const Usage& usage, double cost);

 private:
  const LlmBudget budget_;
  std::mutex mutex_;
  int64_t calls_ = 0;
  int64_t tokens_ = 0;
  double cost_ = 0;
};

// What a reply cost at the configured prices (per million tokens).
double cost_of(const Usage& usage, const LlmSettings& settings);

}  // namespace eok::llm
