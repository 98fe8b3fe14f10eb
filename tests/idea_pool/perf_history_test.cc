#include "idea_pool/perf_history.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "support/perf_test_support.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "support/shared_data.h"

namespace eok::idea_pool {
namespace {

namespace fs = std::filesystem;
using testing::perf_build_line;
using testing::PerfTestBenchmark;
using testing::PerfTestLogEntry;
using testing::PerfTestRepo;
using testing::write_asv_run;
using testing::write_gh_pages_log;

constexpr int64_t kStart = 1719000000000;  // 2024-06-21, ms
constexpr int64_t kHour = 3600 * 1000;

// A fake BLAS-Benchmarks commit per workflow run (the run files are named after it).
std::string bench_commit(int i) {
  char buf[41];
  std::snprintf(buf, sizeof buf, "%08x%032d", 0xab000000u + static_cast<unsigned>(i), i);
  return buf;
}

PerfTestBenchmark gemm(const std::vector<double>& times, const std::string& version = "v1") {
  PerfTestBenchmark b;
  b.version = version;
  b.params = {{"100", "200", "400"}, {"'s'", "'d'"}};
  for (double t : times) b.values.push_back(t);
  return b;
}

std::vector<double> scaled(const std::vector<double>& v, double factor) {
  std::vector<double> out;
  for (double x : v) out.push_back(x * factor);
  return out;
}

// ----- asv parsing -----------------------------------------------------------------------------------

TEST(PerfHistoryLoad, ReadsParamsProductsAndNulls) {
  TempDir dir(fs::temp_directory_path(), "eok-perf-");
  PerfTestBenchmark b;
  b.params = {{"1", "2"}, {"a", "b", "c"}};
  b.values = {1.0, 2.0, std::nullopt, 4.0, 5.0, 6.0};
  PerfTestBenchmark plain;
  plain.params = {};
  plain.values = {0.5};
  write_asv_run(dir.path(), "m", bench_commit(1), kStart, {{"bench.b", b}, {"bench.plain", plain}});
  const PerfHistory h = load_perf_history(dir.path());
  ASSERT_EQ(h.runs.size(), 1u);
  const PerfRun& r = h.runs[0];
  EXPECT_EQ(r.machine, "m");
  EXPECT_EQ(r.benchmark_commit, bench_commit(1));
  const BenchmarkResult& got = r.benchmarks.at("bench.b");
  ASSERT_EQ(got.values.size(), 6u);
  EXPECT_FALSE(got.values[2].has_value());
  EXPECT_DOUBLE_EQ(*got.values[4], 5.0);
  EXPECT_EQ(got.point_label(0), "1, a");
  EXPECT_EQ(got.point_label(4), "2, b");  // the last parameter varies fastest
  EXPECT_EQ(got.version, "v1");
  ASSERT_EQ(got.ci_low.size(), 6u);
  EXPECT_DOUBLE_EQ(*got.ci_high[0], 1.01);
  const BenchmarkResult& one = r.benchmarks.at("bench.plain");
  ASSERT_EQ(one.values.size(), 1u);
  EXPECT_EQ(one.point_label(0), "");
  EXPECT_EQ(r.finished_ms, kStart + 2000);  // two benchmarks, one second each
}

TEST(PerfHistoryLoad, AFailedBenchmarkIsAllNulls) {
  TempDir dir(fs::temp_directory_path(), "eok-perf-");
  fs::create_directories(dir.path() / "results" / "m");
  write_file_atomic(dir.path() / "results" / "m" / "aaaaaaaa-env.json", R"({"version": 2, "commit_hash": "aaaaaaaa",
    "results": {"bench.x": [null, [["1", "2"]], "v9", 1719000000000, 1.0]}})");
  const PerfHistory h = load_perf_history(dir.path());
  ASSERT_EQ(h.runs.size(), 1u);
  const auto& x = h.runs[0].benchmarks.at("bench.x");
  ASSERT_EQ(x.values.size(), 2u);
  EXPECT_FALSE(x.values[0] || x.values[1]);
  EXPECT_TRUE(x.ci_low.empty());  // the row ends before the interval columns
}

TEST(PerfHistoryLoad, CorruptAndPartialFilesAreCountedWarnings) {
  TempDir dir(fs::temp_directory_path(), "eok-perf-");
  const fs::path m = dir.path() / "results" / "m";
  write_asv_run(dir.path(), "m", bench_commit(1), kStart, {{"bench.gemm", gemm({1, 2, 3, 4, 5, 6})}});
  write_file_atomic(m / "bbbbbbbb-env.json", "{\"version\": 2, \"results\": {");  // cut off mid-write
  write_file_atomic(m / "cccccccc-env.json", R"({"version": 1, "results": {}})");
  write_file_atomic(m / "dddddddd-env.json", R"({"version": 2, "results": {
    "bench.short": [[1.0, 2.0], [["1", "2", "3"]], "v1", 1719000000000, 1.0],
    "bench.ok": [[1.0, 2.0, 3.0], [["1", "2", "3"]], "v1", 1719000000000, 1.0]}})");
  write_file_atomic(m / "eeeeeeee-env.json",
                    R"({"version": 2, "results": {"bench.short": [[1.0], [["1", "2"]], "v1", 0, 1]}})");
  write_file_atomic(m / "machine.json", R"({"machine": "m", "version": 1})");  // not a run
  const PerfHistory h = load_perf_history(dir.path());
  EXPECT_EQ(h.files_seen, 5u);
  ASSERT_EQ(h.runs.size(), 2u);  // the good one, and the partial one without its bad benchmark
  size_t corrupt = 0, format = 0, partial = 0, skipped = 0;
  for (const auto& w : h.warnings) {
    corrupt += w.find("bbbbbbbb-env.json: not valid JSON") != std::string::npos;
    format += w.find("cccccccc-env.json: asv result format 1") != std::string::npos;
    partial +=
        w.find("dddddddd-env.json: 1 benchmark unusable (bench.short has 2 results for 3 parameter combinations)") !=
        std::string::npos;
    skipped += w.find("eeeeeeee-env.json") != std::string::npos && w.find("skipped") != std::string::npos;
  }
  EXPECT_EQ(corrupt + format + partial + skipped, 4u) << ::testing::PrintToString(h.warnings);
  const auto partial_run =
      std::find_if(h.runs.begin(), h.runs.end(), [](const PerfRun& r) { return r.benchmark_commit == "dddddddd"; });
  ASSERT_NE(partial_run, h.runs.end());
  EXPECT_EQ(partial_run->benchmarks.count("bench.ok"), 1u);
  EXPECT_EQ(partial_run->benchmarks.count("bench.short"), 0u);
}

