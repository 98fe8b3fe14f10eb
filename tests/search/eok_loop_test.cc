// EoK's outer loop with a scripted judge and generator: what each iteration's archive holds, how the
// effectiveness of ideas and thoughts moves and is recorded (once, also when a run is resumed), which
// results are charged to an idea (never an infra_error, never a request the model did not answer), and
// when the loop stops (the LLM budget, a failing board).
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <set>
#include <string>

#include "src/search/eok_loop.h"
#include "support/scripted_search.h"

namespace eok::testing {
namespace {

using search::ScoredKernel;

class EokLoopTest : public ScriptedSearchTest {
 protected:
  EokLoopTest() {
    settings_.parallel = 1;
    settings_.population = 2;
    settings_.generations = 0;  // each search: one initial batch of `population` proposals
    settings_.effectiveness_rate = 0.3;
  }

  // Runs the loop of `run` with a fresh evaluation service (as a new or resumed `eok search` does).
  search::LoopResult run_loop(ScriptedJudge& judge, search::Generator& gen, const idea_pool::IdeaPool* ideas,
                              std::string* stop_reason = nullptr, const std::string& run = "r1") {
    auto evals = service(judge, run);
    const ScoredKernel base = evals->baseline();
    auto c = context(*evals, &gen, ideas);
    const search::LoopResult r = search::run_eok_loop(*c->ctx, *db_, run, "k1", 7, base);
    if (stop_reason) *stop_reason = c->ctx->stop ? c->ctx->stop_reason : "";
    return r;
  }

  // The recorded updates of run "r1" by "<iteration> <id>".
  std::map<std::string, db::IdeaUpdateRecord> updates() {
    std::map<std::string, db::IdeaUpdateRecord> out;
    for (const auto& u : db_->idea_updates("r1")) out[std::to_string(u.iteration) + " " + u.idea_id] = u;
    return out;
  }

