// POSTs JSON to an OpenAI-compatible endpoint with a per-attempt timeout and retries: the machinery that
// HttpLlm and HttpEmbedder share.
//
// Retried: 429, 408, 5xx, timeouts and connection failures (refused, reset, closed without a reply), up to
// max_retries times, with full-jitter exponential backoff in between; a Retry-After header (seconds or an
// HTTP-date) replaces the jitter, capped by backoff_max_seconds. Not retried: other statuses (the request itself is wrong) and replies
// over the size cap. Concurrency is the caller's business (ConcurrencyLimit).
//
// Contract: post_json() never throws for anything the network or the server does. Thread-safe.
#pragma once

#include <string>

#include "src/llm/backoff.h"
#include "src/llm/http_transport.h"
#include "src/llm/llm_settings.h"

namespace eok::llm {

struct HttpOutcome {
  HttpReply reply;     // of the last attempt
  int attempts = 0;    // HTTP requests sent
  double seconds = 0;  // wall time of all attempts and the waits between them
  bool succeeded() const { return reply.failure == HttpFailure::none && reply.status >= 200 && reply.status < 300; }
};

class RetryingHttpClient {
 public:
  // Uses base_url, api_key, timeout_seconds, max_retries, backoff_*, max_response_bytes and retry_seed.
  explicit RetryingHttpClient(const LlmSettings& settings);

  // POST {base_url}{path} (path like "/chat/completions").
  HttpOutcome post_json(const std::string& path, const std::string& body);

  // Why a failed outcome failed, in words that say what to do:
  // "HTTP 500 from http://.../chat/completions after 6 attempts: <what the server said>".
  std::string explain_failure(const std::string& path, const HttpOutcome& outcome) const;

  const std::string& base_url() const { return settings_.base_url; }

 private:
  const LlmSettings settings_;
  Backoff backoff_;
};

// Whether another attempt may succeed where this reply failed.
bool is_retryable(const HttpReply& reply);

// The server's own explanation from an error body: error.message, error, detail or message of a JSON
// body, else the start of the raw text (valid UTF-8, at most `max_chars` bytes).
std::string server_error_text(const std::string& body, size_t max_chars = 500);

}  // namespace eok::llm
