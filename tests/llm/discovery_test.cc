// Finding a local server: the fake server on its port is found, a closed port is not.
#include "src/llm/discovery.h"

#include <gtest/gtest.h>

#include "src/common/config.h"
#include "src/common/error.h"
#include "src/llm/llm_choice.h"
#include "src/llm/llm_factory.h"
#include "src/llm/llm_stats.h"
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

TEST(Discovery, NothingOnAClosedPort) {
  EXPECT_FALSE(discover_local_server({a_closed_port()}, 0.3).has_value());
}

// The API key belongs to the endpoint its owner named: a server that merely answers on a discovery port
// never sees it, unless the user opts in.
TEST(Discovery, TheApiKeyGoesOnlyToTheNamedEndpointUnlessTheUserOptsIn) {
  FakeOpenAiServer listener;  // anything listening on a local port
  listener.set_model("m");
  auto ask = [&](Config c) {
    const LlmChoice choice = choose_llm(c);
    EXPECT_TRUE(choice.settings.has_value()) << choice.why;
    if (!choice.settings) return std::string();
    LlmStats stats;
    auto llm = make_llm(*choice.settings, {}, "", false, &stats);
    ChatRequest req;
    req.messages = {{"user", "hello"}};
    llm->chat(req);
    return choice.why;
  };
  Config c = Config::load(EOK_SOURCE_DIR);
  c.set("llm.api_key", "sk-secret-of-the-user", "env EOK_LLM_API_KEY");
  c.set("llm.discover_ports", std::to_string(listener.port()));
  const std::string why = ask(c);
  EXPECT_NE(why.find("not sent to a discovered server"), std::string::npos) << why;
  ASSERT_FALSE(listener.chat_requests().empty());
  for (const auto& r : listener.requests()) EXPECT_EQ(r.header("authorization"), "") << r.path << " carried the key";

  c.set("llm.send_key_to_discovered", "true");
  ask(c);
  EXPECT_EQ(listener.chat_requests().back().header("authorization"), "Bearer sk-secret-of-the-user");

  FakeOpenAiServer named;
  named.set_model("m");
  Config n = Config::load(EOK_SOURCE_DIR);
  n.set("llm.api_key", "sk-secret-of-the-user", "env EOK_LLM_API_KEY");
  n.set("llm.base_url", named.base_url());
  ask(n);
  EXPECT_EQ(named.chat_requests().back().header("authorization"), "Bearer sk-secret-of-the-user");

  n.set("llm.base_url", "");
  n.set("llm.discover_ports", "80,http");
  EXPECT_THROW(choose_llm(n), ConfigError);
}

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
