// The roofline of a task on a board: the fewest cycles any kernel could need under the cost model, from
// the work the task declares (task.toml `flops`, `bytes`) and the board's peak rates.
//
// Compute roof: flops / peak, where peak is what the cost model grants the best instruction for the task's
// element type: a fused multiply-add (2 flops, integer tasks 2 ops) on every lane of an LMUL-1 register
// per its measured reciprocal throughput. Memory roof: the timed calls run warm (board protocol), so any
// of the declared bytes may already be cached; the roof is the largest of three floors no kernel escapes:
// every byte passes the vector load/store unit (its best measured unit-stride rate); the bytes beyond what
// L1 holds come from L2 or DRAM, which deliver in parallel at most their summed read bandwidth; the bytes
// beyond what L1 and L2 hold cross the DRAM interface at its read and write bandwidths. The written share
// is at most the task's output buffers, the rest is read. The bound is the larger roof, a true lower bound
// of the cost model as long as the declared figures do not overstate the work.
#pragma once

#include <string>

#include "evaluator/board.h"
#include "evaluator/cost_model/memory_model.h"
#include "evaluator/cost_model/x60_table.h"
#include "evaluator/task.h"

namespace eok::evaluator {

struct PeakRates {
  double ops_per_cycle = 0;              // for the task's element type
  double l1_read = 0, l1_write = 0;      // bytes per cycle: best unit-stride vector load / store
  double l2_read = 0;                    // the memory model's L2 read bandwidth
  double dram_read = 0, dram_write = 0;  // the memory model's DRAM bandwidths
  double l1_bytes = 0, l2_bytes = 0;     // capacities
};

struct Roofline {
  double flops = 0, bytes = 0;  // declared, at the timed size
  double read_bytes = 0, write_bytes = 0;
  double compute_cycles = 0, memory_cycles = 0;
  double bound_cycles = 0;  // max of the two
  std::string limit;        // "compute" or "memory"
  double intensity() const { return bytes > 0 ? flops / bytes : 0; }
  // How far `cycles` is from the bound (>= 1 for any honest kernel); 0 when there is no bound.
  double distance(double cycles) const { return bound_cycles > 0 ? cycles / bound_cycles : 0; }
};

// Peak rates of `board` for elements of `dtype` ("f32", "f16", "i32"; a cast's source type) from the cost
// table and the board's memory model. Throws ConfigError when the table has no figure for that element
// width.
PeakRates peak_rates(const BoardProfile& board, const cost::X60Table& table, const cost::MemoryModelParams& memory,
                     const std::string& dtype);

// The roofline at the task's timed size. Throws ConfigError when flops or bytes are missing or invalid.
Roofline task_roofline(const Task& task, const PeakRates& peak);

}  // namespace eok::evaluator