TEST(PerfHistoryLoad, ResultFilesThatAreNotRegularFilesAreSkippedWithTheReason) {
  TempDir dir(fs::temp_directory_path(), "eok-perf-");
  write_asv_run(dir.path(), "m", bench_commit(1), kStart, {{"bench.gemm", gemm({1, 2, 3, 4, 5, 6})}});
  fs::create_symlink("/proc/self/status", dir.path() / "results" / "m" / "ffffffff-env.json");
  const PerfHistory h = load_perf_history(dir.path());
  EXPECT_EQ(h.files_seen, 2u);
  EXPECT_EQ(h.runs.size(), 1u);
  bool said = false;
  for (const auto& w : h.warnings)
    said |= w.find("ffffffff-env.json") != std::string::npos && w.find("/proc or /sys") != std::string::npos;
  EXPECT_TRUE(said) << ::testing::PrintToString(h.warnings);
}

TEST(PerfHistoryLoad, NoResultsAtAllIsAnError) {
  TempDir dir(fs::temp_directory_path(), "eok-perf-");
  EXPECT_THROW(load_perf_history(dir.path() / "missing"), NotFoundError);
  try {
    load_perf_history(dir.path());
    FAIL() << "an empty folder loaded";
  } catch (const NotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("holds no asv results"), std::string::npos) << e.what();
  }
  fs::create_directories(dir.path() / "results" / "m");
  write_file_atomic(dir.path() / "results" / "m" / "aaaaaaaa-env.json", "not json");
  EXPECT_THROW(load_perf_history(dir.path()), CorruptDataError);
}

// ----- the gh-pages log ------------------------------------------------------------------------------

