#include "src/llm/retrying_http_client.h"
#include "src/common/clock.h"

#include "src/common/interrupt_guard.h"

#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <nlohmann/json.hpp>
#include <thread>

#include "src/common/log.h"
#include "src/llm/utf8.h"

namespace eok::llm {

namespace {

using Clock = std::chrono::steady_clock;

std::string short_reason(const HttpReply& reply) {
  if (reply.failure == HttpFailure::none) return fmt::format("HTTP {}", reply.status);
  return reply.error;
}

std::string as_sentence(std::string text) {
  if (!text.empty() && text.back() != '.' && text.back() != '!' && text.back() != '?') text += '.';
  return text;
}

std::string hint_for_status(long status) {
  switch (status) {
    case 401:
    case 403:
      return " Check the API key (EOK_LLM_API_KEY).";
    case 404:
      return " Check the base URL (it usually ends in /v1) and the model name (EOK_LLM_MODEL).";
    case 400:
    case 422:
      return " Check the model name (EOK_LLM_MODEL) and the request limits (max_tokens, context length).";
    default:
      return "";
  }
}

}  // namespace

bool is_retryable(const HttpReply& reply) {
  switch (reply.failure) {
    case HttpFailure::timeout:
    case HttpFailure::network:
      return true;
    case HttpFailure::too_large:
    case HttpFailure::cancelled:
      return false;
    case HttpFailure::none:
      break;
  }
  return reply.status == 408 || reply.status == 429 || (reply.status >= 500 && reply.status <= 599);
}

std::string server_error_text(const std::string& body, size_t max_chars) {
  const auto json = nlohmann::json::parse(to_valid_utf8(body), nullptr, /*allow_exceptions=*/false);
  if (json.is_object()) {
    for (const char* key : {"error", "detail", "message"}) {
      if (!json.contains(key)) continue;
      const auto& value = json[key];
      if (value.is_string()) return value.get<std::string>();
      if (value.is_object() && value.contains("message") && value["message"].is_string()) {
        return value["message"].get<std::string>();
      }
      return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).substr(0, max_chars);
    }
  }
  std::string text = to_valid_utf8(body.substr(0, max_chars));
  if (body.size() > max_chars) text += " ...";
  return text.empty() ? "(empty body)" : text;
}

RetryingHttpClient::RetryingHttpClient(const LlmSettings& settings)
    : settings_(settings),
      backoff_(settings.backoff_initial_seconds, settings.backoff_max_seconds, settings.retry_seed) {}

HttpOutcome RetryingHttpClient::post_json(const std::string& path, const std::string& body) {
  HttpRequest request;
  request.method = "POST";
  request.url = settings_.base_url + path;
  request.body = body;
  request.timeout_seconds = settings_.timeout_seconds;
  request.max_response_bytes = settings_.max_response_bytes;
  if (!settings_.api_key.empty()) request.headers.push_back("Authorization: Bearer " + settings_.api_key);

  HttpOutcome outcome;
  const auto start = Clock::now();
  for (int retry = 0;; ++retry) {
    outcome.reply = perform_http(request);
    outcome.attempts += 1;
    if (outcome.succeeded() || !is_retryable(outcome.reply) || retry >= settings_.max_retries) break;

    std::optional<double> requested;
    if (auto it = outcome.reply.headers.find("retry-after"); it != outcome.reply.headers.end()) {
      requested = parse_retry_after(it->second, std::time(nullptr));
    }
    const double delay = backoff_.delay_seconds(retry, requested);
    log::warn("LLM request to {}: {}; retry {} of {} in {:.2f} s", request.url, short_reason(outcome.reply), retry + 1,
              settings_.max_retries, delay);
    if (!sleep_unless_interrupted(delay)) {
      // Ctrl-C during the wait: the request was never answered, so it is cancelled, not failed (a failure
      // would be recorded and a resumed run would not ask again).
      outcome.reply.failure = HttpFailure::cancelled;
      outcome.reply.error = "cancelled: eok was interrupted (Ctrl-C) while waiting to retry";
      break;
    }
  }
  outcome.seconds = seconds_since(start);
  return outcome;
}

std::string RetryingHttpClient::explain_failure(const std::string& path, const HttpOutcome& outcome) const {
  const std::string url = settings_.base_url + path;
  const HttpReply& reply = outcome.reply;
  const std::string tries = outcome.attempts == 1 ? "1 attempt" : fmt::format("{} attempts", outcome.attempts);
  switch (reply.failure) {
    case HttpFailure::timeout:
      return fmt::format(
          "timed out: no complete reply from {} within {} s on any of {} (max_retries {}); raise the timeout, "
          "lower max_tokens, or check that the server is not overloaded",
          url, settings_.timeout_seconds, tries, settings_.max_retries);
    case HttpFailure::network:
      return fmt::format("cannot talk to {} ({}) after {}; is the server running and is EOK_LLM_BASE_URL right?", url,
                         reply.error, tries);
    case HttpFailure::too_large:
      return fmt::format("the reply from {} was larger than {} bytes; the transfer was aborted", url,
                         settings_.max_response_bytes);
    case HttpFailure::cancelled:
      return fmt::format("cancelled: eok was interrupted (Ctrl-C) while talking to {}", url);
    case HttpFailure::none:
      break;
  }
  if (!is_retryable(reply)) {
    return fmt::format("HTTP {} from {} (not retried: the server refused the request itself): {}{}", reply.status, url,
                       as_sentence(server_error_text(reply.body)), hint_for_status(reply.status));
  }
  return fmt::format("HTTP {} from {} after {} (max_retries {}): {}", reply.status, url, tries, settings_.max_retries,
                     server_error_text(reply.body));
}

}  // namespace eok::llm
