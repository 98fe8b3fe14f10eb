#include "idea_pool/commit_walk.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "support/synthetic_repo.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"

namespace eok::idea_pool {
namespace {

namespace fs = std::filesystem;
using testing::SyntheticRepo;

std::string lines(int n, const std::string& stem) {
  std::string s;
  for (int k = 0; k < n; ++k) s += stem + " " + std::to_string(k) + "\n";
  return s;
}

TEST(PullRequestTitle, ReadsGitHubsMergeMessage) {
  EXPECT_EQ(pull_request_title("Merge pull request #4950 from ayappanec/fix-aix-build\n\nFix AIX build\n"),
            "Fix AIX build");
  EXPECT_EQ(pull_request_title("Merge pull request #1 from a/b\n\n  Spaces trimmed  \r\nmore\n"), "Spaces trimmed");
  EXPECT_EQ(pull_request_title("Merge pull request #1 from a/b\n"), std::nullopt);  // no title
  EXPECT_EQ(pull_request_title("Merge branch 'develop' into feature\n\nstuff\n"), std::nullopt);
  EXPECT_EQ(pull_request_title("Merge pull request #12\n\nno source\n"), std::nullopt);
  EXPECT_EQ(pull_request_title("Optimise sgemm\n"), std::nullopt);
}

// A history with one commit of every kind the filter knows, pull requests (one nested in another, one
// whose commits another pull request merged first), a plain merge, reverts of a commit and of a pull
// request, and a kernel commit whose diff is over the cap.
// Built once for the suite: the tests only read it.
class WalkScenario : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir = new TempDir(fs::temp_directory_path(), "eok-walk-");
    repo_ = new SyntheticRepo(dir->path());
    build(*repo_);
  }
  static void TearDownTestSuite() {
    delete repo_;
    delete dir;
  }

  static void build(SyntheticRepo& repo) {
    SyntheticRepo::Changes import;
    for (int k = 0; k < 250; ++k)
      import["kernel/generic/f" + std::to_string(k) + ".c"] = "int f" + std::to_string(k) + ";\n";
    import["Makefile"] = "all:\n";
    import["Makefile.rule"] = "VERSION = 0.3.27\n";
    import["interface/axpy.c"] = "void axpy(void);\n";
    sha["import"] = repo.commit("develop", "Initial import", import);
    sha["daxpy"] = repo.commit("develop", "Add daxpy kernel for x86_64",
                               {{"kernel/x86_64/daxpy.c", "void daxpy() {\n  int i;\n}\n"}});

    sha["s1"] = repo.commit("pr-sgemm", "sgemm: unroll by 8", {{"kernel/x86_64/sgemm.c", lines(20, "unroll")}},
                            repo.head("develop"));
    sha["s2"] =
        repo.commit("pr-sgemm", "sgemm: prefetch", {{"kernel/x86_64/sgemm.c", lines(19, "unroll") + "prefetch\n"}});
    sha["s3"] = repo.commit("pr-sgemm", "Update Makefile for sgemm", {{"Makefile.system", "SGEMM = 1\n"}});
    repo.merge_pull_request("develop", "pr-sgemm", 10, "Faster SGEMM on Haswell");

    sha["version"] = repo.commit("develop", "Update version to 0.3.28", {{"Makefile.rule", "VERSION = 0.3.28\n"}});
    sha["ci"] = repo.commit("develop", "Fix CI", {{".github/workflows/ci.yml", "on: push\n"}});
    sha["format"] =
        repo.commit("develop", "Reformat daxpy", {{"kernel/x86_64/daxpy.c", "void daxpy()\n{\n\tint i;\n}\n"}});
    sha["ddot"] = repo.commit("develop", "Tweak ddot", {{"kernel/x86_64/ddot.c", "double ddot();\n"}});
    sha["ddot_revert"] = repo.revert("develop", sha["ddot"]);

    sha["f1"] =
        repo.commit("feature", "feat: rvv axpy", {{"kernel/riscv64/axpy_rvv.c", "rvv axpy\n"}}, repo.head("develop"));
    sha["d1"] = repo.commit("sub", "sub: rvv dot", {{"kernel/riscv64/dot_rvv.c", "rvv dot\n"}}, repo.head("feature"));
    repo.merge_pull_request("feature", "sub", 11, "RVV dot product");
    repo.merge_pull_request("develop", "feature", 12, "RISC-V vector kernels");

    sha["l1"] =
        repo.commit("local", "local: dscal tweak", {{"kernel/x86_64/dscal.c", "dscal\n"}}, repo.head("develop"));
    repo.merge("develop", "local", "Merge branch 'local' into develop");

    sha["interface"] = repo.commit("develop", "Fix interface", {{"interface/axpy.c", "void axpy(int);\n"}});
    sha["big"] = repo.commit("develop", "Big kernel",
                             {{"kernel/x86_64/big.S", lines(2000, "vfmadd231ps")}, {"Makefile", "all: big\n"}});

    sha["b1"] = repo.commit("bad", "bad: risky kernel", {{"kernel/x86_64/risky.c", "risky\n"}}, repo.head("develop"));
    sha["m17"] = repo.merge_pull_request("develop", "bad", 17, "Bad idea");
    sha["m17_revert"] = repo.revert("develop", sha["m17"]);

    sha["x1"] = repo.commit("a", "x: dgemv fix", {{"kernel/x86_64/dgemv.c", "dgemv\n"}}, repo.head("develop"));
    sha["y1"] = repo.commit("b", "y: dgemv follow-up", {{"kernel/x86_64/dgemv.c", "dgemv 2\n"}}, repo.head("a"));
    repo.merge_pull_request("develop", "b", 15, "Title B");
    repo.merge_pull_request("develop", "a", 16, "Title A");  // brings nothing new: B merged x1 already

    sha["release"] = repo.commit("develop", "Release 0.3.29", {{"Makefile.rule", "VERSION = 0.3.29\n"}});
  }

