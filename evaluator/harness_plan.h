// What the harness is told to do for one evaluation: the generated glue that calls the task's entry
// function, and the plan of cases (sizes, seeds, buffers) it reads on stdin.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "evaluator/task.h"

namespace eok::evaluator {

// Where one buffer of a case lives in the guest: the harness maps it there and the plugin reads it there.
struct PlacedBuffer {
  size_t arg = 0;     // index in the task's arguments
  char access = 'i';  // 'i', 'o', 'b'
  size_t elem_bytes = 0;
  uint64_t count = 0;      // elements
  uint64_t map_addr = 0;   // the mapping (eok_layout_buffer in target/harness_protocol.h)
  uint64_t data_addr = 0;  // the data inside it
  uint64_t guard_before = 0, data_bytes = 0, guard_after = 0;
};

struct PlannedCase {
  SizeParams sizes;
  bool timed = false;   // measured: the board's protocol takes the median of the timed calls
  bool warmup = false;  // at the timed size, before the timed calls, not measured
  uint64_t seed = 0;
  bool tight = false;  // buffers end exactly at an unmapped page
  std::vector<PlacedBuffer> buffers;
};

// The guest address of the 8-byte slot the glue stores the entry's return value in.
inline constexpr uint64_t kReturnSlotAddr = 0x1fff000000;

// The task's prototype, force-included before candidate and reference sources so that a definition with
// another signature fails to compile with a clear message.
std::string prototype_header(const Task& task);

// C source of eok_invoke() for this task: casts the harness's buffers and scalars to the signature's
// types and stores the return value.
std::string generate_glue(const Task& task);

// The board's timing protocol, then every check size: `warmup` calls and `timed` calls at the timed size,
// then the checks, each call with its own seed drawn from `seed` (fresh inputs every time, so no call can
// reuse what an earlier one computed), buffers placed. Every call's outputs are checked, timed ones too.
std::vector<PlannedCase> plan_cases(const Task& task, uint64_t seed, unsigned warmup = 1, unsigned timed = 3);

// The plan text for evaluator/target/harness.c (format in harness_protocol.h).
std::string render_plan(const Task& task, const std::vector<PlannedCase>& cases);

// The watch file for the board's plugin (format in qemu_plugin/measurement_protocol.h): the markers'
// addresses, the candidate's code ranges and every call's buffers.
std::string render_watch(const std::vector<PlannedCase>& cases, uint64_t begin_marker, uint64_t end_marker,
                         const std::vector<std::pair<uint64_t, uint64_t>>& candidate_code);

// splitmix64 step: the one source of derived seeds in the evaluator.
uint64_t next_seed(uint64_t& state);

}  // namespace eok::evaluator
