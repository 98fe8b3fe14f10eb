#include "evaluator/harness_records.h"

#include <gtest/gtest.h>

#include <cstring>

#include "evaluator/target/harness_protocol.h"

namespace eok::evaluator {
namespace {

template <typename T>
void append(std::string& s, const T& v) {
  s.append(reinterpret_cast<const char*>(&v), sizeof v);
}

std::string one_case(float value) {
  std::string s;
  append(s, eok_start_record{EOK_REC_START, 0});
  append(s, eok_case_record{EOK_REC_CASE, 0, 2, 0, 7});
  eok_arg_record buf{};
  buf.arg_index = 0;
  buf.is_buffer = 1;
  buf.data_bytes = 4;
  append(s, buf);
  append(s, value);
  eok_arg_record scalar{};
  scalar.arg_index = 1;
  append(s, scalar);
  return s;
}

TEST(HarnessRecords, ParsesCasesAndTheEndRecord) {
  std::string s = one_case(1.5f);
  append(s, eok_done_record{EOK_REC_DONE, 1});
  HarnessOutput out = parse_harness_output(s);
  EXPECT_TRUE(out.error.empty()) << out.error;
  EXPECT_TRUE(out.done);
  ASSERT_EQ(out.cases.size(), 1u);
  EXPECT_EQ(out.cases[0].ret_bits, 7u);
  ASSERT_EQ(out.cases[0].args.size(), 2u);
  float v;
  std::memcpy(&v, out.cases[0].args[0].data.data(), 4);
  EXPECT_EQ(v, 1.5f);
  EXPECT_EQ(out.last_started, 0);
}

TEST(HarnessRecords, FaultRecordIsKept) {
  std::string s;
  append(s, eok_start_record{EOK_REC_START, 3});
  append(s, eok_signal_record{EOK_REC_SIGNAL, 11, 0x1000, 3, 0, 4096, 4096});
  HarnessOutput out = parse_harness_output(s);
  ASSERT_TRUE(out.fault.has_value());
  EXPECT_EQ(out.fault->signo, 11);
  EXPECT_EQ(out.fault->case_index, 3);
  EXPECT_FALSE(out.done);
}

TEST(HarnessRecords, TruncatedOrGarbageInputStopsWithAnErrorNotACrash) {
  std::string s = one_case(2.0f);
  for (size_t cut = 1; cut < s.size(); ++cut) {
    HarnessOutput out = parse_harness_output(std::string_view(s).substr(0, cut));
    EXPECT_FALSE(out.done);
  }
  EXPECT_FALSE(parse_harness_output("garbage!").error.empty());
  // A record claiming an absurd data size must not be trusted.
  std::string huge;
  append(huge, eok_case_record{EOK_REC_CASE, 0, 1, 0, 0});
  eok_arg_record a{};
  a.is_buffer = 1;
  a.data_bytes = 1ull << 60;
  append(huge, a);
  EXPECT_FALSE(parse_harness_output(huge).error.empty());
  std::string many;
  append(many, eok_case_record{EOK_REC_CASE, 0, 1000, 0, 0});
  EXPECT_FALSE(parse_harness_output(many).error.empty());
}

}  // namespace
}  // namespace eok::evaluator
