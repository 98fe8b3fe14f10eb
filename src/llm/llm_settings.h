// How eok reaches an LLM endpoint and what a run may spend there.
//
// Layers (DESIGN.md section 3): built-in defaults < configuration files < environment < flags. This module
// knows the defaults and the environment; the configuration module fills the rest. Secrets (the API key)
// come only from the environment.
#pragma once

#include <cstdint>
#include <string>

namespace eok::llm {

struct LlmSettings {
  std::string base_url;          // "http://127.0.0.1:8000/v1": the endpoints are {base_url}/chat/completions ...
  std::string model;             // as the server names it ("Qwen/Qwen2.5-Coder-32B-Instruct")
  std::string api_key;           // sent as "Authorization: Bearer KEY" when not empty
  double timeout_seconds = 180;  // per HTTP attempt, connection included
  int max_retries = 5;           // attempts = max_retries + 1 for retryable failures
  double backoff_initial_seconds = 1, backoff_max_seconds = 60;
  int max_concurrency = 4;                                     // requests in flight at once, per client
  double price_input_per_mtok = 0, price_output_per_mtok = 0;  // currency units per million tokens
  int64_t max_response_bytes = int64_t{4} << 20;               // a longer reply is aborted mid-transfer (bad_response)
  uint64_t retry_seed = 1;                                     // seeds the backoff jitter, so a run's waits repeat
  std::string server_kind;  // "vLLM", "Ollama" ... from discovery, for describe(); "" = unknown
};

// What one run may spend. 0 means unlimited. Checked before each call is sent; calls already in flight
// finish, so token and cost limits may be overshot by at most max_concurrency - 1 calls.
struct LlmBudget {
  int64_t max_calls = 0;
  int64_t max_tokens = 0;  // prompt + completion tokens
  double max_cost = 0;
};

// Throws ConfigError naming the setting and how to set it (empty base URL or model, non-positive timeout,
// negative retries, concurrency below 1, negative prices or backoff).
void validate_settings(const LlmSettings& settings);
// `settings` after validate_settings(): for member initialisers.
LlmSettings validated(LlmSettings settings);

// `defaults` overridden by EOK_LLM_BASE_URL, EOK_LLM_MODEL and EOK_LLM_API_KEY when they are set and not
// empty. A trailing "/" on the base URL is dropped.
LlmSettings settings_from_environment(LlmSettings defaults);

// "vLLM at http://127.0.0.1:8000/v1, model X" (or "OpenAI-compatible server at ..." when the kind is unknown).
std::string describe_endpoint(const LlmSettings& settings);

}  // namespace eok::llm
