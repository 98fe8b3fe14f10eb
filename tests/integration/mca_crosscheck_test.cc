// Cross-check of the cost model against LLVM's SpacemiT X60 scheduling model (llvm-mca-22): the hottest
// block of each baseline kernel, as the plugin captured it, must cost about the same in both. They are
// independent estimates (ours from measured throughputs, LLVM's from its model), so the bound is loose;
// the test prints both figures.
#include <gtest/gtest.h>

#include <regex>

#include "evaluator/cost_model/x60_cost_model.h"
#include "support/board_fixture.h"

namespace eok::testing {
namespace {

namespace fs = std::filesystem;

std::optional<double> mca_cycles_per_iteration(const cost::HotBlock& block) {
  if (!find_on_path("llvm-mca-22")) return std::nullopt;
  std::smatch m;
  static const std::regex vt("e(8|16|32|64)(m|mf)(1|2|4|8)");
  std::string text;
  if (std::regex_match(block.vtype, m, vt)) {
    text += "# LLVM-MCA-RISCV-LMUL " + std::string(m[2] == "mf" ? "MF" : "M") + m[3].str() + "\n";
    text += "# LLVM-MCA-RISCV-SEW E" + m[1].str() + "\n";
  }
  for (const auto& line : block.disasm) text += line + "\n";
  TempDir dir(fs::temp_directory_path(), "eok-mca-");
  write_file_atomic(dir.path() / "block.s", text);
  ProcessSpec spec;
  spec.argv = {"llvm-mca-22", "-mtriple=riscv64", "-mcpu=spacemit-x60", "-iterations=200",
               (dir.path() / "block.s").string()};
  ProcessResult r = run_process(spec);
  EXPECT_TRUE(r.ok()) << r.err << "\n" << text;
  std::smatch total;
  static const std::regex re("Total Cycles:\\s+(\\d+)");
  if (!std::regex_search(r.out, total, re)) return std::nullopt;
  return std::stod(total[1]) / 200.0;
}

class McaCrossCheck : public VirtualBoardTest, public ::testing::WithParamInterface<const char*> {};

TEST_P(McaCrossCheck, HottestBlockOfKer0AgreesWithLlvmMca) {
  const evaluator::Task t = task(GetParam());
  const auto r = session().evaluator->evaluate(t, read_file(t.ker0_path()), 7);
  ASSERT_EQ(r.status, evaluator::EvalStatus::ok) << r.message;
  ASSERT_TRUE(r.cost && !r.cost->hot_blocks.empty());
  const cost::HotBlock& hot = r.cost->hot_blocks.front();
  auto mca = mca_cycles_per_iteration(hot);
  if (!mca) GTEST_SKIP() << "llvm-mca-22 is not installed";
  std::printf("  %-16s hottest block (%zu instructions, %s): eok %.1f cycles, llvm-mca %.1f cycles (%+.0f%%)\n",
              GetParam(), hot.disasm.size(), hot.vtype.c_str(), hot.cycles_per_exec, *mca,
              100.0 * (hot.cycles_per_exec - *mca) / *mca);
  EXPECT_NEAR(hot.cycles_per_exec, *mca, 0.35 * *mca);
}

INSTANTIATE_TEST_SUITE_P(BaselineKernels, McaCrossCheck,
                         ::testing::Values("relu_f32", "mish_f32", "mish_f16", "softmax_f32", "gemm_f32",
                                           "reduce_scan_i32"));

}  // namespace
}  // namespace eok::testing