  static const MinedCommit* kept(const WalkResult& r, const std::string& name) {
    for (const auto& m : r.commits) {
      if (m.info.sha == sha.at(name)) return &m;
    }
    return nullptr;
  }

  static GitRepo open() { return GitRepo::open(dir->path()); }
  static std::string head(const std::string& branch) { return repo_->head(branch); }

  static inline TempDir* dir = nullptr;
  static inline SyntheticRepo* repo_ = nullptr;
  static inline std::map<std::string, std::string> sha;  // commits by the names used below
};

TEST_F(WalkScenario, KeepsKernelCommitsAndCountsWhyOthersWentAway) {
  GitRepo r = open();
  const WalkResult res = walk_commits(r, "develop");
  const WalkSummary& s = res.summary;
  EXPECT_EQ(s.tip, head("develop"));
  EXPECT_EQ(s.seen, 27u);
  EXPECT_EQ(s.kept, 9u);
  EXPECT_EQ(res.commits.size(), 9u);
  EXPECT_FALSE(s.shallow);
  const std::map<std::string, size_t> expected{{drop_reason::kImport, 1},   {drop_reason::kBuildCiDocs, 2},
                                               {drop_reason::kVersion, 2},  {drop_reason::kFormatting, 1},
                                               {drop_reason::kReverted, 2}, {drop_reason::kRevert, 2},
                                               {drop_reason::kMerge, 7},    {drop_reason::kNoKernelCode, 1}};
  EXPECT_EQ(s.dropped, expected);
  size_t total = s.kept;
  for (const auto& [reason, n] : s.dropped) total += n;
  EXPECT_EQ(total, s.seen);

  for (const char* name : {"daxpy", "s1", "s2", "f1", "d1", "l1", "big", "x1", "y1"})
    EXPECT_NE(kept(res, name), nullptr) << name;
  for (const char* name : {"ddot", "b1", "format", "s3", "interface"}) EXPECT_EQ(kept(res, name), nullptr) << name;

  // Newest first: a commit comes before its parents.
  std::map<std::string, size_t> pos;
  for (size_t k = 0; k < res.commits.size(); ++k) pos[res.commits[k].info.sha] = k;
  EXPECT_LT(pos.at(sha["s2"]), pos.at(sha["s1"]));
  EXPECT_LT(pos.at(sha["y1"]), pos.at(sha["x1"]));
  EXPECT_LT(pos.at(sha["s1"]), pos.at(sha["daxpy"]));
}