TEST(PerfHistoryLog, TiesRunsToBuildsAndCores) {
  TempDir dir(fs::temp_directory_path(), "eok-perf-");
  write_asv_run(dir.path(), "sky", bench_commit(1), kStart, {{"bench.gemm", gemm({1, 2, 3, 4, 5, 6})}});
  write_asv_run(dir.path(), "grav", bench_commit(1), kStart + 5000, {{"bench.gemm", gemm({1, 2, 3, 4, 5, 6})}});
  write_gh_pages_log(
      dir.path(),
      {{kStart + 40000,
        {{"sky", perf_build_line(350, "SkylakeX")},
         {"grav", "0.3.27.350.0 - OpenBLAS 0.3.27.dev DYNAMIC_ARCH NO_AFFINITY neoversev1 MAX_THREADS=64"}}}});
  const PerfHistory h = load_perf_history(dir.path());
  EXPECT_TRUE(h.warnings.empty()) << ::testing::PrintToString(h.warnings);
  EXPECT_EQ(h.log_entries, 1u);
  ASSERT_EQ(h.runs.size(), 2u);
  for (const auto& r : h.runs) {
    EXPECT_EQ(r.build_number, 350) << r.machine;
    EXPECT_EQ(r.core, r.machine == "sky" ? "SkylakeX" : "neoversev1");
  }
  EXPECT_EQ(h.runs[0].machine, "grav");  // sorted by machine
  EXPECT_EQ(h.runs[0].build_version, "0.3.27.350.0");
}

TEST(PerfHistoryLog, InterleavedWorkflowRunsMatchByTheirMachines) {
  // As on 2024-06-21: run X (two machines) and run Y (three machines) finish within a minute of each
  // other, and one machine finishes Y before X. Each publication names its machines.
  TempDir dir(fs::temp_directory_path(), "eok-perf-");
  const auto b = gemm({1, 2, 3, 4, 5, 6});
  write_asv_run(dir.path(), "a", bench_commit(1), kStart + 30000, {{"bench.gemm", b}});  // X on a: finishes last
  write_asv_run(dir.path(), "b", bench_commit(1), kStart, {{"bench.gemm", b}});
  write_asv_run(dir.path(), "a", bench_commit(2), kStart + 20000, {{"bench.gemm", b}});  // Y on a: finishes first
  write_asv_run(dir.path(), "b", bench_commit(2), kStart + 50000, {{"bench.gemm", b}});
  write_asv_run(dir.path(), "c", bench_commit(2), kStart + 10000, {{"bench.gemm", b}});
  write_gh_pages_log(
      dir.path(),
      {{kStart + 45000, {{"a", perf_build_line(10, "Zen")}, {"b", perf_build_line(10, "Zen")}}},
       {kStart + 70000,
        {{"a", perf_build_line(11, "Zen")}, {"b", perf_build_line(11, "Zen")}, {"c", perf_build_line(11, "Zen")}}}});
  const PerfHistory h = load_perf_history(dir.path());
  EXPECT_TRUE(h.warnings.empty()) << ::testing::PrintToString(h.warnings);
  for (const auto& r : h.runs) EXPECT_EQ(r.build_number, r.benchmark_commit == bench_commit(1) ? 10 : 11) << r.machine;
}

TEST(PerfHistoryLog, MissingLogOrEntriesAreWarnings) {
  TempDir dir(fs::temp_directory_path(), "eok-perf-");
  write_asv_run(dir.path(), "m", bench_commit(1), kStart, {{"bench.gemm", gemm({1, 2, 3, 4, 5, 6})}});
  write_asv_run(dir.path(), "m", bench_commit(2), kStart + 5 * kHour, {{"bench.gemm", gemm({1, 2, 3, 4, 5, 6})}});
  write_asv_run(dir.path(), "n", bench_commit(2), kStart + 5 * kHour, {{"bench.gemm", gemm({1, 2, 3, 4, 5, 6})}});
  {
    const PerfHistory h = load_perf_history(dir.path());
    ASSERT_EQ(h.warnings.size(), 1u);
    EXPECT_NE(h.warnings[0].find("no gh-pages-log.txt"), std::string::npos);
    for (const auto& r : h.runs) EXPECT_EQ(r.build_number, -1);
  }
  // The log names the second run on m only (n's version line is missing), and not the first at all.
  write_gh_pages_log(dir.path(), {{kStart + 5 * kHour + 30000, {{"m", perf_build_line(7, "Zen")}}}});
  const PerfHistory h = load_perf_history(dir.path());
  ASSERT_EQ(h.warnings.size(), 2u) << ::testing::PrintToString(h.warnings);
  size_t unpublished = 0, no_line = 0;
  for (const auto& w : h.warnings) {
    unpublished += w.find("no gh-pages log entry published it") != std::string::npos;
    no_line += w.find("has no version line for n") != std::string::npos;
  }
  EXPECT_EQ(unpublished, 1u);
  EXPECT_EQ(no_line, 1u);
  for (const auto& r : h.runs)
    EXPECT_EQ(r.build_number, r.machine == "m" && r.benchmark_commit == bench_commit(2) ? 7 : -1);
}

