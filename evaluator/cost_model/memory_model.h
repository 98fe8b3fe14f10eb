// The X60 memory model: what the traffic the cache simulation counted costs the core, in cycles.
//
// The X60 is in order: a load that misses L1 stalls the pipeline until its line arrives, so load misses
// add to the compute time, per line, by where the line came from (L2 or DRAM), by scalar or vector, and by
// whether a stream prefetcher had it on its way (the next line of a recent miss) or not (a dependent or
// scattered access pays the full latency). Stores retire into a write buffer and cost nothing beyond
// their issue until a level's bandwidth is the limit. Each level's bandwidth bounds the region from below:
//   cycles = max(compute + load stalls, L2 traffic / L2 bandwidth, DRAM traffic / DRAM bandwidth).
// Every figure is fitted to measured X60 results by evaluator/cost_model/fit_memory_model.py, which writes
// x60_memory.json; nothing here is a guess left in code.
#pragma once

#include <filesystem>
#include <string>

#include "evaluator/cost_model/block_profile.h"

namespace eok::cost {

struct MemoryModelParams {
  unsigned line_bytes = 64;
  // Cycles the core stalls per line a load waited for: [scalar|vector][from L2|DRAM][random|stream].
  double load_stall[2][2][2] = {};
  // Sustained bandwidths in bytes per cycle: reads (fills) and writes (write-backs) of each level.
  double l2_read = 1, l2_write = 1, dram_read = 1, dram_write = 1;
  std::string provenance;  // what the figures were fitted to

  // Reads the fitted parameters; throws ConfigError naming the file and the field when one is missing or
  // not positive.
  static MemoryModelParams load(const std::filesystem::path& json_path);
};

struct MemoryTime {
  double stall_cycles = 0;           // the core waiting for loads, added to its compute time
  double l2_cycles = 0;              // the L2's traffic at its bandwidth
  double dram_cycles = 0;            // DRAM's traffic at its bandwidth
  uint64_t l2_read_bytes = 0, l2_write_bytes = 0, dram_read_bytes = 0, dram_write_bytes = 0;
};

MemoryTime memory_time(const MemoryCounters& counters, const MemoryModelParams& params);

}  // namespace eok::cost
