// infra_error says eok or the board failed, nothing about the kernel: it is never reused (not by hash,
// not on resume, not by a second submission in the same process), never charged to a thought, never fed
// back to the LLM, never kept in a population; the search says so, and stops when it keeps happening.
#include <gtest/gtest.h>
#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <map>
#include <memory>

#include "evaluator/task.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "src/db/kernel_db.h"
#include "src/search/eoh_search.h"
#include "src/search/evaluation_service.h"
#include "src/search/search_context.h"
#include "src/search/tuner.h"
#include "support/board_fixture.h"
#include "support/scripted_search.h"

namespace eok::testing {
namespace {

namespace fs = std::filesystem;
using search::EvaluationService;
using search::ScoredKernel;

// Collects what the search logs while a test runs.
class LogCapture {
 public:
  LogCapture() : sink_(std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(512)) {
    spdlog::default_logger()->sinks().push_back(sink_);
  }
  ~LogCapture() {
    auto& sinks = spdlog::default_logger()->sinks();
    sinks.erase(std::remove(sinks.begin(), sinks.end(), sink_), sinks.end());
  }
  std::string text() const {
    std::string out;
    for (const auto& line : sink_->last_formatted()) out += line;
    return out;
  }

 private:
  std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> sink_;
};

class InfraErrorTest : public ScriptedSearchTest {};

// ---- the evaluation service ----

TEST_F(InfraErrorTest, ASecondSubmissionInTheSameProcessIsEvaluatedAgain) {
  ScriptedJudge judge;
  int verdicts = 0;
  judge.verdict = [&](const std::string& s) {
    if (s.find("candidate") == std::string::npos) return evaluator::EvalStatus::ok;  // ker0
    return verdicts++ == 0 ? evaluator::EvalStatus::infra_error : evaluator::EvalStatus::ok;
  };
  auto evals = service(judge);
  const ScoredKernel base = evals->baseline();
  const std::string src = "candidate CYCLES=500";
  const ScoredKernel first = evals->submit(candidate(src, base));
  EXPECT_EQ(first.eval.status, EvalStatus::infra_error);
  const ScoredKernel second = evals->submit(candidate(src, base));
  EXPECT_EQ(judge.calls(src), 2) << "an infra_error was served again from the in-flight map";
  EXPECT_EQ(second.eval.status, EvalStatus::ok);
  EXPECT_EQ(db_->get_evaluation(second.kernel.id)->status, EvalStatus::ok)
      << "the new evaluation replaces the infra_error";
}

TEST_F(InfraErrorTest, ACopyOfKer0IsNeverAKernelOfTheRun) {
  ScriptedJudge judge;
  judge.verdict = [](const std::string&) { return evaluator::EvalStatus::ok; };
  auto evals = service(judge);
  const ScoredKernel base = evals->baseline();
  bool duplicate = false;
  const ScoredKernel copy = evals->submit(candidate(base.kernel.source, base), &duplicate);
  EXPECT_TRUE(duplicate);
  EXPECT_EQ(copy.kernel.id, base.kernel.id);
  EXPECT_TRUE(db_->kernels(task_.id, "r1").empty()) << "a copy of ker0 was recorded as a kernel of the run";
  EXPECT_EQ(judge.calls(base.kernel.source), 1) << "ker0 evaluated again";
}

TEST_F(InfraErrorTest, AResumedRunEvaluatesItsInfraErrorKernelsAgain) {
  ScriptedJudge broken;
  broken.verdict = [](const std::string& s) {
    return s.find("candidate") != std::string::npos ? evaluator::EvalStatus::infra_error : evaluator::EvalStatus::ok;
  };
  const std::string src = "candidate CYCLES=500";
  {
    auto evals = service(broken);
    const ScoredKernel base = evals->baseline();
    EXPECT_EQ(evals->submit(candidate(src, base)).eval.status, EvalStatus::infra_error);
  }
  ScriptedJudge healthy;
  auto evals = service(healthy);  // the same run, as --resume opens it
  const ScoredKernel base = evals->baseline();
  bool duplicate = true;
  const ScoredKernel again = evals->submit(candidate(src, base), &duplicate);
  EXPECT_FALSE(duplicate) << "the resumed run met its own kernel at the same place";
  EXPECT_EQ(healthy.calls(src), 1) << "the recorded infra_error was reused on resume";
  EXPECT_EQ(again.eval.status, EvalStatus::ok);
  EXPECT_EQ(evals->counts().reused, 0);
}

TEST_F(InfraErrorTest, AnotherRunNeverReusesAnInfraErrorByHash) {
  ScriptedJudge broken;
  broken.verdict = [](const std::string& s) {
    return s.find("candidate") != std::string::npos ? evaluator::EvalStatus::infra_error : evaluator::EvalStatus::ok;
  };
  const std::string src = "candidate CYCLES=500";
  {
    auto evals = service(broken);
    evals->submit(candidate(src, evals->baseline()));
  }
  add_run("r2");
  ScriptedJudge healthy;
  auto evals = service(healthy, "r2");
  const ScoredKernel k = evals->submit(candidate(src, evals->baseline()));
  EXPECT_EQ(healthy.calls(src), 1);
  EXPECT_EQ(k.eval.status, EvalStatus::ok);
}

TEST_F(InfraErrorTest, Ker0ThatCannotBeMeasuredIsAnInfrastructureProblemAndIsMeasuredAgainNextTime) {
  ScriptedJudge broken;
  broken.verdict = [](const std::string&) { return evaluator::EvalStatus::infra_error; };
  {
    auto evals = service(broken);
    try {
      evals->baseline();
      ADD_FAILURE() << "ker0's infra_error came back as its measurement";
    } catch (const InfraError& e) {
      EXPECT_NE(std::string(e.what()).find("eok doctor"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("infra_error"), std::string::npos) << e.what();
    }
  }
  ScriptedJudge healthy;
  auto evals = service(healthy);
  const ScoredKernel base = evals->baseline();
  EXPECT_TRUE(base.ok()) << status_name(base.eval.status);
  EXPECT_EQ(healthy.total_calls(), 1) << "ker0 was not measured again";
}

// ---- one EoH search ----

TEST_F(InfraErrorTest, AnInfraErrorIsNotChargedToItsThoughtNorFedBackNorKept) {
  settings_.population = 2;
  settings_.generations = 1;
  const idea_pool::IdeaPool ideas = pool();
  ScriptedJudge judge;
  // The initial proposals (one per thought) meet a failing board; the next generation a working one.
  ScriptedGenerator gen([](const search::ProposalRequest& r) {
    if (r.op == "init") return "INFRA from " + r.thought->id + ";\n";
    return "int " + r.op + "; CYCLES=800\n";
  });
  auto evals = service(judge);
  const ScoredKernel base = evals->baseline();
  auto c = context(*evals, &gen, &ideas);
  LogCapture log;
  const search::EohResult res = search::run_eoh_search(*c->ctx, 7, 0, 0, {base}, {}, &ideas.ideas.front());

  for (const auto& o : res.observations) {
    EXPECT_TRUE(o.id != "I1.T1" && o.id != "I1.T2")
        << "thought " << o.id << " was charged " << o.improvement << " for an infrastructure failure";
  }
  for (const auto& r : gen.requests()) {
    EXPECT_EQ(r.feedback.find("infra_error"), std::string::npos) << r.op << " was told: " << r.feedback;
  }
  for (const auto& k : res.population)
    EXPECT_TRUE(k.ok()) << "kernel #" << k.kernel.id << " " << status_name(k.eval.status);
  EXPECT_FALSE(c->stop) << c->ctx->stop_reason;
  const std::string logged = log.text();
  EXPECT_NE(logged.find("infra_error: the reference of relu_f32 failed (scripted); not held against the kernel"),
            std::string::npos)
      << logged;
}

TEST_F(InfraErrorTest, ThoughtsAreCreditedForWhatTheModelDidNotForWhatItNeverSaw) {
  settings_.population = 3;
  settings_.generations = 1;
  idea_pool::IdeaPool ideas = pool();
  idea_pool::Thought third;
  third.id = "I1.T3";
  third.description = "thought I1.T3";
  third.effectiveness = 0.1;
  ideas.ideas[0].thoughts.push_back(third);
  ScriptedJudge judge;
  // T1: a correct kernel twice as slow as its parent; T2: an answer without a kernel; T3: never answered.
  ScriptedGenerator gen([](const search::ProposalRequest& r) -> std::string {
    if (r.op != "init") return "UNANSWERED";
    if (r.thought->id == "I1.T1") return "candidate slow; CYCLES=2000\n";
    if (r.thought->id == "I1.T2") return "UNUSABLE";
    return "UNANSWERED";
  });
  auto evals = service(judge);
  const ScoredKernel base = evals->baseline();
  auto c = context(*evals, &gen, &ideas);
  const search::EohResult res = search::run_eoh_search(*c->ctx, 7, 0, 0, {base}, {}, &ideas.ideas.front());
  std::map<std::string, double> credit;
  for (const auto& o : res.observations) credit[o.id] = o.improvement;
  ASSERT_TRUE(credit.count("I1.T1") && credit.count("I1.T2")) << "both answered thoughts are credited";
  EXPECT_GT(credit["I1.T1"], credit["I1.T2"]) << "a correct but slower kernel ranks above a failure";
  EXPECT_DOUBLE_EQ(credit["I1.T2"], search::kFailedProposalImprovement);
  EXPECT_FALSE(credit.count("I1.T3")) << "a thought the model never answered was charged " << credit["I1.T3"];
}

TEST_F(InfraErrorTest, InfraErrorsInARowStopTheRunAndSayWhatToCheck) {
  settings_.population = 4;
  settings_.generations = 2;
  ScriptedJudge judge;
  ScriptedGenerator gen(
      [](const search::ProposalRequest& r) { return "INFRA " + r.op + " " + std::to_string(r.seed) + ";\n"; });
  auto evals = service(judge);
  const ScoredKernel base = evals->baseline();
  auto c = context(*evals, &gen, nullptr);
  const search::EohResult res = search::run_eoh_search(*c->ctx, 7, 0, 0, {base}, {}, nullptr);
  EXPECT_TRUE(c->stop) << "the search kept asking the LLM while every evaluation failed in eok or the board";
  EXPECT_NE(c->ctx->stop_reason.find("eok doctor"), std::string::npos) << c->ctx->stop_reason;
  EXPECT_LE(gen.requests().size(), 4u) << "no new proposal after the run was stopped";
  ASSERT_EQ(res.population.size(), 1u);
  EXPECT_EQ(res.population[0].kernel.id, base.kernel.id);
}

TEST_F(InfraErrorTest, ACorrectEvaluationBreaksTheStreak) {
  settings_.population = 2;
  settings_.generations = 2;
  settings_.eval_concurrency = 1;
  ScriptedJudge judge;
  // Two infra errors, then a generation of correct kernels, then two infra errors among three correct
  // ones: never three in a row, whatever order the evaluations finish in.
  std::atomic<int> n{0};
  ScriptedGenerator gen([&](const search::ProposalRequest& r) {
    const int i = n++;
    return std::string(i < 2 || i == 7 || i == 8 ? "INFRA " : "int ") + std::to_string(r.seed) + "; CYCLES=900\n";
  });
  auto evals = service(judge, "r1", 1);
  const ScoredKernel base = evals->baseline();
  auto c = context(*evals, &gen, nullptr);
  search::run_eoh_search(*c->ctx, 7, 0, 0, {base}, {}, nullptr);
  EXPECT_FALSE(c->stop) << c->ctx->stop_reason;
  EXPECT_EQ(gen.requests().size(), 2u + 5u + 5u);
}

// ---- the knob tuner ----

TEST_F(InfraErrorTest, TheTunerDoesNotCountInfraErrorsAndStopsWhenTheyKeepComing) {
  ScriptedJudge judge;
  std::string ker0;
  judge.verdict = [&](const std::string& s) {
    return s == ker0 ? evaluator::EvalStatus::ok : evaluator::EvalStatus::infra_error;
  };
  ker0 = read_file(task_.ker0_path());
  auto evals = service(judge);
  const ScoredKernel base = evals->baseline();
  auto c = context(*evals, nullptr, nullptr);
  LogCapture log;
  const search::TunerResult t = search::run_tuner(*c->ctx, base);
  EXPECT_EQ(t.evaluations, 0) << "infra_errors were counted as the tuner's evaluations";
  EXPECT_EQ(t.best_knobs, "defaults");
  EXPECT_TRUE(c->stop);
  EXPECT_NE(c->ctx->stop_reason.find("eok doctor"), std::string::npos) << c->ctx->stop_reason;
  EXPECT_NE(log.text().find("not held against the kernel"), std::string::npos) << log.text();
}

}  // namespace
}  // namespace eok::testing
