// Reading the plugin's measurement file (qemu_plugin/measurement_protocol.h): what each kernel call
// produced, the timed call's profile, and any rule the guest broke. This is the channel eok trusts about a
// run; the harness's own stdout is only a fault's evidence (harness_records.h).
//
// The bytes are parsed defensively all the same (a run may be cut short at any byte): every length is
// checked, and anything malformed ends the parse with `error` set instead of throwing or over-reading.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "evaluator/cost_model/block_profile.h"

namespace eok::evaluator {

struct BufferOutput {
  uint32_t arg = 0;          // index in the task's arguments
  int64_t guard_before = 0;  // see eok_m_buffer
  int64_t guard_after = 0;
  uint64_t input_changed = 0;
  std::string data;  // out and inout buffers
};

struct CallOutput {
  uint32_t index = 0;
  uint64_t ret_bits = 0;
  std::vector<BufferOutput> buffers;
  const BufferOutput* buffer(uint32_t arg) const;
};

struct CallBegin {
  uint32_t index = 0;
  std::vector<uint64_t> input_hashes;  // per buffer, in plan order (0 for outputs)
};

struct PluginViolation {
  std::string rule, detail;
};

struct Measurement {
  bool hello = false;            // the plugin loaded and saw the guest start
  bool sandboxed = false;        // its seccomp filter was installed
  bool guest_memory_ok = false;  // it could read guest memory
  std::vector<CallBegin> begins;
  std::vector<CallOutput> calls;
  // One per timed call (right after that call's CALL record), or per region of a program run by
  // `eok measure`: call_index is the call it follows, or the region's index.
  struct Profile {
    uint32_t call_index = 0;
    cost::BlockProfile profile;
  };
  std::vector<Profile> profiles;
  std::optional<PluginViolation> violation;
  bool exited = false;  // the guest exited through exit_group, outside any call
  std::string error;    // why parsing stopped early, if it did
  // Records out of the order the plugin writes them in (a second profile, a call that ends twice, records
  // after the end): only a guest that reached the plugin's memory could cause it.
  std::string tampered;

  const CallOutput* find_call(uint32_t index) const;
};

// kind: what the run was: a harness making kernel calls (BEGIN/CALL records, a profile after a timed call)
// or a program with regions (profiles only).
enum class MeasurementKind { calls, regions };
Measurement parse_measurement(std::string_view bytes, MeasurementKind kind = MeasurementKind::calls);

}  // namespace eok::evaluator
