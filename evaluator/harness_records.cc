#include "evaluator/harness_records.h"

#include <cstring>

#include "evaluator/target/harness_protocol.h"

namespace eok::evaluator {

HarnessOutput parse_harness_output(std::string_view bytes) {
  HarnessOutput out;
  size_t pos = 0;
  while (pos < bytes.size()) {
    eok_signal_record s;
    if (bytes.size() - pos < sizeof s) {
      out.error = "trailing bytes";
      break;
    }
    std::memcpy(&s, bytes.data() + pos, sizeof s);
    if (s.magic != EOK_REC_SIGNAL) {
      out.error = "unknown record";
      break;
    }
    pos += sizeof s;
    out.fault = FaultRecord{s.signo, s.fault_addr, s.case_index, s.arg_index, s.offset, s.buf_bytes};
  }
  return out;
}

}  // namespace eok::evaluator
