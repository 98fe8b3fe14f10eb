// Validation of the virtual board against the measured X60 table (DESIGN.md section 4): loops of one
// instruction, built, run under qemu with the plugin and costed by the model, must reproduce the measured
// reciprocal throughput within 15%.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "evaluator/cost_model/x60_cost_model.h"
#include "support/board_fixture.h"
#include "support/shared_data.h"

namespace eok::testing {
namespace {

namespace fs = std::filesystem;

constexpr int kIterations = 2000;
constexpr int kUnroll = 16;

struct Case {
  const char* mnemonic;
  int lmul;
};

// 16 copies of the instruction. Accumulating instructions rotate their destination over the register
// groups that do not overlap the sources, so that copies are independent, as in the measurement.
std::string body(const Case& c) {
  const std::string m = c.mnemonic;
  std::ostringstream s;
  for (int i = 0; i < kUnroll; ++i) {
    if (m == "vfmacc.vv") {
      const int groups = 16 / c.lmul;  // v0..v15 hold the accumulators; v16 and v24 are the sources
      s << "  vfmacc.vv v" << (i % groups) * c.lmul << ", v16, v24\n";
    } else if (m == "vle32.v") {
      s << "  vle32.v v8, (a0)\n";
    } else if (m == "vse32.v") {
      s << "  vse32.v v8, (a0)\n";
    } else {
      s << "  " << m << " v8, v16, v24\n";
    }
  }
  return s.str();
}

std::string program(const Case& c) {
  std::ostringstream s;
  s << ".text\n.globl main\nmain:\n  la a0, buf\n  li t1, " << kIterations << "\n"
    << "  vsetvli t0, zero, e32, m" << c.lmul << ", ta, ma\n"
    << "  slti zero, zero, 1248\n1:\n"
    << body(c) << "  addi t1, t1, -1\n  bnez t1, 1b\n"
    << "  slti zero, zero, 1249\n  li a0, 0\n  ret\n"
    << ".bss\n.balign 64\nbuf: .zero 1024\n";
  return s.str();
}

// The measured figure, from the shared data when present (the ground truth), else from our table.
std::optional<double> measured(const Case& c) {
  const fs::path data = ::eok::testing::shared_data("x60/rvv-bench-x60-throughput.json");
  if (!fs::exists(data)) return std::nullopt;
  static const nlohmann::json j = nlohmann::json::parse(std::ifstream(data));
  const std::string col = "e32m" + std::to_string(c.lmul);
  for (const char* table : {"tblMaa", "tblMau"}) {
    for (const auto& [key, row] : j[table].items()) {
      if (key.rfind(std::string(c.mnemonic) + " ", 0) != 0 || key.find("v0.t") != std::string::npos) continue;
      if (std::string(c.mnemonic) == "vlse32.v" && key.find("t3") == std::string::npos) continue;
      const std::string v = row.value(col, "");
      if (!v.empty()) return std::stod(v);
    }
  }
  return std::nullopt;
}

class X60Throughput : public ::testing::TestWithParam<Case> {};

TEST_P(X60Throughput, ModelReproducesMeasuredThroughput) {
  const Case c = GetParam();
  TempDir dir(fs::temp_directory_path(), "eok-x60-");
  const auto board = evaluator::load_board(source_root(), "k1");
  const fs::path exe = build_program(dir.path(), program(c), "s");
  const fs::path profile_path = dir.path() / "profile.txt";
  ProcessResult r = run_with_plugin(board, exe, profile_path);
  ASSERT_TRUE(r.ok()) << r.describe() << r.err;
  const cost::BlockProfile profile = cost::parse_block_profile(read_file(profile_path));
  ASSERT_TRUE(profile.complete);

  cost::X60CostModel model(cost::X60Table::load(board.cost_table), {});
  const cost::CostReport report = model.estimate(profile);
  const double per_insn = report.compute_cycles / (kIterations * kUnroll);

  const auto table = cost::X60Table::load(board.cost_table);
  auto expected = measured(c);
  if (!expected) {
    // No shared data on this machine: the table carries the measured figure.
    auto entry =
        table.vector(c.mnemonic, false, riscv::VType{32, static_cast<int>(std::log2(c.lmul)), true, true, false});
    ASSERT_TRUE(entry && entry->measured);
    expected = entry->rthroughput;
  }
  RecordProperty("modeled", std::to_string(per_insn));
  RecordProperty("measured", std::to_string(*expected));
  std::printf("  %-14s e32m%d  modeled %7.2f  measured %7.2f  error %+5.1f%%\n", c.mnemonic, c.lmul, per_insn,
              *expected, 100.0 * (per_insn - *expected) / *expected);
  EXPECT_NEAR(per_insn, *expected, 0.15 * *expected);
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const char* m : {"vadd.vv", "vfmacc.vv", "vfdiv.vv", "vle32.v", "vse32.v", "vfredusum.vs"}) {
    for (int lmul : {1, 2, 4, 8}) out.push_back({m, lmul});
  }
  return out;
}

std::string name(const ::testing::TestParamInfo<Case>& info) {
  std::string n = info.param.mnemonic;
  for (char& ch : n)
    if (ch == '.') ch = '_';
  return n + "_m" + std::to_string(info.param.lmul);
}

INSTANTIATE_TEST_SUITE_P(SingleInstructionLoops, X60Throughput, ::testing::ValuesIn(cases()), name);

}  // namespace
}  // namespace eok::testing
