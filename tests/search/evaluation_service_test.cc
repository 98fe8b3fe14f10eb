// The evaluation service's decisions with a scripted judge and a real (temporary) kernel database: a
// kernel is evaluated once per identity, task, board and measuring setup, across runs; a repeat inside a
// run comes back as the earlier kernel; concurrent submissions of one kernel share one evaluation; at
// most `concurrency` evaluations run at once; the seeds; infra_errors in a row; rechecks.
// (infra_error_test.cc covers what an infra_error must never be reused for, and copies of ker0.)
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "src/common/error.h"
#include "src/search/evaluation_service.h"
#include "support/gated_judge.h"
#include "support/scripted_search.h"

namespace eok::testing {
namespace {

using evaluator::EvalStatus;
using search::EvaluationService;
using search::ScoredKernel;

class EvaluationServiceTest : public ScriptedSearchTest {};

// Each line's text before "//", trailing blanks and blank lines dropped: sources that differ only in
// comments are one program.
std::string without_comments(const std::string& source) {
  std::string code;
  size_t at = 0;
  while (at < source.size()) {
    const size_t end = std::min(source.find('\n', at), source.size());
    std::string line = source.substr(at, std::min(end, source.find("//", at)) - at);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (!line.empty()) code += line + "\n";
    at = end + 1;
  }
  return code;
}

TEST_F(EvaluationServiceTest, AnotherRunReusesTheEvaluationOfTheSameProgramAndRecordsItAsItsOwn) {
  ScriptedJudge judge;
  judge.identity_of = without_comments;
  ScoredKernel first;
  {
    auto evals = service(judge, "r1");
    first = evals->submit(candidate("int k; /* CYCLES=500 */ // first", evals->baseline()));
    ASSERT_TRUE(first.ok()) << status_name(first.eval.status);
  }
  add_run("r2");
  auto evals = service(judge, "r2");
  const ScoredKernel base = evals->baseline();
  bool duplicate = true;
  const ScoredKernel again = evals->submit(candidate("int k; /* CYCLES=500 */ // reworded", base), &duplicate);
  EXPECT_FALSE(duplicate) << "a kernel new to this run is not a repeat, whatever other runs held";
  EXPECT_EQ(judge.total_calls(), 2) << "ker0 and the first kernel only: the second run evaluated nothing";
  EXPECT_EQ(evals->counts().reused, 1);
  EXPECT_EQ(evals->counts().evaluated, 0);
  EXPECT_NE(again.kernel.id, first.kernel.id) << "the run records the kernel as its own";
  EXPECT_EQ(again.eval.kernel_id, again.kernel.id);
  EXPECT_EQ(again.eval.cycles, first.eval.cycles);
  EXPECT_EQ(again.eval.seed, first.eval.seed) << "the reused evaluation is the one measured, seed included";
  ASSERT_TRUE(db_->get_evaluation(again.kernel.id));
  EXPECT_EQ(db_->get_evaluation(again.kernel.id)->status, EvalStatus::ok);
}

TEST_F(EvaluationServiceTest, AnEvaluationIsReusedOnlyUnderTheSameMeasuringSetup) {
  ScriptedJudge judge;
  const std::string src = "int k; /* CYCLES=500 */";
  {
    auto evals = service(judge, "r1");
    evals->submit(candidate(src, evals->baseline()));
  }
  add_run("r2");
  ScriptedJudge other_board;
  other_board.setup_name = "another cost table";
  auto evals = service(other_board, "r2");
  evals->submit(candidate(src, evals->baseline()));
  EXPECT_EQ(other_board.calls(src), 1) << "an evaluation of another setup was taken as this one's";
  EXPECT_EQ(evals->counts().reused, 0);
}

TEST_F(EvaluationServiceTest, ARepeatInsideTheRunIsTheEarlierKernelButTheSamePlaceOnResumeIsNot) {
  ScriptedJudge judge;
  judge.identity_of = without_comments;
  auto evals = service(judge);
  const ScoredKernel base = evals->baseline();
  const ScoredKernel first = evals->submit(candidate("int k; /* CYCLES=700 */", base));

  db::KernelRecord elsewhere = candidate("int k; /* CYCLES=700 */ // the model again", base);
  elsewhere.op = "E2";
  elsewhere.generation = 2;
  bool duplicate = false;
  const ScoredKernel repeat = evals->submit(elsewhere, &duplicate);
  EXPECT_TRUE(duplicate);
  EXPECT_EQ(repeat.kernel.id, first.kernel.id) << "the earlier kernel comes back";
  EXPECT_EQ(repeat.kernel.op, "M1") << "with its own operator";
  EXPECT_EQ(db_->kernels(task_.id, "r1").size(), 1u) << "a repeat is not a second kernel of the run";
  EXPECT_EQ(judge.total_calls(), 2) << "ker0 and the kernel, once";

  // A resumed run (a new service: nothing in flight) meets its kernel at the same place: not a repeat.
  auto resumed = service(judge);
  resumed->baseline();
  bool again = true;
  const ScoredKernel same_place = resumed->submit(candidate("int k; /* CYCLES=700 */", base), &again);
  EXPECT_FALSE(again);
  EXPECT_EQ(same_place.kernel.id, first.kernel.id);
  EXPECT_EQ(resumed->counts().reused, 1) << "the kernel's evaluation, from the record";
  EXPECT_EQ(judge.total_calls(), 2);
}

TEST_F(EvaluationServiceTest, Ker0WithOtherCommentsIsStillKer0) {
  ScriptedJudge judge;
  judge.identity_of = without_comments;
  auto evals = service(judge);
  const ScoredKernel base = evals->baseline();
  bool duplicate = false;
  const ScoredKernel copy = evals->submit(candidate(base.kernel.source + " // a faster relu", base), &duplicate);
  EXPECT_TRUE(duplicate);
  EXPECT_EQ(copy.kernel.id, base.kernel.id);
  EXPECT_EQ(copy.kernel.op, "ker0");
  EXPECT_TRUE(db_->kernels(task_.id, "r1").empty()) << "ker0 under another comment became a kernel of the run";
  EXPECT_EQ(judge.total_calls(), 1);
}

TEST_F(EvaluationServiceTest, ConcurrentSubmissionsOfOneKernelShareOneEvaluation) {
  ScriptedJudge scripted;
  GatedJudge judge(scripted);
  auto evals = service(scripted);  // ker0 through the plain judge
  const ScoredKernel base = evals->baseline();
  EvaluationService gated(judge, *db_, task_, "k1", "r1", 7, 4);
  gated.baseline();  // on record: not judged again
  const std::string src = "int k; /* CYCLES=600 */";
  std::vector<std::thread> threads;
  std::vector<ScoredKernel> results(4);
  std::vector<int> repeats(4, -1);
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&, i] {
      bool duplicate = false;
      results[static_cast<size_t>(i)] = gated.submit(candidate(src, base), &duplicate);
      repeats[static_cast<size_t>(i)] = duplicate;
    });
  }
  ASSERT_TRUE(judge.wait_until_held(1)) << "the kernel never reached the judge";
  judge.let_through(4);
  for (auto& t : threads) t.join();
  EXPECT_EQ(scripted.calls(src), 1) << "one kernel submitted four times at once was evaluated more than once";
  std::set<int64_t> ids;
  for (const auto& r : results) ids.insert(r.kernel.id);
  EXPECT_EQ(ids.size(), 1u);
  EXPECT_EQ(repeats[0] + repeats[1] + repeats[2] + repeats[3], 3) << "all but the first are repeats";
}

