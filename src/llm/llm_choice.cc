#include "src/llm/llm_choice.h"

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
    auto found = discover_local_server();
    if (!found) {
      choice.why = "no LLM endpoint configured (set EOK_LLM_BASE_URL and EOK_LLM_MODEL) and none found on 127.0.0.1 "
                   "(vLLM :8000, Ollama :11434, llama.cpp :8080)";
      return choice;
    }
    s.base_url = found->base_url;
    s.server_kind = found->kind;
    if (s.model.empty()) s.model = found->model;
    choice.why = "found " + found->kind + " at " + found->base_url + ", model " + s.model;
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
    throw ConfigError("an embedding model over HTTP needs mine.embedding_model (EOK_MINE_EMBEDDING_MODEL), e.g. Qwen/Qwen3-Embedding-8B");
  }
  return s;
}

}  // namespace eok::llm
