// Client settings for tests against the fake server: short timeouts and waits, so that retries and
// timeouts take milliseconds.
#pragma once

#include "src/llm/llm.h"
#include "src/llm/llm_settings.h"
#include "tests/support/fake_openai_server.h"

namespace eok::llm::testing {

inline LlmSettings fast_settings(const eok::testing::FakeOpenAiServer& server) {
  LlmSettings s;
  s.base_url = server.base_url();
  s.model = "fake-model";
  s.timeout_seconds = 5;
  s.max_retries = 2;
  s.backoff_initial_seconds = 0.01;
  s.backoff_max_seconds = 0.05;
  s.max_concurrency = 4;
  return s;
}

inline ChatRequest user_says(std::string text) {
  ChatRequest r;
  r.messages = {{"system", "You write RISC-V kernels."}, {"user", std::move(text)}};
  r.temperature = 0.2;
  r.max_tokens = 256;
  return r;
}

}  // namespace eok::llm::testing
