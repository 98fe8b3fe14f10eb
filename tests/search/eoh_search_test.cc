// EoH's decisions, with a scripted judge and generator: operators in turn, each making search.offspring
// children from the population the previous operator left; E's second parent from the archive; the
// kernel two attempts of one batch both proposed belongs to the earlier attempt, whatever the timing; the
// population kept at its size, fastest first; a search at the roofline ending early; a failed child or
// a repeat told to the next mutation of its parent; the same requests from the same run seed; ideas
// drawn without replacement by effectiveness.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <set>
#include <thread>

#include "src/search/eoh_search.h"
#include "support/scripted_search.h"

namespace eok::testing {
namespace {

using search::ScoredKernel;

class EohSearchTest : public ScriptedSearchTest {};

TEST_F(EohSearchTest, OperatorsRunInTurnEachWithItsOffspringFromThePopulationTheLastOneLeft) {
  settings_.population = 1;
  settings_.generations = 1;
  settings_.offspring = 2;
  ScriptedJudge judge;
  std::atomic<int> n{0};
  // Every child is faster than anything before it: each operator's children must see the last one's.
  ScriptedGenerator gen([&](const search::ProposalRequest& r) {
    return "int v" + std::to_string(r.seed) + "; /* CYCLES=" + std::to_string(900 - 10 * n++) + " */\n";
  });
  auto evals = service(judge);
  const ScoredKernel base = evals->baseline();
  auto c = context(*evals, &gen, nullptr);
  search::run_eoh_search(*c->ctx, 7, 0, 0, {base}, {}, nullptr);
  const auto reqs = gen.requests();
  ASSERT_EQ(reqs.size(), 1u + 5u * 2u) << "one i1, then two children for each of the five operators";
  const std::vector<std::string> ops = {"i1", "E1", "E1", "E2", "E2", "M1", "M1", "M2", "M2", "M3", "M3"};
  std::set<int64_t> seen_parents;
  for (size_t i = 0; i < reqs.size(); ++i) {
    EXPECT_EQ(reqs[i].op, ops[i]) << "request " << i;
    for (const auto& p : reqs[i].parents) seen_parents.insert(p.kernel.id);
  }
  // Population 1: after each operator only the fastest survives, and the next operator works from it.
  const auto& m3 = reqs.back();
  ASSERT_EQ(m3.parents.size(), 1u);
  EXPECT_DOUBLE_EQ(m3.parents.front().cycles(), 900 - 10 * 8)
      << "M3 worked from the best child of M2 (the 8th proposal)";
  EXPECT_GE(seen_parents.size(), 5u);
}

TEST_F(EohSearchTest, AnEOperatorWithAOneKernelPopulationTakesItsSecondParentFromTheArchive) {
  settings_.population = 1;
  settings_.generations = 1;
  ScriptedJudge judge;
  auto evals = service(judge);
  const ScoredKernel base = evals->baseline();
  const ScoredKernel other = evals->submit(candidate("int archived; /* CYCLES=1200 */\n", base));
  ScriptedGenerator gen([](const search::ProposalRequest& r) { return "WRONG " + std::to_string(r.seed) + ";\n"; });
  auto c = context(*evals, &gen, nullptr);
  search::run_eoh_search(*c->ctx, 7, 0, 0, {base, other}, {}, nullptr);
  bool e_seen = false;
  for (const auto& r : gen.requests()) {
    if (r.op[0] != 'E') continue;
    e_seen = true;
    ASSERT_EQ(r.parents.size(), 2u) << r.op << " was sent a single kernel";
    EXPECT_NE(r.parents[0].kernel.id, r.parents[1].kernel.id);
  }
  EXPECT_TRUE(e_seen);
}

TEST_F(EohSearchTest, TheEarlierAttemptOfABatchOwnsAKernelBothProposedWhateverArrivesFirst) {
  settings_.population = 2;
  settings_.generations = 0;
  const idea_pool::IdeaPool ideas = pool();
  ScriptedJudge judge;
  // Both thoughts give the same kernel; the first thought's reply comes last.
  ScriptedGenerator gen([](const search::ProposalRequest& r) {
    if (r.thought && r.thought->id == "I1.T1") std::this_thread::sleep_for(std::chrono::milliseconds(300));
    return std::string("int same; /* CYCLES=800 */\n");
  });
  auto evals = service(judge);
  const ScoredKernel base = evals->baseline();
  auto c = context(*evals, &gen, &ideas);
  search::run_eoh_search(*c->ctx, 7, 0, 0, {base}, {}, &ideas.ideas.front());
  const auto reqs = gen.requests();
  ASSERT_EQ(reqs.size(), 2u);
  // The batch's order is the order the thoughts were drawn in: the first of them owns the kernel.
  std::vector<std::string> drawn;
  for (const auto& r : reqs) drawn.push_back(r.thought->id);
  const auto kernels = db_->kernels(task_.id, "r1");
  std::vector<std::string> owners;
  for (const auto& row : kernels) {
    if (row.kernel.op == "init") owners.push_back(row.kernel.thought_id);
  }
  ASSERT_EQ(owners.size(), 1u) << "one kernel for the two identical replies";
  // Run it again with the delay on the other thought: the owner must not change.
  TempDir again_dir(std::filesystem::temp_directory_path(), "eok-order-");
  auto db2 = db::KernelDb::open(again_dir.path() / "kernels.db");
  add_run("r1", db2.get());
  ScriptedGenerator gen2([](const search::ProposalRequest& r) {
    if (r.thought && r.thought->id == "I1.T2") std::this_thread::sleep_for(std::chrono::milliseconds(300));
    return std::string("int same; /* CYCLES=800 */\n");
  });
  search::EvaluationService evals2(judge, *db2, task_, "k1", "r1", 7, 4);
  const ScoredKernel base2 = evals2.baseline();
  auto c2 = context(evals2, &gen2, &ideas);
  search::run_eoh_search(*c2->ctx, 7, 0, 0, {base2}, {}, &ideas.ideas.front());
  std::vector<std::string> owners2;
  for (const auto& row : db2->kernels(task_.id, "r1")) {
    if (row.kernel.op == "init") owners2.push_back(row.kernel.thought_id);
  }
  EXPECT_EQ(owners2, owners) << "which thought owns the kernel depended on which reply came first";
}

TEST_F(EohSearchTest, ThePopulationKeepsItsSizeOfTheFastestCorrectKernels) {
  settings_.population = 2;
  settings_.generations = 1;
  ScriptedJudge judge;
  const std::map<std::string, int> cycles = {{"E1", 700}, {"E2", 1200}, {"M1", 850}, {"M2", 650}, {"M3", 1100}};
  std::atomic<int> n{0};
  ScriptedGenerator gen([&](const search::ProposalRequest& r) {
    if (r.op == "i1") return std::string(n++ == 0 ? "int i1; CYCLES=900" : "WRONG i1");
    return "int " + r.op + "; CYCLES=" + std::to_string(cycles.at(r.op));
  });
  auto evals = service(judge);
  const ScoredKernel base = evals->baseline();
  auto c = context(*evals, &gen, nullptr);
  const search::EohResult res = search::run_eoh_search(*c->ctx, 7, 0, 0, {base}, {}, nullptr);
  ASSERT_EQ(res.population.size(), 2u);
  EXPECT_DOUBLE_EQ(res.population[0].cycles(), 650) << "fastest first";
  EXPECT_DOUBLE_EQ(res.population[1].cycles(), 700);
  EXPECT_FALSE(res.stopped_at_roofline);
}

TEST_F(EohSearchTest, ASearchWhoseBestKernelIsAtTheRooflineStopsBeforeTheOperators) {
  settings_.population = 1;
  settings_.generations = 2;
  ScriptedJudge judge;
  judge.roofline_cycles = 500;
  // 520 cycles is within 10% of the 500-cycle bound.
  ScriptedGenerator at_bound([](const search::ProposalRequest& r) { return "int " + r.op + "; CYCLES=520"; });
  auto evals = service(judge);
  const ScoredKernel base = evals->baseline();
  auto c = context(*evals, &at_bound, nullptr);
  const search::EohResult res = search::run_eoh_search(*c->ctx, 7, 0, 0, {base}, {}, nullptr);
  EXPECT_TRUE(res.stopped_at_roofline);
  EXPECT_EQ(at_bound.requests().size(), 1u) << "only the initial proposal";

  // 600 cycles is not: the operators run.
  add_run("r2");
  ScriptedGenerator short_of_it(
      [](const search::ProposalRequest& r) { return "int " + r.op + std::to_string(r.seed) + "; CYCLES=600"; });
  auto evals2 = service(judge, "r2");
  auto c2 = context(*evals2, &short_of_it, nullptr);
  const search::EohResult res2 = search::run_eoh_search(*c2->ctx, 7, 0, 0, {evals2->baseline()}, {}, nullptr);
  EXPECT_FALSE(res2.stopped_at_roofline);
  EXPECT_EQ(short_of_it.requests().size(), 1u + 5u * 2u);
}

TEST_F(EohSearchTest, AFailureOrARepeatIsToldOnceToTheNextMutationOfItsParentNeverToACrossover) {
  settings_.population = 1;
  settings_.generations = 1;
  ScriptedJudge judge;
  // From ker0: i1 wrong; E1, E2 unanswered; M1 correct but slower (ker0 stays the population); M2 repeats M1.
  ScriptedGenerator gen([](const search::ProposalRequest& r) -> std::string {
    if (r.op == "i1") return "WRONG i1";
    if (r.op[0] == 'E') return "UNANSWERED";
    if (r.op == "M1" || r.op == "M2") return "int slow; CYCLES=1500";
    return "UNANSWERED";
  });
  auto evals = service(judge);
  const ScoredKernel base = evals->baseline();
  auto c = context(*evals, &gen, nullptr);
  search::run_eoh_search(*c->ctx, 7, 0, 0, {base}, {}, nullptr);
  std::map<std::string, std::string> feedback;
  for (const auto& r : gen.requests()) {
    ASSERT_EQ(r.parents.front().kernel.id, base.kernel.id) << r.op;
    feedback[r.op] = r.feedback;
  }
  EXPECT_EQ(feedback["E1"], "") << "a crossover is not told about one parent's failed child";
  EXPECT_EQ(feedback["E2"], "");
  EXPECT_NE(feedback["M1"].find("wrong_answer"), std::string::npos) << feedback["M1"];
  EXPECT_EQ(feedback["M2"], "") << "the failure was told once";
  EXPECT_NE(feedback["M3"].find("a repeat of kernel #"), std::string::npos) << feedback["M3"];
}

TEST_F(EohSearchTest, TheSameRunSeedAsksTheSameRequests) {
  settings_.population = 2;
  settings_.generations = 1;
  const idea_pool::IdeaPool ideas = pool();
  ScriptedJudge judge;
  auto run_once = [&](const std::string& run, uint64_t run_seed) {
    ScriptedGenerator gen([](const search::ProposalRequest& r) {
      return "int k" + std::to_string(r.seed) + "; CYCLES=" + std::to_string(700 + r.seed % 300);
    });
    auto evals = service(judge, run);
    auto c = context(*evals, &gen, &ideas);
    search::run_eoh_search(*c->ctx, run_seed, 0, 0, {evals->baseline()}, {}, &ideas.ideas.front());
    std::multiset<std::string> asked;
    for (const auto& r : gen.requests()) {
      std::string parents;
      for (const auto& p : r.parents) parents += " " + p.kernel.source.substr(0, 24);
      asked.insert(r.op + " " + std::to_string(r.seed) + (r.thought ? " " + r.thought->id : "") + parents);
    }
    return asked;
  };
  add_run("r2");
  add_run("r3");
  const auto first = run_once("r1", 7);
  EXPECT_EQ(run_once("r2", 7), first) << "a resumed or replayed search would not retrace its steps";
  EXPECT_NE(run_once("r3", 8), first) << "another run seed asks the same";
}

TEST(DrawIdeas, ParallelSearchesGetDistinctIdeasAndEffectiveOnesMoreOften) {
  idea_pool::IdeaPool pool;
  for (const char* id : {"I1", "I2", "I3"}) {
    idea_pool::Idea idea;
    idea.id = id;
    pool.ideas.push_back(idea);
  }
  search::Effectiveness eff = {{"I1", 0.5}, {"I2", 0.0}, {"I3", -0.1}};
  std::map<std::string, int> first;
  for (uint64_t s = 0; s < 400; ++s) {
    search::Rng rng(s);
    const auto drawn = search::draw_ideas(pool, eff, 2, true, 0.1, rng);
    ASSERT_EQ(drawn.size(), 2u);
    EXPECT_NE(drawn[0], drawn[1]) << "two parallel searches drew the same idea while another was left";
    ++first[drawn[0]->id];
  }
  EXPECT_GT(first["I1"], 300) << "the most effective idea comes first most of the time";
  std::map<std::string, int> uniform;
  for (uint64_t s = 0; s < 600; ++s) {
    search::Rng rng(s);
    ++uniform[search::draw_ideas(pool, eff, 1, false, 0.1, rng)[0]->id];
  }
  for (const auto& [id, n] : uniform) EXPECT_NEAR(n, 200, 60) << id << ": the paper's draw ignores effectiveness";
  search::Rng rng(1);
  EXPECT_EQ(search::draw_ideas(pool, eff, 5, true, 0.1, rng).size(), 5u) << "more searches than ideas: ideas repeat";
}

}  // namespace
}  // namespace eok::testing
