// HttpLlm against the fake server: what it sends, what it makes of good and bad replies, and when it
// retries.
#include "src/llm/http_llm.h"

#include <gtest/gtest.h>

#include "src/common/error.h"
#include "tests/llm/fast_settings.h"
#include "tests/support/fake_openai_server.h"

namespace eok::llm {
namespace {

using eok::testing::FakeOpenAiServer;
using eok::testing::FakeReply;
using testing::fast_settings;
using testing::user_says;

TEST(HttpLlm, NormalCallSendsTheRequestAndReadsTheReply) {
  FakeOpenAiServer server;
  server.enqueue(FakeReply::completion("```c\nvoid k(void) {}\n```", 1000, 500));
  LlmSettings settings = fast_settings(server);
  settings.api_key = "sk-test";
  settings.price_input_per_mtok = 2.0;
  settings.price_output_per_mtok = 6.0;
  HttpLlm llm(settings);

  ChatRequest request = user_says("make mish faster");
  request.seed = 42;
  request.purpose = "M1 search 0 gen 1";
  const ChatResponse r = llm.chat(request);

  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_EQ(r.error, ChatError::none);
  EXPECT_EQ(r.content, "```c\nvoid k(void) {}\n```");
  EXPECT_EQ(r.finish_reason, "stop");
  EXPECT_EQ(r.model, "fake-model");
  EXPECT_EQ(r.usage.prompt_tokens, 1000);
  EXPECT_EQ(r.usage.completion_tokens, 500);
  EXPECT_FALSE(r.usage_estimated);
  EXPECT_DOUBLE_EQ(r.cost, (1000 * 2.0 + 500 * 6.0) / 1e6);
  EXPECT_EQ(r.attempts, 1);
  EXPECT_FALSE(r.cache_hit);
  EXPECT_EQ(r.request_hash.size(), 32u);
  EXPECT_GT(r.latency_seconds, 0);

  const auto sent = server.chat_requests();
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].header("authorization"), "Bearer sk-test");
  const auto body = sent[0].json();
  EXPECT_EQ(body["model"], "fake-model");
  ASSERT_EQ(body["messages"].size(), 2u);
  EXPECT_EQ(body["messages"][0]["role"], "system");
  EXPECT_EQ(body["messages"][1]["role"], "user");
  EXPECT_EQ(body["messages"][1]["content"], "make mish faster");
  EXPECT_DOUBLE_EQ(body["temperature"].get<double>(), 0.2);
  EXPECT_EQ(body["max_tokens"], 256);
  EXPECT_EQ(body["seed"], 42);
  EXPECT_FALSE(body.contains("purpose"));
}

TEST(HttpLlm, NoKeyNoAuthorizationAndNoSeedUnlessSet) {
  FakeOpenAiServer server;
  HttpLlm llm(fast_settings(server));
  ASSERT_TRUE(llm.chat(user_says("hi")).ok);
  const auto sent = server.chat_requests();
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].header("authorization"), "");
  EXPECT_FALSE(sent[0].json().contains("seed"));
}

TEST(HttpLlm, RetriesAfter429HonouringRetryAfter) {
  FakeOpenAiServer server;
  server.enqueue(FakeReply::http_status(429, R"({"error":{"message":"slow down"}})", {{"Retry-After", "1"}}));
  server.enqueue(FakeReply::completion("done"));
  LlmSettings settings = fast_settings(server);
  settings.backoff_max_seconds = 5;  // the cap must not cut the server's 1 s
  HttpLlm llm(settings);

  const ChatResponse r = llm.chat(user_says("hi"));
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_EQ(r.content, "done");
  EXPECT_EQ(r.attempts, 2);
  const auto sent = server.chat_requests();
  ASSERT_EQ(sent.size(), 2u);
  const double waited = sent[1].received_at - sent[0].received_at;
  EXPECT_GE(waited, 0.9);
  EXPECT_LT(waited, 4.5);  // loose: only that the client did not wait its whole cap or longer
}

TEST(HttpLlm, RetryAfterIsCappedByBackoffMax) {
  FakeOpenAiServer server;
  server.enqueue(FakeReply::http_status(429, "busy", {{"Retry-After", "3600"}}));
  server.enqueue(FakeReply::completion("done"));
  HttpLlm llm(fast_settings(server));  // backoff_max 0.05 s
  const ChatResponse r = llm.chat(user_says("hi"));
  ASSERT_TRUE(r.ok) << r.message;
  const auto sent = server.chat_requests();
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_LT(sent[1].received_at - sent[0].received_at, 30.0);
}

