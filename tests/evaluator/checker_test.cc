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

HarnessOutput output(const std::vector<float>& values, int64_t guard_after = 0) {
  HarnessOutput out;
  CaseOutput c;
  ArgOutput x;
  x.is_buffer = true;
  x.data.resize(values.size() * 4);
  std::memcpy(x.data.data(), values.data(), x.data.size());
  x.guard_after = guard_after;
  c.args = {x, ArgOutput{}};
  out.cases.push_back(c);
  out.done = true;
  return out;
}

std::vector<PlannedCase> one_case(int64_t n) { return {PlannedCase{{{"n", n}}, false, 1, false}}; }

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

TEST(Checker, GuardDamageIsAnOutOfBoundsWrite) {
  Task t = inplace_task("exact", 0, 0);
  CheckResult r = compare_outputs(t, one_case(2), output({1, 2}), output({1, 2}, /*guard_after=*/1));
  EXPECT_EQ(r.status, EvalStatus::runtime_error);
  EXPECT_NE(r.message.find("past the end of x"), std::string::npos) << r.message;
}

TEST(Checker, MissingCaseIsNotSilentlyAccepted) {
  Task t = inplace_task("exact", 0, 0);
  HarnessOutput empty;
  empty.done = true;
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
