// Finding a local server: the fake server on its port is found, a closed port is not.
#include "src/llm/discovery.h"

#include <gtest/gtest.h>

#include "tests/support/fake_openai_server.h"

namespace eok::llm {
namespace {

using eok::testing::FakeOpenAiServer;

int a_closed_port() {
  FakeOpenAiServer gone;
  return gone.port();  // free again once the server is destroyed
}

TEST(Discovery, FindsTheServerOnItsPort) {
  FakeOpenAiServer server;
  server.set_model("qwen2.5-coder");
  const auto found = discover_local_server({a_closed_port(), server.port()}, 1.0);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->base_url, server.base_url());
  EXPECT_EQ(found->model, "qwen2.5-coder");
  EXPECT_EQ(found->models, std::vector<std::string>{"qwen2.5-coder"});
  EXPECT_EQ(found->kind, "OpenAI-compatible server");
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(server.requests()[0].path, "/v1/models");
}

TEST(Discovery, RecognisesVllmFromItsReply) {
  FakeOpenAiServer server;
  server.set_model("m", "vllm");
  const auto found = discover_local_server({server.port()}, 1.0);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->kind, "vLLM");
}

TEST(Discovery, NothingOnAClosedPort) { EXPECT_FALSE(discover_local_server({a_closed_port()}, 0.3).has_value()); }

TEST(Discovery, GuessesTheKind) {
  EXPECT_EQ(guess_server_kind(1234, R"({"data":[{"id":"m","owned_by":"vllm"}]})"), "vLLM");
  EXPECT_EQ(guess_server_kind(1234, R"({"data":[{"id":"m","owned_by":"llamacpp","meta":{}}]})"), "llama.cpp server");
  EXPECT_EQ(guess_server_kind(1234, R"({"data":[{"id":"llama3:latest","owned_by":"library"}]})"), "Ollama");
  EXPECT_EQ(guess_server_kind(11434, R"({"data":[{"id":"m","owned_by":"someone"}]})"), "Ollama");
  EXPECT_EQ(guess_server_kind(8000, "not json"), "vLLM");
  EXPECT_EQ(guess_server_kind(9999, R"({"data":[]})"), "OpenAI-compatible server");
}

}  // namespace
}  // namespace eok::llm