// ----- paths and cores -------------------------------------------------------------------------------

TEST(PerfRelevance, CoresHaveArchitectures) {
  EXPECT_EQ(arch_of_core("SkylakeX"), "x86_64");
  EXPECT_EQ(arch_of_core("Zen"), "x86_64");
  EXPECT_EQ(arch_of_core("Haswell"), "x86_64");
  EXPECT_EQ(arch_of_core("neoversev1"), "arm64");
  EXPECT_EQ(arch_of_core("NEOVERSEN2"), "arm64");
  EXPECT_EQ(arch_of_core("x280"), "riscv64");
  EXPECT_EQ(arch_of_core("RISCV64_ZVL256B"), "riscv64");
  EXPECT_EQ(arch_of_core("POWER10"), "power");
  EXPECT_EQ(arch_of_core("something"), "");
}

TEST(PerfRelevance, OnlyPathsBuiltForTheArchitectureCount) {
  // Another architecture's kernels cannot move these numbers.
  EXPECT_FALSE(path_affects_arch("kernel/riscv64/dot_rvv.c", "x86_64"));
  EXPECT_FALSE(path_affects_arch("kernel/riscv64/dot_rvv.c", "arm64"));
  EXPECT_TRUE(path_affects_arch("kernel/riscv64/dot_rvv.c", "riscv64"));
  EXPECT_FALSE(path_affects_arch("kernel/arm64/sgemm_kernel_sve_v1x8.S", "x86_64"));
  EXPECT_TRUE(path_affects_arch("kernel/arm64/sgemm_kernel_sve_v1x8.S", "arm64"));
  EXPECT_TRUE(path_affects_arch("kernel/arm64/gemv_n_sve.c", "riscv64"));  // riscv64 reuses arm64 files
  EXPECT_FALSE(path_affects_arch("kernel/x86_64/dgemm_kernel_4x8_skylakex.c", "arm64"));
  EXPECT_FALSE(path_affects_arch("kernel/x86/scal.S", "x86_64"));  // 32-bit x86 only
  // Shared C kernels and everything outside kernel/ count for all.
  EXPECT_TRUE(path_affects_arch("kernel/arm/nrm2.c", "x86_64"));
  EXPECT_TRUE(path_affects_arch("kernel/generic/gemm_beta.c", "arm64"));
  EXPECT_TRUE(path_affects_arch("kernel/Makefile.L3", "arm64"));
  EXPECT_TRUE(path_affects_arch("interface/gemm.c", "x86_64"));
  EXPECT_TRUE(path_affects_arch("lapack-netlib/SRC/dgesdd.f", "arm64"));
  EXPECT_TRUE(path_affects_arch("param.h", "x86_64"));
  EXPECT_TRUE(path_affects_arch("Makefile.system", "x86_64"));
  // Per-architecture build and dispatch files.
  EXPECT_FALSE(path_affects_arch("Makefile.arm64", "x86_64"));
  EXPECT_TRUE(path_affects_arch("Makefile.arm64", "arm64"));
  EXPECT_FALSE(path_affects_arch("common_riscv64.h", "arm64"));
  EXPECT_FALSE(path_affects_arch("driver/others/dynamic_arm64.c", "x86_64"));
  EXPECT_TRUE(path_affects_arch("driver/others/dynamic.c", "x86_64"));
  EXPECT_FALSE(path_affects_arch("driver/others/dynamic.c", "arm64"));
  EXPECT_TRUE(path_affects_arch("cpuid_x86.c", "x86_64"));
  EXPECT_FALSE(path_affects_arch("Makefile.x86", "x86_64"));
  // Not built at all.
  EXPECT_FALSE(path_affects_arch("README.md", "x86_64"));
  EXPECT_FALSE(path_affects_arch("Changelog.txt", "arm64"));
  EXPECT_FALSE(path_affects_arch(".github/workflows/dynamic_arch.yml", "x86_64"));
  EXPECT_FALSE(path_affects_arch("utest/test_gemv.c", "x86_64"));
  EXPECT_FALSE(path_affects_arch("benchmark/pybench/benchmarks/bench_blas.py", "x86_64"));
  EXPECT_TRUE(path_affects_arch("CMakeLists.txt", "x86_64"));
  // An unknown machine rules nothing out but the unbuilt.
  EXPECT_TRUE(path_affects_arch("kernel/riscv64/dot_rvv.c", ""));
  EXPECT_FALSE(path_affects_arch("docs/install.md", ""));
}

