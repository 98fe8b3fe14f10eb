#include "src/llm/llm_settings.h"

#include <cstdlib>

#include "src/common/error.h"

namespace eok::llm {

namespace {

std::string without_trailing_slashes(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

}  // namespace

void validate_settings(const LlmSettings& s) {
  if (s.base_url.empty()) {
    throw ConfigError(
        "no LLM endpoint: set EOK_LLM_BASE_URL (e.g. http://127.0.0.1:8000/v1) or start a local vLLM, Ollama or "
        "llama.cpp server on its usual port");
  }
  if (s.base_url.rfind("http://", 0) != 0 && s.base_url.rfind("https://", 0) != 0) {
    throw ConfigError("LLM base URL '" + s.base_url +
                      "' must start with http:// or https:// (e.g. http://127.0.0.1:8000/v1)");
  }
  if (s.model.empty()) {
    throw ConfigError("no LLM model: set EOK_LLM_MODEL to a model the server at " + s.base_url + " serves (GET " +
                      s.base_url + "/models lists them)");
  }
  if (!(s.timeout_seconds > 0)) throw ConfigError("LLM timeout_seconds must be positive");
  if (s.max_retries < 0) throw ConfigError("LLM max_retries must be 0 or more");
  if (s.max_concurrency < 1) throw ConfigError("LLM max_concurrency must be at least 1");
  if (s.backoff_initial_seconds < 0 || s.backoff_max_seconds < 0) {
    throw ConfigError("LLM backoff_initial_seconds and backoff_max_seconds must not be negative");
  }
  if (s.price_input_per_mtok < 0 || s.price_output_per_mtok < 0) throw ConfigError("LLM prices must not be negative");
  if (s.max_response_bytes < 1024) throw ConfigError("LLM max_response_bytes must be at least 1024");
}

LlmSettings settings_from_environment(LlmSettings defaults) {
  auto from_env = [](const char* name, std::string& field) {
    const char* value = std::getenv(name);
    if (value != nullptr && *value != '\0') field = value;
  };
  from_env("EOK_LLM_BASE_URL", defaults.base_url);
  from_env("EOK_LLM_MODEL", defaults.model);
  from_env("EOK_LLM_API_KEY", defaults.api_key);
  defaults.base_url = without_trailing_slashes(defaults.base_url);
  return defaults;
}

std::string describe_endpoint(const LlmSettings& s) {
  const std::string kind = s.server_kind.empty() ? "OpenAI-compatible server" : s.server_kind;
  return kind + " at " + s.base_url + ", model " + s.model;
}

LlmSettings validated(LlmSettings settings) {
  validate_settings(settings);
  return settings;
}

}  // namespace eok::llm
