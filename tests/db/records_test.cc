// Every record type goes in and comes back out unchanged, optional fields and parents included, and the
// lookups the search relies on find the right kernel or evaluation.
#include <gtest/gtest.h>

#include <chrono>

#include "src/common/error.h"
#include "tests/db/db_test_support.h"

namespace eok::db::testing {
namespace {

using RecordsTest = DbTest;

double now_unix_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

TEST_F(RecordsTest, RunRoundTripsEveryField) {
  auto db = open_db();
  RunRecord run = make_run("r1");
  run.seed = 0xfedcba9876543210ULL;  // above 2^63: stored as a signed integer, must come back exact
  run.summary_json = R"({"best": 3})";
  run.progress_json = R"({"iteration": 2})";
  db->create_run(run);

  const std::optional<RunRecord> got = db->get_run("r1");
  ASSERT_TRUE(got);
  EXPECT_EQ(got->id, "r1");
  EXPECT_EQ(got->task, run.task);
  EXPECT_EQ(got->board, run.board);
  EXPECT_EQ(got->state, db::RunState::running);
  EXPECT_EQ(got->method, SearchMethod::eok);
  EXPECT_EQ(got->config_json, run.config_json);
  EXPECT_EQ(got->seed, run.seed);
  EXPECT_EQ(got->toolchain, run.toolchain);
  EXPECT_EQ(got->model, run.model);
  EXPECT_EQ(got->started_at, 1000);
  EXPECT_EQ(got->updated_at, 1000);
  EXPECT_EQ(got->summary_json, run.summary_json);
  EXPECT_EQ(got->progress_json, run.progress_json);
  EXPECT_FALSE(db->get_run("r2"));
}

TEST_F(RecordsTest, RunUpdatesSetStateSummaryProgressAndTime) {
  auto db = open_db();
  db->create_run(make_run("r1"));
  const double before = now_unix_seconds();
  db->save_run_progress("r1", R"({"iteration": 3})");
  db->update_run("r1", db::RunState::finished, R"({"speedup": 1.3})");
  const RunRecord got = *db->get_run("r1");
  EXPECT_EQ(got.state, db::RunState::finished);
  EXPECT_EQ(got.summary_json, R"({"speedup": 1.3})");
  EXPECT_EQ(got.progress_json, R"({"iteration": 3})");
  EXPECT_EQ(got.started_at, 1000);
  EXPECT_GE(got.updated_at, before - 1);
  EXPECT_THROW(db->update_run("nope", db::RunState::finished, ""), NotFoundError);
  EXPECT_THROW(db->save_run_progress("nope", "{}"), NotFoundError);
}

TEST_F(RecordsTest, RunIdsAreUnique) {
  auto db = open_db();
  db->create_run(make_run("r1"));
  try {
    db->create_run(make_run("r1"));
    FAIL() << "a second run with the same id was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("already exists"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(db_file().string()), std::string::npos) << e.what();
  }
}

TEST_F(RecordsTest, ZeroTimestampsBecomeNow) {
  auto db = open_db();
  const double before = now_unix_seconds();
  RunRecord run = make_run("r1");
  run.started_at = run.updated_at = 0;
  db->create_run(run);
  KernelRecord k = make_kernel("r1", "h1");
  k.created_at = 0;
  const int64_t id = db->insert_kernel(k);
  EvaluationRecord e = make_evaluation(id, EvalStatus::ok, 10);
  e.created_at = 0;
  db->insert_evaluation(e);

  const RunRecord got = *db->get_run("r1");
  EXPECT_GE(got.started_at, before - 1);
  EXPECT_EQ(got.updated_at, got.started_at);
  EXPECT_GE(db->get_kernel(id)->created_at, before - 1);
  EXPECT_GE(db->get_evaluation(id)->created_at, before - 1);
}

TEST_F(RecordsTest, ListRunsNewestFirstAndByTask) {
  auto db = open_db();
  RunRecord a = make_run("ra", "relu_f32"), b = make_run("rb", "mish_f32"), c = make_run("rc", "relu_f32");
  a.started_at = 1;
  b.started_at = 2;
  c.started_at = 3;
  for (const auto& r : {a, b, c}) db->create_run(r);

  std::vector<std::string> ids;
  for (const auto& r : db->list_runs()) ids.push_back(r.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"rc", "rb", "ra"}));
  ids.clear();
  for (const auto& r : db->list_runs("relu_f32")) ids.push_back(r.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"rc", "ra"}));
}

