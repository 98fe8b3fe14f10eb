// eok search without any LLM: the knob tuner, end to end on the virtual board.
#include <gtest/gtest.h>

#include "src/search/search_run.h"
#include "support/board_fixture.h"

namespace eok::testing {
namespace {

namespace fs = std::filesystem;

class SearchTuner : public ::testing::Test {
 protected:
  void SetUp() override { home_ = std::make_unique<TempDir>(fs::temp_directory_path(), "eok-tuner-"); }
  search::SearchRequest request(const std::string& task) {
    search::SearchRequest r{source_root(), Workspace::open(home_->path())};
    r.task = task;
    r.config = Config::load(source_root());
    r.config.set("search.method", "tuner");
    r.config.set("search.seed", "42");
    return r;
  }
  std::unique_ptr<TempDir> home_;
};

TEST_F(SearchTuner, TunesGemmKnobsAndPutsTheTaskOnTheLeaderboard) {
  search::SearchRequest req = request("gemm_f32");
  req.config.set("tuner.max_evaluations", "12");
  const search::SearchOutcome o = search::run_search(req);
  EXPECT_EQ(o.state, db::RunState::finished);
  EXPECT_EQ(o.method, db::SearchMethod::tuner);
  EXPECT_GT(o.totals.kernels, 3);
  EXPECT_LE(o.evaluated, 13);  // the budget, plus ker0
  EXPECT_GE(o.best_speedup, 1.0);
  EXPECT_TRUE(fs::exists(o.best_file));
  auto db = db::KernelDb::open(req.workspace.database_path());
  const auto board = db->leaderboard("gemm_f32");
  ASSERT_EQ(board.size(), 1u);
  EXPECT_EQ(board[0].best_kernel_id, o.best_kernel_id);
  EXPECT_NEAR(board[0].best_speedup, o.best_speedup, 1e-9);
  for (const auto& row : db->kernels("gemm_f32", o.run_id)) {
    EXPECT_EQ(row.kernel.op, "tuner");
    ASSERT_TRUE(row.evaluation.has_value());
    EXPECT_EQ(row.evaluation->status, EvalStatus::ok) << row.kernel.description;
  }
}

TEST_F(SearchTuner, ASecondRunReusesEveryEvaluation) {
  search::SearchRequest req = request("mish_f32");
  const search::SearchOutcome first = search::run_search(req);
  ASSERT_EQ(first.state, db::RunState::finished);
  EXPECT_GT(first.evaluated, 0);
  req.config.set("search.seed", "43");
  const search::SearchOutcome second = search::run_search(req);
  EXPECT_EQ(second.evaluated, 0) << "the same kernels were evaluated again";
  EXPECT_EQ(second.reused, first.totals.kernels);
  EXPECT_EQ(second.best_cycles, first.best_cycles);
}

}  // namespace
}  // namespace eok::testing