TEST_F(EvaluationServiceTest, NoMoreThanConcurrencyEvaluationsRunAtOnce) {
  ScriptedJudge scripted;
  GatedJudge judge(scripted);
  EvaluationService evals(judge, *db_, task_, "k1", "r1", 7, /*concurrency=*/2);
  judge.let_through(1);
  const ScoredKernel base = evals.baseline();
  constexpr int kKernels = 6;
  std::atomic<int> submitted{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kKernels; ++i) {
    threads.emplace_back([&, i] {
      ++submitted;
      evals.submit(candidate("int k" + std::to_string(i) + "; /* CYCLES=900 */", base));
    });
  }
  // Every submission records its kernel before it asks for a slot: once all are recorded, the ones
  // without a slot are waiting at the board's door, and a missing limit would have let them in.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (db_->kernels(task_.id, "r1").size() < kKernels && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
  }
  EXPECT_TRUE(judge.wait_until_held(2)) << "two evaluations should be under way";
  judge.let_through(kKernels);
  for (auto& t : threads) t.join();
  EXPECT_EQ(submitted, kKernels);
  EXPECT_EQ(judge.most_held(), 2) << "more evaluations ran at once than the service's concurrency";
  EXPECT_EQ(evals.counts().evaluated, 1 + kKernels);
}

