// eok rag build and eok rag query as users run them.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "src/common/fs_util.h"
#include "support/board_fixture.h"

namespace eok::testing {
namespace {

namespace fs = std::filesystem;

class RagCli : public ::testing::Test {
 protected:
  ProcessResult eok(std::vector<std::string> args) { return run_eok(args, dir_.path() / "home", 120); }
  TempDir dir_{fs::temp_directory_path(), "eok-ragcli-"};
};

TEST_F(RagCli, BuildThenQueryWithJson) {
  const fs::path docs = dir_.path() / "spec";
  fs::create_directories(docs);
  write_file_atomic(docs / "reductions.adoc",
                    "= Reductions\n\n== Ordered sum\n\n`vfredosum.vs` sums in element order.\n\n"
                    "== Unordered sum\n\n`vfredusum.vs` may reassociate.\n");
  ProcessResult r = eok({"rag", "build", "--no-default-corpus", "--docs", docs.string(), "--name", "t", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto report = nlohmann::json::parse(r.out);
  EXPECT_GE(report["files"].get<int>(), 1);
  EXPECT_EQ(report["index_kind"], "exact");

  ProcessResult q = eok({"rag", "query", "vfredosum", "--name", "t", "--k", "2", "--json"});
  ASSERT_EQ(q.exit_code, 0) << q.err;
  const auto hits = nlohmann::json::parse(q.out);
  ASSERT_FALSE(hits.empty());
  EXPECT_EQ(hits[0]["source"], "spec/reductions.adoc");
  EXPECT_EQ(hits[0]["section"], "Reductions > Ordered sum");
  for (const char* field : {"score", "text", "line"}) EXPECT_TRUE(hits[0].contains(field)) << field;

  // A second build reads nothing again.
  const auto again = nlohmann::json::parse(
      eok({"rag", "build", "--no-default-corpus", "--docs", docs.string(), "--name", "t", "--json"}).out);
  EXPECT_EQ(again["chunks_embedded"], 0);

  // An update without --docs keeps what was indexed before (the team's corpus comes in beside it); only
  // --rebuild indexes just what the command names.
  const ProcessResult update = eok({"rag", "build", "--name", "t", "--json"});
  ASSERT_EQ(update.exit_code, 0) << update.err;
  EXPECT_NE(update.err.find("keeping " + docs.string()), std::string::npos) << update.err;
  const auto kept = nlohmann::json::parse(eok({"rag", "query", "vfredosum", "--name", "t", "--k", "1", "--json"}).out);
  ASSERT_FALSE(kept.empty());
  EXPECT_EQ(kept[0]["source"], "spec/reductions.adoc") << "the documents indexed before were dropped";
  ASSERT_EQ(eok({"rag", "build", "--name", "t", "--rebuild", "--json"}).exit_code, 0);
  for (const auto& hit :
       nlohmann::json::parse(eok({"rag", "query", "vfredosum", "--name", "t", "--k", "5", "--json"}).out)) {
    EXPECT_NE(hit["source"], "spec/reductions.adoc") << "--rebuild kept a folder it was not given";
  }

  ProcessResult missing = eok({"rag", "query", "x", "--name", "nope"});
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.err.find("eok rag build"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace eok::testing