TEST_F(WalkScenario, PullRequestTitlesJoinTheCommitsTheyMerged) {
  GitRepo r = open();
  const WalkResult res = walk_commits(r, "develop");
  EXPECT_EQ(res.summary.pull_requests, 6u);
  EXPECT_EQ(res.summary.pr_titles_joined, 6u);
  EXPECT_EQ(kept(res, "s1")->pr_title, "Faster SGEMM on Haswell");
  EXPECT_EQ(kept(res, "s2")->pr_title, "Faster SGEMM on Haswell");
  // Nested: a commit of the inner pull request keeps its title; the outer one merged the rest of its branch.
  EXPECT_EQ(kept(res, "f1")->pr_title, "RISC-V vector kernels");
  EXPECT_EQ(kept(res, "d1")->pr_title, "RVV dot product");
  // x1 reached develop through #15; #16 merged nothing new.
  EXPECT_EQ(kept(res, "x1")->pr_title, "Title B");
  EXPECT_EQ(kept(res, "y1")->pr_title, "Title B");
  EXPECT_EQ(kept(res, "l1")->pr_title, "");     // a plain merge names no pull request
  EXPECT_EQ(kept(res, "daxpy")->pr_title, "");  // committed to develop directly
  EXPECT_EQ(kept(res, "s1")->text(), "Faster SGEMM on Haswell\n\nsgemm: unroll by 8");
}

TEST_F(WalkScenario, InnerPullRequestsCountWhenWalkedFromTheirOwnBranch) {
  GitRepo r = open();
  const std::vector<CommitInfo> h = r.history(head("feature"));
  const std::vector<std::string> titles = pull_request_titles(h);
  for (size_t k = 0; k < h.size(); ++k) {
    if (h[k].sha == sha["d1"]) {
      EXPECT_EQ(titles[k], "RVV dot product");
    }
    if (h[k].sha == sha["f1"]) {
      EXPECT_EQ(titles[k], "");
    }
  }
}

TEST_F(WalkScenario, DiffsHoldOnlyKernelFilesAndAreCapped) {
  GitRepo r = open();
  WalkOptions opt;
  opt.max_diff_bytes = 4096;
  const WalkResult res = walk_commits(r, "develop", FilterRules{}, opt);
  const MinedCommit* big = kept(res, "big");
  ASSERT_NE(big, nullptr);
  EXPECT_TRUE(big->diff_truncated);
  EXPECT_LE(big->diff.size(), 4096u);
  EXPECT_GT(big->diff.size(), 3500u);
  EXPECT_NE(big->diff.find("kernel/x86_64/big.S"), std::string::npos);
  EXPECT_EQ(big->diff.find("Makefile"), std::string::npos);
  ASSERT_EQ(big->kernel_files.size(), 1u);
  EXPECT_EQ(big->kernel_files[0].path, "kernel/x86_64/big.S");
  EXPECT_EQ(big->kernel_files[0].status, 'A');
  EXPECT_EQ(big->kernel_files[0].additions, 2000u);  // counted past the cap
  EXPECT_EQ(res.summary.diffs_truncated, 1u);

  const MinedCommit* s2 = kept(res, "s2");
  ASSERT_NE(s2, nullptr);
  EXPECT_FALSE(s2->diff_truncated);
  EXPECT_NE(s2->diff.find("-unroll 19\n+prefetch\n"), std::string::npos) << s2->diff;
  ASSERT_EQ(s2->kernel_files.size(), 1u);
  EXPECT_EQ(s2->kernel_files[0].additions, 1u);
  EXPECT_EQ(s2->kernel_files[0].deletions, 1u);
}

TEST_F(WalkScenario, ProgressReachesTheTotal) {
  GitRepo r = open();
  std::vector<std::pair<size_t, size_t>> calls;
  WalkOptions opt;
  opt.progress = [&](size_t done, size_t total) { calls.emplace_back(done, total); };
  walk_commits(r, "develop", FilterRules{}, opt);
  ASSERT_FALSE(calls.empty());
  EXPECT_EQ(calls.back(), std::make_pair(size_t{27}, size_t{27}));
  EXPECT_TRUE(std::is_sorted(calls.begin(), calls.end()));
}

TEST_F(WalkScenario, RulesAreConfigurable) {
  GitRepo r = open();
  FilterRules rules;
  rules.max_added_files = 1000;  // the initial import now counts as kernel work
  rules.drop_formatting = false;
  rules.kernel_prefixes.push_back("interface/");
  const WalkResult res = walk_commits(r, "develop", rules);
  EXPECT_EQ(res.summary.kept, 12u);
  EXPECT_EQ(res.summary.dropped.count(drop_reason::kImport), 0u);
  EXPECT_NE(kept(res, "format"), nullptr);
  EXPECT_NE(kept(res, "interface"), nullptr);
}

