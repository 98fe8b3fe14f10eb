#include "evaluator/checker.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

namespace eok::evaluator {
namespace {

Task inplace_task(const std::string& tolerance_name, double atol, double rtol) {
  Task t;
  t.id = "t";
  ArgSpec x;
  x.name = "x";
  x.is_buffer = true;
  x.type = ElemType::f32;
  x.len = "n";
  x.access = Access::inout;
  ArgSpec n;
  n.name = "n";
  n.type = ElemType::u64;
  n.value = "n";
  t.args = {x, n};
  t.tolerance = {tolerance_name, atol, rtol};
  return t;
}

Measurement output(const std::vector<float>& values, int64_t guard_after = 0, uint64_t input_hash = 7) {
  Measurement out;
  CallOutput c;
  BufferOutput x;
  x.arg = 0;
  x.data.resize(values.size() * 4);
  std::memcpy(x.data.data(), values.data(), x.data.size());
  x.guard_after = guard_after;
  c.buffers = {x};
  out.calls.push_back(c);
  out.begins.push_back({0, {input_hash}});
  return out;
}

Measurement output_bits(const std::vector<uint32_t>& bits) {
  std::vector<float> values(bits.size());
  std::memcpy(values.data(), bits.data(), bits.size() * 4);
  return output(values);
}

std::vector<PlannedCase> one_case(int64_t n) {
  PlannedCase c;
  c.sizes = {{"n", n}};
  c.seed = 1;
  return {c};
}

TEST(Checker, AcceptsWithinToleranceAndMatchingNonFinite) {
  Task t = inplace_task("f32_composite", 1e-5, 1e-4);
  auto ref = output({1.0f, 100.0f, NAN, INFINITY, 0.0f});
  auto got = output({1.00005f, 100.009f, NAN, INFINITY, -0.0f});
  CheckResult r = compare_outputs(t, one_case(5), ref, got);
  EXPECT_EQ(r.status, EvalStatus::ok) << r.message;
}

TEST(Checker, ReportsFirstMismatchWithIndexExpectedAndGot) {
  Task t = inplace_task("f32_composite", 1e-5, 1e-4);
  auto ref = output({1.0f, 2.0f, 3.0f, 4.0f});
  auto got = output({1.0f, 2.0f, 3.1f, NAN});
  CheckResult r = compare_outputs(t, one_case(4), ref, got);
  EXPECT_EQ(r.status, EvalStatus::wrong_answer);
  ASSERT_EQ(r.mismatches.size(), 2u);
  EXPECT_EQ(r.mismatches[0].index, 2);
  EXPECT_EQ(r.mismatches[0].expected, "3");
  EXPECT_EQ(r.mismatches[0].got, "3.0999999");
  EXPECT_EQ(r.mismatches[1].got, "nan");
  EXPECT_NE(r.message.find("2 of 4 elements of x wrong at n=4"), std::string::npos) << r.message;
}

TEST(Checker, InfinityMustMatchSign) {
  Task t = inplace_task("f32_composite", 1e-5, 1e-4);
  CheckResult r = compare_outputs(t, one_case(1), output({INFINITY}), output({-INFINITY}));
  EXPECT_EQ(r.status, EvalStatus::wrong_answer);
}

TEST(Checker, ExactMeansExact) {
  Task t = inplace_task("exact", 0, 0);
  CheckResult r = compare_outputs(t, one_case(1), output({1.0f}), output({std::nextafter(1.0f, 2.0f)}));
  EXPECT_EQ(r.status, EvalStatus::wrong_answer);
}

TEST(Checker, ExactComparesBitForBit) {
  Task t = inplace_task("exact", 0, 0);
  // -0 is not +0, and a NaN's payload is part of the value.
  CheckResult zero = compare_outputs(t, one_case(1), output({0.0f}), output({-0.0f}));
  EXPECT_EQ(zero.status, EvalStatus::wrong_answer);
  EXPECT_NE(zero.message.find("expected 0 got -0"), std::string::npos) << zero.message;
  EXPECT_EQ(compare_outputs(t, one_case(1), output_bits({0x7fc00000u}), output_bits({0x7fc00001u})).status,
            EvalStatus::wrong_answer);
  EXPECT_EQ(compare_outputs(t, one_case(1), output_bits({0x7fc00001u}), output_bits({0x7fc00001u})).status,
            EvalStatus::ok);
}

TEST(Checker, PoisonIsNeverAResult) {
  // A kernel that writes nothing leaves the harness's NaN poison: not a match for the reference's NaN.
  Task t = inplace_task("f32_composite", 1e-5, 1e-4);
  CheckResult r =
      compare_outputs(t, one_case(2), output_bits({0x7fc00000u, 0x7fc00000u}), output_bits({0x7fe5a5a5u, 0x7fc00000u}));
  EXPECT_EQ(r.status, EvalStatus::wrong_answer);
  ASSERT_EQ(r.mismatches.size(), 1u);
  EXPECT_NE(r.mismatches[0].got.find("never written"), std::string::npos) << r.mismatches[0].got;
}

TEST(Checker, DifferentInputsMeanTheHarnessWasTamperedWith) {
  Task t = inplace_task("exact", 0, 0);
  CheckResult r = compare_outputs(t, one_case(1), output({1.0f}, 0, 7), output({1.0f}, 0, 8));
  EXPECT_EQ(r.status, EvalStatus::rejected);
  EXPECT_EQ(r.rule, "harness-tampered");
}

TEST(Checker, GuardDamageIsAnOutOfBoundsWrite) {
  Task t = inplace_task("exact", 0, 0);
  CheckResult r = compare_outputs(t, one_case(2), output({1, 2}), output({1, 2}, /*guard_after=*/1));
  EXPECT_EQ(r.status, EvalStatus::runtime_error);
  EXPECT_NE(r.message.find("past the end of x"), std::string::npos) << r.message;
}

TEST(Checker, MissingCaseIsNotSilentlyAccepted) {
  Task t = inplace_task("exact", 0, 0);
  Measurement empty;
  CheckResult r = compare_outputs(t, one_case(2), output({1, 2}), empty);
  EXPECT_EQ(r.status, EvalStatus::runtime_error);
}

TEST(Checker, DecodesHalfPrecision) {
  const uint16_t one = 0x3c00, minus_two = 0xc000, smallest_subnormal = 0x0001, inf = 0x7c00;
  EXPECT_EQ(element_value(ElemType::f16, reinterpret_cast<const char*>(&one)), 1.0);
  EXPECT_EQ(element_value(ElemType::f16, reinterpret_cast<const char*>(&minus_two)), -2.0);
  EXPECT_EQ(element_value(ElemType::f16, reinterpret_cast<const char*>(&smallest_subnormal)), std::ldexp(1.0, -24));
  EXPECT_TRUE(std::isinf(element_value(ElemType::f16, reinterpret_cast<const char*>(&inf))));
}

}  // namespace
}  // namespace eok::evaluator
