// What HttpLlm may spend and how hard it may press the server: budget, concurrency bound, statistics.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "src/llm/http_llm.h"
#include "src/llm/llm_stats.h"
#include "tests/llm/fast_settings.h"
#include "tests/support/fake_openai_server.h"

namespace eok::llm {
namespace {

using eok::testing::FakeOpenAiServer;
using eok::testing::FakeReply;
using eok::testing::RecordedRequest;
using testing::fast_settings;
using testing::user_says;

TEST(HttpLlmBudget, CallLimitRefusesWithoutSending) {
  FakeOpenAiServer server;
  LlmStats stats;
  HttpLlm llm(fast_settings(server), LlmBudget{.max_calls = 2}, &stats);
  EXPECT_TRUE(llm.chat(user_says("1")).ok);
  EXPECT_TRUE(llm.chat(user_says("2")).ok);
  const ChatResponse third = llm.chat(user_says("3"));
  EXPECT_FALSE(third.ok);
  EXPECT_EQ(third.error, ChatError::budget);
  EXPECT_EQ(third.attempts, 0);
  EXPECT_NE(third.message.find("2 of 2 calls"), std::string::npos) << third.message;
  EXPECT_EQ(server.chat_requests().size(), 2u);
  EXPECT_EQ(stats.totals().budget_refusals, 1);
  EXPECT_EQ(stats.totals().calls, 2);
}

TEST(HttpLlmBudget, TokenLimitCountsTokensSoFar) {
  FakeOpenAiServer server;
  server.set_default_reply(FakeReply::completion("x", 10, 5));  // 15 tokens a call
  HttpLlm llm(fast_settings(server), LlmBudget{.max_tokens = 20});
  EXPECT_TRUE(llm.chat(user_says("1")).ok);                      // 0 used before
  EXPECT_TRUE(llm.chat(user_says("2")).ok);                      // 15 used before
  EXPECT_EQ(llm.chat(user_says("3")).error, ChatError::budget);  // 30 used
  EXPECT_EQ(server.chat_requests().size(), 2u);
}

TEST(HttpLlmBudget, CostLimitCountsCostSoFar) {
  FakeOpenAiServer server;
  server.set_default_reply(FakeReply::completion("x", 1000, 0));
  LlmSettings settings = fast_settings(server);
  settings.price_input_per_mtok = 1000;  // 1.0 per call
  HttpLlm llm(settings, LlmBudget{.max_cost = 1.5});
  EXPECT_TRUE(llm.chat(user_says("1")).ok);
  EXPECT_TRUE(llm.chat(user_says("2")).ok);
  const ChatResponse third = llm.chat(user_says("3"));
  EXPECT_EQ(third.error, ChatError::budget);
  EXPECT_NE(third.message.find("cost"), std::string::npos) << third.message;
  EXPECT_EQ(server.chat_requests().size(), 2u);
}

TEST(HttpLlmConcurrency, AtMostMaxConcurrencyRequestsInFlight) {
  FakeOpenAiServer server;
  constexpr int kLimit = 2;
  // Each request waits (up to 5 s) until kLimit are in flight, then a little longer: a client that allowed
  // more would be caught; one that allowed fewer would leave max_in_flight at 1.
  server.set_responder([&server](const RecordedRequest&) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (server.in_flight() < kLimit && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return FakeReply::completion("ok").after(0.05);
  });
  LlmSettings settings = fast_settings(server);
  settings.max_concurrency = kLimit;
  HttpLlm llm(settings);

  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&, i] {
      if (llm.chat(user_says("request " + std::to_string(i))).ok) ++ok;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), 8);
  EXPECT_EQ(server.chat_requests().size(), 8u);
  EXPECT_EQ(server.max_in_flight(), kLimit);
}

TEST(HttpLlmStats, CountsCallsRetriesFailuresTokensAndCost) {
  FakeOpenAiServer server;
  server.enqueue(FakeReply::http_status(500, "x"));
  server.enqueue(FakeReply::completion("a", 100, 20));
  server.enqueue(FakeReply::http_status(400, "no"));
  server.enqueue(FakeReply::completion_without_usage("abcd"));
  LlmSettings settings = fast_settings(server);
  settings.price_input_per_mtok = 1e6;
  LlmStats stats;
  HttpLlm llm(settings, {}, &stats);
  EXPECT_TRUE(llm.chat(user_says("1")).ok);
  EXPECT_FALSE(llm.chat(user_says("2")).ok);
  EXPECT_TRUE(llm.chat(user_says("3")).ok);

  const LlmTotals t = stats.totals();
  EXPECT_EQ(t.calls, 3);
  EXPECT_EQ(t.attempts, 4);
  EXPECT_EQ(t.retries, 1);
  EXPECT_EQ(t.failures, 1);
  EXPECT_EQ(t.cache_hits, 0);
  EXPECT_EQ(t.estimated_usage_calls, 1);
  EXPECT_EQ(t.completion_tokens, 20 + 1);  // "abcd" estimated as one token
  EXPECT_GT(t.prompt_tokens, 100);
  EXPECT_DOUBLE_EQ(t.cost, static_cast<double>(t.prompt_tokens));
  EXPECT_GT(t.latency_seconds, 0);
}

}  // namespace
}  // namespace eok::llm
