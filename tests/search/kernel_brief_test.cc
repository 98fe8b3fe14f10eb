// How kernels and failures are shown to the model: the roofline distance, the tolerance share, a failed
// child's idea and change, a repeat.
#include <gtest/gtest.h>

#include "src/search/kernel_brief.h"

namespace eok::search {
namespace {

ScoredKernel scored(const std::string& source, EvalStatus status, double cycles, const std::string& evidence) {
  ScoredKernel k;
  k.kernel.id = 7;
  k.kernel.source = source;
  k.kernel.description = "two strips per iteration";
  k.eval.status = status;
  if (status == EvalStatus::ok) {
    k.eval.cycles = cycles;
    k.eval.speedup = 1000 / cycles;
  }
  k.eval.message = status == EvalStatus::ok ? "correct" : "3 of 33 elements of x wrong at n=33";
  k.eval.evidence_json = evidence;
  return k;
}

// A kernel long enough that a one-line change is shown as a diff, not as a rewrite.
const std::string kParent = [] {
  std::string s = "void k(float *x, size_t n) {\n  a();\n  b();\n  c();\n  d();\n  e();\n  f();\n";
  for (int i = 0; i < 20; ++i) s += "  step_" + std::to_string(i) + "(x, n);\n";
  return s + "}\n";
}();

TEST(KernelBrief, SaysHowFarTheRooflineIsAndHowMuchOfTheToleranceIsUsed) {
  const auto far =
      scored(kParent, EvalStatus::ok, 1000, R"({"roofline_cycles": 250, "evidence": {"tolerance_used": 0.375}})");
  const std::string brief = kernel_brief(far, true);
  EXPECT_NE(brief.find("fewer than about 250 cycles here; this one takes 4.00x that"), std::string::npos) << brief;
  EXPECT_NE(brief.find("used 38% of the tolerance"), std::string::npos) << brief;
  EXPECT_FALSE(at_roofline(far));
  const auto bound = scored(kParent, EvalStatus::ok, 1050, R"({"roofline_cycles": 1000})");
  EXPECT_TRUE(at_roofline(bound));
  EXPECT_NE(kernel_brief(bound, false).find("it is at its bound"), std::string::npos);
  const auto unknown = scored(kParent, EvalStatus::ok, 1050, "{}");
  EXPECT_FALSE(at_roofline(unknown));
  EXPECT_EQ(roofline_line(unknown), "");
}

TEST(KernelBrief, AFailureShowsTheChildsIdeaAndItsChangeToTheParent) {
  const auto parent = scored(kParent, EvalStatus::ok, 1000, "{}");
  std::string child_src = kParent;
  child_src.replace(child_src.find("  d();"), 6, "  d2();");
  auto child = scored(
      child_src, EvalStatus::wrong_answer, 0,
      R"({"evidence": {"mismatches": [{"sizes": "n=33", "output": "x", "index": 3, "expected": "1", "got": "2"}]}})");
  child.kernel.description = "fuse d into c";
  const std::string fb = failure_feedback(child, &parent);
  EXPECT_NE(fb.find("Its idea: fuse d into c"), std::string::npos) << fb;
  EXPECT_NE(fb.find("Its status was wrong_answer"), std::string::npos) << fb;
  EXPECT_NE(fb.find("Its change to the kernel:"), std::string::npos) << fb;
  EXPECT_NE(fb.find("-  d();"), std::string::npos) << fb;
  EXPECT_NE(fb.find("+  d2();"), std::string::npos) << fb;
  EXPECT_EQ(fb.find("a();"), std::string::npos) << "only two lines of context:\n" << fb;
  EXPECT_NE(fb.find("n=33, x[3]: 1, 2"), std::string::npos) << fb;

  auto infra = child;
  infra.eval.status = EvalStatus::infra_error;
  EXPECT_EQ(failure_feedback(infra, &parent), "") << "eok's failures are never the kernel's";
}

TEST(KernelBrief, ARepeatNamesTheKernelItRepeated) {
  const std::string notice = repeat_notice(scored(kParent, EvalStatus::ok, 800, "{}"));
  EXPECT_NE(notice.find("repeat of kernel #7"), std::string::npos) << notice;
  EXPECT_NE(notice.find("1.25x the baseline"), std::string::npos) << notice;
  EXPECT_NE(notice.find("its idea: two strips per iteration"), std::string::npos) << notice;
}

}  // namespace
}  // namespace eok::search
