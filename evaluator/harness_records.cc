#include "evaluator/harness_records.h"

#include <cstring>

#include "evaluator/target/harness_protocol.h"

namespace eok::evaluator {

namespace {

class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  bool at_end() const { return pos_ >= bytes_.size(); }
  template <typename T>
  bool peek(T& out) const {
    if (bytes_.size() - pos_ < sizeof(T)) return false;
    std::memcpy(&out, bytes_.data() + pos_, sizeof(T));
    return true;
  }
  template <typename T>
  bool take(T& out) {
    if (!peek(out)) return false;
    pos_ += sizeof(T);
    return true;
  }
  bool take_bytes(uint64_t n, std::string& out) {
    if (bytes_.size() - pos_ < n) return false;
    out.assign(bytes_.data() + pos_, n);
    pos_ += n;
    return true;
  }

 private:
  std::string_view bytes_;
  size_t pos_ = 0;
};

}  // namespace

const CaseOutput* HarnessOutput::find_case(uint32_t index) const {
  for (const auto& c : cases) {
    if (c.index == index) return &c;
  }
  return nullptr;
}

HarnessOutput parse_harness_output(std::string_view bytes) {
  HarnessOutput out;
  Reader r(bytes);
  while (!r.at_end()) {
    uint32_t magic = 0;
    if (!r.peek(magic)) {
      out.error = "trailing bytes";
      return out;
    }
    if (magic == EOK_REC_START) {
      eok_start_record s;
      if (!r.take(s)) break;
      out.last_started = static_cast<int>(s.case_index);
    } else if (magic == EOK_REC_CASE) {
      eok_case_record c;
      if (!r.take(c)) break;
      if (c.nargs > EOK_MAX_ARGS) {
        out.error = "case record with " + std::to_string(c.nargs) + " arguments";
        return out;
      }
      CaseOutput co;
      co.index = c.case_index;
      co.ret_bits = c.ret_bits;
      for (uint32_t i = 0; i < c.nargs; ++i) {
        eok_arg_record a;
        if (!r.take(a)) {
          out.error = "truncated argument record";
          return out;
        }
        ArgOutput ao;
        ao.index = a.arg_index;
        ao.is_buffer = a.is_buffer != 0;
        ao.guard_before = a.guard_before;
        ao.guard_after = a.guard_after;
        ao.input_changed = a.input_changed;
        if (a.data_bytes > bytes.size() || !r.take_bytes(a.data_bytes, ao.data)) {
          out.error = "truncated output data";
          return out;
        }
        co.args.push_back(std::move(ao));
      }
      out.cases.push_back(std::move(co));
    } else if (magic == EOK_REC_SIGNAL) {
      eok_signal_record s;
      if (!r.take(s)) break;
      out.fault = FaultRecord{s.signo, s.fault_addr, s.case_index, s.arg_index, s.offset, s.buf_bytes};
    } else if (magic == EOK_REC_DONE) {
      eok_done_record d;
      if (!r.take(d)) break;
      out.done = true;
    } else {
      out.error = "unknown record";
      return out;
    }
  }
  if (!r.at_end()) out.error = "truncated record";
  return out;
}

}  // namespace eok::evaluator