TEST_F(RecordsTest, KernelRoundTripsEveryFieldAndParentsInOrder) {
  auto db = open_db();
  db->create_run(make_run("r1"));
  const int64_t ker0 = db->insert_kernel(make_kernel("", "h0"));
  const int64_t p1 = db->insert_kernel(make_kernel("r1", "h1"));
  const int64_t p2 = db->insert_kernel(make_kernel("r1", "h2"));

  KernelRecord k = make_kernel("r1", "h3");
  k.source = "// unicode \xc3\xa9\n" + std::string("a\0b", 3);  // text with a NUL byte survives
  k.parents = {p2, ker0, p1};
  k.op = "E2";
  k.idea_id = "idea-7";
  k.thought_id = "thought-3";
  k.iteration = 2;
  k.search = 1;
  k.generation = 4;
  const int64_t id = db->insert_kernel(k);

  const KernelRecord got = *db->get_kernel(id);
  EXPECT_EQ(got.id, id);
  EXPECT_EQ(got.run_id, "r1");
  EXPECT_EQ(got.task, k.task);
  EXPECT_EQ(got.board, k.board);
  EXPECT_EQ(got.hash, "h3");
  EXPECT_EQ(got.source, k.source);
  EXPECT_EQ(got.description, k.description);
  EXPECT_EQ(got.parents, (std::vector<int64_t>{p2, ker0, p1}));
  EXPECT_EQ(got.op, "E2");
  EXPECT_EQ(got.idea_id, "idea-7");
  EXPECT_EQ(got.thought_id, "thought-3");
  EXPECT_EQ(got.iteration, 2);
  EXPECT_EQ(got.search, 1);
  EXPECT_EQ(got.generation, 4);
  EXPECT_EQ(got.created_at, 2000);

  const KernelRecord got_ker0 = *db->get_kernel(ker0);
  EXPECT_EQ(got_ker0.run_id, "");
  EXPECT_TRUE(got_ker0.parents.empty());
  EXPECT_EQ(got_ker0.idea_id, "");
  EXPECT_EQ(got_ker0.iteration, -1);
  EXPECT_FALSE(db->get_kernel(id + 100));
}

