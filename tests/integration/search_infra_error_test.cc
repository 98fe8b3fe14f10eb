// eok search against a scripted board. When the board keeps failing (infra_error) the run stops instead of
// spending the LLM budget on kernels nobody can judge, says what to check, and a resumed run evaluates
// those kernels again. The champion is re-checked on fresh inputs before it is reported.
#include <gtest/gtest.h>

#include <map>
#include <mutex>

#include "src/common/error.h"
#include "src/common/file_lock.h"
#include "src/search/search_run.h"
#include "support/board_fixture.h"
#include "support/fake_openai_server.h"
#include "support/scripted_search.h"

namespace eok::testing {
namespace {

namespace fs = std::filesystem;

// A distinct, parseable kernel for every request (by its seed).
FakeReply kernel_reply(const RecordedRequest& req) {
  const uint64_t seed = req.json().value("seed", uint64_t{0});
  return FakeReply::completion("Idea: a variant\n```c\n#include <stddef.h>\nstatic int variant_" +
                               std::to_string(seed) +
                               ";\nvoid relu_f32(float *x, size_t n) { (void)x; (void)n; }\n```\n");
}

class SearchWithFailingBoard : public ::testing::Test {
 protected:
  void SetUp() override {
    home_ = std::make_unique<TempDir>(fs::temp_directory_path(), "eok-infra-search-");
    server_.set_responder(kernel_reply);
  }
  search::SearchRequest request() { return small_search_request(home_->path(), server_.base_url()); }

  FakeOpenAiServer server_;
  std::unique_ptr<TempDir> home_;
};

TEST_F(SearchWithFailingBoard, StopsSaysWhatToCheckAndResumesByEvaluatingAgain) {
  std::string ker0 = read_file(source_root() / "kernels" / "relu_f32" / "ker0.c");
  ScriptedJudge broken;  // ker0 was measured; then every evaluation fails in the board
  broken.verdict = [&](const std::string& s) {
    return s == ker0 ? evaluator::EvalStatus::ok : evaluator::EvalStatus::infra_error;
  };
  search::SearchRequest req = request();
  req.judge = &broken;
  const search::SearchOutcome first = search::run_search(req);
  EXPECT_EQ(first.state, db::RunState::stopped);
  EXPECT_NE(first.stop_reason.find("eok doctor"), std::string::npos) << first.stop_reason;
  // The first iteration's initial proposals were in flight; nothing more was asked of the LLM.
  EXPECT_LE(server_.chat_requests().size(), 6u);
  auto db = db::KernelDb::open(req.workspace.database_path());
  EXPECT_EQ(db->get_run(first.run_id)->state, db::RunState::stopped);
  EXPECT_TRUE(db->idea_updates(first.run_id).empty());
  const auto first_kernels = db->kernels("relu_f32", first.run_id);
  ASSERT_FALSE(first_kernels.empty());
  for (const auto& row : first_kernels) {
    ASSERT_TRUE(row.evaluation);
    EXPECT_EQ(row.evaluation->status, EvalStatus::infra_error);  // recorded for the user to see, not reused
  }

  ScriptedJudge healthy;
  search::SearchRequest again = request();
  again.resume_run = first.run_id;
  again.judge = &healthy;
  const search::SearchOutcome second = search::run_search(again);
  EXPECT_EQ(second.state, db::RunState::finished) << second.stop_reason;
  for (const auto& row : first_kernels) EXPECT_EQ(healthy.calls(row.kernel.source), 1) << "kernel #" << row.kernel.id;
  for (const auto& row : db->kernels("relu_f32", first.run_id)) {
    ASSERT_TRUE(row.evaluation) << "kernel #" << row.kernel.id;
    EXPECT_NE(row.evaluation->status, EvalStatus::infra_error) << "kernel #" << row.kernel.id;
  }
  // What the LLM was told never blamed a kernel for the board's failure.
  for (const auto& r : server_.chat_requests()) EXPECT_EQ(r.body.find("infra_error"), std::string::npos);
}

TEST_F(SearchWithFailingBoard, Ker0ThatCannotBeMeasuredStopsTheRunBeforeAnyLlmCall) {
  ScriptedJudge broken;
  broken.verdict = [](const std::string&) { return evaluator::EvalStatus::infra_error; };
  search::SearchRequest req = request();
  req.judge = &broken;
  try {
    search::run_search(req);
    FAIL() << "a search started without a measured ker0";
  } catch (const InfraError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("eok doctor"), std::string::npos) << what;
    EXPECT_NE(what.find("eok search --resume"), std::string::npos) << what;
  }
  EXPECT_TRUE(server_.chat_requests().empty());
  auto db = db::KernelDb::open(req.workspace.database_path());
  const auto runs = db->list_runs();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].state, db::RunState::stopped);
  EXPECT_FALSE(db->find_ker0("relu_f32", "k1") && db->get_evaluation(db->find_ker0("relu_f32", "k1")->id))
      << "ker0's infra_error was recorded as its evaluation";
}

