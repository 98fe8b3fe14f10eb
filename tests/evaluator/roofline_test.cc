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
  // VLEN 256: 8 f32 or 16 f16 lanes per LMUL-1 register, one vfmacc.vv per cycle, 2 flops each.
  EXPECT_DOUBLE_EQ(peak_rates(board, table, "f32").ops_per_cycle, 16);
  EXPECT_DOUBLE_EQ(peak_rates(board, table, "f16").ops_per_cycle, 32);
  EXPECT_DOUBLE_EQ(peak_rates(board, table, "i32").ops_per_cycle, 16);
  EXPECT_DOUBLE_EQ(peak_rates(board, table, "f32").read_bytes_per_cycle, board.memory.dram_fill);
  EXPECT_THROW(peak_rates(board, table, "q7"), eok::ConfigError);
}

TEST(Roofline, InPlaceStreamingIsBoundByReadsAndWritesAtTheirRates) {
  const Task relu = load_task(testing::source_root() / "kernels" / "relu_f32");
  PeakRates p{16, 2.0, 4.0};
  const Roofline r = task_roofline(relu, p);
  const double n = static_cast<double>(relu.timed.at("n"));
  EXPECT_DOUBLE_EQ(r.flops, n);
  EXPECT_DOUBLE_EQ(r.bytes, 8 * n);
  EXPECT_DOUBLE_EQ(r.write_bytes, 4 * n);  // the in-place buffer is written once
  EXPECT_DOUBLE_EQ(r.read_bytes, 4 * n);
  EXPECT_DOUBLE_EQ(r.memory_cycles, 4 * n / 2.0 + 4 * n / 4.0);
  EXPECT_DOUBLE_EQ(r.compute_cycles, n / 16);
  EXPECT_EQ(r.limit, "memory");
  EXPECT_DOUBLE_EQ(r.bound_cycles, r.memory_cycles);
  EXPECT_DOUBLE_EQ(r.distance(2 * r.bound_cycles), 2.0);
}

TEST(Roofline, GemmIsComputeBound) {
  const Task gemm = load_task(testing::source_root() / "kernels" / "gemm_f32");
  const Roofline r = task_roofline(gemm, PeakRates{16, 2.48, 4.5});
  EXPECT_EQ(r.limit, "compute");
  EXPECT_GT(r.intensity(), 1.0);
}

TEST(Roofline, EveryTaskDeclaresItsWork) {
  for (const auto& id : list_task_ids(testing::source_root() / "kernels")) {
    const Task t = load_task(testing::source_root() / "kernels" / id);
    const Roofline r = task_roofline(t, PeakRates{16, 2.48, 4.5});
    EXPECT_GT(r.bytes, 0) << id;
    EXPECT_GT(r.bound_cycles, 0) << id;
  }
}

}  // namespace
}  // namespace eok::evaluator
