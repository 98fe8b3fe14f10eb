#include "src/llm/chat_protocol.h"

#include "src/common/hash.h"
#include "src/llm/utf8.h"

namespace eok::llm {

using nlohmann::json;

json chat_request_body(const std::string& model, const ChatRequest& request) {
  json messages = json::array();
  for (const auto& m : request.messages) messages.push_back({{"role", m.role}, {"content", m.content}});
  json body = {
      {"model", model},
      {"messages", std::move(messages)},
      {"temperature", request.temperature},
      {"max_tokens", request.max_tokens},
      {"stream", false},
  };
  if (request.seed) body["seed"] = *request.seed;
  return body;
}

std::string serialise_json(const json& body) {
  return body.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string chat_request_hash(const json& body) {
  return content_hash(serialise_json(body));
}

std::string chat_request_hash(const std::string& model, const ChatRequest& request) {
  return chat_request_hash(chat_request_body(model, request));
}

namespace {

std::optional<int64_t> token_count(const json& usage, const char* key) {
  if (!usage.contains(key)) return std::nullopt;
  const auto& v = usage[key];
  if (v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0)) return v.get<int64_t>();
  return std::nullopt;
}

std::string string_or_empty(const json& object, const char* key) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_string()) return "";
  return object[key].get<std::string>();
}

}  // namespace

ParsedCompletion parse_chat_completion(const std::string& raw_body) {
  ParsedCompletion out;
  if (raw_body.empty()) {
    out.problem = "the server sent an empty body";
    return out;
  }
  const std::string body = to_valid_utf8(raw_body, &out.content_sanitised);
  json reply;
  try {
    reply = json::parse(body);
  } catch (const json::parse_error& e) {
    out.problem = "the reply is not valid JSON (truncated?): " + std::string(e.what());
    return out;
  }
  if (!reply.is_object()) {
    out.problem = "the reply is JSON but not an object";
    return out;
  }
  if (!reply.contains("choices") && reply.contains("error")) {
    const auto& error = reply["error"];
    const std::string text = error.is_string() ? error.get<std::string>() : string_or_empty(error, "message");
    out.problem = "the server answered 200 with an error: " + (text.empty() ? serialise_json(error) : text);
    return out;
  }
  if (!reply.contains("choices") || !reply["choices"].is_array() || reply["choices"].empty()) {
    out.problem = "the reply has no choices";
    return out;
  }
  const auto& choice = reply["choices"][0];
  if (!choice.is_object() || !choice.contains("message") || !choice["message"].is_object()) {
    out.problem = "choices[0] has no message";
    return out;
  }
  const auto& message = choice["message"];
  if (!message.contains("content") || message["content"].is_null()) {
    // Reasoning servers (vLLM, DeepSeek) put the thinking in reasoning_content: with no content after it,
    // the model ran out of tokens while it was still thinking.
    out.problem = message.contains("reasoning_content") && message["reasoning_content"].is_string()
                      ? "the model only reasoned and gave no answer (finish_reason " +
                            string_or_empty(choice, "finish_reason") + "): raise llm.max_tokens"
                      : "choices[0].message has no content (a refusal or a tool call?)";
    return out;
  }
  if (!message["content"].is_string()) {
    out.problem = "choices[0].message.content is not a string";
    return out;
  }
  out.content = message["content"].get<std::string>();
  out.finish_reason = string_or_empty(choice, "finish_reason");
  out.model = string_or_empty(reply, "model");
  if (reply.contains("usage") && reply["usage"].is_object()) {
    const auto prompt = token_count(reply["usage"], "prompt_tokens");
    const auto completion = token_count(reply["usage"], "completion_tokens");
    if (prompt && completion) out.usage = Usage{*prompt, *completion};
  }
  return out;
}

Usage estimate_usage(const ChatRequest& request, const std::string& content) {
  auto quarter = [](size_t chars) { return static_cast<int64_t>((chars + 3) / 4); };
  size_t prompt_chars = 0;
  for (const auto& m : request.messages) prompt_chars += m.content.size();
  return Usage{quarter(prompt_chars), quarter(content.size())};
}

}  // namespace eok::llm
