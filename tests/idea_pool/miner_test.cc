#include "idea_pool/miner.h"

#include <gtest/gtest.h>

#include <array>
#include <set>

#include "idea_pool/example_index.h"
#include "support/perf_test_support.h"
#include "support/synthetic_repo.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "support/fake_openai_server.h"
#include "support/shared_data.h"

namespace eok::idea_pool {
namespace {

namespace fs = std::filesystem;
using testing::SyntheticRepo;

// Four themes a kernel library's history repeats, six commits each, on files of their own.
const std::vector<std::pair<std::string, std::vector<std::string>>>& miner_themes() {
  static const std::vector<std::pair<std::string, std::vector<std::string>>> t = {
      {"prefetch",
       {"sgemm: prefetch the next panel of A into the cache", "Add software prefetch to the dgemv_t inner loop",
        "daxpy: prefetch x and y two cache lines ahead", "Prefetch B panels in the zgemm kernel",
        "dot: software prefetch of both vectors", "Tune the prefetch distance of sgemv_n"}},
      {"unroll",
       {"Unroll the sgemm micro-kernel by 8 to hide FMA latency", "dscal: unroll the loop four times",
        "Unroll dgemv_n by four columns", "Unroll the caxpy loop for more independent accumulators",
        "sdot: unroll by 4 with separate accumulators", "Unroll the zdot loop twice"}},
      {"nan",
       {"Fix the handling of Inf and NaN in dnrm2", "zscal: do not skip the multiplication when x holds NaN",
        "Correct NaN propagation in daxpy for a zero alpha", "cscal: treat Inf and NaN like the reference",
        "Fix the NaN check in isamax", "dasum: a NaN input must give NaN"}},
      {"rvv",
       {"Vectorize saxpy with RVV intrinsics using vfmacc", "RVV: use vfredusum for the sdot reduction",
        "Vectorize dscal with RISC-V vector intrinsics", "RVV sgemv_t with vle32 and vfmacc",
        "Use LMUL=4 in the RVV daxpy kernel", "RVV: strided loads vlse for non-unit increments in scopy"}},
  };
  return t;
}

std::string code(const std::string& theme, size_t i) {
  std::string s = "/* " + theme + " */\n";
  for (size_t k = 0; k <= i + 3; ++k)
    s += "static int " + theme + "_step" + std::to_string(k) + " = " + std::to_string(k * 7 + i) + ";\n";
  return s;
}

// A small kernel library: the themed kernel commits, some through pull requests, and the housekeeping a
// real history has (CI, a version bump, formatting, a reverted change).
struct Library {
  TempDir dir{fs::temp_directory_path(), "eok-minelib-"};
  fs::path path = dir.path() / "minilib";
  std::unique_ptr<SyntheticRepo> repo;
  std::set<std::string> kernel_commits;

  Library() {
    fs::create_directories(path);
    repo = std::make_unique<SyntheticRepo>(path);
    repo->commit("main", "Initial import", {{"kernel/generic/ref.c", "int ref;\n"}, {"Makefile", "all:\n"}});
    int pr = 1;
    for (size_t i = 0; i < 6; ++i) {
      for (const auto& [theme, messages] : miner_themes()) {
        const std::string file = "kernel/riscv64/" + theme + ".c";
        if (i % 2 == 1) {
          // Every other commit arrives through a pull request whose title joins its message.
          const std::string branch = "pr-" + theme + std::to_string(i);
          kernel_commits.insert(repo->commit(branch, messages[i], {{file, code(theme, i)}}, repo->head("main")));
          repo->merge_pull_request("main", branch, pr++, "Kernel work: " + theme);
        } else {
          kernel_commits.insert(repo->commit("main", messages[i], {{file, code(theme, i)}}));
        }
      }
    }
    repo->commit("main", "Fix CI", {{".github/workflows/ci.yml", "on: push\n"}});
    repo->commit("main", "Update version to 0.3.29", {{"Makefile", "VERSION = 0.3.29\n"}});
    std::string prefetch = code("prefetch", 5);
    for (auto& ch : prefetch) ch = ch == ' ' ? '\t' : ch;  // white space only
    repo->commit("main", "Reformat the prefetch kernel", {{"kernel/riscv64/prefetch.c", prefetch}});
    const std::string risky =
        repo->commit("main", "Risky rewrite of the dot kernel", {{"kernel/riscv64/dot.c", "risky\n"}});
    repo->revert("main", risky);
  }
};

// Two real asv runs of BLAS-Benchmarks' SkylakeX machine (builds 0.3.27.350 and .364) and the gh-pages log, in
// the team's shared data.
fs::path blas_benchmarks() {
  return ::eok::testing::shared_data("blas-benchmarks");
}
fs::path skylake_runs() {
  return blas_benchmarks() / "results" / "gha-aws-skylake";
}
constexpr std::array<const char*, 2> kSkylakeRunFiles = {"0e098f7e-virtualenv-py3.12.json",
                                                         "9893c99c-virtualenv-py3.12.json"};

// The two runs with their gh-pages log entries, cut from the shared data into `dir` (the shared data stays
// out of the repository).
void cut_blas_benchmarks(const fs::path& dir) {
  fs::create_directories(dir / "results" / "gha-aws-skylake");
  for (const char* f : kSkylakeRunFiles) fs::copy_file(skylake_runs() / f, dir / "results" / "gha-aws-skylake" / f);
  // The log's newest two publications: 0.3.27.364 and 0.3.27.350.
  const std::string log = read_file(blas_benchmarks() / "gh-pages-log.txt");
  size_t end = 0;
  for (int entry = 0; entry < 2; ++entry) end = log.find("Generated from sources", end) + 1;
  write_file_atomic(dir / "gh-pages-log.txt", log.substr(0, log.find('\n', end) + 1));
}

struct MineFixture : ::testing::Test {
  Library lib;
  TempDir workspace{fs::temp_directory_path(), "eok-minews-"};

