// The X60 memory model: what the traffic the cache simulation counted costs the core, in cycles.
//
// The X60 is in order: a load that misses L1 stalls the pipeline until its line arrives. A load outside
// any stream (a dependent chase, a scattered gather) pays the full latency, added to the compute time. A
// stream's lines come from a prefetcher that runs ahead while the core computes, and the L2 and DRAM move
// lines while it does: these overlap with the core, fully when one dominates and partly when they are
// even, which a p-norm captures (p = 1: they add up, p = infinity: the largest hides the others). An
// unaligned unit-stride vector access that touches one line more than its bytes need costs the
// load/store unit that line. Stores retire into a write buffer, except a unit-stride vector store that
// writes a descending stream: no prefetcher runs ahead of it, and the core waits for each line it misses
// from DRAM. DRAM loses time turning between reads and writes:
//   core   = compute + random-load stalls + line splits + descending-store stalls
//   L2     = L2 reads / read bandwidth + L2 writes / write bandwidth
//   DRAM   = DRAM reads / read bandwidth + writes / write bandwidth + min(reads, writes) x turnaround
//   cycles = (core^p + stream stalls^p + L2^p + DRAM^p)^(1/p)
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
  double dram_turnaround = 0;   // cycles per line of the smaller of DRAM reads and writes
  double overlap_exponent = 1;  // p of the p-norm of core time, stream stalls, L2 and DRAM times (>= 1)
  double split_line[2] = {};    // [load|store]: cycles per extra line of an unaligned vector access
  double descending_store = 0;  // cycles per DRAM line a descending unit-stride vector store missed
  std::string provenance;       // what the figures were fitted to

  // Reads the fitted parameters; throws ConfigError naming the file and the field when one is missing or
  // not positive.
  static MemoryModelParams load(const std::filesystem::path& json_path);
};

struct MemoryTime {
  double stall_cycles = 0;             // what memory added to the compute time (the region's cycles - compute)
  double random_stall_cycles = 0;      // loads outside a stream, at full latency
  double stream_stall_cycles = 0;      // streamed loads, before overlap with the core
  double split_cycles = 0;             // unaligned vector accesses
  double descending_store_cycles = 0;  // descending unit-stride vector stores waiting for DRAM
  double l2_cycles = 0;                // the L2's traffic at its bandwidth
  double dram_cycles = 0;              // DRAM's traffic at its bandwidth
  uint64_t l2_read_bytes = 0, l2_write_bytes = 0, dram_read_bytes = 0, dram_write_bytes = 0;
};

MemoryTime memory_time(const MemoryCounters& counters, const MemoryModelParams& params);

// The core's own time: its instructions, the loads outside a stream at full latency, the line splits, the
// descending vector stores' waits.
inline double core_cycles(double compute_cycles, const MemoryTime& t) {
  return compute_cycles + t.random_stall_cycles + t.split_cycles + t.descending_store_cycles;
}

// The region's cycles for `compute_cycles` of instructions with this memory time: the p-norm of the core's
// own time, the stream stalls and the L2 and DRAM times.
double region_cycles(double compute_cycles, const MemoryTime& t, const MemoryModelParams& params);

}  // namespace eok::cost
