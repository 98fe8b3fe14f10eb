// In-order dual-issue scoreboard: the timing mechanism of the X60 cost model, free of any X60 figures.
//
// Contract: given a straight-line block of instructions, each with the unit it occupies, its reciprocal
// throughput, its latency and the registers it reads and writes, steady_state_cycles() returns the cycles
// one execution of the block costs when the block runs back to back (a loop body): in-order issue in
// groups of at most `issue_width` instructions that issue at one time, an instruction waits for its
// operands (read-after-write latency) and for a free instance of its unit, a single-cycle integer
// operation (or a branch) may join the group of the single-cycle integer operation that produces its
// operand, and the loop's taken branch closes a group. Time is fractional so that measured throughputs
// such as 2.45 cycles are reproduced exactly.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "evaluator/cost_model/x60_table.h"

namespace eok::cost {

// Register ids: x1..x31 = 1..31 (x0 is never a dependence), f0..f31 = 32..63, v0..v31 = 64..95, 96 = vl.
constexpr uint8_t kRegF = 32, kRegV = 64, kRegVl = 96, kNumRegs = 97;

struct SbInsn {
  Unit unit = Unit::ieu_any;
  double rthroughput = 1;
  double latency = 1;
  // When the whole of what it writes is in place (>= latency): a reader that takes a register group at
  // once (whole_reads) waits for this, one that chains element by element only for `latency`.
  double whole_latency = 0;  // 0: same as latency
  bool whole_reads = false;
  // A single-cycle integer operation: it may issue in the same group as the single-cycle integer operation
  // that produces its operand (the second pipe takes the first's result late, in the same cycle).
  bool cascades = false;
  std::vector<uint8_t> reads, writes;
};

struct ScoreboardConfig {
  unsigned issue_width = 2;
  // Instances per unit, indexed by Unit; ieu_any issues on whichever of ieu_a/ieu_b frees first.
  std::array<unsigned, kUnitCount> instances{1, 1, 0, 2, 1, 1, 1, 1, 1, 0};
};

// Cycles per execution of `block` in steady state (measured over repeated copies of the block).
double steady_state_cycles(const std::vector<SbInsn>& block, const ScoreboardConfig& cfg = {});

}  // namespace eok::cost
