// Reading what a harness run wrote on stdout (records of evaluator/target/harness_protocol.h).
//
// The bytes come from a process that ran untrusted code, so parsing is defensive: every length is checked
// and anything malformed ends the parse with `error` set instead of throwing or over-reading.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace eok::evaluator {

struct ArgOutput {
  uint32_t index = 0;
  bool is_buffer = false;
  std::string data;          // output bytes (out/inout buffers)
  int64_t guard_before = 0;  // see eok_arg_record
  int64_t guard_after = 0;
  uint32_t input_changed = 0;
};

struct CaseOutput {
  uint32_t index = 0;
  uint64_t ret_bits = 0;
  std::vector<ArgOutput> args;
};

struct FaultRecord {
  int signo = 0;
  uint64_t address = 0;
  int case_index = -1;
  int arg_index = -1;
  int64_t offset = 0;
  uint64_t buf_bytes = 0;
};

struct HarnessOutput {
  std::vector<CaseOutput> cases;
  int last_started = -1;            // the case whose call began last
  std::optional<FaultRecord> fault;
  bool done = false;                // the DONE record arrived
  std::string error;                // why parsing stopped early, if it did

  const CaseOutput* find_case(uint32_t index) const;
};

HarnessOutput parse_harness_output(std::string_view bytes);

}  // namespace eok::evaluator
