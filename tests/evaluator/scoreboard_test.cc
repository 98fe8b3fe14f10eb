#include "evaluator/cost_model/scoreboard.h"

#include <gtest/gtest.h>

namespace eok::cost {
namespace {

SbInsn op(Unit unit, double rt, double lat, std::vector<uint8_t> reads, std::vector<uint8_t> writes) {
  return SbInsn{unit, rt, lat, std::move(reads), std::move(writes)};
}

TEST(Scoreboard, IndependentInstructionsAreThroughputBound) {
  // 16 vadd-like ops on one vector unit, 1 cycle each, latency 4, no dependences between them.
  std::vector<SbInsn> block(16, op(Unit::vieu, 1, 4, {kRegV + 16, kRegV + 24}, {kRegV + 8}));
  EXPECT_DOUBLE_EQ(steady_state_cycles(block), 16);
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

TEST(Scoreboard, EmptyBlockCostsNothing) { EXPECT_EQ(steady_state_cycles({}), 0); }

}  // namespace
}  // namespace eok::cost
