// The SpacemiT X60 cost model of the virtual K1 board (DESIGN.md section 4).
//
// Compute: every executed block is decoded and costed by the in-order dual-issue scoreboard with the X60
// figures of the instruction table under the block's vtype; a block's cost is its steady-state cycles per
// execution times its execution count. Memory: the plugin's cache simulation counts what each access
// needed beyond L1, which the fitted memory model (memory_model.h) turns into load stalls the in-order
// core adds to its compute time, and into L2 and DRAM times at their measured bandwidths. The modeled time
// is the largest of those, and the report says which bound.
#pragma once

#include <vector>

#include "evaluator/cost_model/cost_model.h"
#include "evaluator/cost_model/memory_model.h"
#include "evaluator/cost_model/scoreboard.h"
#include "evaluator/cost_model/x60_table.h"
#include "evaluator/riscv/decoder.h"

namespace eok::cost {

class X60CostModel : public CostModel {
 public:
  X60CostModel(X60Table table, MemoryModelParams memory, size_t hot_blocks = 5);
  CostReport estimate(const BlockProfile& profile) const override;

  // The scoreboard view of one instruction; public for tests and cross-checks.
  // vector_bytes: what a vector load moved per execution (0: unknown, a full register group).
  SbInsn timing(const riscv::Insn& insn, int32_t vtype, bool* fallback = nullptr, double vector_bytes = 0) const;

 private:
  // The scoreboard view of a decoded block under `vtype` (a vsetvli immediate, or kVtypeUnknown /
  // kVtypeNone); *fallbacks counts instructions the table could not cost.
  std::vector<SbInsn> scoreboard_block(const ExecutedBlock& block, const std::vector<riscv::Insn>& insns,
                                       size_t* fallbacks) const;
  // The table's figure under `vtype`; the instruction's worst figure when the vtype is unknown, none, vill
  // or one under which the instruction is illegal; std::nullopt for a mnemonic the table lacks.
  std::optional<InsnCost> vector_cost(const riscv::Insn& insn, int32_t vtype) const;

  X60Table table_;
  MemoryModelParams mem_;
  size_t hot_blocks_;
};

// Decodes a block's bytes into instructions (stops at the end; an undecodable tail becomes one unknown).
std::vector<riscv::Insn> decode_block(const std::vector<uint8_t>& bytes);

}  // namespace eok::cost
