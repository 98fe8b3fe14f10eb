// The chat client for an OpenAI-compatible server: POST {base_url}/chat/completions over libcurl.
//
// Contract (on top of Llm's): at most max_concurrency requests in flight (a call holds its slot through its
// retries and the waits between them, so a rate-limited server sees fewer requests, not more); the budget
// is checked once a slot is held and before anything is sent; the reply is parsed defensively
// (chat_protocol.h). Statistics go to `stats` when given. Thread-safe.
#pragma once

#include <memory>
#include <string>

#include "src/llm/budget_guard.h"
#include "src/llm/concurrency_limit.h"
#include "src/llm/llm.h"
#include "src/llm/llm_settings.h"
#include "src/llm/llm_stats.h"
#include "src/llm/retrying_http_client.h"

namespace eok::llm {

class HttpLlm : public Llm {
 public:
  // Throws ConfigError for unusable settings (validate_settings). `stats` may be null and must outlive
  // the client.
  explicit HttpLlm(LlmSettings settings, LlmBudget budget = {}, LlmStats* stats = nullptr);

  // Throws ConfigError for a request without messages or with max_tokens < 1.
  ChatResponse chat(const ChatRequest& request) override;
  std::string describe() const override;

  const LlmSettings& settings() const { return settings_; }

 private:
  ChatResponse finish_success(const ChatRequest& request, const HttpOutcome& outcome, ChatResponse response);

  const LlmSettings settings_;
  LlmStats* const stats_;
  BudgetGuard budget_;
  ConcurrencyLimit limit_;
  RetryingHttpClient http_;
};

}  // namespace eok::llm