  int64_t kernel_id(const std::string& source) {
    for (const auto& row : db_->kernels(task_.id, "r1")) {
      if (row.kernel.source == source) return row.kernel.id;
    }
    ADD_FAILURE() << "no kernel " << source;
    return -1;
  }
};

TEST_F(EokLoopTest, EachIterationDrawsItsParentFromTheBestCorrectKernelsOfEarlierIterations) {
  settings_.iterations = 3;
  settings_.top_k = 2;
  ScriptedJudge judge;
  // Proposals in the order they were asked: iterations do not overlap, so 0-1 are iteration 0, 2-3
  // iteration 1, 4-5 iteration 2 (within an iteration the order does not matter here).
  const std::vector<std::string> sources = {"int a; CYCLES=900", "WRONG b",           "int c; CYCLES=800",
                                            "int d; CYCLES=950", "int e; CYCLES=990", "int f; CYCLES=991"};
  std::atomic<size_t> n{0};
  ScriptedGenerator gen([&](const search::ProposalRequest&) { return sources.at(n++); });
  const search::LoopResult r = run_loop(judge, gen, nullptr);
  EXPECT_EQ(r.iterations_done, 3);
  const auto reqs = gen.requests();
  ASSERT_EQ(reqs.size(), 6u);
  const int64_t ker0 = reqs[0].parents.front().kernel.id;
  const int64_t a = kernel_id(sources[0]), c = kernel_id(sources[2]);
  for (size_t i = 0; i < reqs.size(); ++i) {
    EXPECT_EQ(reqs[i].op, "i1") << "plain EoH without a pool";
    ASSERT_EQ(reqs[i].parents.size(), 1u);
    const int64_t parent = reqs[i].parents.front().kernel.id;
    const std::set<int64_t> allowed = i < 2   ? std::set<int64_t>{ker0}
                                      : i < 4 ? std::set<int64_t>{ker0, a}  // the wrong kernel is no parent
                                              : std::set<int64_t>{c, a};    // top 2: ker0 and d fell out
    EXPECT_TRUE(allowed.count(parent)) << "request " << i << " grew from kernel #" << parent;
  }
}

TEST_F(EokLoopTest, EffectivenessMovesTowardWhatAnIterationObservedAndAResumedRunRecordsItOnce) {
  settings_.iterations = 2;
  const idea_pool::IdeaPool ideas = pool();  // idea I1 (effectiveness 0), thoughts I1.T1, I1.T2 (0.1)
  ScriptedJudge judge;
  // T1 halves the cycles of its parent (or repeats that kernel); T2 is always wrong.
  ScriptedGenerator gen([](const search::ProposalRequest& req) -> std::string {
    if (req.thought->id == "I1.T1") return "int fast; CYCLES=500";
    return "WRONG from " + std::to_string(req.seed);
  });
  run_loop(judge, gen, &ideas);
  auto first = updates();
  // Iteration 0 grew from ker0: T1's kernel is twice as fast (+1.0), T2 failed (-0.1), and the idea's
  // best kernel is twice as fast (+1.0); each moves 30% of the way.
  ASSERT_TRUE(first.count("0 I1.T1") && first.count("0 I1.T2") && first.count("0 I1"));
  EXPECT_DOUBLE_EQ(first["0 I1.T1"].before, 0.1);
  EXPECT_DOUBLE_EQ(first["0 I1.T1"].after, 0.7 * 0.1 + 0.3 * 1.0);
  EXPECT_DOUBLE_EQ(first["0 I1.T2"].after, 0.7 * 0.1 + 0.3 * search::kFailedProposalImprovement);
  EXPECT_DOUBLE_EQ(first["0 I1"].before, 0);
  EXPECT_DOUBLE_EQ(first["0 I1"].after, 0.3 * 1.0);
  EXPECT_EQ(first["0 I1.T1"].samples, 1);
  // Iteration 1 starts from what iteration 0 learned.
  for (const char* id : {"I1", "I1.T1", "I1.T2"}) {
    ASSERT_TRUE(first.count(std::string("1 ") + id)) << id;
    EXPECT_DOUBLE_EQ(first[std::string("1 ") + id].before, first[std::string("0 ") + id].after) << id;
  }

  // Resumed: the same replies retrace the same steps; nothing is recorded twice.
  run_loop(judge, gen, &ideas);
  const auto again = updates();
  EXPECT_EQ(db_->idea_updates("r1").size(), first.size());
  for (const auto& [key, u] : first) EXPECT_DOUBLE_EQ(again.at(key).after, u.after) << key;
}

TEST_F(EokLoopTest, AnInfraErrorIsNeverChargedToAnIdeaOrAThought) {
  settings_.iterations = 1;
  const idea_pool::IdeaPool ideas = pool();
  ScriptedJudge judge;
  ScriptedGenerator gen([](const search::ProposalRequest& req) -> std::string {
    return req.thought->id == "I1.T1" ? "INFRA board lost" : "WRONG answer";
  });
  run_loop(judge, gen, &ideas);
  auto u = updates();
  EXPECT_FALSE(u.count("0 I1.T1")) << "T1 was charged " << u["0 I1.T1"].after - 0.1 << " for the board's failure";
  ASSERT_TRUE(u.count("0 I1.T2"));
  EXPECT_DOUBLE_EQ(u["0 I1.T2"].after, 0.7 * 0.1 + 0.3 * search::kFailedProposalImprovement);
  ASSERT_TRUE(u.count("0 I1")) << "the idea's search answered once, wrongly: that is a failure";
  EXPECT_DOUBLE_EQ(u["0 I1"].after, 0.3 * search::kFailedProposalImprovement);

  // Every proposal of the search met the failing board: its idea learns nothing.
  add_run("r2");
  ScriptedGenerator all_infra([](const search::ProposalRequest& req) { return "INFRA " + req.thought->id; });
  run_loop(judge, all_infra, &ideas, nullptr, "r2");
  EXPECT_TRUE(db_->idea_updates("r2").empty());
}

TEST_F(EokLoopTest, RepliesWithoutAKernelAreFailuresOfTheIdeaButRequestsNeverAnsweredTeachNothing) {
  settings_.iterations = 2;
  const idea_pool::IdeaPool ideas = pool();
  ScriptedJudge judge;
  ScriptedGenerator unusable([](const search::ProposalRequest&) { return std::string("UNUSABLE"); });
  std::string stop;
  EXPECT_EQ(run_loop(judge, unusable, &ideas, &stop).iterations_done, 2) << "the loop itself goes on: " << stop;
  EXPECT_TRUE(db_->kernels(task_.id, "r1").empty());
  auto u = updates();
  ASSERT_TRUE(u.count("0 I1"));
  EXPECT_DOUBLE_EQ(u["0 I1"].after, 0.3 * search::kFailedProposalImprovement);
  EXPECT_EQ(judge.total_calls(), 1) << "only ker0 was judged";

  add_run("r2");
  ScriptedGenerator unanswered([](const search::ProposalRequest&) { return std::string("UNANSWERED"); });
  EXPECT_EQ(run_loop(judge, unanswered, &ideas, nullptr, "r2").iterations_done, 2);
  EXPECT_TRUE(db_->idea_updates("r2").empty()) << "ideas were charged for requests the model never answered";
}

TEST_F(EokLoopTest, ASpentBudgetStopsTheLoopAfterTheRequestsInFlight) {
  settings_.iterations = 3;
  settings_.generations = 1;
  ScriptedJudge judge;
  ScriptedGenerator gen([](const search::ProposalRequest&) { return std::string("BUDGET"); });
  std::string stop;
  const search::LoopResult r = run_loop(judge, gen, nullptr, &stop);
  EXPECT_EQ(r.iterations_done, 1);
  EXPECT_EQ(gen.requests().size(), 2u) << "the first batch, then nothing";
  EXPECT_NE(stop.find("budget"), std::string::npos) << stop;
}

TEST_F(EokLoopTest, AFailingBoardStopsTheLoopBeforeTheNextIteration) {
  settings_.iterations = 3;
  settings_.population = 4;
  const idea_pool::IdeaPool ideas = pool();
  ScriptedJudge judge;
  ScriptedGenerator gen([](const search::ProposalRequest& req) { return "INFRA " + std::to_string(req.seed); });
  std::string stop;
  const search::LoopResult r = run_loop(judge, gen, &ideas, &stop);
  EXPECT_EQ(r.iterations_done, 1);
  EXPECT_EQ(gen.requests().size(), 4u);
  EXPECT_NE(stop.find("eok doctor"), std::string::npos) << stop;
  EXPECT_TRUE(db_->idea_updates("r1").empty());
}

}  // namespace
}  // namespace eok::testing