TEST_F(RecordsTest, KernelNeedsItsRunAndParents) {
  auto db = open_db();
  EXPECT_THROW(db->insert_kernel(make_kernel("no-such-run", "h1")), NotFoundError);
  db->create_run(make_run("r1"));
  KernelRecord k = make_kernel("r1", "h1");
  k.parents = {12345};
  try {
    db->insert_kernel(k);
    FAIL() << "a kernel with a missing parent was accepted";
  } catch (const NotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("12345"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(db->kernels("relu_f32").empty()) << "a refused kernel leaves nothing behind";
}

TEST_F(RecordsTest, EvaluationRoundTripsWithAndWithoutFigures) {
  auto db = open_db();
  db->create_run(make_run("r1"));
  const int64_t a = db->insert_kernel(make_kernel("r1", "ha"));
  const int64_t b = db->insert_kernel(make_kernel("r1", "hb"));

  EvaluationRecord ok = make_evaluation(a, EvalStatus::ok, 1234.5);
  ok.baseline_cycles = 2469;
  ok.speedup = 2;
  ok.seed = ~0ULL;
  db->insert_evaluation(ok);
  db->insert_evaluation(make_evaluation(b, EvalStatus::compile_error));

  const EvaluationRecord got = *db->get_evaluation(a);
  EXPECT_EQ(got.kernel_id, a);
  EXPECT_EQ(got.status, EvalStatus::ok);
  EXPECT_EQ(got.message, "");
  EXPECT_EQ(got.evidence_json, ok.evidence_json);
  EXPECT_EQ(got.cycles, 1234.5);
  EXPECT_EQ(got.baseline_cycles, 2469);
  EXPECT_EQ(got.speedup, 2);
  EXPECT_EQ(got.seed, ~0ULL);
  EXPECT_EQ(got.seconds, 1.5);
  EXPECT_EQ(got.setup, "k1 clang-22 x60-v1");
  EXPECT_EQ(got.created_at, 3000);

  const EvaluationRecord failed = *db->get_evaluation(b);
  EXPECT_EQ(failed.status, EvalStatus::compile_error);
  EXPECT_EQ(failed.message, "something went wrong");
  EXPECT_FALSE(failed.cycles);
  EXPECT_FALSE(failed.baseline_cycles);
  EXPECT_FALSE(failed.speedup);
}

TEST_F(RecordsTest, EvaluationInsertReplacesAndNeedsItsKernel) {
  auto db = open_db();
  db->create_run(make_run("r1"));
  const int64_t a = db->insert_kernel(make_kernel("r1", "ha"));
  db->insert_evaluation(make_evaluation(a, EvalStatus::infra_error));
  db->insert_evaluation(make_evaluation(a, EvalStatus::ok, 99));
  EXPECT_EQ(db->get_evaluation(a)->status, EvalStatus::ok);
  EXPECT_EQ(db->run_totals("r1").evaluations, 1);
  EXPECT_THROW(db->insert_evaluation(make_evaluation(a + 1, EvalStatus::ok, 1)), NotFoundError);
  EXPECT_FALSE(db->get_evaluation(a + 1));
}

TEST_F(RecordsTest, LlmCallRoundTripsAndLinksToItsKernel) {
  auto db = open_db();
  db->create_run(make_run("r1"));
  LlmCallRecord failed = make_call("r1", false);
  failed.retrieved_context = "RVV spec section 5";
  failed.attempts = 5;
  const int64_t c1 = db->insert_llm_call(failed);
  const int64_t k = db->insert_kernel(make_kernel("r1", "h1"));
  LlmCallRecord hit = make_call("r1", true, true);
  hit.kernel_id = k;
  const int64_t c2 = db->insert_llm_call(hit);
  const int64_t c3 = db->insert_llm_call(make_call("r1", true));
  db->set_llm_call_kernel(c3, k);

  const std::vector<LlmCallRecord> calls = db->llm_calls("r1");
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls[0].id, c1);
  EXPECT_EQ(calls[0].run_id, "r1");
  EXPECT_FALSE(calls[0].kernel_id);
  EXPECT_EQ(calls[0].op, "M1");
  EXPECT_EQ(calls[0].request_hash, "req");
  EXPECT_EQ(calls[0].model, "test-model");
  EXPECT_FALSE(calls[0].ok);
  EXPECT_EQ(calls[0].error, failed.error);
  EXPECT_EQ(calls[0].prompt_tokens, 100);
  EXPECT_EQ(calls[0].completion_tokens, 50);
  EXPECT_EQ(calls[0].latency_seconds, 2.5);
  EXPECT_EQ(calls[0].cost, 0.01);
  EXPECT_FALSE(calls[0].cache_hit);
  EXPECT_EQ(calls[0].attempts, 5);
  EXPECT_EQ(calls[0].retrieved_context, "RVV spec section 5");
  EXPECT_EQ(calls[0].created_at, 4000);
  EXPECT_EQ(calls[1].id, c2);
  EXPECT_EQ(calls[1].kernel_id, k);
  EXPECT_TRUE(calls[1].ok);
  EXPECT_TRUE(calls[1].cache_hit);
  EXPECT_EQ(calls[2].kernel_id, k);

  EXPECT_THROW(db->set_llm_call_kernel(c3 + 10, k), NotFoundError);
  EXPECT_THROW(db->set_llm_call_kernel(c3, k + 10), NotFoundError);
  EXPECT_THROW(db->insert_llm_call(make_call("no-such-run", true)), NotFoundError);
  EXPECT_TRUE(db->llm_calls("other").empty());
}

TEST_F(RecordsTest, IdeaUpdatesRoundTripInOrder) {
  auto db = open_db();
  db->create_run(make_run("r1"));
  db->create_run(make_run("r2"));
  IdeaUpdateRecord u{"r1", 0, "idea-a", 0.5, 0.7, 3, 5000};
  db->insert_idea_update(u);
  db->insert_idea_update({"r1", 1, "idea-b", 0.2, 0.1, 2, 5001});
  db->insert_idea_update({"r2", 0, "idea-a", 0.5, 0.6, 1, 5002});

  const std::vector<IdeaUpdateRecord> got = db->idea_updates("r1");
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].run_id, "r1");
  EXPECT_EQ(got[0].iteration, 0);
  EXPECT_EQ(got[0].idea_id, "idea-a");
  EXPECT_EQ(got[0].before, 0.5);
  EXPECT_EQ(got[0].after, 0.7);
  EXPECT_EQ(got[0].samples, 3);
  EXPECT_EQ(got[0].created_at, 5000);
  EXPECT_EQ(got[1].idea_id, "idea-b");
  EXPECT_THROW(db->insert_idea_update({"no-such-run", 0, "i", 0, 0, 0, 0}), NotFoundError);
}

TEST_F(RecordsTest, FindKernelLooksInOneRunOrAmongKer0) {
  auto db = open_db();
  db->create_run(make_run("r1"));
  db->create_run(make_run("r2"));
  const int64_t ker0 = db->insert_kernel(make_kernel("", "same"));
  const int64_t first = db->insert_kernel(make_kernel("r1", "same"));
  db->insert_kernel(make_kernel("r1", "same"));  // a duplicate: find returns the earliest
  const int64_t other = db->insert_kernel(make_kernel("r2", "same"));

  EXPECT_EQ(db->find_kernel("r1", "same")->id, first);
  EXPECT_EQ(db->find_kernel("r2", "same")->id, other);
  EXPECT_EQ(db->find_kernel("", "same")->id, ker0);
  EXPECT_FALSE(db->find_kernel("r1", "different"));
  EXPECT_FALSE(db->find_kernel("r3", "same"));
}