  MineRequest request() {
    MineRequest r;
    r.repo = lib.path.string();
    r.root = EOK_SOURCE_DIR;
    r.workspace = workspace.path();
    r.config = Config::load(r.root);
    r.config.set("llm.discover", "false", "test");  // a server on this machine must not change the result
    r.config.set("llm.base_url", "", "test");
    r.config.set("mine.distiller", "extractive", "test");
    r.config.set("mine.branch", "main", "test");
    return r;
  }
};

TEST_F(MineFixture, MinesALibraryIntoAPoolWithExampleCodeAndAnIndex) {
  MineRequest req = request();
  req.out = workspace.path() / "out" / "pool.json";
  const MineReport r = mine(req);

  EXPECT_EQ(r.walk.kept, lib.kernel_commits.size() + 1);  // the themed ones and the initial import of ref.c
  EXPECT_EQ(r.walk.dropped.at("build_ci_docs"), 1u);
  EXPECT_EQ(r.walk.dropped.at("version"), 1u);
  EXPECT_EQ(r.walk.dropped.at("formatting"), 1u);
  EXPECT_EQ(r.walk.dropped.at("revert"), 1u);
  EXPECT_EQ(r.walk.dropped.at("reverted"), 1u);
  EXPECT_EQ(r.walk.pr_titles_joined, 12u);
  EXPECT_EQ(r.measured, 0u);
  EXPECT_EQ(r.estimated, r.walk.kept);

  // The same pool in the workspace, as latest.json, and at --out; each with its example index.
  const IdeaPool pool = load_pool(*req.out);
  EXPECT_EQ(pool_to_json(pool), pool_to_json(load_pool(r.latest_file)));
  EXPECT_TRUE(fs::exists(r.pool_file));
  EXPECT_EQ(r.latest_file, latest_pool_path(workspace.path()));
  EXPECT_EQ(pool.source.at("repo"), "minilib");
  EXPECT_EQ(pool.source.at("variant"), "two-level");
  EXPECT_GE(pool.ideas.size(), 2u);

  std::set<std::string> placed;
  for (const auto& idea : pool.ideas) {
    EXPECT_FALSE(idea.principle.empty());
    for (const auto& t : idea.thoughts) {
      EXPECT_TRUE(t.description.starts_with(kExtractivePrefix)) << t.description;
      EXPECT_FALSE(t.commits.empty());
      EXPECT_FALSE(t.examples.empty()) << t.id;
      EXPECT_TRUE(t.estimated);
      for (const auto& c : t.commits) EXPECT_TRUE(placed.insert(c.sha).second) << c.sha << " in two thoughts";
    }
  }
  EXPECT_EQ(placed.size(), r.walk.kept);

  const ExampleIndex index = ExampleIndex::load(*req.out);
  EXPECT_EQ(index.size(), r.examples_indexed);
  const auto hits = index.search("vfmacc vector intrinsics rvv", 3);
  ASSERT_FALSE(hits.empty());
  // The best hit is an example of a thought that holds RVV commits.
  bool rvv = false;
  for (const auto& idea : pool.ideas) {
    for (const auto& t : idea.thoughts) {
      if (t.id != hits[0].entry.thought) continue;
      for (const auto& c : t.commits)
        rvv |= c.title.find("RVV") != std::string::npos || c.title.find("RISC-V") != std::string::npos ||
               c.title.find("Vectorize") != std::string::npos;
    }
  }
  EXPECT_TRUE(rvv) << hits[0].entry.thought << " " << hits[0].entry.file;
}

TEST_F(MineFixture, TheAblationVariants) {
  MineRequest req = request();
  req.config.set("mine.variant", "raw", "test");
  const MineReport raw = mine(req);
  EXPECT_EQ(raw.abstraction.ideas, raw.walk.kept);
  EXPECT_EQ(raw.abstraction.thoughts, raw.walk.kept);
  EXPECT_EQ(load_pool(raw.latest_file).source.at("variant"), "raw");

  req.config.set("mine.variant", "kmeans", "test");
  const MineReport km = mine(req);
  EXPECT_LT(km.abstraction.thoughts, km.walk.kept);
  EXPECT_EQ(km.abstraction.from_principles, 0u);

  req.config.set("mine.variant", "three-level", "test");
  EXPECT_THROW(mine(req), ConfigError);
}

TEST_F(MineFixture, WithAnLlmThoughtsAreDistilledAndARerunAsksNothingTwice) {
  eok::testing::FakeOpenAiServer server;
  server.set_responder([](const eok::testing::RecordedRequest& r) {
    const std::string prompt = r.json()["messages"][0]["content"];
    if (prompt.find("general principle") != std::string::npos) {
      return eok::testing::FakeReply::completion("Principle: keep the vector unit fed.");
    }
    return eok::testing::FakeReply::completion("Thought: process several independent strips per iteration.");
  });
  MineRequest req = request();
  req.config.set("llm.base_url", server.base_url(), "test");
  req.config.set("llm.model", "fake-model", "test");
  req.config.set("mine.distiller", "llm", "test");
  const MineReport first = mine(req);
  const size_t calls = server.chat_requests().size();
  EXPECT_GT(calls, 0u);
  EXPECT_EQ(first.llm_calls, calls);
  EXPECT_TRUE(first.distiller_fallbacks.empty());
  const IdeaPool pool = load_pool(first.latest_file);
  for (const auto& idea : pool.ideas) {
    EXPECT_EQ(idea.principle, "keep the vector unit fed.");
    for (const auto& t : idea.thoughts) EXPECT_EQ(t.description, "process several independent strips per iteration.");
  }

  // The rerun (or a run resumed after a kill) is answered from the workspace's cache.
  const MineReport second = mine(req);
  EXPECT_EQ(server.chat_requests().size(), calls);
  EXPECT_EQ(second.llm_cache_hits, calls);
  EXPECT_EQ(pool_to_json(load_pool(second.latest_file)).size(), pool_to_json(pool).size());
}

TEST_F(MineFixture, AnEmbeddingModelOverHttpIsCachedInTheWorkspace) {
  eok::testing::FakeOpenAiServer server;
  server.set_embedding_dim(32);
  MineRequest req = request();
  req.config.set("llm.base_url", server.base_url(), "test");
  req.config.set("llm.model", "fake-chat", "test");
  req.config.set("mine.embedder", "http", "test");
  req.config.set("mine.embedding_model", "fake-embed", "test");
  const MineReport first = mine(req);
  EXPECT_NE(first.embedder.find(server.base_url()), std::string::npos) << first.embedder;
  const size_t requests = server.embedding_requests().size();
  EXPECT_GT(requests, 0u);
  EXPECT_EQ(server.embedding_requests()[0].json()["model"], "fake-embed");
  EXPECT_EQ(load_pool(first.latest_file).source.at("delta"), "0.05");  // the paper's delta for a neural model

  const MineReport second = mine(req);
  EXPECT_EQ(server.embedding_requests().size(), requests);  // every vector came from the cache
  EXPECT_GT(second.embedding_cache_hits, 0u);
  EXPECT_EQ(second.abstraction.thoughts, first.abstraction.thoughts);

  req.config.set("mine.embedding_model", "", "test");
  EXPECT_THROW(mine(req), ConfigError);
}

TEST_F(MineFixture, BadInputsSayWhatToDo) {
  MineRequest req = request();
  req.repo = workspace.path().string();  // a directory, not a repository
  EXPECT_THROW(mine(req), NotFoundError);

  req = request();
  req.repo = "NoSuchLibrary";
  try {
    mine(req);
    FAIL();
  } catch (const NotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("OpenBLAS"), std::string::npos) << e.what();  // the known ones are listed
  }

