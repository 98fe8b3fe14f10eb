#include "evaluator/cost_model/scoreboard.h"

#include <gtest/gtest.h>

namespace eok::cost {
namespace {

SbInsn op(Unit unit, double rt, double lat, std::vector<uint8_t> reads, std::vector<uint8_t> writes) {
  SbInsn in;
  in.unit = unit;
  in.rthroughput = rt;
  in.latency = lat;
  in.reads = std::move(reads);
  in.writes = std::move(writes);
  return in;
}

TEST(Scoreboard, IndependentInstructionsAreThroughputBound) {
  // 16 vadd-like ops on one vector unit, 1 cycle each, latency 4, no dependences between them.
  std::vector<SbInsn> block(16, op(Unit::vieu, 1, 4, {kRegV + 16, kRegV + 24}, {kRegV + 8}));
  EXPECT_DOUBLE_EQ(steady_state_cycles(block), 16);
}

TEST(Scoreboard, AWholeGroupReaderWaitsForTheWholeGroupAnElementReaderDoesNot) {
  // A load (occupancy 2, first elements after 3, whole group after 8) feeding a store or an add.
  SbInsn load = op(Unit::vls, 2, 3, {10}, {kRegV + 8});
  load.whole_latency = 8;
  SbInsn store = op(Unit::vls, 2, 1, {kRegV + 8, 11}, {});
  store.whole_reads = true;
  const SbInsn add = op(Unit::vieu, 1, 4, {kRegV + 8}, {kRegV + 16});
  EXPECT_NEAR(steady_state_cycles({load, store}), 8 + 2, 1e-9);  // the store waits 8, then holds the unit 2
  EXPECT_NEAR(steady_state_cycles({load, add}), 3, 1.0);         // chained: the load's unit time and latency
  EXPECT_LT(steady_state_cycles({load, add}), steady_state_cycles({load, store}));
}

TEST(Scoreboard, FractionalThroughputIsReproducedExactly) {
  std::vector<SbInsn> block(16, op(Unit::vls, 2.45, 3, {10}, {kRegV + 8}));
  EXPECT_NEAR(steady_state_cycles(block), 16 * 2.45, 1e-9);
}

TEST(Scoreboard, DependentChainIsLatencyBound) {
  // v8 = f(v8): each op waits for the previous result (latency 5 > throughput 1).
  std::vector<SbInsn> block(8, op(Unit::vfp, 1, 5, {kRegV + 8}, {kRegV + 8}));
  EXPECT_DOUBLE_EQ(steady_state_cycles(block), 40);
}

TEST(Scoreboard, LoopCarriedDependenceCountsAcrossIterations) {
  // One accumulate per iteration into the same register: latency 5 per iteration.
  std::vector<SbInsn> block = {op(Unit::vfp, 1, 5, {kRegV + 8, kRegV + 16}, {kRegV + 8})};
  EXPECT_DOUBLE_EQ(steady_state_cycles(block), 5);
}

TEST(Scoreboard, DualIssueOfScalarWork) {
  // Eight independent adds on either integer unit: two per cycle.
  std::vector<SbInsn> block(8, op(Unit::ieu_any, 0.5, 1, {10, 11}, {12}));
  EXPECT_DOUBLE_EQ(steady_state_cycles(block), 4);
}

TEST(Scoreboard, SeparateUnitsOverlap) {
  // A load stream (VLS) and an arithmetic stream (VFP) run side by side: the slower unit bounds.
  std::vector<SbInsn> block;
  for (int i = 0; i < 4; ++i) {
    block.push_back(op(Unit::vls, 8, 8, {10}, {static_cast<uint8_t>(kRegV + 8 * (i % 2))}));
    block.push_back(op(Unit::vfp, 4, 5, {kRegV + 16}, {static_cast<uint8_t>(kRegV + 24)}));
  }
  EXPECT_DOUBLE_EQ(steady_state_cycles(block), 32);
}

TEST(Scoreboard, AnInstructionThatWaitedTakesTheNextOneAlong) {
  // A memset-like loop: store through x3; x4 = x3 + 1; x3 = x4; branch on x4. The move waits a cycle for
  // the add and the branch issues beside it; the next store and add issue together when x3 is ready: two
  // cycles an iteration (one slot per instruction would give two and a half).
  const SbInsn store = op(Unit::ls, 0.5, 1, {3}, {});
  const SbInsn inc = op(Unit::ieu_any, 0.5, 1, {3}, {4});
  const SbInsn mov = op(Unit::ieu_any, 0.5, 1, {4}, {3});
  const SbInsn branch = op(Unit::ieu_a, 1, 1, {4}, {});
  EXPECT_DOUBLE_EQ(steady_state_cycles({store, inc, mov, branch}), 2);
}

TEST(Scoreboard, TheLoopBranchClosesTheGroup) {
  // Three independent single-slot ops: two groups an iteration, not one and a half.
  std::vector<SbInsn> block(3, op(Unit::ieu_any, 0.5, 1, {10}, {11}));
  EXPECT_DOUBLE_EQ(steady_state_cycles(block), 2);
}

TEST(Scoreboard, SingleCycleIntegerOpsCascadeWithinAGroup) {
  // x2 = f(x1); x3 = g(x2): with cascading the consumer issues beside its producer, one group an iteration.
  SbInsn a = op(Unit::ieu_any, 0.5, 1, {1}, {2});
  SbInsn b = op(Unit::ieu_any, 0.5, 1, {2}, {3});
  EXPECT_DOUBLE_EQ(steady_state_cycles({a, b}), 2);  // without: b waits a cycle for x2
  a.cascades = b.cascades = true;
  EXPECT_DOUBLE_EQ(steady_state_cycles({a, b}), 1);
  // A producer that does not cascade (latency 3): the consumer waits for its latency as usual, and the
  // loop's branch closes its group.
  SbInsn slow = op(Unit::ieu_any, 0.5, 3, {1}, {2});
  EXPECT_DOUBLE_EQ(steady_state_cycles({slow, b}), 4);
}

TEST(Scoreboard, EmptyBlockCostsNothing) {
  EXPECT_EQ(steady_state_cycles({}), 0);
}

}  // namespace
}  // namespace eok::cost
