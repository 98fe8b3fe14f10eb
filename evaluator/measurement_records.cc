#include "evaluator/measurement_records.h"

#include <cstring>

#include "evaluator/qemu_plugin/measurement_protocol.h"

namespace eok::evaluator {

namespace {

class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  size_t left() const { return bytes_.size() - pos_; }
  template <typename T>
  bool take(T& out) {
    if (left() < sizeof(T)) return false;
    std::memcpy(&out, bytes_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return true;
  }
  bool take_bytes(uint64_t n, std::string& out) {
    if (left() < n) return false;
    out.assign(bytes_.data() + pos_, n);
    pos_ += n;
    return true;
  }

 private:
  std::string_view bytes_;
  size_t pos_ = 0;
};

bool parse_call(std::string_view payload, CallOutput& call) {
  Reader r(payload);
  eok_m_call head;
  if (!r.take(head) || head.nbuffers > 64) return false;
  call.index = head.call_index;
  call.ret_bits = head.ret_bits;
  for (uint32_t i = 0; i < head.nbuffers; ++i) {
    eok_m_buffer b;
    if (!r.take(b)) return false;
    BufferOutput out;
    out.arg = b.arg_index;
    out.guard_before = b.guard_before;
    out.guard_after = b.guard_after;
    out.input_changed = b.input_changed;
    if (!r.take_bytes(b.data_bytes, out.data)) return false;
    call.buffers.push_back(std::move(out));
  }
  return r.left() == 0;
}

bool parse_begin(std::string_view payload, CallBegin& begin) {
  Reader r(payload);
  eok_m_begin head;
  if (!r.take(head) || head.nbuffers > 64) return false;
  begin.index = head.call_index;
  for (uint32_t i = 0; i < head.nbuffers; ++i) {
    uint64_t h;
    if (!r.take(h)) return false;
    begin.input_hashes.push_back(h);
  }
  return r.left() == 0;
}

}  // namespace

const BufferOutput* CallOutput::buffer(uint32_t arg) const {
  for (const auto& b : buffers) {
    if (b.arg == arg) return &b;
  }
  return nullptr;
}

const CallOutput* Measurement::find_call(uint32_t index) const {
  for (const auto& c : calls) {
    if (c.index == index) return &c;
  }
  return nullptr;
}

Measurement parse_measurement(std::string_view bytes, MeasurementKind kind) {
  Measurement m;
  if (bytes.substr(0, EOK_MEAS_MAGIC_LEN) != std::string_view(EOK_MEAS_MAGIC, EOK_MEAS_MAGIC_LEN)) {
    m.error = bytes.empty() ? "no measurement file" : "not a measurement file";
    return m;
  }
  Reader r(bytes.substr(EOK_MEAS_MAGIC_LEN));
  bool ended = false;     // a VIOLATION or EXIT record came: nothing may follow
  uint32_t previous = 0;  // the type of the previous record
  while (r.left() > 0) {
    eok_m_header h;
    std::string payload;
    if (!r.take(h) || !r.take_bytes(h.length, payload)) {
      m.error = "truncated record";
      return m;
    }
    // The plugin writes HELLO, then BEGIN k / CALL k for k = 0, 1, ... (a timed call's PROFILE right after
    // its CALL), and at most one VIOLATION or EXIT, last. A program with regions writes no calls.
    const size_t begun = m.begins.size(), done = m.calls.size();
    const char* disorder = nullptr;
    if (h.type < EOK_M_HELLO || h.type > EOK_M_EXIT) {
      m.error = "unknown record of type " + std::to_string(h.type);
      return m;
    }
    if (ended)
      disorder = "a record after the run's end";
    else if ((h.type == EOK_M_HELLO) == m.hello)
      disorder = m.hello ? "a second hello" : "a record before the hello";
    else if (h.type == EOK_M_BEGIN && begun != done)
      disorder = "a call began before the last one ended";
    else if (h.type == EOK_M_CALL && begun != done + 1)
      disorder = "a call ended that had not begun";
    else if (kind == MeasurementKind::regions && (h.type == EOK_M_BEGIN || h.type == EOK_M_CALL))
      disorder = "a call in a program with regions";
    else if (kind == MeasurementKind::calls && h.type == EOK_M_PROFILE && previous != EOK_M_CALL)
      disorder = "a profile not right after a call";
    if (disorder) {
      m.tampered = disorder;
      return m;
    }
    previous = h.type;
    switch (h.type) {
      case EOK_M_HELLO: {
        eok_m_hello hello;
        if (payload.size() != sizeof hello) break;
        std::memcpy(&hello, payload.data(), sizeof hello);
        m.hello = true;
        m.sandboxed = hello.sandboxed != 0;
        m.guest_memory_ok = hello.guest_memory_ok != 0;
        continue;
      }
      case EOK_M_BEGIN: {
        CallBegin b;
        if (!parse_begin(payload, b)) break;
        if (b.index != begun) {
          m.tampered = "calls out of order";
          return m;
        }
        m.begins.push_back(std::move(b));
        continue;
      }
      case EOK_M_CALL: {
        CallOutput c;
        if (!parse_call(payload, c)) break;
        if (c.index != done) {
          m.tampered = "calls out of order";
          return m;
        }
        m.calls.push_back(std::move(c));
        continue;
      }
      case EOK_M_PROFILE:
        m.profiles.push_back({static_cast<uint32_t>(kind == MeasurementKind::calls ? done - 1 : m.profiles.size()),
                              cost::parse_block_profile(payload)});
        continue;
      case EOK_M_VIOLATION: {
        const size_t nl = payload.find('\n');
        m.violation = PluginViolation{payload.substr(0, nl), nl == std::string::npos ? "" : payload.substr(nl + 1)};
        ended = true;
        continue;
      }
      case EOK_M_EXIT:
        m.exited = true;
        ended = true;
        continue;
      default:
        break;
    }
    m.error = "malformed record of type " + std::to_string(h.type);
    return m;
  }
  return m;
}

}  // namespace eok::evaluator
