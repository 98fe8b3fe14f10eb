// Reading what the harness wrote on stdout: a fault's evidence (harness_protocol.h). The harness shares
// its process with the candidate, so this is evidence for people and the LLM, never a verdict: outputs
// come from the plugin (measurement_records.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace eok::evaluator {

struct FaultRecord {
  int signo = 0;
  uint64_t address = 0;
  int case_index = -1;
  int arg_index = -1;
  int64_t offset = 0;
  uint64_t buf_bytes = 0;
};

struct HarnessOutput {
  std::optional<FaultRecord> fault;
  std::string error;  // bytes that are not a record
};

HarnessOutput parse_harness_output(std::string_view bytes);

}  // namespace eok::evaluator
