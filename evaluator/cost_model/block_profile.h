// What the virtual board's plugin measured during the timed call: executed blocks and memory traffic.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace eok::cost {

// vtype values that are not a vsetvli immediate.
constexpr int32_t kVtypeUnknown = -1;  // after vsetvl (register form): costed as worst case
constexpr int32_t kVtypeNone = -2;     // before any vset instruction

struct ExecutedBlock {
  uint64_t vaddr = 0;
  int32_t vtype = kVtypeNone;
  uint64_t count = 0;        // executions inside the timed region
  std::vector<uint8_t> bytes;
};

struct MemoryCounters {
  uint64_t loads = 0, stores = 0, load_bytes = 0, store_bytes = 0;
  uint64_t l1_load_misses = 0, l1_store_misses = 0, l1_writebacks = 0;
  uint64_t l2_load_misses = 0, l2_store_misses = 0, l2_writebacks = 0;
  uint64_t l1_dirty_end = 0, dirty_end = 0;
};

struct BlockProfile {
  bool complete = false;       // the text ended with its "end" line
  MemoryCounters mem;
  std::vector<ExecutedBlock> blocks;
};

// Parses the plugin's output. Malformed lines make `complete` false rather than throwing: the file may
// have been cut short by a crash, and the caller reports that as evidence.
BlockProfile parse_block_profile(std::string_view text);

}  // namespace eok::cost
