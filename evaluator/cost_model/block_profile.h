// What the virtual board's plugin measured during the timed call: executed blocks and memory traffic.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace eok::cost {

// vtype values that are not a vsetvli immediate.
constexpr int32_t kVtypeUnknown = -1;  // after vsetvl (register form): costed as worst case
constexpr int32_t kVtypeNone = -2;     // before any vset instruction

struct ExecutedBlock {
  uint64_t vaddr = 0;
  int32_t vtype = kVtypeNone;
  uint64_t count = 0;  // executions inside the timed region
  std::vector<uint8_t> bytes;
  // Bytes each vector load or store of the block moved in the region, by the instruction's byte offset in
  // the block (the vl it ran with, on average, is bytes / count / element size).
  std::vector<std::pair<uint32_t, uint64_t>> vector_bytes;
};

// What the cache simulation counted in the region (evaluator/qemu_plugin/cache_sim.h says how).
struct MemoryCounters {
  uint64_t loads = 0, stores = 0, load_bytes = 0, store_bytes = 0;
  // Lines a load waited for: [scalar|vector][from L2|DRAM][random|stream].
  uint64_t load_fills[2][2][2] = {};
  uint64_t store_allocs[2] = {};  // [from L2|DRAM]: lines a store miss allocated without reading
  uint64_t late_fills[2] = {};    // [from L2|DRAM]: lines read for ownership (stores not from a line's start)
  uint64_t l1_writebacks = 0, l2_writebacks = 0;
  uint64_t vector_split_lines[2] = {};   // [load|store]: extra lines unaligned unit-stride vector accesses touched
  uint64_t descending_store_misses = 0;  // DRAM lines unit-stride vector stores of a descending stream missed

  uint64_t fills_from(int level) const;  // load fills from L2 (0) or DRAM (1), all kinds

  // Every counter with the name the plugin's profile text and eok's JSON give it ("fill_vector_l2_stream",
  // "l1_writebacks", ...): the one list both the parser and the JSON writer use.
  std::vector<std::pair<std::string, uint64_t*>> named();
  std::vector<std::pair<std::string, uint64_t>> named() const;
};

struct BlockProfile {
  bool complete = false;  // the text ended with its "end" line, in the current format
  MemoryCounters mem;
  std::vector<ExecutedBlock> blocks;
};

// Parses the plugin's output. Malformed lines make `complete` false rather than throwing: the file may
// have been cut short by a crash, and the caller reports that as evidence.
BlockProfile parse_block_profile(std::string_view text);

}  // namespace eok::cost
