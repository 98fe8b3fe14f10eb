#include "src/llm/llm_choice.h"

#include <algorithm>
#include <cstdlib>

#include "src/common/error.h"
#include "src/llm/discovery.h"

namespace eok::llm {

// The endpoint from the configuration (llm.* keys, EOK_LLM_* in the environment), else a local server.
LlmChoice choose_llm(const Config& c) {
  LlmChoice choice;
  LlmSettings s;
  s.base_url = c.str("llm.base_url");
  while (!s.base_url.empty() && s.base_url.back() == '/') s.base_url.pop_back();
  s.model = c.str("llm.model");
  s.api_key = c.str("llm.api_key");
  s.timeout_seconds = c.number("llm.timeout_seconds");
  s.max_retries = static_cast<int>(c.integer("llm.max_retries"));
  s.backoff_initial_seconds = c.number("llm.backoff_initial_seconds");
  s.backoff_max_seconds = c.number("llm.backoff_max_seconds");
  s.max_concurrency = static_cast<int>(c.integer("llm.max_concurrency"));
  s.price_input_per_mtok = c.number("llm.price_input_per_mtok");
  s.price_output_per_mtok = c.number("llm.price_output_per_mtok");
  if (s.base_url.empty()) {
    if (!c.boolean("llm.discover")) {
      choice.why = "no LLM endpoint configured (EOK_LLM_BASE_URL) and discovery is off";
      return choice;
    }
    std::vector<int> ports;
    const std::string list = c.str("llm.discover_ports");
    for (size_t at = 0; at < list.size();) {
      const size_t end = std::min(list.find(',', at), list.size());
      const std::string item = list.substr(at, end - at);
      char* rest = nullptr;
      const long port = std::strtol(item.c_str(), &rest, 10);
      if (item.empty() || *rest != '\0' || port < 1 || port > 65535) {
        throw ConfigError("llm.discover_ports must be ports separated by commas, e.g. 8000,11434,8080 (it is '" + list +
                          "', from " + c.origin("llm.discover_ports") + ")");
      }
      ports.push_back(static_cast<int>(port));
      at = end + 1;
    }
    auto found = discover_local_server(ports);
    if (!found) {
      choice.why =
          "no LLM endpoint configured (set EOK_LLM_BASE_URL and EOK_LLM_MODEL) and none found on 127.0.0.1 "
          "(vLLM :8000, Ollama :11434, llama.cpp :8080)";
      return choice;
    }
    s.base_url = found->base_url;
    s.server_kind = found->kind;
    if (s.model.empty()) s.model = found->model;
    choice.why = "found " + found->kind + " at " + found->base_url + ", model " + s.model;
    // A key is meant for the endpoint its owner named: whatever answers on a local port gets it only
    // when the user says so.
    if (!s.api_key.empty() && !c.boolean("llm.send_key_to_discovered")) {
      s.api_key.clear();
      choice.why +=
          " (the API key is not sent to a discovered server: set EOK_LLM_BASE_URL to it, or "
          "llm.send_key_to_discovered = true)";
    }
  } else {
    if (s.model.empty()) {
      auto server = probe_server(s.base_url, s.api_key, 10);
      if (!server) throw ConfigError("llm.base_url " + s.base_url + " lists no model: set EOK_LLM_MODEL");
      s.model = server->model;
      s.server_kind = server->kind;
    }
    choice.why = "LLM at " + s.base_url + " (from " + c.origin("llm.base_url") + "), model " + s.model;
  }
  choice.settings = s;
  return choice;
}

LlmSettings embedding_settings(const Config& c) {
  const LlmChoice choice = choose_llm(c);
  if (!choice.settings) throw ConfigError("an embedding model over HTTP needs an endpoint: " + choice.why);
  LlmSettings s = *choice.settings;
  s.model = c.str("mine.embedding_model");
  if (s.model.empty()) {
    throw ConfigError(
        "an embedding model over HTTP needs mine.embedding_model (EOK_MINE_EMBEDDING_MODEL), e.g. "
        "Qwen/Qwen3-Embedding-8B");
  }
  return s;
}

}  // namespace eok::llm