TEST_F(EvaluationServiceTest, SeedsFollowTheRunAndTheKernelSoAResumedRunDrawsTheSameInputs) {
  ScriptedJudge judge;
  const std::string a = "int a; /* CYCLES=800 */", b = "int b; /* CYCLES=800 */";
  auto evals = service(judge);
  const ScoredKernel base = evals->baseline();
  const ScoredKernel ka = evals->submit(candidate(a, base));
  const ScoredKernel kb = evals->submit(candidate(b, base));
  EXPECT_NE(ka.eval.seed, kb.eval.seed) << "two kernels of a run drew the same inputs";
  ASSERT_EQ(judge.seeds(a).size(), 1u);
  EXPECT_EQ(ka.eval.seed, judge.seeds(a).front()) << "the recorded seed is the one the judge used";

  // The same run in a fresh database (a resumed run whose evaluation was lost) draws the same seed.
  TempDir other_dir(std::filesystem::temp_directory_path(), "eok-seeds-");
  auto other_db = db::KernelDb::open(other_dir.path() / "kernels.db");
  add_run("r1", other_db.get());
  add_run("r9", other_db.get());
  EvaluationService same_seed(judge, *other_db, task_, "k1", "r1", 7, 1);
  const ScoredKernel base2 = same_seed.baseline();
  EXPECT_EQ(same_seed.submit(candidate(a, base2)).eval.seed, ka.eval.seed);
  // Another run seed draws fresh inputs for the same kernel.
  ScriptedJudge fresh;
  fresh.setup_name = "fresh";  // nothing on record to reuse: the kernel is judged with this run's seed
  EvaluationService other_seed(fresh, *other_db, task_, "k1", "r9", 8, 1);
  other_seed.baseline();
  other_seed.submit(candidate(a, base2));
  ASSERT_EQ(fresh.seeds(a).size(), 1u);
  EXPECT_NE(fresh.seeds(a).front(), ka.eval.seed);
}

TEST_F(EvaluationServiceTest, InfraErrorsInARowMarkTheBoardFailingAndItStaysSo) {
  ScriptedJudge judge;
  auto evals = service(judge);
  const ScoredKernel base = evals->baseline();
  int n = 0;
  auto submit = [&](const std::string& kind) {
    return evals->submit(candidate(kind + " kernel " + std::to_string(n++) + "; CYCLES=900", base));
  };
  static_assert(EvaluationService::kInfraErrorsInARow == 3, "the counts below assume three");
  submit("INFRA");
  submit("INFRA");
  submit("ok");  // breaks the streak
  submit("INFRA");
  submit("INFRA");
  EXPECT_FALSE(evals->infra_failing()) << "never three in a row";
  submit("WRONG");  // a wrong kernel is the kernel's failure: it breaks the streak too
  submit("INFRA");
  submit("INFRA");
  EXPECT_FALSE(evals->infra_failing());
  submit("INFRA");
  EXPECT_TRUE(evals->infra_failing());
  EXPECT_NE(evals->last_infra_error().find("scripted"), std::string::npos) << evals->last_infra_error();
  submit("ok");
  EXPECT_TRUE(evals->infra_failing()) << "a failing board stays failing for the run";
  const search::EvaluationCounts c = evals->counts();
  EXPECT_EQ(c.infra_errors, 7);
  EXPECT_EQ(c.evaluated, 1 + 10) << "ker0 and every kernel, the infra_errors included";
}

TEST_F(EvaluationServiceTest, ARecheckReportsTheFirstFailingJudgementOnFreshSeedsAndIgnoresInfraErrors) {
  ScriptedJudge judge;
  const std::string src = "int k; /* CYCLES=600 */";
  int judgements = 0;
  // First judgement ok, then infra_error, ok, then wrong: the recheck must stop at the wrong one.
  judge.verdict = [&](const std::string& s) {
    if (s != src) return EvalStatus::ok;
    switch (judgements++) {
      case 1:
        return EvalStatus::infra_error;
      case 3:
        return EvalStatus::wrong_answer;
      default:
        return EvalStatus::ok;
    }
  };
  auto evals = service(judge);
  const ScoredKernel k = evals->submit(candidate(src, evals->baseline()));
  ASSERT_TRUE(k.ok());
  EXPECT_FALSE(evals->recheck(k.kernel, 2)) << "ok and infra_error say nothing against the kernel";
  const auto failed = evals->recheck(k.kernel, 5);
  ASSERT_TRUE(failed);
  EXPECT_EQ(failed->status, EvalStatus::wrong_answer);
  EXPECT_EQ(failed->kernel_id, k.kernel.id);
  EXPECT_EQ(judge.calls(src), 1 + 2 + 1) << "the second recheck stopped at its first failure";
  const std::vector<uint64_t> seeds = judge.seeds(src);
  EXPECT_EQ(std::set<uint64_t>(seeds.begin(), seeds.end()).size(), 3u)
      << "the attempts of a recheck draw fresh inputs (two rechecks of one kernel repeat theirs)";
  EXPECT_EQ(seeds[1], seeds[3]);
  EXPECT_EQ(db_->get_evaluation(k.kernel.id)->status, EvalStatus::ok) << "a recheck records nothing itself";
}

