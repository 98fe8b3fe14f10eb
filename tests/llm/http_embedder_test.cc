// HttpEmbedder against the fake server: batching, order, retries shared with the chat client, failures.
#include "src/llm/http_embedder.h"

#include <gtest/gtest.h>

#include "src/common/error.h"
#include "tests/llm/fast_settings.h"
#include "tests/support/fake_openai_server.h"

namespace eok::llm {
namespace {

using eok::testing::FakeOpenAiServer;
using eok::testing::FakeReply;
using testing::fast_settings;

LlmSettings embedding_settings(const FakeOpenAiServer& server) {
  LlmSettings s = fast_settings(server);
  s.model = "fake-embedder";
  return s;
}

TEST(HttpEmbedder, EmbedsInBatchesAndKeepsInputOrder) {
  FakeOpenAiServer server;
  server.set_embedding_dim(16);
  HttpEmbedder embedder(embedding_settings(server), /*batch_size=*/2);
  const std::vector<std::string> texts = {"unroll by 4", "use LMUL=8", "fuse the loops", "prefetch", "vectorise exp"};

  const auto vectors = embedder.embed(texts);
  ASSERT_EQ(vectors.size(), texts.size());
  for (size_t i = 0; i < texts.size(); ++i) EXPECT_EQ(vectors[i], FakeOpenAiServer::embedding_of(texts[i], 16)) << i;
  EXPECT_EQ(embedder.dim(), 16u);

  const auto sent = server.embedding_requests();
  ASSERT_EQ(sent.size(), 3u);  // 2 + 2 + 1
  EXPECT_EQ(sent[0].json()["model"], "fake-embedder");
  EXPECT_EQ(sent[0].json()["input"], nlohmann::json({"unroll by 4", "use LMUL=8"}));
  EXPECT_EQ(sent[2].json()["input"], nlohmann::json({"vectorise exp"}));
  EXPECT_TRUE(embedder.embed({}).empty());
}

TEST(HttpEmbedder, DimBeforeAnyEmbedAsksOnce) {
  FakeOpenAiServer server;
  server.set_embedding_dim(24);
  HttpEmbedder embedder(embedding_settings(server));
  EXPECT_EQ(embedder.dim(), 24u);
  EXPECT_EQ(embedder.dim(), 24u);
  EXPECT_EQ(server.embedding_requests().size(), 1u);
}

TEST(HttpEmbedder, RetriesServerErrors) {
  FakeOpenAiServer server;
  server.enqueue_embeddings(FakeReply::http_status(503, "loading model"));
  server.enqueue_embeddings(FakeReply::close_connection());
  HttpEmbedder embedder(embedding_settings(server));
  const auto vectors = embedder.embed({"a"});
  ASSERT_EQ(vectors.size(), 1u);
  EXPECT_EQ(server.embedding_requests().size(), 3u);
}

TEST(HttpEmbedder, FinalFailureThrowsWithTheServersWords) {
  FakeOpenAiServer server;
  server.enqueue_embeddings(FakeReply::http_status(400, R"({"error":{"message":"model is not an embedding model"}})"));
  HttpEmbedder embedder(embedding_settings(server));
  try {
    embedder.embed({"a"});
    FAIL() << "expected eok::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not an embedding model"), std::string::npos) << e.what();
  }
  EXPECT_EQ(server.embedding_requests().size(), 1u);
}

TEST(HttpEmbedder, MalformedReplyThrows) {
  FakeOpenAiServer server;
  server.enqueue_embeddings(FakeReply::http_status(200, R"({"data":[]})"));
  HttpEmbedder embedder(embedding_settings(server));
  EXPECT_THROW(embedder.embed({"a"}), Error);
}

}  // namespace
}  // namespace eok::llm
