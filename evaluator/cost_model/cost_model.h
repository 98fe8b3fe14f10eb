// The cost model seam: turns what the board's plugin measured into modeled cycles and a profile.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "evaluator/cost_model/block_profile.h"
#include "evaluator/cost_model/memory_model.h"

namespace eok::cost {

struct HotBlock {
  uint64_t vaddr = 0;
  std::string vtype;   // "e32m4", "unknown", "none"
  uint64_t count = 0;  // executions
  double cycles_per_exec = 0;
  double cycles = 0;                // count * cycles_per_exec
  std::vector<std::string> disasm;  // one instruction per entry
};

struct CostReport {
  double cycles = 0;          // modeled: max(compute + load stalls, L2 time, DRAM time)
  double compute_cycles = 0;  // sum over blocks of count * steady-state block cost
  MemoryTime memory;
  MemoryCounters counters;                        // what the cache simulation counted (the memory model's input)
  std::string bound;                              // "compute", "memory-latency" (load stalls) or "memory-bandwidth"
  uint64_t instructions = 0;                      // dynamic instruction count in the region
  uint64_t fallback_instructions = 0;             // dynamic instructions costed by class defaults (not in the table)
  std::map<std::string, double> cycles_by_class;  // compute cycles attributed to instruction classes
  std::vector<HotBlock> hot_blocks;               // the costliest blocks, most expensive first
};

// Contract: estimate() is deterministic: the same profile always gives the same report. It never throws
// for anything a candidate did; unknown instructions are costed conservatively and counted.
class CostModel {
 public:
  virtual ~CostModel() = default;
  virtual CostReport estimate(const BlockProfile& profile) const = 0;
};

}  // namespace eok::cost
