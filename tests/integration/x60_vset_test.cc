// The vsetvli figure end to end: rvv-bench's memset loops, built, run under qemu with the plugin and costed
// by the model, as eok costs a kernel. QEMU ends a translation block after every vsetvli, so the loop with a
// vsetvli per iteration reaches the model as two blocks; the modeled loops must reproduce the board's
// (shared/data/x60/rvv-bench-x60-kernels.json, memset chart): at m1, about 6.0 cycles a 32-byte iteration
// with a vsetvli in the loop against 3.0 without, and at m4 no difference.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "evaluator/cost_model/x60_cost_model.h"
#include "support/board_fixture.h"

namespace eok::testing {
namespace {

namespace fs = std::filesystem;

constexpr int kBytes = 4096;  // L1-resident, as the measured sizes the figures come from
constexpr int kRepeats = 200;

// rvv-bench's memset loops (bench/memset.S), over the same buffer kRepeats times.
std::string program(bool vset_each_iteration, int lmul) {
  const std::string m = "m" + std::to_string(lmul);
  std::ostringstream s;
  s << ".text\n.globl main\nmain:\n  la a0, buf\n  li t1, " << kRepeats << "\n"
    << "  vsetvli t0, zero, e8, " << m << ", ta, ma\n  vmv.v.i v8, 0\n"
    << "  slti zero, zero, 1248\n"
    << "2:\n  li a2, " << kBytes << "\n  mv a1, a0\n";
  if (vset_each_iteration) {
    s << "1:\n  vsetvli a3, a2, e8, " << m << ", ta, ma\n  vse8.v v8, (a1)\n  sub a2, a2, a3\n  add a1, a1, a3\n"
      << "  bnez a2, 1b\n";
  } else {  // rvv_tail: vl = VLMAX set once; kBytes is a multiple of it, so there is no tail
    s << "  add a4, a1, a2\n1:\n  vse8.v v8, (a1)\n  add a1, a1, t0\n  bltu a1, a4, 1b\n";
  }
  s << "  addi t1, t1, -1\n  bnez t1, 2b\n"
    << "  slti zero, zero, 1249\n  li a0, 0\n  ret\n"
    << ".bss\n.balign 64\nbuf: .zero " << kBytes << "\n";
  return s.str();
}

// Modeled compute cycles per loop iteration (VLEN/8 * LMUL bytes).
double modeled(bool vset_each_iteration, int lmul) {
  TempDir dir(fs::temp_directory_path(), "eok-vset-");
  const auto board = evaluator::load_board(source_root(), "k1");
  const fs::path exe = build_program(dir.path(), program(vset_each_iteration, lmul), "s");
  const fs::path profile_path = dir.path() / "profile.txt";
  ProcessResult r = run_with_plugin(board, exe, profile_path);
  EXPECT_TRUE(r.ok()) << r.describe() << r.err;
  const cost::BlockProfile profile = cost::parse_block_profile(read_file(profile_path));
  EXPECT_TRUE(profile.complete);
  cost::X60CostModel model(cost::X60Table::load(board.cost_table), {});
  const double iterations = static_cast<double>(kRepeats) * kBytes / (32 * lmul);
  return model.estimate(profile).compute_cycles / iterations;
}

// The board's cycles per iteration, as make_x60_table.py fits them; the table's record without the data.
double measured(bool vset_each_iteration, int lmul) {
  const std::string m = "m" + std::to_string(lmul);
  const fs::path table = source_root() / "evaluator" / "cost_model" / "x60_table.json";
  const nlohmann::json j = nlohmann::json::parse(std::ifstream(table));
  return j.at("sources")
      .at("measured_kernels")
      .at("per_lmul")
      .at(m)
      .at(vset_each_iteration ? "with_vsetvli" : "without")
      .get<double>();
}

TEST(X60Vset, MemsetM1WithAVsetvliPerIterationRunsAtHalfTheSpeed) {
  const double with_vset = modeled(true, 1), without = modeled(false, 1);
  const double m_with = measured(true, 1), m_without = measured(false, 1);
  std::printf(
      "  memset m1 per 32-byte iteration: vsetvli each iteration %.2f cycles (board %.2f), vl set once %.2f "
      "(board %.2f)\n",
      with_vset, m_with, without, m_without);
  EXPECT_NEAR(with_vset, m_with, 0.08 * m_with);
  EXPECT_NEAR(without, m_without, 0.08 * m_without);
  EXPECT_NEAR(with_vset / without, m_with / m_without, 0.08 * m_with / m_without);
}

TEST(X60Vset, MemsetM4HidesTheVsetvli) {
  const double with_vset = modeled(true, 4), without = modeled(false, 4);
  std::printf(
      "  memset m4 per 128-byte iteration: vsetvli each iteration %.2f cycles (board %.2f), vl set once %.2f "
      "(board %.2f)\n",
      with_vset, measured(true, 4), without, measured(false, 4));
  EXPECT_NEAR(with_vset, measured(true, 4), 0.1 * measured(true, 4));
  EXPECT_LT(with_vset - without, 0.1 * without);
}

}  // namespace
}  // namespace eok::testing
