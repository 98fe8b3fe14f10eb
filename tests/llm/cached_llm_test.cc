// The response cache and the caching decorator: hits send nothing, only successes are kept, replay
// answers from the cache alone, and the factory wires it all.
#include "src/llm/cached_llm.h"

#include <gtest/gtest.h>

#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "src/llm/chat_protocol.h"
#include "src/llm/http_llm.h"
#include "src/llm/llm_factory.h"
#include "src/llm/response_cache.h"
#include "tests/llm/fast_settings.h"
#include "tests/support/fake_openai_server.h"

namespace eok::llm {
namespace {

using eok::testing::FakeOpenAiServer;
using eok::testing::FakeReply;
using testing::fast_settings;
using testing::user_says;

class CachedLlmTest : public ::testing::Test {
 protected:
  TempDir dir_{std::filesystem::temp_directory_path(), "eok-llm-cache-"};
  FakeOpenAiServer server_;
  std::shared_ptr<ResponseCache> cache_ = std::make_shared<ResponseCache>(dir_.path() / "llm");

  std::unique_ptr<CachedLlm> cached_client(LlmStats* stats = nullptr) {
    return std::make_unique<CachedLlm>(cache_, "fake-model", std::make_unique<HttpLlm>(fast_settings(server_)), stats);
  }
  std::unique_ptr<CachedLlm> replay_client(LlmStats* stats = nullptr) {
    return std::make_unique<CachedLlm>(cache_, "fake-model", nullptr, stats);
  }
};

TEST_F(CachedLlmTest, SecondIdenticalRequestIsAHitAndSendsNothing) {
  server_.enqueue(FakeReply::completion("kernel v1", 30, 7));
  LlmStats stats;
  auto llm = cached_client(&stats);
  ChatRequest request = user_says("faster please");
  request.seed = 7;

  const ChatResponse first = llm->chat(request);
  ASSERT_TRUE(first.ok) << first.message;
  EXPECT_FALSE(first.cache_hit);
  EXPECT_TRUE(std::filesystem::exists(cache_->entry_path(first.request_hash)));
  EXPECT_EQ(cache_->entry_path(first.request_hash).parent_path().filename().string(), first.request_hash.substr(0, 2));

  request.purpose = "another purpose: not part of the key";
  const ChatResponse second = llm->chat(request);
  ASSERT_TRUE(second.ok) << second.message;
  EXPECT_TRUE(second.cache_hit);
  EXPECT_EQ(second.content, "kernel v1");
  EXPECT_EQ(second.usage.prompt_tokens, 30);
  EXPECT_EQ(second.attempts, 0);
  EXPECT_EQ(second.latency_seconds, 0);
  EXPECT_EQ(second.cost, 0);
  EXPECT_EQ(second.request_hash, first.request_hash);
  EXPECT_EQ(server_.chat_requests().size(), 1u);
  EXPECT_EQ(stats.totals().cache_hits, 1);
}

TEST_F(CachedLlmTest, AnyDifferenceInTheRequestIsAMiss) {
  auto llm = cached_client();
  ChatRequest base = user_says("x");
  ASSERT_TRUE(llm->chat(base).ok);
  ChatRequest other_temperature = base;
  other_temperature.temperature = 0.9;
  ChatRequest other_seed = base;
  other_seed.seed = 1;
  ChatRequest other_limit = base;
  other_limit.max_tokens = 100;
  ChatRequest other_text = base;
  other_text.messages[1].content = "y";
  for (const auto& r : {other_temperature, other_seed, other_limit, other_text}) EXPECT_FALSE(llm->chat(r).cache_hit);
  EXPECT_EQ(server_.chat_requests().size(), 5u);
  EXPECT_NE(chat_request_hash("model-a", base), chat_request_hash("model-b", base));
}

TEST_F(CachedLlmTest, FailuresAreNotCached) {
  server_.enqueue(FakeReply::http_status(400, "bad"));
  auto llm = cached_client();
  EXPECT_FALSE(llm->chat(user_says("x")).ok);
  const ChatResponse again = llm->chat(user_says("x"));
  EXPECT_TRUE(again.ok);
  EXPECT_FALSE(again.cache_hit);
  EXPECT_EQ(server_.chat_requests().size(), 2u);
}

TEST_F(CachedLlmTest, CacheHitsConsumeNoBudget) {
  auto llm =
      CachedLlm(cache_, "fake-model", std::make_unique<HttpLlm>(fast_settings(server_), LlmBudget{.max_calls = 1}));
  ASSERT_TRUE(llm.chat(user_says("x")).ok);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(llm.chat(user_says("x")).cache_hit);
  EXPECT_EQ(llm.chat(user_says("new")).error, ChatError::budget);
}

TEST_F(CachedLlmTest, ReplayAnswersRecordedRequestsFromTheCacheAlone) {
  server_.enqueue(FakeReply::completion("recorded"));
  ASSERT_TRUE(cached_client()->chat(user_says("x")).ok);
  server_.stop();  // replay must not need the server

  LlmStats stats;
  auto replay = replay_client(&stats);
  const ChatResponse hit = replay->chat(user_says("x"));
  ASSERT_TRUE(hit.ok) << hit.message;
  EXPECT_TRUE(hit.cache_hit);
  EXPECT_EQ(hit.content, "recorded");

  ChatRequest unseen = user_says("never asked");
  unseen.purpose = "E1 search 2";
  const ChatResponse miss = replay->chat(unseen);
  EXPECT_FALSE(miss.ok);
  EXPECT_EQ(miss.error, ChatError::cache_miss);
  EXPECT_EQ(miss.request_hash, chat_request_hash("fake-model", unseen));
  EXPECT_NE(miss.message.find(miss.request_hash), std::string::npos) << miss.message;
  EXPECT_NE(miss.message.find("E1 search 2"), std::string::npos) << miss.message;
  EXPECT_EQ(stats.totals().cache_hits, 1);
  EXPECT_EQ(stats.totals().cache_misses, 1);
  EXPECT_EQ(stats.totals().calls, 0);
}

TEST_F(CachedLlmTest, DamagedEntryIsReportedNotThrown) {
  auto llm = cached_client();
  const ChatResponse first = llm->chat(user_says("x"));
  ASSERT_TRUE(first.ok);
  write_file_atomic(cache_->entry_path(first.request_hash), "{ not json");

  const ChatResponse replayed = replay_client()->chat(user_says("x"));
  EXPECT_EQ(replayed.error, ChatError::cache_miss);
  EXPECT_NE(replayed.message.find("damaged"), std::string::npos) << replayed.message;

  const ChatResponse asked_again = llm->chat(user_says("x"));  // a live client asks again and repairs it
  EXPECT_TRUE(asked_again.ok);
  EXPECT_FALSE(asked_again.cache_hit);
  EXPECT_TRUE(replay_client()->chat(user_says("x")).cache_hit);
}

TEST_F(CachedLlmTest, FactoryComposesCacheOverHttpAndReplay) {
  LlmStats stats;
  const auto cache_dir = dir_.path() / "factory";
  auto live = make_llm(fast_settings(server_), {}, cache_dir, /*replay=*/false, &stats);
  ASSERT_TRUE(live->chat(user_says("x")).ok);
  EXPECT_TRUE(live->chat(user_says("x")).cache_hit);
  EXPECT_NE(live->describe().find("cached in"), std::string::npos) << live->describe();

  auto replay = make_llm(fast_settings(server_), {}, cache_dir, /*replay=*/true, &stats);
  EXPECT_TRUE(replay->chat(user_says("x")).cache_hit);
  EXPECT_EQ(replay->chat(user_says("y")).error, ChatError::cache_miss);
  EXPECT_EQ(server_.chat_requests().size(), 1u);
  EXPECT_EQ(stats.totals().calls, 1);
  EXPECT_EQ(stats.totals().cache_hits, 2);

  auto uncached = make_llm(fast_settings(server_), {}, "", false, nullptr);
  EXPECT_FALSE(uncached->chat(user_says("x")).cache_hit);
  EXPECT_THROW(make_llm(fast_settings(server_), {}, "", /*replay=*/true, nullptr), ConfigError);
}

}  // namespace
}  // namespace eok::llm
