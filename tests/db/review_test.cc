// The review queries: listings, the population a search samples parents from, the leaderboard and the
// totals of a run.
#include <gtest/gtest.h>

#include "tests/db/db_test_support.h"

namespace eok::db::testing {
namespace {

using ReviewTest = DbTest;

std::vector<int64_t> ids_of(const std::vector<KernelRow>& rows) {
  std::vector<int64_t> ids;
  for (const KernelRow& row : rows) ids.push_back(row.kernel.id);
  return ids;
}

int64_t add_evaluated(KernelDb& db, const std::string& run_id, const std::string& hash, EvalStatus status,
                      std::optional<double> cycles, const std::string& task = "relu_f32",
                      const std::string& board = "k1") {
  const int64_t id = db.insert_kernel(make_kernel(run_id, hash, task, board));
  db.insert_evaluation(make_evaluation(id, status, cycles));
  return id;
}

TEST_F(ReviewTest, KernelsListsARunOrTheWholeTaskWithEvaluations) {
  auto db = open_db();
  db->create_run(make_run("r1"));
  db->create_run(make_run("r2"));
  const int64_t ker0 = add_evaluated(*db, "", "h0", EvalStatus::ok, 100);
  KernelRecord child = make_kernel("r1", "h1");
  child.parents = {ker0};
  const int64_t a = db->insert_kernel(child);
  const int64_t b = add_evaluated(*db, "r2", "h2", EvalStatus::timeout, std::nullopt);
  add_evaluated(*db, "", "m0", EvalStatus::ok, 100, "mish_f32");

  const std::vector<KernelRow> r1 = db->kernels("relu_f32", "r1");
  ASSERT_EQ(ids_of(r1), (std::vector<int64_t>{a}));
  EXPECT_FALSE(r1[0].evaluation) << "a kernel not yet evaluated";
  EXPECT_EQ(r1[0].kernel.parents, (std::vector<int64_t>{ker0}));

  const std::vector<KernelRow> all = db->kernels("relu_f32");
  ASSERT_EQ(ids_of(all), (std::vector<int64_t>{ker0, a, b}));
  ASSERT_TRUE(all[0].evaluation);
  EXPECT_EQ(all[0].evaluation->kernel_id, ker0);
  EXPECT_EQ(all[0].evaluation->cycles, 100);
  EXPECT_EQ(all[2].evaluation->status, EvalStatus::timeout);
}

TEST_F(ReviewTest, BestKernelsAreCorrectFastestFirstPerRunWithKer0) {
  auto db = open_db();
  db->create_run(make_run("r1"));
  db->create_run(make_run("r2"));
  const int64_t ker0 = add_evaluated(*db, "", "h0", EvalStatus::ok, 100);
  const int64_t r1_fast = add_evaluated(*db, "r1", "h1", EvalStatus::ok, 40);
  const int64_t r1_tie = add_evaluated(*db, "r1", "h2", EvalStatus::ok, 40);  // same cycles: the older one first
  const int64_t r1_slow = add_evaluated(*db, "r1", "h3", EvalStatus::ok, 120);
  add_evaluated(*db, "r1", "h4", EvalStatus::wrong_answer, 1);   // fast but wrong: never a parent
  add_evaluated(*db, "r1", "h5", EvalStatus::ok, std::nullopt);  // correct without cycles cannot be ranked
  db->insert_kernel(make_kernel("r1", "h6"));                    // not evaluated
  const int64_t r2_best = add_evaluated(*db, "r2", "h7", EvalStatus::ok, 10);
  add_evaluated(*db, "r1", "h8", EvalStatus::ok, 5, "relu_f32", "other-board");
  add_evaluated(*db, "r1", "h9", EvalStatus::ok, 5, "mish_f32", "k1");

  EXPECT_EQ(ids_of(db->best_kernels("relu_f32", "k1", "r1", 0)),
            (std::vector<int64_t>{r1_fast, r1_tie, ker0, r1_slow}));
  EXPECT_EQ(ids_of(db->best_kernels("relu_f32", "k1", "r1", 2)), (std::vector<int64_t>{r1_fast, r1_tie}));
  EXPECT_EQ(ids_of(db->best_kernels("relu_f32", "k1", "r2", 0)), (std::vector<int64_t>{r2_best, ker0}));
  EXPECT_EQ(ids_of(db->best_kernels("relu_f32", "k1", "", 3)), (std::vector<int64_t>{r2_best, r1_fast, r1_tie}));
  const std::vector<KernelRow> best = db->best_kernels("relu_f32", "k1", "", 1);
  ASSERT_TRUE(best[0].evaluation);
  EXPECT_EQ(best[0].evaluation->cycles, 10);
  EXPECT_TRUE(db->best_kernels("relu_f32", "k1", "no-such-run", 0).size() == 1) << "only ker0";
  EXPECT_TRUE(db->best_kernels("gemm_f32", "k1", "", 0).empty());
}

TEST_F(ReviewTest, LeaderboardGivesTheFastestCorrectKernelPerTaskAndBoard) {
  auto db = open_db();
  db->create_run(make_run("r1"));
  db->create_run(make_run("r2", "mish_f32"));

  // relu_f32 on k1: ker0 at 100 cycles, the best at 40 with its speedup recorded by the evaluator.
  add_evaluated(*db, "", "relu0", EvalStatus::ok, 100);
  const int64_t relu_best = db->insert_kernel(make_kernel("r1", "relu-best"));
  EvaluationRecord e = make_evaluation(relu_best, EvalStatus::ok, 40);
  e.baseline_cycles = 100;
  e.speedup = 2.5;
  db->insert_evaluation(e);
  add_evaluated(*db, "r1", "relu-slow", EvalStatus::ok, 80);
  add_evaluated(*db, "r1", "relu-wrong1", EvalStatus::wrong_answer, std::nullopt);
  add_evaluated(*db, "r1", "relu-wrong2", EvalStatus::wrong_answer, std::nullopt);
  add_evaluated(*db, "r1", "relu-cc", EvalStatus::compile_error, std::nullopt);
  add_evaluated(*db, "r1", "relu-infra", EvalStatus::infra_error, std::nullopt);

  // mish_f32 on k1: the evaluations recorded no baseline: the speedup comes from ker0's own cycles.
  const int64_t mish0 = add_evaluated(*db, "", "mish0", EvalStatus::ok, 300, "mish_f32");
  add_evaluated(*db, "r2", "mish-rej", EvalStatus::rejected, std::nullopt, "mish_f32");

  // gemm_f32 on k1: nothing correct yet.
  add_evaluated(*db, "", "gemm0", EvalStatus::timeout, std::nullopt, "gemm_f32");

  const std::vector<LeaderboardRow> rows = db->leaderboard();
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].task, "gemm_f32");
  EXPECT_EQ(rows[0].best_kernel_id, 0);
  EXPECT_EQ(rows[0].best_speedup, 0);
  EXPECT_EQ(rows[0].counts_by_status, (std::vector<std::pair<EvalStatus, int64_t>>{{EvalStatus::timeout, 1}}));

