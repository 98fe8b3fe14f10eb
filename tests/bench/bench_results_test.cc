// The bench statistics on known inputs: which run counts for a method, a task's speedup and its best
// speedup per iteration, the paper's quantiles, and the table layouts.
#include <gtest/gtest.h>

#include <cmath>

#include "db/db_test_support.h"
#include "src/bench/bench_results.h"
#include "src/bench/bench_run.h"
#include "src/bench/bench_table.h"
#include "src/bench/suite.h"
#include "src/common/error.h"
#include "support/board_fixture.h"

namespace eok::bench {
namespace {

using db::testing::make_evaluation;
using db::testing::make_kernel;
using db::testing::make_run;

TEST(Quantile, InterpolatesBetweenClosestRanks) {
  EXPECT_EQ(quantile({}, 0.5), 0);
  EXPECT_DOUBLE_EQ(quantile({3}, 0.25), 3);
  EXPECT_DOUBLE_EQ(quantile({4, 1, 3, 2}, 0.5), 2.5);  // unsorted input
  EXPECT_DOUBLE_EQ(quantile({1, 2, 3, 4, 5}, 0.75), 4);
  EXPECT_DOUBLE_EQ(quantile({1, 2, 3, 4}, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(quantile({1, 2, 3, 4}, 1.0), 4);
}

TEST(SuiteStats, CountsAndQuantilesPerSuite) {
  MethodResults m{"eok", db::SearchMethod::eok, {}};
  auto add = [&](const std::string& task, const std::string& suite, bool correct, double own) {
    TaskResult r;
    r.task = task;
    r.suite = suite;
    r.correct = correct;
    r.own_speedup = own;
    r.speedup = std::max(1.0, own);
    m.tasks[task] = r;
  };
  add("a", "general", true, 2.0);
  add("b", "general", true, 0.5);  // correct but slower: the archive keeps ker0 (1.0x)
  add("c", "general", false, 0);   // nothing correct: 1.0x, not counted as correct
  add("d", "general", true, 1.5);
  add("e", "nn", true, 3.0);
  const SuiteStats g = suite_stats(m, "general");
  EXPECT_EQ(g.tasks, 4u);
  EXPECT_EQ(g.correct, 3u);
  EXPECT_EQ(g.faster, 2u);
  EXPECT_DOUBLE_EQ(g.mean, (2.0 + 1.0 + 1.0 + 1.5) / 4);
  EXPECT_DOUBLE_EQ(g.max, 2.0);
  EXPECT_DOUBLE_EQ(g.p50, 1.25);
  EXPECT_DOUBLE_EQ(g.p25, 1.0);
  EXPECT_DOUBLE_EQ(g.p75, 1.625);
  const SuiteStats n = suite_stats(m, "nn");
  EXPECT_EQ(n.tasks, 1u);
  EXPECT_DOUBLE_EQ(n.mean, 3.0);
  EXPECT_EQ(suite_stats(m, "all").tasks, 5u);

  const std::string md = format_table({m}, TableFormat::markdown);
  EXPECT_NE(md.find("**general suite**"), std::string::npos) << md;
  EXPECT_NE(md.find("| eok | 4 | 1.375x | 2.000x | 1.625x | 1.250x | 1.000x | 3 | 2 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| eok | 1 | 3.000x |"), std::string::npos) << md;
  const auto j = table_json({m});
  EXPECT_EQ(j["methods"][0]["suites"]["general"]["correct"], 3);
  EXPECT_EQ(j["methods"][0]["tasks"].size(), 5u);
  EXPECT_EQ(format_table({}, TableFormat::text), "");
}

class BenchResults : public db::testing::DbTest {};

TEST_F(BenchResults, TheNewestBenchOfALabelCountsWithTheRunsOwnKernels) {
  auto db = open_db();
  // ker0 of relu_f32 and two runs: an old bench (2x) and a newer one (1.25x at iteration 1).
  const int64_t ker0 = db->insert_kernel(make_kernel("", "k0"));
  db->insert_evaluation(make_evaluation(ker0, EvalStatus::ok, 100));
  auto kernel = [&](const std::string& run, const std::string& hash, int iteration, EvalStatus status, double speedup) {
    auto k = make_kernel(run, hash);
    k.iteration = iteration;
    const int64_t id = db->insert_kernel(k);
    auto e =
        make_evaluation(id, status, status == EvalStatus::ok ? std::optional<double>(100 / speedup) : std::nullopt);
    if (status == EvalStatus::ok) {
      e.speedup = speedup;
      e.baseline_cycles = 100;
    }
    db->insert_evaluation(e);
    return id;
  };
  db->create_run(make_run("r-old"));
  kernel("r-old", "o1", 0, EvalStatus::ok, 2.0);
  db->create_run(make_run("r-new"));
  kernel("r-new", "n1", 0, EvalStatus::ok, 0.8);
  kernel("r-new", "n2", 0, EvalStatus::wrong_answer, 0);
  const int64_t best = kernel("r-new", "n3", 1, EvalStatus::ok, 1.25);
  kernel("r-new", "n4", 2, EvalStatus::ok, 1.1);

  db::BenchRecord b;
  b.suite = "nn";
  b.method = db::SearchMethod::eok;
  b.label = "eok";
  b.board = "k1";
  b.tasks = {"relu_f32"};
  b.settings_json = "[]";
  b.state = db::BenchState::finished;
  b.id = "b-old";
  b.started_at = 10;
  db->create_bench(b);
  db->set_bench_run("b-old", "relu_f32", "r-old");
  b.id = "b-new";
  b.started_at = 20;
  db->create_bench(b);
  db->set_bench_run("b-new", "relu_f32", "r-new");
  b.id = "b-tuner";
  b.method = db::SearchMethod::tuner;
  b.label = "tuner";
  db->create_bench(b);

  const auto results = collect_results(*db, testing::source_root() / "kernels");
  ASSERT_EQ(results.size(), 2u);  // eok and tuner (which has no runs yet)
  const auto& eok = results[0].label == "eok" ? results[0] : results[1];
  const TaskResult& r = eok.tasks.at("relu_f32");
  EXPECT_EQ(r.bench_id, "b-new");
  EXPECT_EQ(r.suite, "nn");
  EXPECT_TRUE(r.correct);
  EXPECT_DOUBLE_EQ(r.speedup, 1.25);
  EXPECT_EQ(r.best_kernel_id, best);
  EXPECT_EQ(r.best_by_iteration, (std::vector<double>{1.0, 1.25, 1.25}));
  EXPECT_EQ(collect_results(*db, testing::source_root() / "kernels", "tuner").size(), 1u);
}

TEST(Suites, SelectByGroupAndRefuseTasksOfAnotherSuite) {
  const auto kernels = testing::source_root() / "kernels";
  const auto general = suite_tasks(kernels, "general");
  const auto nn = suite_tasks(kernels, "nn");
  EXPECT_NE(std::find(general.begin(), general.end(), "reduce_scan_i32"), general.end());
  EXPECT_NE(std::find(nn.begin(), nn.end(), "mish_f32"), nn.end());
  EXPECT_EQ(suite_tasks(kernels, "all").size(), general.size() + nn.size());
  EXPECT_EQ(suite_tasks(kernels, "nn", {"mish", "relu_f32", "mish_f32"}),
            (std::vector<std::string>{"mish_f32", "relu_f32"}));
  EXPECT_THROW(suite_tasks(kernels, "nn", {"reduce_scan_i32"}), eok::ConfigError);
  EXPECT_THROW(suite_tasks(kernels, "fast"), eok::ConfigError);
}

TEST(BenchLabels, NameTheMethodAndItsNonDefaultAblations) {
  EXPECT_EQ(default_label(db::SearchMethod::tuner, "", "", ""), "tuner");
  EXPECT_EQ(default_label(db::SearchMethod::eok, "softmax", "both", ""), "eok") << "the defaults are not named";
  EXPECT_EQ(default_label(db::SearchMethod::eok, "uniform", "none", "pools/kmeans.json"),
            "eok sampling=uniform rag=none pool=kmeans");
}

TEST(Suites, ABrokenTaskIsLeftOutNotFatal) {
  TempDir dir(std::filesystem::temp_directory_path(), "eok-suite-");
  const auto kernels = testing::source_root() / "kernels";
  for (const char* id : {"relu_f32", "mish_f32"}) {
    std::filesystem::copy(kernels / id, dir.path() / id, std::filesystem::copy_options::recursive);
  }
  write_file_atomic(dir.path() / "mish_f32" / "task.toml", "id = \"mish_f32\"\n[timed\n");  // unparseable
  EXPECT_EQ(suite_tasks(dir.path(), "nn"), (std::vector<std::string>{"relu_f32"}));
}

}  // namespace
}  // namespace eok::bench