// ----- builds to commits, effects ---------------------------------------------------------------------

// A history after tag v0.3.27 on develop (N = commits after the tag):
//   root (v0.3.27) - c1 (N=1) - c2 (N=2) ------------- m1 (N=5) - c3 (N=6, docs) - c4 (N=7)
//                               \- s1 (arm64) - s2 (interface) -/
class PerfHistoryRepo : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::make_unique<TempDir>(fs::temp_directory_path(), "eok-perf-repo-");
    PerfTestRepo r(dir_->path() / "lib.git");
    root = r.commit(
        "init",
        {{"README.md", "readme"}, {"kernel/x86_64/a.c", "a0"}, {"kernel/arm64/b.c", "b0"}, {"interface/gemm.c", "g0"}},
        {}, 1000);
    r.tag("v0.3.27", root);
    c1 = r.commit("Optimize x86 axpy", {{"kernel/x86_64/a.c", "a1"}}, {root}, 2000);
    c2 = r.commit("RVV dot", {{"kernel/riscv64/dot.c", "d1"}}, {c1}, 3000);
    s1 = r.commit("Unroll arm64 gemm", {{"kernel/arm64/b.c", "b1"}}, {c2}, 3500);
    s2 = r.commit("Speed up the gemm interface", {{"interface/gemm.c", "g1"}}, {s1}, 3600);
    m1 = r.commit("Merge pull request #1 from someone/gemm", {}, {c2, s2}, 4000);
    c3 = r.commit("Update the docs", {{"README.md", "readme 2"}}, {m1}, 5000);
    c4 = r.commit("Tweak x86 kernel", {{"kernel/x86_64/a.c", "a2"}}, {c3}, 6000);
    r.branch("develop", c4);
    repo_path = r.path();
  }

  // Runs of builds 2, 5 and 7 on an x86 machine (25 % faster at 5) and an arm64 machine (10 % faster at
  // 5): three runs per build a few hours apart, each published by the log.
  fs::path write_history() {
    const fs::path data = dir_->path() / "blas-benchmarks";
    const std::vector<double> base = {1, 2, 3, 4, 5, 6};
    const std::vector<double> wobble = {1.01, 1 / 1.01, 1.0};  // run-to-run noise, 1 %; the medians stay exact
    std::vector<PerfTestLogEntry> log;
    int group = 0;
    for (const auto& [n, runs] : std::vector<std::pair<int, int>>{{2, 3}, {5, 3}, {7, 2}}) {
      for (int k = 0; k < runs; ++k, ++group) {
        const int64_t t = kStart + group * kHour;
        const double x86 = (n >= 5 ? 1 / 1.25 : 1.0) * wobble[k];
        const double arm = (n >= 5 ? 1 / 1.10 : 1.0) * wobble[k];
        write_asv_run(data, "x86-box", bench_commit(group), t, {{"bench.gemm", gemm(scaled(base, x86))}});
        write_asv_run(data, "arm-box", bench_commit(group), t + 2000, {{"bench.gemm", gemm(scaled(base, arm))}});
        log.push_back(
            {t + 60000, {{"x86-box", perf_build_line(n, "SkylakeX")}, {"arm-box", perf_build_line(n, "neoversev1")}}});
      }
    }
    write_gh_pages_log(data, log);
    return data;
  }

  std::unique_ptr<TempDir> dir_;
  fs::path repo_path;
  std::string root, c1, c2, s1, s2, m1, c3, c4;
};