  const LeaderboardRow& mish = rows[1];
  EXPECT_EQ(mish.task, "mish_f32");
  EXPECT_EQ(mish.board, "k1");
  EXPECT_EQ(mish.best_kernel_id, mish0);
  EXPECT_EQ(mish.best_run_id, "") << "ker0 belongs to no run";
  EXPECT_EQ(mish.best_cycles, 300);
  EXPECT_EQ(mish.baseline_cycles, 300);
  EXPECT_EQ(mish.best_speedup, 1);
  EXPECT_EQ(mish.counts_by_status,
            (std::vector<std::pair<EvalStatus, int64_t>>{{EvalStatus::ok, 1}, {EvalStatus::rejected, 1}}));

  const LeaderboardRow& relu = rows[2];
  EXPECT_EQ(relu.task, "relu_f32");
  EXPECT_EQ(relu.best_kernel_id, relu_best);
  EXPECT_EQ(relu.best_run_id, "r1");
  EXPECT_EQ(relu.best_cycles, 40);
  EXPECT_EQ(relu.baseline_cycles, 100);
  EXPECT_EQ(relu.best_speedup, 2.5);
  EXPECT_EQ(relu.counts_by_status, (std::vector<std::pair<EvalStatus, int64_t>>{{EvalStatus::ok, 3},
                                                                                {EvalStatus::compile_error, 1},
                                                                                {EvalStatus::wrong_answer, 2},
                                                                                {EvalStatus::infra_error, 1}}));

  const std::vector<LeaderboardRow> only_mish = db->leaderboard("mish_f32");
  ASSERT_EQ(only_mish.size(), 1u);
  EXPECT_EQ(only_mish[0].best_kernel_id, mish0);
}

TEST_F(ReviewTest, LeaderboardSeparatesBoards) {
  auto db = open_db();
  db->create_run(make_run("r1"));
  add_evaluated(*db, "", "a", EvalStatus::ok, 100, "relu_f32", "k1");
  const int64_t fast_elsewhere = add_evaluated(*db, "", "a", EvalStatus::ok, 50, "relu_f32", "k1-real");
  const std::vector<LeaderboardRow> rows = db->leaderboard("relu_f32");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].board, "k1");
  EXPECT_EQ(rows[0].best_cycles, 100);
  EXPECT_EQ(rows[1].board, "k1-real");
  EXPECT_EQ(rows[1].best_kernel_id, fast_elsewhere);
}

TEST_F(ReviewTest, RunTotalsCountWhatTheRunCreated) {
  auto db = open_db();
  db->create_run(make_run("r1"));
  db->create_run(make_run("r2"));
  add_evaluated(*db, "", "ker0", EvalStatus::ok, 100);  // shared: not counted for any run
  add_evaluated(*db, "r1", "a", EvalStatus::ok, 50);
  add_evaluated(*db, "r1", "b", EvalStatus::compile_error, std::nullopt);
  db->insert_kernel(make_kernel("r1", "c"));
  add_evaluated(*db, "r2", "d", EvalStatus::ok, 50);
  db->insert_llm_call(make_call("r1", true));
  db->insert_llm_call(make_call("r1", true, true));
  db->insert_llm_call(make_call("r1", false));
  db->insert_llm_call(make_call("r2", true));

  const RunTotals t = db->run_totals("r1");
  EXPECT_EQ(t.kernels, 3);
  EXPECT_EQ(t.evaluations, 2);
  EXPECT_EQ(t.llm_calls, 3);
  EXPECT_EQ(t.llm_failures, 1);
  EXPECT_EQ(t.cache_hits, 1);
  EXPECT_EQ(t.prompt_tokens, 300);
  EXPECT_EQ(t.completion_tokens, 150);
  EXPECT_DOUBLE_EQ(t.cost, 0.03);

  const RunTotals none = db->run_totals("no-such-run");
  EXPECT_EQ(none.kernels, 0);
  EXPECT_EQ(none.llm_calls, 0);
  EXPECT_EQ(none.cost, 0);
}

}  // namespace
}  // namespace eok::db::testing
