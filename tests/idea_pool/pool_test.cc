#include "idea_pool/pool.h"

#include <gtest/gtest.h>

#include "src/common/error.h"
#include "src/common/fs_util.h"

namespace eok::idea_pool {
namespace {

namespace fs = std::filesystem;

const fs::path kSmallPool = fs::path(EOK_TEST_DATA_DIR) / "fixtures" / "pools" / "small_pool.json";

TEST(IdeaPool, TheHandWrittenPoolLoads) {
  IdeaPool p = load_pool(kSmallPool);
  ASSERT_EQ(p.ideas.size(), 3u);
  EXPECT_EQ(p.thought_count(), 4u);
  EXPECT_EQ(p.ideas[0].id, "I1");
  EXPECT_EQ(p.ideas[0].thoughts[1].id, "I1.T2");
  EXPECT_TRUE(p.ideas[0].thoughts[1].estimated);
  EXPECT_DOUBLE_EQ(p.ideas[0].effectiveness, (0.12 + 0.08) / 2);  // derived when absent
  EXPECT_EQ(p.ideas[1].thoughts[0].examples.size(), 1u);
}

TEST(IdeaPool, WrittenPoolsReadBackUnchanged) {
  IdeaPool p = load_pool(kSmallPool);
  TempDir dir(fs::temp_directory_path(), "eok-pool-");
  write_file_atomic(dir.path() / "again.json", pool_to_json(p));
  IdeaPool q = load_pool(dir.path() / "again.json");
  EXPECT_EQ(pool_to_json(q), pool_to_json(p));
  EXPECT_EQ(q.source.at("repo"), "hand-written for tests");
  ASSERT_EQ(q.ideas.size(), p.ideas.size());
  EXPECT_EQ(q.ideas[1].thoughts[0].examples[0].code, p.ideas[1].thoughts[0].examples[0].code);
}

class BadPool : public ::testing::Test {
 protected:
  std::string error(const std::string& json) {
    TempDir dir(fs::temp_directory_path(), "eok-pool-");
    write_file_atomic(dir.path() / "pool.json", json);
    try {
      load_pool(dir.path() / "pool.json");
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "";
  }
};

TEST_F(BadPool, ErrorsNameTheJsonPath) {
  EXPECT_NE(error("{").find("not valid JSON"), std::string::npos);
  EXPECT_NE(error(R"({"schema": "other/2", "ideas": []})").find("is not eok-idea-pool/1"), std::string::npos);
  EXPECT_NE(error(R"({"schema": "eok-idea-pool/1", "ideas": []})").find("ideas: must not be empty"), std::string::npos);
  const std::string no_description =
      R"({"schema": "eok-idea-pool/1", "ideas": [{"id": "I1", "principle": "p", "thoughts": [{"id": "T1"}]}]})";
  EXPECT_NE(error(no_description).find("ideas[0].thoughts[0].description: missing"), std::string::npos)
      << error(no_description);
  const std::string twice =
      R"({"schema": "eok-idea-pool/1", "ideas": [{"id": "X", "principle": "p", "thoughts": [{"id": "X", "description": "d"}]}]})";
  EXPECT_NE(error(twice).find("used twice"), std::string::npos);
  EXPECT_THROW(load_pool("/nonexistent/pool.json"), NotFoundError);
}

}  // namespace
}  // namespace eok::idea_pool