TEST_F(PerfHistoryRepo, BuildNumbersMapToFirstParentCommits) {
  const GitRepo repo = GitRepo::open(repo_path);
  std::vector<std::string> warnings;
  const auto builds = map_builds(repo, "develop", "v0.3.27", {1, 2, 3, 5, 7, 100}, &warnings);
  EXPECT_EQ(builds, (std::map<int64_t, std::string>{{1, c1}, {2, c2}, {5, m1}, {7, c4}}));
  ASSERT_EQ(warnings.size(), 2u) << ::testing::PrintToString(warnings);
  EXPECT_NE(warnings[0].find("no first-parent commit of develop is 3 commits after v0.3.27"), std::string::npos)
      << warnings[0];
  EXPECT_NE(warnings[1].find("build 100 is newer than develop"), std::string::npos) << warnings[1];
  // Each mapped commit really is N commits after the tag.
  for (const auto& [n, sha] : builds)
    EXPECT_EQ(static_cast<int64_t>(repo.count_between(repo.resolve("v0.3.27"), sha)), n);
  EXPECT_THROW(map_builds(repo, "no-such-branch", "v0.3.27", {1}), NotFoundError);
  warnings.clear();
  EXPECT_TRUE(map_builds(repo, "develop", "v9.9", {1}, &warnings).empty());
  EXPECT_EQ(warnings.size(), 1u);
}

TEST_F(PerfHistoryRepo, ATagOffTheFirstParentChainStillCounts) {
  // As in OpenBLAS, where v0.3.27 sits on a release branch that develop merged: counts still follow
  // rev-list --count tag..C.
  TempDir dir(fs::temp_directory_path(), "eok-perf-repo-");
  PerfTestRepo r(dir.path() / "lib.git");
  const std::string a = r.commit("a", {{"f.c", "1"}}, {}, 100);
  const std::string rel = r.commit("release 1.0", {{"VERSION", "1.0"}}, {a}, 200);
  r.tag("v1.0", rel);
  const std::string d1 = r.commit("d1", {{"f.c", "2"}}, {a}, 300);                            // N = 1
  const std::string merge = r.commit("merge release", {{"VERSION", "1.0"}}, {d1, rel}, 400);  // N = 2
  const std::string d2 = r.commit("d2", {{"f.c", "3"}}, {merge}, 500);                        // N = 3
  r.branch("develop", d2);
  const GitRepo repo = GitRepo::open(r.path());
  EXPECT_EQ(map_builds(repo, "develop", "v1.0", {1, 2, 3}),
            (std::map<int64_t, std::string>{{1, d1}, {2, merge}, {3, d2}}));
}

