// The OpenAI chat-completions wire format: the request body eok sends (and hashes for the response cache)
// and a defensive reading of the reply, which trusts nothing about its shape.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "src/llm/llm.h"

namespace eok::llm {

// {"model", "messages", "temperature", "max_tokens", "seed" (only when set), "stream": false}. Purpose is
// not part of it.
nlohmann::json chat_request_body(const std::string& model, const ChatRequest& request);

// The body as sent on the wire: compact, keys sorted, invalid UTF-8 in prompts replaced by U+FFFD.
std::string serialise_json(const nlohmann::json& body);

// Key of the response cache: a content hash of the serialised request body, so equal requests (model,
// messages, temperature, max_tokens, seed) share a key and any difference gives another.
std::string chat_request_hash(const nlohmann::json& body);
std::string chat_request_hash(const std::string& model, const ChatRequest& request);

struct ParsedCompletion {
  std::optional<std::string> problem;  // set when the body is not a usable chat completion
  std::string content;                 // choices[0].message.content
  std::string finish_reason;           // "" when the server gave none
  std::string model;                   // "" when the server gave none
  std::optional<Usage> usage;          // absent or malformed usage gives nullopt
  bool content_sanitised = false;      // invalid UTF-8 was replaced by U+FFFD
};

// Reads a 200 reply body. Truncated or malformed JSON, a missing choice, message or content all give
// `problem` with the reason; invalid UTF-8 is repaired, not refused.
ParsedCompletion parse_chat_completion(const std::string& body);

// Tokens guessed as characters / 4 (rounded up) for servers that send no usage.
Usage estimate_usage(const ChatRequest& request, const std::string& content);

}  // namespace eok::llm
