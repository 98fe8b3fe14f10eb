#include "evaluator/measurement_records.h"

#include <gtest/gtest.h>

#include <cstring>

#include "evaluator/harness_records.h"
#include "evaluator/qemu_plugin/measurement_protocol.h"
#include "evaluator/target/harness_protocol.h"

namespace eok::evaluator {
namespace {

template <typename T>
void put(std::string& out, const T& v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

void record(std::string& out, uint32_t type, const std::string& payload) {
  put(out, eok_m_header{type, 0, payload.size()});
  out += payload;
}

std::string call_payload(uint32_t index, uint64_t ret, const std::string& data, int64_t guard_after = 0) {
  std::string p;
  put(p, eok_m_call{index, 2, ret});
  eok_m_buffer in{};
  in.arg_index = 0;
  in.input_changed = 3;
  put(p, in);
  eok_m_buffer out{};
  out.arg_index = 1;
  out.guard_after = guard_after;
  out.data_bytes = data.size();
  put(p, out);
  return p + data;
}

std::string well_formed() {
  std::string f(EOK_MEAS_MAGIC, EOK_MEAS_MAGIC_LEN);
  std::string hello;
  put(hello, eok_m_hello{1, 1});
  record(f, EOK_M_HELLO, hello);
  std::string begin;
  put(begin, eok_m_begin{0, 2});
  put(begin, uint64_t{0xabc});
  put(begin, uint64_t{0});
  record(f, EOK_M_BEGIN, begin);
  record(f, EOK_M_CALL, call_payload(0, 42, "abcdefgh"));
  record(f, EOK_M_PROFILE, "eok-profile 2\nmem loads 1 fill_vector_l2_stream 7\nend\n");
  std::string exit;
  put(exit, eok_m_exit{1, 0});
  record(f, EOK_M_EXIT, exit);
  return f;
}

TEST(MeasurementRecords, ParsesEveryRecord) {
  Measurement m = parse_measurement(well_formed());
  EXPECT_TRUE(m.error.empty()) << m.error;
  EXPECT_TRUE(m.hello && m.sandboxed && m.guest_memory_ok && m.exited);
  ASSERT_EQ(m.begins.size(), 1u);
  EXPECT_EQ(m.begins[0].input_hashes, (std::vector<uint64_t>{0xabc, 0}));
  const CallOutput* c = m.find_call(0);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->ret_bits, 42u);
  ASSERT_NE(c->buffer(1), nullptr);
  EXPECT_EQ(c->buffer(1)->data, "abcdefgh");
  EXPECT_EQ(c->buffer(0)->input_changed, 3u);
  ASSERT_EQ(m.profiles.size(), 1u);
  EXPECT_EQ(m.profiles[0].call_index, 0u);
  EXPECT_TRUE(m.profiles[0].profile.complete);
  EXPECT_EQ(m.profiles[0].profile.mem.load_fills[1][0][1], 7u);
  EXPECT_EQ(m.find_call(1), nullptr);
}

TEST(MeasurementRecords, EveryTruncationIsDetectedNotOverRead) {
  const std::string full = well_formed();
  for (size_t n = 0; n < full.size(); ++n) {
    Measurement m = parse_measurement(full.substr(0, n));
    // A cut inside a record is an error; a cut between records loses the later ones, never invents data.
    if (!m.error.empty()) continue;
    EXPECT_LE(m.calls.size(), 1u);
    for (const auto& c : m.calls) EXPECT_EQ(c.buffer(1)->data, "abcdefgh");
  }
  EXPECT_FALSE(parse_measurement(full.substr(0, full.size() - 3)).error.empty());
}

TEST(MeasurementRecords, HugeLengthsAndUnknownRecordsAreErrors) {
  std::string f(EOK_MEAS_MAGIC, EOK_MEAS_MAGIC_LEN);
  put(f, eok_m_header{EOK_M_CALL, 0, ~uint64_t{0}});
  EXPECT_FALSE(parse_measurement(f).error.empty());
  std::string g(EOK_MEAS_MAGIC, EOK_MEAS_MAGIC_LEN);
  record(g, 99, "x");
  EXPECT_FALSE(parse_measurement(g).error.empty());
  // A call record whose buffer claims more data than the record holds.
  std::string h(EOK_MEAS_MAGIC, EOK_MEAS_MAGIC_LEN), hello, begin;
  put(hello, eok_m_hello{1, 1});
  put(begin, eok_m_begin{0, 0});
  record(h, EOK_M_HELLO, hello);
  record(h, EOK_M_BEGIN, begin);
  std::string p = call_payload(0, 0, "abcd");
  p.resize(p.size() - 2);
  record(h, EOK_M_CALL, p);
  EXPECT_FALSE(parse_measurement(h).error.empty());
  EXPECT_FALSE(parse_measurement("not a measurement").error.empty());
  EXPECT_FALSE(parse_measurement("").error.empty());
}

// HELLO, BEGIN 0, CALL 0 (no buffers), PROFILE: the start of every measured run.
std::string timed_call_only() {
  std::string f(EOK_MEAS_MAGIC, EOK_MEAS_MAGIC_LEN);
  std::string hello, begin, call;
  put(hello, eok_m_hello{1, 1});
  put(begin, eok_m_begin{0, 0});
  put(call, eok_m_call{0, 0, 0});
  record(f, EOK_M_HELLO, hello);
  record(f, EOK_M_BEGIN, begin);
  record(f, EOK_M_CALL, call);
  record(f, EOK_M_PROFILE, "eok-profile 2\nend\n");
  return f;
}

TEST(MeasurementRecords, RecordsOutOfThePluginsOrderAreTampering) {
  EXPECT_TRUE(parse_measurement(well_formed()).tampered.empty());
  const std::string f = timed_call_only();
  EXPECT_TRUE(parse_measurement(f).tampered.empty());
  // What a guest that rewrote the plugin's state could make it write.
  EXPECT_EQ(parse_measurement(f + f.substr(EOK_MEAS_MAGIC_LEN)).tampered, "a second hello");
  std::string second_profile = f;
  record(second_profile, EOK_M_PROFILE, "eok-profile 2\nend\n");
  EXPECT_FALSE(parse_measurement(second_profile).tampered.empty());
  std::string ends_twice = f, call;
  put(call, eok_m_call{0, 0, 0});
  record(ends_twice, EOK_M_CALL, call);
  EXPECT_FALSE(parse_measurement(ends_twice).tampered.empty());
  std::string after_exit = f, exit, begin;
  put(exit, eok_m_exit{1, 0});
  put(begin, eok_m_begin{1, 0});
  record(after_exit, EOK_M_EXIT, exit);
  record(after_exit, EOK_M_BEGIN, begin);
  EXPECT_FALSE(parse_measurement(after_exit).tampered.empty());
  std::string headless(EOK_MEAS_MAGIC, EOK_MEAS_MAGIC_LEN);
  record(headless, EOK_M_PROFILE, "eok-profile 2\nend\n");
  EXPECT_EQ(parse_measurement(headless).tampered, "a record before the hello");
}

TEST(MeasurementRecords, AProgramWithRegionsWritesProfilesOnly) {
  std::string f(EOK_MEAS_MAGIC, EOK_MEAS_MAGIC_LEN);
  std::string hello, exit;
  put(hello, eok_m_hello{1, 1});
  record(f, EOK_M_HELLO, hello);
  record(f, EOK_M_PROFILE, "eok-profile 2\nmem loads 3\nend\n");
  record(f, EOK_M_PROFILE, "eok-profile 2\nmem loads 5\nend\n");
  put(exit, eok_m_exit{2, 0});
  record(f, EOK_M_EXIT, exit);
  const Measurement m = parse_measurement(f, MeasurementKind::regions);
  EXPECT_TRUE(m.tampered.empty()) << m.tampered;
  ASSERT_EQ(m.profiles.size(), 2u);
  EXPECT_EQ(m.profiles[1].call_index, 1u);
  EXPECT_EQ(m.profiles[1].profile.mem.loads, 5u);
  // The same records from a harness run: a profile that follows no call.
  EXPECT_EQ(parse_measurement(f).tampered, "a profile not right after a call");
  EXPECT_FALSE(parse_measurement(timed_call_only(), MeasurementKind::regions).tampered.empty());
}

TEST(MeasurementRecords, VectorBytesBelongToTheBlockBeforeThem) {
  const auto p =
      cost::parse_block_profile("eok-profile 2\nblock 1000 192 5 0704050227840502\nvmem 0 80\nvmem 4 160\nend\n");
  ASSERT_TRUE(p.complete);
  ASSERT_EQ(p.blocks.size(), 1u);
  EXPECT_EQ(p.blocks[0].vector_bytes, (std::vector<std::pair<uint32_t, uint64_t>>{{0, 80}, {4, 160}}));
  EXPECT_FALSE(cost::parse_block_profile("eok-profile 2\nvmem 0 80\nend\n").complete);  // no block to belong to
}

TEST(MeasurementRecords, AProfileOfAnOlderFormatIsIncomplete) {
  EXPECT_FALSE(cost::parse_block_profile("eok-profile 1\nmem loads 1\nend\n").complete);
  EXPECT_TRUE(cost::parse_block_profile("eok-profile 2\nmem loads 1\nend\n").complete);
}

TEST(MeasurementRecords, ViolationSaysRuleAndDetail) {
  std::string f(EOK_MEAS_MAGIC, EOK_MEAS_MAGIC_LEN);
  std::string hello;
  put(hello, eok_m_hello{1, 1});
  record(f, EOK_M_HELLO, hello);
  record(f, EOK_M_VIOLATION, "forbidden-syscall\nsystem call openat(...) inside the kernel call");
  Measurement m = parse_measurement(f);
  ASSERT_TRUE(m.violation.has_value());
  EXPECT_EQ(m.violation->rule, "forbidden-syscall");
  EXPECT_NE(m.violation->detail.find("openat"), std::string::npos);
}

TEST(HarnessRecords, FaultRecordAndGarbage) {
  std::string out;
  put(out, eok_signal_record{EOK_REC_SIGNAL, 11, 0x2000001000, 3, 1, 4096, 4096});
  HarnessOutput h = parse_harness_output(out);
  ASSERT_TRUE(h.fault.has_value());
  EXPECT_EQ(h.fault->signo, 11);
  EXPECT_EQ(h.fault->case_index, 3);
  EXPECT_TRUE(h.error.empty());
  EXPECT_FALSE(parse_harness_output(out + "junk").error.empty());
  EXPECT_FALSE(parse_harness_output("CASE1234567890123456789012345678901234567890").error.empty());
}

}  // namespace
}  // namespace eok::evaluator