TEST_F(PerfHistoryRepo, EffectsGoToTheCommitsBetweenBuildsThatCanMoveTheNumbers) {
  const PerfHistory h = load_perf_history(write_history());
  ASSERT_TRUE(h.warnings.empty()) << ::testing::PrintToString(h.warnings);
  const GitRepo repo = GitRepo::open(repo_path);
  PerfEffectsReport report;
  const auto effects = measured_effects(h, repo, "develop", "v0.3.27", &report);
  EXPECT_TRUE(report.warnings.empty()) << ::testing::PrintToString(report.warnings);

  EXPECT_EQ(report.runs_loaded, 16u);
  EXPECT_EQ(report.builds, (std::map<int64_t, std::string>{{2, c2}, {5, m1}, {7, c4}}));
  ASSERT_EQ(report.comparisons.size(), 4u);
  EXPECT_EQ(report.comparisons_on("x86-box"), 2u);
  for (const auto& c : report.comparisons) {
    EXPECT_EQ(c.points, 6u);
    const bool first = c.from_build == 2;
    const double expected = first ? (c.machine == "x86-box" ? 0.25 : 0.10) : 0.0;
    EXPECT_NEAR(c.improvement, expected, 1e-9) << c.machine << " " << c.from_build;
    EXPECT_EQ(c.from_runs, 3u);
    EXPECT_EQ(c.to_runs, first ? 3u : 2u);
    EXPECT_EQ(c.commits, 2u);  // s1, s2 | c3, c4 (the merge gets no share of its own)
    EXPECT_GT(c.confidence, 0.3);
    EXPECT_LT(c.confidence, 1.0);
  }
  // Noise: runs differ by about 1 %, so a run's geometric mean has about 1 % noise.
  EXPECT_NEAR(report.machine_noise.at("x86-box"), 0.01, 0.002);

  // s1 changes only arm64 kernels: the x86 machine's +25 % is not its; the arm64 machine's +10 % is.
  ASSERT_EQ(effects.count(s1), 1u);
  EXPECT_TRUE(effects.at(s1).measured);
  EXPECT_NEAR(effects.at(s1).improvement, 0.10, 1e-9);
  EXPECT_EQ(effects.at(s1).evidence.find("x86-box"), std::string::npos);
  // s2 changes shared code: both machines, combined between their results.
  ASSERT_EQ(effects.count(s2), 1u);
  EXPECT_GT(effects.at(s2).improvement, 0.10);
  EXPECT_LT(effects.at(s2).improvement, 0.25);
  EXPECT_NE(effects.at(s2).evidence.find("x86-box runs 0.3.27.2 -> 0.3.27.5"), std::string::npos)
      << effects.at(s2).evidence;
  EXPECT_NE(effects.at(s2).evidence.find("arm-box"), std::string::npos);
  // s2 shares the x86 result with nobody (s1 is not x86-relevant), so it is surer there than s1 on arm.
  EXPECT_GT(effects.at(s2).confidence, effects.at(s1).confidence);
  // c4 changes x86 kernels after build 5: the x86 machine saw no change; c3 is docs only.
  ASSERT_EQ(effects.count(c4), 1u);
  EXPECT_NEAR(effects.at(c4).improvement, 0.0, 1e-9);
  EXPECT_EQ(effects.count(c3), 0u);
  // Before the first build, and the merge itself: nothing.
  EXPECT_EQ(effects.count(c1), 0u);
  EXPECT_EQ(effects.count(c2), 0u);
  EXPECT_EQ(effects.count(m1), 0u);
  EXPECT_EQ(report.commits_with_effect, effects.size());
  EXPECT_EQ(effects.size(), 3u);
  EXPECT_NE(report.summary().find("3/3 builds mapped, 4 comparisons"), std::string::npos) << report.summary();

  // Without path relevance every commit between builds shares every machine's result.
  PerfEffectsOptions all;
  all.path_relevance = false;
  const auto unfiltered = measured_effects(h, repo, "develop", "v0.3.27", nullptr, all);
  EXPECT_EQ(unfiltered.size(), 4u);  // s1, s2, c3, c4
  EXPECT_NE(unfiltered.at(s1).evidence.find("x86-box"), std::string::npos);
}