  req = request();
  req.config.set("mine.branch", "no-such-branch", "test");
  try {
    mine(req);
    FAIL();
  } catch (const NotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("main"), std::string::npos) << e.what();  // the branches are listed
  }

  req = request();
  req.perf_history = workspace.path();  // holds no asv results
  EXPECT_THROW(mine(req), NotFoundError);

  // A performance history of another library matches no commit: a warning, and every effect estimated.
  req = request();
  req.perf_history = workspace.path() / "asv";
  testing::write_asv_run(*req.perf_history, "x86-box", std::string(40, 'a'), 1719000000000,
                         {{"bench_dot", {.version = "v1", .params = {}, .values = {1.0}}}});
  testing::write_gh_pages_log(
      *req.perf_history,
      {{.time_ms = 1719000060000, .versions = {{"x86-box", testing::perf_build_line(5, "SkylakeX")}}}});
  const MineReport r = mine(req);
  ASSERT_TRUE(r.perf.has_value());
  EXPECT_FALSE(r.perf->warnings.empty());
  EXPECT_EQ(r.measured, 0u);
  EXPECT_EQ(r.estimated, r.walk.kept);

  // No file of the previous pool was damaged by the failures.
  EXPECT_NO_THROW(load_pool(r.latest_file));
}

// Real asv results (cut_blas_benchmarks) over a library whose history puts 14 commits between those builds: they share the
// measured change, and their thoughts say measured.
TEST(MineSharedData, CommitsBetweenTwoEvaluatedBuildsCarryTheMeasuredEffect) {
  for (const char* f : kSkylakeRunFiles) SKIP_WITHOUT_SHARED_DATA(skylake_runs() / f);
  SKIP_WITHOUT_SHARED_DATA(blas_benchmarks() / "gh-pages-log.txt");
  TempDir dir(fs::temp_directory_path(), "eok-mineperf-");
  cut_blas_benchmarks(dir.path() / "asv");
  const fs::path path = dir.path() / "lib.git";
  testing::PerfTestRepo repo(path);
  int64_t t = 1719000000;
  std::string head = repo.commit("Add the base kernel", {{"kernel/x86_64/base.c", "base\n"}}, {}, t);
  repo.tag("v0.3.27", head);
  std::set<std::string> between;
  for (int n = 1; n <= 364; ++n) {
    t += 600;
    if (n <= 350) {
      head =
          repo.commit("Notes " + std::to_string(n), {{"docs/notes.md", "note " + std::to_string(n) + "\n"}}, {head}, t);
    } else {
      const auto& theme = miner_themes()[static_cast<size_t>(n) % 2];  // prefetch, unroll
      const std::string message = theme.second[static_cast<size_t>(n) % 6] + " for SkylakeX";
      head = repo.commit(
          message, {{"kernel/x86_64/" + theme.first + std::to_string(n) + ".c", code(theme.first, n % 6)}}, {head}, t);
      between.insert(head);
    }
  }
  repo.branch("develop", head);

  TempDir ws(fs::temp_directory_path(), "eok-minews-");
  MineRequest req;
  req.repo = path.string();
  req.root = EOK_SOURCE_DIR;
  req.workspace = ws.path();
  req.config = Config::load(req.root);
  req.config.set("llm.discover", "false", "test");
  req.config.set("llm.base_url", "", "test");
  req.config.set("mine.distiller", "extractive", "test");
  req.config.set("mine.branch", "develop", "test");
  req.perf_history = dir.path() / "asv";
  const MineReport r = mine(req);
  ASSERT_TRUE(r.perf.has_value());
  EXPECT_EQ(r.perf->builds.size(), 2u);
  ASSERT_EQ(r.perf->comparisons.size(), 1u);
  EXPECT_EQ(r.perf->comparisons[0].machine, "gha-aws-skylake");
  EXPECT_EQ(r.perf->comparisons[0].commits, 14u);
  EXPECT_EQ(r.measured, 14u);
  EXPECT_EQ(r.estimated, 1u);  // the base kernel, before the first build

  const IdeaPool pool = load_pool(r.latest_file);
  size_t measured_thoughts = 0;
  for (const auto& idea : pool.ideas) {
    for (const auto& th : idea.thoughts) {
      bool has_between = false;
      for (const auto& c : th.commits) {
        has_between |= between.count(c.sha) > 0;
        EXPECT_EQ(c.estimated, between.count(c.sha) == 0) << c.sha;
      }
      EXPECT_EQ(!th.estimated, has_between) << th.id;
      measured_thoughts += !th.estimated;
    }
  }
  EXPECT_GT(measured_thoughts, 0u);
}

}  // namespace
}  // namespace eok::idea_pool
