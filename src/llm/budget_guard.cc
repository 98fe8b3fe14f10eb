#include "src/llm/budget_guard.h"

#include <fmt/format.h>

namespace eok::llm {

BudgetGuard::BudgetGuard(LlmBudget budget) : budget_(budget) {}

std::optional<std::string> BudgetGuard::reserve_call() {
  std::lock_guard lock(mutex_);
  if (budget_.max_calls > 0 && calls_ >= budget_.max_calls) {
    return fmt::format("LLM budget spent: {} of {} calls made; raise the call limit to go on", calls_,
                       budget_.max_calls);
  }
  if (budget_.max_tokens > 0 && tokens_ >= budget_.max_tokens) {
    return fmt::format("LLM budget spent: {} of {} tokens used; raise the token limit to go on", tokens_,
                       budget_.max_tokens);
  }
  if (budget_.max_cost > 0 && cost_ >= budget_.max_cost) {
    return fmt::format("LLM budget spent: cost {:.4f} of {:.4f}; raise the cost limit to go on", cost_,
                       budget_.max_cost);
  }
  ++calls_;
  return std::nullopt;
}

void BudgetGuard::charge(const Usage& usage, double cost) {
  std::lock_guard lock(mutex_);
  tokens_ += usage.prompt_tokens + usage.completion_tokens;
  cost_ += cost;
}

double cost_of(const Usage& usage, const LlmSettings& s) {
  return (static_cast<double>(usage.prompt_tokens) * s.price_input_per_mtok +
          static_cast<double>(usage.completion_tokens) * s.price_output_per_mtok) /
         1e6;
}

}  // namespace eok::llm
