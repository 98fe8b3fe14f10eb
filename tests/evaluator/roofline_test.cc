// Roofline bounds from the X60 table and a task's declared work.
#include <gtest/gtest.h>

#include "evaluator/board.h"
#include "evaluator/roofline.h"
#include "src/common/error.h"
#include "support/board_fixture.h"

namespace eok::evaluator {
namespace {

TEST(Roofline, PeaksComeFromTheMeasuredFmaThroughput) {
  const auto board = load_board(testing::source_root(), "k1");
  const auto table = cost::X60Table::load(board.cost_table);
  const auto mem = cost::MemoryModelParams::load(board.memory_model);
  // VLEN 256: 8 f32 or 16 f16 lanes per LMUL-1 register, one vfmacc.vv per cycle, 2 flops each.
  EXPECT_DOUBLE_EQ(peak_rates(board, table, mem, "f32").ops_per_cycle, 16);
  EXPECT_DOUBLE_EQ(peak_rates(board, table, mem, "f16").ops_per_cycle, 32);
  EXPECT_DOUBLE_EQ(peak_rates(board, table, mem, "i32").ops_per_cycle, 16);
  const PeakRates p = peak_rates(board, table, mem, "f32");
  EXPECT_DOUBLE_EQ(p.dram_read, mem.dram_read);
  EXPECT_DOUBLE_EQ(p.l2_read, mem.l2_read);
  // The best unit-stride vector store: vse8.v at e8m8 moves 256 bytes.
  riscv::VType m8;
  m8.sew = 8;
  m8.lmul_log2 = 3;
  EXPECT_GE(p.l1_write, 256 / table.vector("vse8.v", false, m8)->rthroughput);
  EXPECT_DOUBLE_EQ(p.l1_bytes, 32 * 1024);
  EXPECT_THROW(peak_rates(board, table, mem, "q7"), eok::ConfigError);
}

// Rates of a made-up board: L1 8 B/cycle both ways, L2 4, DRAM 2 read and 3 write; 1 KiB L1, 4 KiB L2.
PeakRates test_rates() {
  PeakRates p;
  p.ops_per_cycle = 16;
  p.l1_read = p.l1_write = 8;
  p.l2_read = 4;
  p.dram_read = 2;
  p.dram_write = 3;
  p.l1_bytes = 1024;
  p.l2_bytes = 4096;
  return p;
}

TEST(Roofline, InPlaceStreamingIsBoundByTheSlowestLevelItsBytesMustCross) {
  const Task relu = load_task(testing::source_root() / "kernels" / "relu_f32");
  const PeakRates p = test_rates();
  const Roofline r = task_roofline(relu, p);
  const double n = static_cast<double>(relu.timed.at("n"));
  ASSERT_GT(8 * n, 2 * 4096);  // the test's caches hold less than the task's bytes
  EXPECT_DOUBLE_EQ(r.flops, n);
  EXPECT_DOUBLE_EQ(r.bytes, 8 * n);
  EXPECT_DOUBLE_EQ(r.write_bytes, 4 * n);  // the in-place buffer is written once
  EXPECT_DOUBLE_EQ(r.read_bytes, 4 * n);
  // Beyond both caches: reads first at the DRAM read rate, the rest at the write rate.
  const double dram = 8 * n - 1024 - 4096;
  EXPECT_DOUBLE_EQ(r.memory_cycles, 4 * n / 2.0 + (dram - 4 * n) / 3.0);
  EXPECT_DOUBLE_EQ(r.compute_cycles, n / 16);
  EXPECT_EQ(r.limit, "memory");
  EXPECT_DOUBLE_EQ(r.bound_cycles, r.memory_cycles);
  EXPECT_DOUBLE_EQ(r.distance(2 * r.bound_cycles), 2.0);
}

TEST(Roofline, WhatFitsInL1IsBoundByTheLoadStoreUnit) {
  const Task relu = load_task(testing::source_root() / "kernels" / "relu_f32");
  PeakRates p = test_rates();
  p.l1_bytes = 1e12;
  const Roofline r = task_roofline(relu, p);
  EXPECT_DOUBLE_EQ(r.memory_cycles, r.read_bytes / 8 + r.write_bytes / 8);
}

TEST(Roofline, GemmIsComputeBound) {
  const Task gemm = load_task(testing::source_root() / "kernels" / "gemm_f32");
  const Roofline r = task_roofline(gemm, test_rates());
  EXPECT_EQ(r.limit, "compute");
  EXPECT_GT(r.intensity(), 1.0);
}

TEST(Roofline, EveryTaskDeclaresItsWork) {
  for (const auto& id : list_task_ids(testing::source_root() / "kernels")) {
    const Task t = load_task(testing::source_root() / "kernels" / id);
    const Roofline r = task_roofline(t, test_rates());
    EXPECT_GT(r.bytes, 0) << id;
    EXPECT_GT(r.bound_cycles, 0) << id;
  }
}

}  // namespace
}  // namespace eok::evaluator