// Kernels twice as fast as ker0 (by the scripted judge's CYCLES=).
FakeReply fast_kernel_reply(const RecordedRequest& req) {
  const uint64_t seed = req.json().value("seed", uint64_t{0});
  return FakeReply::completion("Idea: a variant\n```c\n#include <stddef.h>\n/* CYCLES=500 */ static int variant_" +
                               std::to_string(seed) +
                               ";\nvoid relu_f32(float *x, size_t n) { (void)x; (void)n; }\n```\n");
}

TEST_F(SearchWithFailingBoard, AChampionRightOnlyOnTheInputsItWasMeasuredWithIsNotReported) {
  server_.set_responder(fast_kernel_reply);
  const std::string ker0 = read_file(source_root() / "kernels" / "relu_f32" / "ker0.c");
  std::map<std::string, int> judged;
  std::mutex mutex;
  ScriptedJudge lucky;  // every candidate is right the first time it is judged, wrong on any other inputs
  lucky.verdict = [&](const std::string& s) {
    std::lock_guard<std::mutex> lock(mutex);
    return s == ker0 || judged[s]++ == 0 ? evaluator::EvalStatus::ok : evaluator::EvalStatus::wrong_answer;
  };
  search::SearchRequest req = request();
  req.judge = &lucky;
  const search::SearchOutcome out = search::run_search(req);
  EXPECT_EQ(out.state, db::RunState::finished);
  EXPECT_DOUBLE_EQ(out.best_speedup, 1.0);  // ker0 stands
  EXPECT_GT(out.summary.value("champions_failing_recheck", 0), 0);
  auto db = db::KernelDb::open(req.workspace.database_path());
  for (const auto& row : db->best_kernels("relu_f32", "k1", out.run_id, 0)) {
    EXPECT_EQ(row.kernel.op, "ker0") << "kernel #" << row.kernel.id << " still counts as correct";
  }

  // The same kernels, right on every input: the fastest is reported, after two more judgements.
  ScriptedJudge honest;
  search::SearchRequest again = request();
  again.judge = &honest;
  const search::SearchOutcome good = search::run_search(again);
  EXPECT_DOUBLE_EQ(good.best_speedup, 2.0);
  EXPECT_EQ(good.summary.value("champions_failing_recheck", -1), 0);
  auto best = db->get_kernel(good.best_kernel_id);
  ASSERT_TRUE(best);
  EXPECT_EQ(honest.calls(best->source), 3);
}

// One process at a time works on a run: a second resume while the first holds it is refused with what
// to do; a hostile run id never names a path.
TEST_F(SearchWithFailingBoard, ARunIsContinuedByOneProcessAtATimeAndRunIdsNeverNamePaths) {
  ScriptedJudge judge;
  search::SearchRequest first = request();
  first.judge = &judge;
  first.config.set("search.iterations", "1");
  const search::SearchOutcome done = search::run_search(first);
  ASSERT_EQ(done.state, db::RunState::finished);

  FileLock held(first.workspace.runs_dir() / (done.run_id + ".lock"));  // another eok working on the run
  ASSERT_TRUE(held.held());
  search::SearchRequest again = request();
  again.judge = &judge;
  again.resume_run = done.run_id;
  try {
    search::run_search(again);
    FAIL() << "a second process continued a run another one holds";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("another eok process"), std::string::npos) << e.what();
  }

  for (const std::string bad : {"../../escaped", "/tmp/eok-abs-run"}) {
    search::SearchRequest hostile = request();
    hostile.judge = &judge;
    hostile.new_run_id = bad;
    EXPECT_THROW(search::run_search(hostile), ConfigError) << bad;
    hostile.new_run_id.reset();
    hostile.resume_run = bad;
    EXPECT_THROW(search::run_search(hostile), ConfigError) << bad;
  }
  EXPECT_FALSE(fs::exists(home_->path().parent_path().parent_path() / "escaped"));
  EXPECT_FALSE(fs::exists("/tmp/eok-abs-run"));
}

}  // namespace
}  // namespace eok::testing