TEST_F(EvaluationServiceTest, AJudgeThatThrowsFreesItsSlotAndLeavesTheKernelToBeEvaluatedAgain) {
  ScriptedJudge judge;
  const std::string src = "int k; /* CYCLES=600 */";
  bool broken = true;
  judge.verdict = [&](const std::string& s) {
    if (s == src && broken) throw ConfigError("scripted: the board profile is missing");
    return EvalStatus::ok;
  };
  auto evals = service(judge, "r1", /*concurrency=*/1);
  const ScoredKernel base = evals->baseline();
  EXPECT_THROW(evals->submit(candidate(src, base)), ConfigError);
  // The one slot is free again (this would wait forever otherwise) ...
  EXPECT_TRUE(evals->submit(candidate("int other; /* CYCLES=700 */", base)).ok());
  // ... and the kernel is not stuck on the failed evaluation.
  broken = false;
  EXPECT_TRUE(evals->submit(candidate(src, base)).ok());
  EXPECT_EQ(judge.calls(src), 2);
}

// On a real board the champion stands only when it is faster than ker0 beyond both measurements' noise.
TEST_F(EvaluationServiceTest, TheChampionIsMeasuredAgainInTurnsWithKer0AndMustBeatItsNoise) {
  ScriptedJudge judge;
  judge.board_noise = 10;
  auto evals = service(judge);
  const ScoredKernel base = evals->baseline();
  const ScoredKernel fast = evals->submit(candidate("int fast; /* CYCLES=800 */", base));
  const ScoredKernel close = evals->submit(candidate("int close; /* CYCLES=985 */", base));
  EXPECT_TRUE(fast.measured_on_board());
  EXPECT_DOUBLE_EQ(fast.noise(), 10);
  EXPECT_TRUE(search::clearly_faster(fast, base));
  EXPECT_FALSE(search::clearly_faster(close, base)) << "15 cycles apart with 10 + 10 cycles of noise";

  const search::Remeasured won = evals->remeasure_against(fast.kernel, base.kernel, 3);
  EXPECT_EQ(won.rounds, 3);
  EXPECT_TRUE(won.problem.empty()) << won.problem;
  EXPECT_DOUBLE_EQ(won.champion_cycles, 800);
  EXPECT_DOUBLE_EQ(won.baseline_cycles, 1000);
  EXPECT_DOUBLE_EQ(won.noise, 20);
  EXPECT_TRUE(won.faster);
  EXPECT_FALSE(evals->remeasure_against(close.kernel, base.kernel, 3).faster);
  EXPECT_EQ(judge.seeds(fast.kernel.source).size(), 1u + 3u) << "its evaluation and one run per round";

  // A round that does not measure ends the comparison and says which side and round failed.
  judge.verdict = [&](const std::string& s) {
    return s == fast.kernel.source ? EvalStatus::infra_error : EvalStatus::ok;
  };
  const search::Remeasured lost = evals->remeasure_against(fast.kernel, base.kernel, 3);
  EXPECT_EQ(lost.rounds, 0);
  EXPECT_FALSE(lost.faster);
  EXPECT_NE(lost.problem.find("the champion did not measure in round 1: infra_error"), std::string::npos)
      << lost.problem;
}

TEST(ToRecord, AMeasurementWithoutAModeledFigureIsRecordedAsItIs) {
  evaluator::EvalResult r;
  r.status = EvalStatus::ok;
  r.cycles = 900;
  r.measurement.emplace();
  r.measurement->median_cycles = 900;
  r.measurement->mad_cycles = 4;
  const db::EvaluationRecord e = search::to_record(r, 5, "a board");
  const nlohmann::json evidence = nlohmann::json::parse(e.evidence_json);
  EXPECT_DOUBLE_EQ(evidence["measurement"]["mad_cycles"].get<double>(), 4);
  EXPECT_FALSE(evidence.contains("modeled_cycles"));
  EXPECT_EQ(e.kernel_id, 5);
  EXPECT_EQ(e.setup, "a board");
  const search::ScoredKernel scored{{}, e};
  EXPECT_DOUBLE_EQ(scored.noise(), 4);
}

}  // namespace
}  // namespace eok::testing