TEST_F(WalkScenario, AMissingBranchListsTheBranches) {
  GitRepo r = open();
  try {
    walk_commits(r, "master");
    FAIL() << "expected NotFoundError";
  } catch (const NotFoundError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("'master'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("develop"), std::string::npos) << msg;
    EXPECT_NE(msg.find("pr-sgemm"), std::string::npos) << msg;
  }
}

// OpenBLAS's release flow: develop is merged into master by a pull request, and master back into develop.
// The release pull request merged every commit of the cycle again; they keep the pull requests that
// brought them, and commits made on develop directly get no title.
TEST(Walk, AReleasePullRequestDoesNotClaimTheCommitsItCarries) {
  TempDir dir(fs::temp_directory_path(), "eok-walk-");
  SyntheticRepo repo(dir.path());
  const std::string base = repo.commit("develop", "base", {{"kernel/a.c", "0\n"}});
  repo.set_branch("master", base);
  const std::string x = repo.commit("feature", "x: faster kernel", {{"kernel/a.c", "1\n"}}, base);
  repo.merge_pull_request("develop", "feature", 20, "Feature X");
  const std::string direct = repo.commit("develop", "direct: tune kernel", {{"kernel/c.c", "c\n"}});
  const std::string fix = repo.commit("hotfix", "fix: kernel crash", {{"kernel/b.c", "fix\n"}}, base);
  repo.merge_pull_request("master", "hotfix", 22, "Hotfix on master");
  repo.merge_pull_request("master", "develop", 21, "Release 1.0");
  repo.merge("develop", "master", "Merge branch 'master' into develop");
  GitRepo r = GitRepo::open(dir.path());
  const WalkResult res = walk_commits(r, "develop");
  std::map<std::string, std::string> title;
  for (const auto& m : res.commits) title[m.info.sha] = m.pr_title;
  EXPECT_EQ(title.at(x), "Feature X");
  EXPECT_EQ(title.at(direct), "");
  EXPECT_EQ(title.at(fix),
            "Hotfix on master");  // came to develop by a plain merge: the pull request that merged it elsewhere
  EXPECT_EQ(res.summary.pull_requests, 3u);
}

TEST(Walk, ARemoteTrackingBranchServesForItsName) {
  TempDir dir(fs::temp_directory_path(), "eok-walk-");
  SyntheticRepo repo(dir.path());
  const std::string a = repo.commit("origin/develop", "Add kernel", {{"kernel/a.c", "a\n"}});
  GitRepo r = GitRepo::open(dir.path());
  const WalkResult res = walk_commits(r, "develop");
  EXPECT_EQ(res.summary.tip, a);
  EXPECT_EQ(res.summary.seen, 1u);
  EXPECT_EQ(res.summary.kept, 1u);
}

TEST(Walk, AShallowCloneIsMinedAsFarAsItGoes) {
  TempDir dir(fs::temp_directory_path(), "eok-walk-");
  SyntheticRepo repo(dir.path());
  repo.commit("develop", "k0", {{"kernel/a.c", "0\n"}});
  repo.commit("develop", "k1", {{"kernel/a.c", "1\n"}});
  const std::string k2 = repo.commit("develop", "k2", {{"kernel/a.c", "2\n"}});
  const std::string k3 = repo.commit("develop", "k3", {{"kernel/a.c", "3\n"}});
  const std::string k4 = repo.commit("develop", "k4", {{"kernel/a.c", "4\n"}});
  repo.make_shallow(k2);
  GitRepo r = GitRepo::open(dir.path());
  const WalkResult res = walk_commits(r, "develop");
  EXPECT_TRUE(res.summary.shallow);
  EXPECT_EQ(res.summary.seen, 3u);
  EXPECT_EQ(res.summary.kept, 2u);
  EXPECT_EQ(res.summary.dropped, (std::map<std::string, size_t>{{drop_reason::kShallowBoundary, 1}}));
  ASSERT_EQ(res.commits.size(), 2u);
  EXPECT_EQ(res.commits[0].info.sha, k4);
  EXPECT_EQ(res.commits[1].info.sha, k3);
}

}  // namespace
}  // namespace eok::idea_pool