TEST_F(RecordsTest, FindKer0ByTaskAndBoard) {
  auto db = open_db();
  db->create_run(make_run("r1"));
  db->insert_kernel(make_kernel("r1", "not-ker0"));
  const int64_t relu_k1 = db->insert_kernel(make_kernel("", "a", "relu_f32", "k1"));
  const int64_t relu_other = db->insert_kernel(make_kernel("", "a", "relu_f32", "other"));
  db->insert_kernel(make_kernel("", "b", "relu_f32", "k1"));  // ker0.c edited later

  EXPECT_EQ(db->find_ker0("relu_f32", "k1")->id, relu_k1);
  EXPECT_EQ(db->find_ker0("relu_f32", "other")->id, relu_other);
  EXPECT_FALSE(db->find_ker0("mish_f32", "k1"));
}

TEST_F(RecordsTest, EnsureKer0InsertsOncePerSource) {
  auto db = open_db();
  KernelRecord ker0 = make_kernel("", "v1");
  const int64_t id = db->ensure_ker0(ker0);
  EXPECT_EQ(db->ensure_ker0(ker0), id);
  EXPECT_EQ(db->get_kernel(id)->op, "ker0");

  ker0.hash = "v2";
  const int64_t edited = db->ensure_ker0(ker0);
  EXPECT_NE(edited, id);
  EXPECT_EQ(db->find_ker0("relu_f32", "k1")->id, id);
  EXPECT_EQ(db->kernels("relu_f32").size(), 2u);
}

TEST_F(RecordsTest, FindEvaluationByHashAcrossRunsButNotBoards) {
  auto db = open_db();
  db->create_run(make_run("r1"));
  db->create_run(make_run("r2"));
  const int64_t infra = db->insert_kernel(make_kernel("r1", "h"));
  db->insert_evaluation(make_evaluation(infra, EvalStatus::infra_error));
  const int64_t judged = db->insert_kernel(make_kernel("r1", "h"));
  db->insert_evaluation(make_evaluation(judged, EvalStatus::wrong_answer));
  const int64_t later = db->insert_kernel(make_kernel("r2", "h"));
  db->insert_evaluation(make_evaluation(later, EvalStatus::ok, 10));
  db->insert_kernel(make_kernel("r2", "unevaluated"));

  const std::optional<EvaluationRecord> found = db->find_evaluation_by_hash("relu_f32", "k1", "h");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->kernel_id, judged) << "the earliest evaluation that is not an infrastructure failure";
  EXPECT_EQ(found->status, EvalStatus::wrong_answer);
  EXPECT_FALSE(db->find_evaluation_by_hash("relu_f32", "other-board", "h"));
  EXPECT_FALSE(db->find_evaluation_by_hash("mish_f32", "k1", "h"));
  EXPECT_FALSE(db->find_evaluation_by_hash("relu_f32", "k1", "unevaluated"));
}

TEST_F(RecordsTest, FindEvaluationByHashCanRequireTheSameSetup) {
  auto db = open_db();
  db->create_run(make_run("r1"));
  const int64_t old_setup = db->insert_kernel(make_kernel("r1", "h"));
  EvaluationRecord e = make_evaluation(old_setup, EvalStatus::ok, 10);
  e.setup = "cost model v1";
  db->insert_evaluation(e);
  const int64_t new_setup = db->insert_kernel(make_kernel("r1", "h"));
  e = make_evaluation(new_setup, EvalStatus::ok, 12);
  e.setup = "cost model v2";
  db->insert_evaluation(e);

  EXPECT_EQ(db->find_evaluation_by_hash("relu_f32", "k1", "h")->kernel_id, old_setup) << "any setup";
  EXPECT_EQ(db->find_evaluation_by_hash("relu_f32", "k1", "h", "cost model v2")->kernel_id, new_setup);
  EXPECT_FALSE(db->find_evaluation_by_hash("relu_f32", "k1", "h", "cost model v3"));
}

TEST_F(RecordsTest, DataSurvivesReopening) {
  int64_t id = 0;
  {
    auto db = open_db();
    db->create_run(make_run("r1"));
    id = db->insert_kernel(make_kernel("r1", "h"));
    db->insert_evaluation(make_evaluation(id, EvalStatus::ok, 5));
  }
  auto db = open_db();
  EXPECT_TRUE(db->get_run("r1"));
  EXPECT_EQ(db->get_evaluation(id)->cycles, 5);
  EXPECT_EQ(db->file(), db_file());
}

}  // namespace
}  // namespace eok::db::testing
