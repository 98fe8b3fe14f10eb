#include "src/llm/http_llm.h"

#include <chrono>

#include "src/common/error.h"
#include "src/common/log.h"
#include "src/llm/chat_protocol.h"

namespace eok::llm {

namespace {

constexpr const char* kChatPath = "/chat/completions";

ChatError error_kind(const HttpOutcome& outcome) {
  switch (outcome.reply.failure) {
    case HttpFailure::timeout:
      return ChatError::timeout;
    case HttpFailure::network:
      return ChatError::network;
    case HttpFailure::too_large:
      return ChatError::bad_response;
    case HttpFailure::cancelled:
      return ChatError::cancelled;
    case HttpFailure::none:
      break;
  }
  return ChatError::http;
}

void check_request(const ChatRequest& request) {
  if (request.messages.empty()) throw ConfigError("an LLM chat request needs at least one message");
  if (request.max_tokens < 1) throw ConfigError("an LLM chat request needs max_tokens >= 1");
}

}  // namespace

HttpLlm::HttpLlm(LlmSettings settings, LlmBudget budget, LlmStats* stats)
    : settings_(validated(std::move(settings))),
      stats_(stats),
      budget_(budget),
      limit_(settings_.max_concurrency),
      http_(settings_) {}

std::string HttpLlm::describe() const {
  return describe_endpoint(settings_);
}

ChatResponse HttpLlm::chat(const ChatRequest& request) {
  check_request(request);
  const nlohmann::json body = chat_request_body(settings_.model, request);
  ChatResponse response;
  response.request_hash = chat_request_hash(body);

  auto slot = limit_.acquire();
  if (auto refusal = budget_.reserve_call()) {
    response.error = ChatError::budget;
    response.message = *refusal;
    if (stats_ != nullptr) stats_->record_budget_refusal();
    return response;
  }

  const HttpOutcome outcome = http_.post_json(kChatPath, serialise_json(body));
  response.attempts = outcome.attempts;
  response.latency_seconds = outcome.seconds;
  if (outcome.succeeded()) {
    response = finish_success(request, outcome, std::move(response));
  } else {
    response.error = error_kind(outcome);
    response.message = http_.explain_failure(kChatPath, outcome);
  }
  if (!response.ok) {
    log::warn("LLM call failed ({}{}{}): {}", chat_error_name(response.error), request.purpose.empty() ? "" : ", ",
              request.purpose, response.message);
  }
  if (stats_ != nullptr) stats_->record_call(response);
  return response;
}

ChatResponse HttpLlm::finish_success(const ChatRequest& request, const HttpOutcome& outcome, ChatResponse response) {
  ParsedCompletion parsed = parse_chat_completion(outcome.reply.body);
  if (parsed.problem) {
    response.error = ChatError::bad_response;
    response.message = "bad reply from " + settings_.base_url + kChatPath + ": " + *parsed.problem;
    return response;
  }
  response.ok = true;
  response.content = std::move(parsed.content);
  response.finish_reason = std::move(parsed.finish_reason);
  response.model = parsed.model.empty() ? settings_.model : parsed.model;
  response.content_sanitised = parsed.content_sanitised;
  if (parsed.usage) {
    response.usage = *parsed.usage;
  } else {
    response.usage = estimate_usage(request, response.content);
    response.usage_estimated = true;
  }
  response.cost = cost_of(response.usage, settings_);
  budget_.charge(response.usage, response.cost);
  if (response.content_sanitised) {
    log::warn("LLM reply{}{} held invalid UTF-8; those bytes were replaced by U+FFFD",
              request.purpose.empty() ? "" : " for ", request.purpose);
  }
  return response;
}

}  // namespace eok::llm
