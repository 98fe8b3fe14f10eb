// The SpacemiT X60 cost model of the virtual K1 board (DESIGN.md section 4).
//
// Compute: every executed block is decoded and costed by the in-order dual-issue scoreboard with the X60
// figures of the instruction table under the block's vtype; a block's cost is its steady-state cycles per
// execution times its execution count. Memory: the plugin's cache simulation counts fills and write-backs
// beyond L1, which the board's measured L2/DRAM bandwidths turn into cycles. The modeled time is the larger
// of the two (the core overlaps compute with streaming memory traffic), and the report says which bound.
#pragma once

#include <vector>

#include "evaluator/cost_model/cost_model.h"
#include "evaluator/cost_model/scoreboard.h"
#include "evaluator/cost_model/x60_table.h"
#include "evaluator/riscv/decoder.h"

namespace eok::cost {

struct MemoryBandwidth {
  unsigned line_bytes = 64;
  double l2_fill = 5.73, l2_writeback = 9.0, dram_fill = 2.48, dram_writeback = 4.5;  // bytes per cycle
};

class X60CostModel : public CostModel {
 public:
  X60CostModel(X60Table table, MemoryBandwidth bandwidth, size_t hot_blocks = 5);
  CostReport estimate(const BlockProfile& profile) const override;

  // The scoreboard view of one instruction; public for tests and cross-checks.
  SbInsn timing(const riscv::Insn& insn, int32_t vtype, bool* fallback = nullptr) const;

  MemoryTime memory_time(const MemoryCounters& mem) const;

 private:
  // The scoreboard view of a decoded block under `vtype` (a vsetvli immediate, or kVtypeUnknown /
  // kVtypeNone); *fallbacks counts instructions the table could not cost.
  std::vector<SbInsn> scoreboard_block(const std::vector<riscv::Insn>& insns, int32_t vtype, size_t* fallbacks) const;
  // The table's figure under `vtype`; the instruction's worst figure when the vtype is unknown, none, vill
  // or one under which the instruction is illegal; std::nullopt for a mnemonic the table lacks.
  std::optional<InsnCost> vector_cost(const riscv::Insn& insn, int32_t vtype) const;

  X60Table table_;
  MemoryBandwidth bw_;
  size_t hot_blocks_;
};

// Decodes a block's bytes into instructions (stops at the end; an undecodable tail becomes one unknown).
std::vector<riscv::Insn> decode_block(const std::vector<uint8_t>& bytes);

}  // namespace eok::cost
