// The wire format: request body and hash, defensive parsing of replies, UTF-8 repair.
#include "src/llm/chat_protocol.h"

#include <gtest/gtest.h>

#include "src/llm/retrying_http_client.h"
#include "src/llm/utf8.h"

namespace eok::llm {
namespace {

ChatRequest sample_request() {
  ChatRequest r;
  r.messages = {{"user", "hello"}};
  r.temperature = 0.5;
  r.max_tokens = 64;
  return r;
}

TEST(ChatProtocol, RequestBodyHasExactlyTheWireFields) {
  ChatRequest r = sample_request();
  r.purpose = "not sent";
  auto body = chat_request_body("m", r);
  const auto expected = nlohmann::json::parse(R"({"model": "m", "messages": [{"role": "user", "content": "hello"}],
                                                  "temperature": 0.5, "max_tokens": 64, "stream": false})");
  EXPECT_EQ(body, expected);
  r.seed = 9;
  EXPECT_EQ(chat_request_body("m", r)["seed"], 9);
}

TEST(ChatProtocol, HashIgnoresPurposeOnly) {
  ChatRequest a = sample_request(), b = sample_request();
  b.purpose = "E2 search 1 gen 3";
  EXPECT_EQ(chat_request_hash("m", a), chat_request_hash("m", b));
  b.seed = 1;
  EXPECT_NE(chat_request_hash("m", a), chat_request_hash("m", b));
  EXPECT_NE(chat_request_hash("m", a), chat_request_hash("n", a));
}

TEST(ChatProtocol, InvalidUtf8InPromptsIsSentRepaired) {
  ChatRequest r = sample_request();
  r.messages[0].content = "bad \xC3 byte";
  const std::string wire = serialise_json(chat_request_body("m", r));
  EXPECT_NE(wire.find("bad \xEF\xBF\xBD byte"), std::string::npos);
}

TEST(ChatProtocol, ParsesAWellFormedCompletion) {
  const auto p = parse_chat_completion(
      R"({"model":"srv-model","choices":[{"message":{"role":"assistant","content":"hi"},"finish_reason":"length"}],
          "usage":{"prompt_tokens":3,"completion_tokens":4}})");
  ASSERT_FALSE(p.problem) << *p.problem;
  EXPECT_EQ(p.content, "hi");
  EXPECT_EQ(p.finish_reason, "length");
  EXPECT_EQ(p.model, "srv-model");
  ASSERT_TRUE(p.usage);
  EXPECT_EQ(p.usage->prompt_tokens, 3);
  EXPECT_EQ(p.usage->completion_tokens, 4);
}

TEST(ChatProtocol, ToleratesMissingOptionalFields) {
  const auto p = parse_chat_completion(R"({"choices":[{"message":{"content":"hi"}}],"usage":{"prompt_tokens":"x"}})");
  ASSERT_FALSE(p.problem) << *p.problem;
  EXPECT_EQ(p.finish_reason, "");
  EXPECT_EQ(p.model, "");
  EXPECT_FALSE(p.usage);
}

TEST(ChatProtocol, RefusesWhatIsNotACompletion) {
  for (const char* body : {"", "{\"choices\":[{\"message\":{\"content\":\"hi", "[1,2]", "{}", R"({"choices":[]})",
                           R"({"choices":[{"text":"hi"}]})", R"({"choices":[{"message":{"content":null}}]})",
                           R"({"choices":[{"message":{"content":42}}]})", R"({"error":{"message":"overloaded"}})"}) {
    EXPECT_TRUE(parse_chat_completion(body).problem.has_value()) << body;
  }
  EXPECT_NE(parse_chat_completion(R"({"error":{"message":"overloaded"}})").problem->find("overloaded"),
            std::string::npos);
}

TEST(ChatProtocol, AReasoningModelThatOnlyReasonedIsToldToRaiseItsTokenLimit) {
  // reasoning_content beside the answer is not part of it; without an answer the problem names the fix.
  auto p = parse_chat_completion(
      R"({"choices":[{"message":{"content":"```c\nvoid k(void) {}\n```","reasoning_content":"long thoughts"}}],"usage":{"prompt_tokens":10,"completion_tokens":900}})");
  ASSERT_FALSE(p.problem) << *p.problem;
  EXPECT_EQ(p.content.find("long thoughts"), std::string::npos);
  ASSERT_TRUE(p.usage);
  EXPECT_EQ(p.usage->completion_tokens, 900);
  p = parse_chat_completion(
      R"({"choices":[{"finish_reason":"length","message":{"content":null,"reasoning_content":"still thinking"}}]})");
  ASSERT_TRUE(p.problem);
  EXPECT_NE(p.problem->find("raise llm.max_tokens"), std::string::npos) << *p.problem;
}

TEST(ChatProtocol, EstimatesUsageFromCharacters) {
  ChatRequest r;
  r.messages = {{"system", std::string(8, 'a')}, {"user", std::string(5, 'b')}};
  const Usage u = estimate_usage(r, std::string(9, 'c'));
  EXPECT_EQ(u.prompt_tokens, 4);      // 13 chars
  EXPECT_EQ(u.completion_tokens, 3);  // 9 chars
}

TEST(Utf8, RepairsEveryKindOfIllFormedSequence) {
  bool replaced = true;
  EXPECT_EQ(to_valid_utf8("plain ascii, \xC3\xA9t\xC3\xA9, \xF0\x9F\x98\x80", &replaced),
            "plain ascii, \xC3\xA9t\xC3\xA9, \xF0\x9F\x98\x80");
  EXPECT_FALSE(replaced);
  const std::string fffd = "\xEF\xBF\xBD";
  EXPECT_EQ(to_valid_utf8("a\xFF"
                          "b",
                          &replaced),
            "a" + fffd + "b");
  EXPECT_TRUE(replaced);
  EXPECT_EQ(to_valid_utf8("\x80"), fffd);                                   // stray continuation
  EXPECT_EQ(to_valid_utf8("\xC0\xAF"), fffd + fffd);                        // overlong
  EXPECT_EQ(to_valid_utf8("\xED\xA0\x80"), fffd + fffd + fffd);             // surrogate
  EXPECT_EQ(to_valid_utf8("\xF4\x90\x80\x80"), fffd + fffd + fffd + fffd);  // beyond U+10FFFF
  EXPECT_EQ(to_valid_utf8("x\xE2\x82"), "x" + fffd);                        // truncated: one maximal subpart
}

TEST(ServerErrorText, ExtractsTheServersMessage) {
  EXPECT_EQ(server_error_text(R"({"error":{"message":"no such model"}})"), "no such model");
  EXPECT_EQ(server_error_text(R"({"error":"rate limited"})"), "rate limited");
  EXPECT_EQ(server_error_text(R"({"detail":"Not Found"})"), "Not Found");
  EXPECT_EQ(server_error_text("plain words"), "plain words");
  EXPECT_EQ(server_error_text(""), "(empty body)");
  EXPECT_EQ(server_error_text(std::string(600, 'z'), 10), std::string(10, 'z') + " ...");
}

}  // namespace
}  // namespace eok::llm
