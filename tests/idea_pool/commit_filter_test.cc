#include "idea_pool/commit_filter.h"

#include <gtest/gtest.h>

#include "support/synthetic_repo.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"

namespace eok::idea_pool {
namespace {

namespace fs = std::filesystem;

CommitInfo info(const std::string& title, const std::string& body = "", std::vector<std::string> parents = {"p"}) {
  CommitInfo c;
  c.sha = std::string(40, 'c');
  c.parents = std::move(parents);
  c.title = title;
  c.message = title + (body.empty() ? "\n" : "\n\n" + body + "\n");
  return c;
}

FileChange change(const std::string& path, char status) {
  FileChange f;
  f.path = path;
  f.status = status;
  return f;
}

std::vector<FileChange> touched(std::initializer_list<std::string> paths, char status = 'M') {
  std::vector<FileChange> out;
  for (const auto& p : paths) out.push_back(change(p, status));
  return out;
}

std::string reason(const CommitFilter& f, const CommitInfo& c, const std::vector<FileChange>& files) {
  const FilterVerdict v = f.classify(c, files, nullptr);
  EXPECT_EQ(v.keep, v.reason.empty());
  return v.keep ? "kept" : v.reason;
}

TEST(PathPatterns, DirectoriesNamesAndPaths) {
  EXPECT_TRUE(path_matches(".github/", ".github/workflows/ci.yml"));
  EXPECT_FALSE(path_matches(".github/", "kernel/.github/x"));
  EXPECT_TRUE(path_matches("Makefile*", "Makefile"));
  EXPECT_TRUE(path_matches("Makefile*", "kernel/Makefile.L3"));
  EXPECT_TRUE(path_matches("*.cmake", "cmake/system.cmake"));
  EXPECT_FALSE(path_matches("*.cmake", "cmake/system.cmake.bak"));
  EXPECT_TRUE(path_matches("CMakeLists.txt", "driver/level3/CMakeLists.txt"));
  EXPECT_TRUE(path_matches("kernel/*.txt", "kernel/notes.txt"));
  EXPECT_FALSE(path_matches("kernel/*.txt", "kernel/x86/notes.txt"));  // '*' does not cross '/'
  EXPECT_FALSE(path_matches("", "anything"));
}

TEST(CommitFilter, KernelFilesAreSourcesUnderTheKernelTree) {
  const CommitFilter f(FilterRules{});
  EXPECT_TRUE(f.is_kernel_file("kernel/x86_64/dgemm_kernel_4x8_haswell.S"));
  EXPECT_TRUE(f.is_kernel_file("kernel/riscv64/axpy_rvv.c"));
  EXPECT_TRUE(f.is_kernel_file("kernel/arm64/dznrm2_thunderx2t99.c"));
  EXPECT_TRUE(f.is_kernel_file("kernel/power/sgemm_kernel_power9.s"));
  EXPECT_FALSE(f.is_kernel_file("kernel/x86_64/KERNEL.HASWELL"));
  EXPECT_FALSE(f.is_kernel_file("kernel/Makefile.L3"));
  EXPECT_FALSE(f.is_kernel_file("driver/level3/level3.c"));
  EXPECT_FALSE(f.is_kernel_file("kernel/x86_64/a.C"));  // extensions are case-sensitive
  EXPECT_FALSE(f.is_kernel_file("kernel/x.d/readme"));

  FilterRules more;
  more.kernel_prefixes.push_back("lapack/");
  EXPECT_TRUE(CommitFilter(more).is_kernel_file("lapack/getrf/getrf_single.c"));
}

TEST(CommitFilter, EachRuleHasItsReason) {
  const CommitFilter f(FilterRules{});
  const auto kernel = touched({"kernel/x86_64/daxpy.c"});
  EXPECT_EQ(reason(f, info("Optimise daxpy for Haswell"), kernel), "kept");
  EXPECT_EQ(reason(f, info("Merge branch 'develop'", "", {"a", "b"}), kernel), drop_reason::kMerge);
  EXPECT_EQ(reason(f, info("Revert \"Optimise daxpy\"", "This reverts commit " + std::string(40, 'a') + "."), kernel),
            drop_reason::kRevert);
  EXPECT_EQ(reason(f, info("revert accidental direct commit to develop"), kernel), drop_reason::kRevert);
  EXPECT_EQ(reason(f, info("Update version to 0.3.28"), touched({"Makefile.rule"})), drop_reason::kVersion);
  EXPECT_EQ(reason(f, info("Bump actions/checkout from 3 to 4"), touched({".github/workflows/c.yml"})),
            drop_reason::kVersion);
  EXPECT_EQ(reason(f, info("Release 0.3.27"), kernel), drop_reason::kVersion);
  EXPECT_EQ(reason(f, info("0.3.21"), kernel), drop_reason::kVersion);
  EXPECT_EQ(reason(f, info("Fix CI"), touched({".github/workflows/c.yml", "azure-pipelines.yml", "ci/run.sh"})),
            drop_reason::kBuildCiDocs);
  EXPECT_EQ(reason(f, info("Docs"), touched({"docs/install.md", "README.md", "Changelog.txt"})),
            drop_reason::kBuildCiDocs);
  EXPECT_EQ(reason(f, info("Build"),
                   touched({"CMakeLists.txt", "cmake/arch.cmake", "Makefile.system", "kernel/Makefile.L1"})),
            drop_reason::kBuildCiDocs);
  EXPECT_EQ(reason(f, info("Tests"), touched({"utest/test_axpy.c", "Makefile"})), drop_reason::kNoKernelCode);
  EXPECT_EQ(reason(f, info("Select the new kernel"), touched({"kernel/x86_64/KERNEL.HASWELL"})),
            drop_reason::kNoKernelCode);
  EXPECT_EQ(reason(f, info("Empty"), {}), drop_reason::kNoKernelCode);
  // A kernel change that also edits the build is kept.
  EXPECT_EQ(reason(f, info("New RVV kernel"),
                   touched({"kernel/riscv64/axpy_rvv.c", "kernel/riscv64/KERNEL.RISCV64_ZVL256B", "CMakeLists.txt"})),
            "kept");
  // A title that only mentions a version in passing is not a bump.
  EXPECT_EQ(reason(f, info("Fix sgemm for old compiler versions"), kernel), "kept");
}

TEST(CommitFilter, ImportsAreCountedByAddedFiles) {
  FilterRules rules;
  rules.max_added_files = 3;
  const CommitFilter f(rules);
  const auto three = touched({"kernel/a.c", "kernel/b.c", "kernel/c.c"}, 'A');
  auto four = three;
  four.push_back(change("kernel/d.c", 'A'));
  EXPECT_EQ(reason(f, info("Add kernels"), three), "kept");
  EXPECT_EQ(reason(f, info("Import LAPACK"), four), drop_reason::kImport);
  auto edits = touched({"kernel/a.c", "kernel/b.c", "kernel/c.c", "kernel/d.c", "kernel/e.c"}, 'M');
  EXPECT_EQ(reason(f, info("Touch many"), edits), "kept");  // modifying many files is not an import
}

TEST(CommitFilter, ReverteeIsDroppedWithTheRevert) {
  const std::string target(40, 'a');
  std::unordered_set<std::string> reverted{target};
  const CommitFilter f(FilterRules{}, reverted);
  CommitInfo c = info("Optimise daxpy");
  c.sha = target;
  EXPECT_EQ(reason(f, c, touched({"kernel/x86_64/daxpy.c"})), drop_reason::kReverted);
}

CommitInfo with_sha(CommitInfo c, char fill) {
  c.sha = std::string(40, fill);
  return c;
}

TEST(RevertedCommits, PairsCancelAndARevertOfARevertRestores) {
  const std::string x(40, '1'), y(40, '2'), r1(40, '3'), r2(40, '4');
  // Newest first: r2 reverts r1, r1 reverts x; y is reverted by an abbreviated id in the title.
  std::vector<CommitInfo> commits{
      with_sha(info("Revert \"Revert \\\"x\\\"\"", "This reverts commit " + r1 + "."), '4'),
      with_sha(info("Revert 2222222 (\"y\")"), '5'),
      with_sha(info("Revert \"x\"", "This reverts commit " + x + "."), '3'),
      with_sha(info("y"), '2'),
      with_sha(info("x"), '1'),
  };
  const auto cancelled = reverted_commits(commits);
  EXPECT_EQ(cancelled, (std::unordered_set<std::string>{r1, y}));
}

TEST(RevertedCommits, AnAmbiguousOrUnknownIdCancelsNothing) {
  std::vector<CommitInfo> commits{with_sha(info("Revert abcdef1 (\"gone\")"), '9'), with_sha(info("x"), '1')};
  EXPECT_TRUE(reverted_commits(commits).empty());
}

TEST(CommitFilter, ABadPatternIsAConfigError) {
  FilterRules rules;
  rules.version_title_patterns.push_back("(unclosed");
  EXPECT_THROW(CommitFilter{rules}, ConfigError);
}

TEST(CommitFilter, FormattingNeedsTheRepository) {
  TempDir dir(fs::temp_directory_path(), "eok-filter-");
  testing::SyntheticRepo repo(dir.path());
  repo.commit("main", "base", {{"kernel/a.c", "int a;\nint b;\n"}, {"Makefile", "x\n"}});
  const std::string fmt =
      repo.commit("main", "Reformat", {{"kernel/a.c", "int  a;\n\n  int b;\n"}, {"Makefile", "y\n"}});
  const std::string real = repo.commit("main", "Real", {{"kernel/a.c", "int a;\nint c;\n"}});
  GitRepo r = GitRepo::open(dir.path());
  const CommitFilter f(FilterRules{});
  const CommitInfo cf = r.commit(fmt);
  EXPECT_EQ(f.classify(cf, r.changed_files(cf, false), &r).reason, drop_reason::kFormatting);
  EXPECT_TRUE(f.classify(cf, r.changed_files(cf, false), nullptr).keep);  // no repository: the rule is skipped
  const CommitInfo cr = r.commit(real);
  EXPECT_TRUE(f.classify(cr, r.changed_files(cr, false), &r).keep);
  FilterRules lenient;
  lenient.drop_formatting = false;
  EXPECT_TRUE(CommitFilter(lenient).classify(cf, r.changed_files(cf, false), &r).keep);
}

}  // namespace
}  // namespace eok::idea_pool
