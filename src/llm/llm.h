// The LLM seam: chat completions and embeddings from any OpenAI-compatible endpoint.
//
// Contract: chat() never throws for anything the server or the network does; a request that still fails
// after the retries comes back with ok == false and the reason, so a search can record it and go on. It
// throws only for misuse (ConfigError). Implementations are thread-safe: parallel searches share one client.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace eok::llm {

struct ChatMessage {
  std::string role;  // "system", "user", "assistant"
  std::string content;
};

struct ChatRequest {
  std::vector<ChatMessage> messages;
  double temperature = 0.8;
  int max_tokens = 4096;
  std::optional<uint64_t> seed;  // sent to the server (OpenAI "seed"), and part of the cache key
  std::string purpose;           // for logs and records only ("M1 search 0 gen 1"); not part of the cache key
};

enum class ChatError {
  none,
  http,          // the server answered with an error status after all retries (message has status and body)
  network,       // connection refused/reset, DNS, TLS, after all retries
  timeout,       // the per-request timeout fired on every attempt
  bad_response,  // 200 but not a chat completion (truncated JSON, no choices, non-UTF-8 ...)
  budget,        // the run's budget (calls, tokens or cost) is spent: no request was sent
  cache_miss,    // replay mode and the exact request is not in the cache
  cancelled,     // eok was interrupted (Ctrl-C) before the reply came: nothing to record, ask again on resume
};

const char* chat_error_name(ChatError e);

struct Usage {
  int64_t prompt_tokens = 0;
  int64_t completion_tokens = 0;
};

struct ChatResponse {
  bool ok = false;
  ChatError error = ChatError::none;
  std::string message;        // the error's explanation ("HTTP 500 after 5 attempts: ...")
  std::string content;        // the assistant's reply (ok only)
  std::string finish_reason;  // "stop", "length", ...
  std::string model;          // as reported by the server
  Usage usage;
  double latency_seconds = 0;  // wall time including retries (0 for a cache hit)
  double cost = 0;             // from usage and the configured prices (0 for a cache hit: nothing was paid)
  int attempts = 0;            // HTTP requests sent (0 for a cache hit)
  bool cache_hit = false;
  std::string request_hash;        // key of the response cache: hash of the exact request
  bool usage_estimated = false;    // the server sent no usage: tokens estimated as characters / 4
  bool content_sanitised = false;  // the reply held invalid UTF-8; those bytes became U+FFFD
};

class Llm {
 public:
  virtual ~Llm() = default;
  virtual ChatResponse chat(const ChatRequest& req) = 0;
  // "vLLM at http://127.0.0.1:8000/v1, model Qwen2.5-Coder-32B" for the run log.
  virtual std::string describe() const = 0;
};

// Contract: embed() returns one vector per input text, all of dim() floats, or throws eok::Error saying
// why (an embedding failure stops mining; it is not a per-candidate event).
class Embedder {
 public:
  virtual ~Embedder() = default;
  virtual std::vector<std::vector<float>> embed(const std::vector<std::string>& texts) = 0;
  virtual size_t dim() const = 0;
  virtual std::string describe() const = 0;
};

}  // namespace eok::llm