TEST(HttpLlm, RetriesServerErrorsThenSucceeds) {
  FakeOpenAiServer server;
  server.enqueue(FakeReply::http_status(500, "boom"));
  server.enqueue(FakeReply::http_status(503, "overloaded"));
  server.enqueue(FakeReply::completion("third time"));
  HttpLlm llm(fast_settings(server));
  const ChatResponse r = llm.chat(user_says("hi"));
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_EQ(r.content, "third time");
  EXPECT_EQ(r.attempts, 3);
  EXPECT_EQ(server.chat_requests().size(), 3u);
}

TEST(HttpLlm, ServerErrorForeverFailsAfterMaxRetriesPlusOneAttempts) {
  FakeOpenAiServer server;
  server.set_default_reply(FakeReply::http_status(500, R"({"error":{"message":"engine died"}})"));
  LlmSettings settings = fast_settings(server);
  settings.max_retries = 3;
  HttpLlm llm(settings);
  const ChatResponse r = llm.chat(user_says("hi"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, ChatError::http);
  EXPECT_EQ(r.attempts, 4);
  EXPECT_EQ(server.chat_requests().size(), 4u);
  EXPECT_NE(r.message.find("HTTP 500"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("after 4 attempts"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("engine died"), std::string::npos) << r.message;
}

TEST(HttpLlm, ClientErrorIsNotRetriedAndCarriesTheServersWords) {
  FakeOpenAiServer server;
  server.enqueue(FakeReply::http_status(
      404, R"({"error":{"message":"The model `qwen-typo` does not exist.","type":"NotFoundError"}})"));
  HttpLlm llm(fast_settings(server));
  const ChatResponse r = llm.chat(user_says("hi"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, ChatError::http);
  EXPECT_EQ(r.attempts, 1);
  EXPECT_EQ(server.chat_requests().size(), 1u);
  EXPECT_NE(r.message.find("HTTP 404"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("The model `qwen-typo` does not exist."), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("not retried"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("EOK_LLM_MODEL"), std::string::npos) << r.message;
}

TEST(HttpLlm, BadRequestPlainTextBodyIsQuoted) {
  FakeOpenAiServer server;
  server.enqueue(FakeReply::http_status(400, "max_tokens is too large for this context"));
  HttpLlm llm(fast_settings(server));
  const ChatResponse r = llm.chat(user_says("hi"));
  EXPECT_EQ(r.error, ChatError::http);
  EXPECT_EQ(r.attempts, 1);
  EXPECT_NE(r.message.find("max_tokens is too large"), std::string::npos) << r.message;
}

TEST(HttpLlm, StallTimesOutOnEveryAttempt) {
  FakeOpenAiServer server;
  server.set_default_reply(FakeReply::stall(5));
  LlmSettings settings = fast_settings(server);
  settings.timeout_seconds = 0.2;
  settings.max_retries = 1;
  HttpLlm llm(settings);
  const ChatResponse r = llm.chat(user_says("hi"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, ChatError::timeout);
  EXPECT_EQ(r.attempts, 2);
  EXPECT_EQ(server.chat_requests().size(), 2u);
  EXPECT_NE(r.message.find("timed out"), std::string::npos) << r.message;
}

TEST(HttpLlm, StallThenAnswerSucceedsOnRetry) {
  FakeOpenAiServer server;
  server.enqueue(FakeReply::stall(5));
  server.enqueue(FakeReply::completion("late but fine"));
  LlmSettings settings = fast_settings(server);
  settings.timeout_seconds = 0.3;
  HttpLlm llm(settings);
  const ChatResponse r = llm.chat(user_says("hi"));
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_EQ(r.attempts, 2);
}

TEST(HttpLlm, TruncatedJsonIsABadResponseNotRetried) {
  FakeOpenAiServer server;
  server.enqueue(FakeReply::truncated_json());
  HttpLlm llm(fast_settings(server));
  const ChatResponse r = llm.chat(user_says("hi"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, ChatError::bad_response);
  EXPECT_EQ(r.attempts, 1);
  EXPECT_NE(r.message.find("not valid JSON"), std::string::npos) << r.message;
}

TEST(HttpLlm, HugeReplyIsAbortedAsABadResponse) {
  FakeOpenAiServer server;
  server.enqueue(FakeReply::huge(1 << 20));
  LlmSettings settings = fast_settings(server);
  settings.max_response_bytes = 64 << 10;
  HttpLlm llm(settings);
  const ChatResponse r = llm.chat(user_says("hi"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, ChatError::bad_response);
  EXPECT_EQ(r.attempts, 1);
  EXPECT_NE(r.message.find("larger than 65536 bytes"), std::string::npos) << r.message;
}

TEST(HttpLlm, InvalidUtf8IsReplacedAndFlagged) {
  FakeOpenAiServer server;
  server.enqueue(FakeReply::invalid_utf8());
  HttpLlm llm(fast_settings(server));
  const ChatResponse r = llm.chat(user_says("hi"));
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_TRUE(r.content_sanitised);
  EXPECT_EQ(r.content, "bad \xEF\xBF\xBD\xEF\xBF\xBD here");
}

TEST(HttpLlm, MissingUsageIsEstimatedAndFlagged) {
  FakeOpenAiServer server;
  server.enqueue(FakeReply::completion_without_usage(std::string(400, 'y')));
  LlmSettings settings = fast_settings(server);
  settings.price_output_per_mtok = 1e6;  // one unit per token: the estimate is charged
  HttpLlm llm(settings);
  const ChatResponse r = llm.chat(user_says("hi"));
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_TRUE(r.usage_estimated);
  EXPECT_EQ(r.usage.completion_tokens, 100);
  EXPECT_GT(r.usage.prompt_tokens, 0);
  EXPECT_DOUBLE_EQ(r.cost, 100.0);
}

TEST(HttpLlm, ConnectionClosedWithoutReplyIsRetried) {
  FakeOpenAiServer server;
  server.enqueue(FakeReply::close_connection());
  server.enqueue(FakeReply::completion("back"));
  HttpLlm llm(fast_settings(server));
  const ChatResponse r = llm.chat(user_says("hi"));
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_EQ(r.content, "back");
  EXPECT_EQ(r.attempts, 2);
}

TEST(HttpLlm, ConnectionClosedEveryTimeIsANetworkError) {
  FakeOpenAiServer server;
  server.set_default_reply(FakeReply::close_connection());
  HttpLlm llm(fast_settings(server));
  const ChatResponse r = llm.chat(user_says("hi"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, ChatError::network);
  EXPECT_EQ(r.attempts, 3);
  EXPECT_EQ(server.chat_requests().size(), 3u);
}

TEST(HttpLlm, RefusedConnectionIsANetworkErrorThatSaysWhatToCheck) {
  int closed_port;
  {
    FakeOpenAiServer gone;
    closed_port = gone.port();
  }
  LlmSettings settings;
  settings.base_url = "http://127.0.0.1:" + std::to_string(closed_port) + "/v1";
  settings.model = "m";
  settings.max_retries = 1;
  settings.backoff_initial_seconds = 0.01;
  settings.backoff_max_seconds = 0.01;
  HttpLlm llm(settings);
  const ChatResponse r = llm.chat(user_says("hi"));
  EXPECT_EQ(r.error, ChatError::network);
  EXPECT_EQ(r.attempts, 2);
  EXPECT_NE(r.message.find("EOK_LLM_BASE_URL"), std::string::npos) << r.message;
}

TEST(HttpLlm, MisuseThrowsConfigError) {
  FakeOpenAiServer server;
  LlmSettings no_model = fast_settings(server);
  no_model.model.clear();
  EXPECT_THROW(HttpLlm{no_model}, ConfigError);
  LlmSettings no_url = fast_settings(server);
  no_url.base_url.clear();
  EXPECT_THROW(HttpLlm{no_url}, ConfigError);

  HttpLlm llm(fast_settings(server));
  EXPECT_THROW(llm.chat(ChatRequest{}), ConfigError);
  EXPECT_TRUE(server.chat_requests().empty());
}

TEST(HttpLlm, DescribeNamesServerUrlAndModel) {
  FakeOpenAiServer server;
  LlmSettings settings = fast_settings(server);
  settings.server_kind = "vLLM";
  EXPECT_EQ(HttpLlm(settings).describe(), "vLLM at " + server.base_url() + ", model fake-model");
}

}  // namespace
}  // namespace eok::llm
