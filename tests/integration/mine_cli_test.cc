// eok mine and eok ideas as users run them: a library's history in, a pool and its example index out.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/synthetic_repo.h"
#include "support/board_fixture.h"

namespace eok::testing {
namespace {

namespace fs = std::filesystem;

class MineCli : public ::testing::Test {
 protected:
  void SetUp() override {
    repo_ = std::make_unique<idea_pool::testing::SyntheticRepo>(dir_.path() / "kernels-lib");
    const std::vector<std::pair<std::string, std::string>> commits = {
        {"prefetch", "sgemm: prefetch the next panel of A"},
        {"prefetch", "daxpy: software prefetch two lines ahead"},
        {"prefetch", "Tune the prefetch distance of dgemv"},
        {"unroll", "Unroll the sgemm micro-kernel by 8"},
        {"unroll", "dscal: unroll four times"},
        {"unroll", "Unroll sdot with separate accumulators"},
        {"rvv", "Vectorize saxpy with RVV vfmacc"},
        {"rvv", "RVV: vfredusum for the sdot reduction"},
        {"rvv", "Use LMUL=4 in the RVV daxpy kernel"}};
    int n = 0;
    for (const auto& [theme, message] : commits) {
      repo_->commit("main", message,
                    {{"kernel/riscv64/" + theme + ".c", "int " + theme + " = " + std::to_string(++n) + ";\n"}});
    }
    repo_->commit("main", "Fix CI", {{".github/workflows/ci.yml", "on: push\n"}});
  }

  ProcessResult eok(std::vector<std::string> args) { return run_eok(args, dir_.path() / "home", 120); }

  TempDir dir_{fs::temp_directory_path(), "eok-minecli-"};
  std::unique_ptr<idea_pool::testing::SyntheticRepo> repo_;
};

TEST_F(MineCli, MineThenBrowseAndQueryThePool) {
  const fs::path out = dir_.path() / "pool.json";
  ProcessResult r =
      eok({"mine", "--repo", repo_->path().string(), "--branch", "main", "--out", out.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto report = nlohmann::json::parse(r.out);
  EXPECT_EQ(report["walk"]["seen"], 10);
  EXPECT_EQ(report["walk"]["kept"], 9);
  EXPECT_EQ(report["walk"]["dropped"]["build_ci_docs"], 1);
  EXPECT_EQ(report["pool"]["variant"], "two-level");
  EXPECT_GE(report["pool"]["thoughts"].get<int>(), 2);
  EXPECT_EQ(report["distiller"]["kind"], "extractive");
  EXPECT_EQ(report["files"]["out"], out.string());
  EXPECT_TRUE(fs::exists(out));
  EXPECT_NE(r.err.find("extractive, no LLM"), std::string::npos) << r.err;  // it says why there is no LLM

  // Without --pool, eok ideas reads the workspace's latest pool: the same one.
  ProcessResult ideas = eok({"ideas", "--json"});
  ASSERT_EQ(ideas.exit_code, 0) << ideas.err;
  const auto pool = nlohmann::json::parse(ideas.out);
  EXPECT_EQ(pool["schema"], "eok-idea-pool/1");
  EXPECT_EQ(pool, nlohmann::json::parse(eok({"ideas", "--pool", out.string(), "--json"}).out));

  ProcessResult human = eok({"ideas", "--pool", out.string()});
  ASSERT_EQ(human.exit_code, 0) << human.err;
  EXPECT_NE(human.out.find("I1"), std::string::npos);
  EXPECT_NE(human.out.find("estimated"), std::string::npos);

  ProcessResult query = eok({"ideas", "--pool", out.string(), "--query", "vfmacc RVV saxpy", "--k", "2", "--json"});
  ASSERT_EQ(query.exit_code, 0) << query.err;
  const auto hits = nlohmann::json::parse(query.out);
  ASSERT_EQ(hits.size(), 2u);
  EXPECT_EQ(hits[0]["file"], "kernel/riscv64/rvv.c");
  EXPECT_NE(hits[0]["code"].get<std::string>().find("rvv"), std::string::npos);
}

TEST_F(MineCli, ErrorsSayWhatToDo) {
  ProcessResult r = eok({"mine", "--repo", "NoSuchLibrary"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("OpenBLAS"), std::string::npos) << r.err;

  r = eok({"mine", "--repo", repo_->path().string(), "--branch", "nope"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("main"), std::string::npos) << r.err;

  r = eok({"mine", "--repo", repo_->path().string(), "--branch", "main", "--pool-variant", "fancy"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("raw, kmeans or two-level"), std::string::npos) << r.err;

  r = eok({"ideas", "--pool", (dir_.path() / "missing.json").string()});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("missing.json"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace eok::testing
