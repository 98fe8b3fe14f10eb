// Finds an LLM server listening on this machine, so that `eok search` works without configuration when
// one is running (DESIGN.md section 8).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace eok::llm {

struct DiscoveredServer {
  std::string base_url;             // "http://127.0.0.1:8000/v1"
  std::string model;                // the first model the server lists
  std::vector<std::string> models;  // all of them
  std::string kind;                 // "vLLM", "Ollama", "llama.cpp server" or "OpenAI-compatible server"
};

// Probes GET http://127.0.0.1:PORT/v1/models on each port in order (vLLM 8000, Ollama 11434, llama.cpp
// server 8080 by default), each with a short timeout, and returns the first that lists at least one model.
// nullopt when none answers. Never throws; sends no API key.
std::optional<DiscoveredServer> discover_local_server(const std::vector<int>& ports = {8000, 11434, 8080},
                                                      double timeout_seconds = 0.3);

// Asks `base_url`/models what it serves (any OpenAI-compatible server, local or not); nullopt when it does
// not answer or lists no model. `port_hint` only helps guess the kind.
std::optional<DiscoveredServer> probe_server(const std::string& base_url, const std::string& api_key,
                                             double timeout_seconds, int port_hint = 0);

// The server kind from a /v1/models reply (its "owned_by" fields and extras) and, failing that, its port.
std::string guess_server_kind(int port, const std::string& models_reply_body);

}  // namespace eok::llm
