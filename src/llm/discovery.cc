#include "src/llm/discovery.h"

#include <nlohmann/json.hpp>

#include "src/common/log.h"
#include "src/llm/http_transport.h"
#include "src/llm/utf8.h"

namespace eok::llm {

using nlohmann::json;

namespace {

json parse_models(const std::string& body) {
  return json::parse(to_valid_utf8(body), nullptr, false);
}

std::vector<std::string> model_ids(const json& reply) {
  std::vector<std::string> ids;
  if (!reply.is_object() || !reply.contains("data") || !reply["data"].is_array()) return ids;
  for (const auto& m : reply["data"]) {
    if (m.is_object() && m.contains("id") && m["id"].is_string()) ids.push_back(m["id"].get<std::string>());
  }
  return ids;
}

}  // namespace

std::string guess_server_kind(int port, const std::string& models_reply_body) {
  const json reply = parse_models(models_reply_body);
  if (reply.is_object() && reply.contains("data") && reply["data"].is_array()) {
    for (const auto& m : reply["data"]) {
      if (!m.is_object()) continue;
      const std::string owner =
          m.contains("owned_by") && m["owned_by"].is_string() ? m["owned_by"].get<std::string>() : "";
      if (owner == "vllm") return "vLLM";
      if (owner == "llamacpp" || m.contains("meta")) return "llama.cpp server";  // llama.cpp adds "meta"
      if (owner == "ollama" || owner == "library") return "Ollama";              // Ollama: "library" models
    }
  }
  switch (port) {
    case 8000:
      return "vLLM";
    case 11434:
      return "Ollama";
    case 8080:
      return "llama.cpp server";
    default:
      return "OpenAI-compatible server";
  }
}

std::optional<DiscoveredServer> probe_server(const std::string& base_url, const std::string& api_key,
                                             double timeout_seconds, int port_hint) {
  HttpRequest request;
  request.method = "GET";
  request.url = base_url + "/models";
  request.timeout_seconds = timeout_seconds;
  request.max_response_bytes = int64_t{1} << 20;
  if (!api_key.empty()) request.headers.push_back("Authorization: Bearer " + api_key);
  const HttpReply reply = perform_http(request);
  if (reply.failure != HttpFailure::none || reply.status != 200) {
    log::debug("no LLM server at {}: {}", request.url,
               reply.failure == HttpFailure::none ? "HTTP " + std::to_string(reply.status) : reply.error);
    return std::nullopt;
  }
  DiscoveredServer server;
  server.models = model_ids(parse_models(reply.body));
  if (server.models.empty()) {
    log::debug("the server at {} lists no models; skipped", request.url);
    return std::nullopt;
  }
  server.base_url = base_url;
  server.model = server.models.front();
  server.kind = guess_server_kind(port_hint, reply.body);
  return server;
}

std::optional<DiscoveredServer> discover_local_server(const std::vector<int>& ports, double timeout_seconds) {
  for (int port : ports) {
    auto server = probe_server("http://127.0.0.1:" + std::to_string(port) + "/v1", "", timeout_seconds, port);
    if (server) return server;
  }
  return std::nullopt;
}

}  // namespace eok::llm