TEST_F(PerfHistoryRepo, OnlyPointsWithEqualVersionsAndParametersAreCompared) {
  const fs::path data = dir_->path() / "versions";
  // Build 2: gemm v1 on sizes 100/200/400 and dot v1. Build 5: gemm v2 (a new suite version: not
  // comparable), dot v1 with one point null and one size replaced (1000 for 400) under the same version.
  PerfTestBenchmark dot_old;
  dot_old.params = {{"100", "200", "400"}, {"'s'", "'d'"}};
  dot_old.values = {1, 1, 1, 1, 1, 1};
  PerfTestBenchmark dot_new = dot_old;
  dot_new.params = {{"100", "200", "1000"}, {"'s'", "'d'"}};
  dot_new.values = {0.5, std::nullopt, 0.5, 0.5, 9.0, 9.0};
  write_asv_run(data, "x86-box", bench_commit(1), kStart,
                {{"bench.gemm", gemm({1, 2, 3, 4, 5, 6})}, {"bench.dot", dot_old}});
  write_asv_run(data, "x86-box", bench_commit(2), kStart + kHour,
                {{"bench.gemm", gemm({9, 9, 9, 9, 9, 9}, "v2")}, {"bench.dot", dot_new}});
  write_gh_pages_log(data, {{kStart + 60000, {{"x86-box", perf_build_line(2, "SkylakeX")}}},
                            {kStart + kHour + 60000, {{"x86-box", perf_build_line(5, "SkylakeX")}}}});
  const GitRepo repo = GitRepo::open(repo_path);
  PerfEffectsReport report;
  PerfEffectsOptions options;
  options.min_points = 3;
  measured_effects(load_perf_history(data), repo, "develop", "v0.3.27", &report, options);
  ASSERT_EQ(report.comparisons.size(), 1u);
  const BuildComparison& c = report.comparisons[0];
  EXPECT_EQ(c.points, 3u);  // dot at (100,'s'), (100,'d'), (200,'d'): not gemm, not the null, not size 400/1000
  EXPECT_NEAR(c.improvement, 1.0, 1e-9);  // all three twice as fast
  EXPECT_EQ(c.by_benchmark.count("bench.gemm"), 0u);
  // Too few common points: not compared, and said so.
  options.min_points = 4;
  measured_effects(load_perf_history(data), repo, "develop", "v0.3.27", &report, options);
  EXPECT_TRUE(report.comparisons.empty());
  ASSERT_FALSE(report.warnings.empty());
  EXPECT_NE(report.warnings.back().find("3 common points"), std::string::npos) << report.warnings.back();
}

TEST_F(PerfHistoryRepo, AHistoryMatchingNoCommitIsAWarning) {
  const PerfHistory h = load_perf_history(write_history());
  const GitRepo repo = GitRepo::open(repo_path);
  PerfEffectsReport report;
  // The builds are numbered from another tag that this repository does not have.
  const auto effects = measured_effects(h, repo, "develop", "v0.3.26", &report);
  EXPECT_TRUE(effects.empty());
  EXPECT_TRUE(report.builds.empty());
  EXPECT_EQ(report.unmapped_builds, (std::set<int64_t>{2, 5, 7}));
  bool said = false;
  for (const auto& w : report.warnings) said = said || w.find("matches no commit") != std::string::npos;
  EXPECT_TRUE(said) << ::testing::PrintToString(report.warnings);
}

// ----- the real data ---------------------------------------------------------------------------------

// BLAS-Benchmarks' results in the team's shared data, and a full OpenBLAS clone (EOK_OPENBLAS_REPO, or
// the workspace mirror next to the source tree). Skipped when either is missing.
TEST(PerfHistorySharedData, OpenBlasBuildsMapAndCommitsGetMeasuredEffects) {
  const fs::path data = ::eok::testing::shared_data("blas-benchmarks");
  SKIP_WITHOUT_SHARED_DATA(data / "results");
  const char* clone_env = std::getenv("EOK_OPENBLAS_REPO");
  if (!clone_env || !fs::exists(clone_env))
    GTEST_SKIP() << "set EOK_OPENBLAS_REPO to a full clone of OpenBLAS to run this test";
  const fs::path clone = clone_env;
  const PerfHistory h = load_perf_history(data);
  EXPECT_GE(h.runs.size(), 200u);
  const GitRepo repo = GitRepo::open(clone);
  PerfEffectsReport report;
  const auto effects = measured_effects(h, repo, "develop", "v0.3.27", &report);
  for (int64_t n : {196, 206, 208, 233, 261, 285, 350, 364}) {
    ASSERT_EQ(report.builds.count(n), 1u) << "build " << n << " unmapped; " << report.summary();
    EXPECT_EQ(static_cast<int64_t>(repo.count_between(repo.resolve("v0.3.27"), report.builds.at(n))), n);
  }
  EXPECT_EQ(report.builds.at(364), "2c2b6bcf96d65934c37a896d8fecc89ac83e9dc1");
  EXPECT_GE(report.comparisons.size(), 8u);
  EXPECT_FALSE(effects.empty());
  for (const auto& [sha, e] : effects) {
    EXPECT_TRUE(e.measured);
    EXPECT_GT(e.confidence, 0.0);
    EXPECT_LT(std::abs(e.improvement), 0.5) << sha;  // suite-wide means move by percents, not halves
  }
}

}  // namespace
}  // namespace eok::idea_pool
