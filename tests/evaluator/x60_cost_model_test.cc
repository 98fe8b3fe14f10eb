// The decisions of the X60 cost model that rank every candidate, from block profiles and memory counters
// built by hand (no emulator): what memory traffic costs (memory_time), how the core's time and the
// memory's are combined (region_cycles), and what estimate() makes of a profile (compute cycles per
// block, the bound it names, the instructions it could not cost, the hot blocks, a strip-mined loop's
// blocks costed together). Memory figures are round numbers chosen here so that every expected value
// follows from the formulas of memory_model.h; compute figures are the committed table's (mul: 3 cycles
// on ieu_b, rvv-bench's measured row).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "evaluator/cost_model/memory_model.h"
#include "evaluator/cost_model/scoreboard.h"
#include "evaluator/cost_model/x60_cost_model.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "support/x60_data.h"

// A namespace of its own: the unity build compiles this file with x60_core_figures_test.cc, whose
// anonymous namespace names some of the same encodings.
namespace eok::cost::estimate_test {
namespace {

namespace fs = std::filesystem;

// Encodings (llvm-mc-22 -triple=riscv64 -mattr=+v,+m -show-encoding).
constexpr uint32_t kMulT0 = 0x027302b3;         // mul t0, t1, t2
constexpr uint32_t kMulT3 = 0x02730e33;         // mul t3, t1, t2
constexpr uint32_t kMulT4 = 0x02730eb3;         // mul t4, t1, t2
constexpr uint32_t kMulT5 = 0x02730f33;         // mul t5, t1, t2
constexpr uint32_t kFence = 0x0ff0000f;         // fence (the table has no figure for it)
constexpr uint32_t kVsetvliE32M1 = 0x0d0676d7;  // vsetvli a3, a2, e32, m1, ta, ma
constexpr uint32_t kVle32 = 0x02056407;         // vle32.v v8, (a0)
constexpr uint32_t kVse32 = 0x0205e427;         // vse32.v v8, (a1)
constexpr uint32_t kSubA2A3 = 0x40d60633;       // sub a2, a2, a3
constexpr uint32_t kAddA1A3 = 0x00d585b3;       // add a1, a1, a3
constexpr uint32_t kBnezA2 = 0xfe0618e3;        // bnez a2, -16
constexpr int32_t kE32M1 = 0xd0;                // the vtype immediate of e32, m1, ta, ma

// The table's mul: 3 cycles of ieu_b, which has one instance; four independent muls keep it busy 12.
constexpr double kMulRthroughput = 3;
const std::vector<uint32_t> kFourMuls = {kMulT0, kMulT3, kMulT4, kMulT5};
constexpr double kFourMulsCycles = 4 * kMulRthroughput;

std::vector<uint8_t> encode(const std::vector<uint32_t>& words) {
  std::vector<uint8_t> bytes;
  for (uint32_t w : words) {
    for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<uint8_t>(w >> (8 * i)));
  }
  return bytes;
}

ExecutedBlock block(uint64_t vaddr, const std::vector<uint32_t>& words, uint64_t count, int32_t vtype = kVtypeNone) {
  ExecutedBlock b;
  b.vaddr = vaddr;
  b.vtype = vtype;
  b.count = count;
  b.bytes = encode(words);
  return b;
}

// Round figures: a line is 64 bytes; the L2 moves 8 bytes a cycle each way (8 cycles a line), DRAM 4
// (16 cycles a line) and loses 2 cycles per line when it turns between reads and writes; a scalar load
// outside a stream waits 11 cycles for L2 and 22 for DRAM, a streamed vector load 10 and 18.
MemoryModelParams round_params(double overlap_exponent = 1) {
  MemoryModelParams p;
  p.line_bytes = 64;
  p.load_stall[0][0][0] = 11;
  p.load_stall[0][1][0] = 22;
  p.load_stall[1][0][1] = 10;
  p.load_stall[1][1][1] = 18;
  p.l2_read = p.l2_write = 8;
  p.dram_read = p.dram_write = 4;
  p.dram_turnaround = 2;
  p.overlap_exponent = overlap_exponent;
  p.split_line[0] = 0;
  p.split_line[1] = 0.5;
  p.descending_store = 80;
  return p;
}

constexpr int kScalar = 0, kVector = 1, kL2 = 0, kDram = 1, kRandom = 0, kStream = 1;

fs::path committed_memory_model() {
  return fs::path(EOK_SOURCE_DIR) / "evaluator" / "cost_model" / "x60_memory.json";
}

// ---------------------------------------------------------------------------------------------------
// memory_time and region_cycles

TEST(MemoryTime, WorkThatStaysInL1CostsNoMemoryTime) {
  MemoryCounters m;
  m.loads = m.stores = 1000;
  m.load_bytes = m.store_bytes = 32000;
  const MemoryTime t = memory_time(m, round_params());
  EXPECT_EQ(t.random_stall_cycles + t.stream_stall_cycles + t.split_cycles + t.l2_cycles + t.dram_cycles, 0);
  EXPECT_EQ(t.l2_read_bytes + t.l2_write_bytes + t.dram_read_bytes + t.dram_write_bytes, 0u);
  EXPECT_DOUBLE_EQ(region_cycles(500, t, round_params(1)), 500);
  EXPECT_DOUBLE_EQ(region_cycles(500, t, MemoryModelParams::load(committed_memory_model())), 500)
      << "the fitted overlap must leave a compute-only region at its compute time";
}

TEST(MemoryTime, DramTrafficIsPricedAtItsBandwidthsWithATurnaroundPerLineOfTheSmallerDirection) {
  MemoryCounters m;
  m.load_fills[kVector][kDram][kStream] = 100;
  m.l2_writebacks = 40;
  const MemoryTime t = memory_time(m, round_params());
  EXPECT_EQ(t.dram_read_bytes, 100u * 64);
  EXPECT_EQ(t.dram_write_bytes, 40u * 64);
  // 6400 B / 4 + 2560 B / 4 + min(100, 40) lines x 2 cycles.
  EXPECT_DOUBLE_EQ(t.dram_cycles, 1600 + 640 + 80);
  EXPECT_DOUBLE_EQ(t.stream_stall_cycles, 100 * 18);
  EXPECT_EQ(t.l2_read_bytes, 0u) << "a line from DRAM is DRAM's traffic, not counted again as the L2's";
  EXPECT_EQ(t.random_stall_cycles, 0);

  MemoryCounters reads_only;
  reads_only.load_fills[kVector][kDram][kStream] = 100;
  EXPECT_DOUBLE_EQ(memory_time(reads_only, round_params()).dram_cycles, 1600) << "no writes: DRAM never turns";
}

TEST(MemoryTime, L2TrafficIsFillsReadsForOwnershipAndWritebacks) {
  MemoryCounters m;
  m.load_fills[kScalar][kL2][kRandom] = 10;
  m.load_fills[kVector][kL2][kStream] = 30;
  m.late_fills[0] = 5;
  m.l1_writebacks = 20;
  const MemoryTime t = memory_time(m, round_params());
  EXPECT_EQ(t.l2_read_bytes, (10u + 30 + 5) * 64);
  EXPECT_EQ(t.l2_write_bytes, 20u * 64);
  EXPECT_DOUBLE_EQ(t.l2_cycles, (45 * 64 + 20 * 64) / 8.0);
  EXPECT_DOUBLE_EQ(t.random_stall_cycles, 10 * 11);
  EXPECT_DOUBLE_EQ(t.stream_stall_cycles, 30 * 10);
  EXPECT_EQ(t.dram_cycles, 0);
}

TEST(MemoryTime, LoadsOutsideAStreamAndLineSplitsAreTheCoresOwnTime) {
  MemoryCounters m;
  m.load_fills[kScalar][kDram][kRandom] = 10;  // a dependent chase through DRAM
  m.vector_split_lines[1] = 100;               // unaligned vector stores
  const MemoryTime t = memory_time(m, round_params());
  EXPECT_DOUBLE_EQ(t.random_stall_cycles, 10 * 22);
  EXPECT_DOUBLE_EQ(t.split_cycles, 100 * 0.5);
  EXPECT_DOUBLE_EQ(core_cycles(1000, t), 1000 + 220 + 50);
  // p = 1: the parts add up: the core's 1270 and DRAM's 640 B / 4.
  EXPECT_DOUBLE_EQ(region_cycles(1000, t, round_params(1)), 1270 + 160);
}

TEST(MemoryTime, DescendingVectorStoresWaitForTheirDramLinesOnTheCore) {
  MemoryCounters m;
  m.late_fills[1] = 100;            // every line written downwards is read for ownership...
  m.descending_store_misses = 100;  // ...and, for a unit-stride vector store, waited for
  const MemoryTime t = memory_time(m, round_params());
  EXPECT_DOUBLE_EQ(t.descending_store_cycles, 100 * 80);
  EXPECT_DOUBLE_EQ(core_cycles(1000, t), 1000 + 8000);
  // The wait is not hidden behind DRAM's own time, even when the overlap is nearly complete.
  EXPECT_GT(region_cycles(1000, t, round_params(200)), 9000 - 1);
}

TEST(RegionCycles, TheOverlapExponentDecidesHowCoreAndMemoryTimesCombine) {
  MemoryTime t;
  t.dram_cycles = 400;
  EXPECT_DOUBLE_EQ(region_cycles(300, t, round_params(1)), 700) << "p = 1: no overlap";
  EXPECT_NEAR(region_cycles(300, t, round_params(2)), 500, 1e-9) << "p = 2: sqrt(300^2 + 400^2)";
  EXPECT_NEAR(region_cycles(300, t, round_params(200)), 400, 1) << "p large: the larger hides the other";
  // Even parts overlap least, in proportion: the fitted p adds more to 400 + 400 than to 40 + 400.
  const MemoryModelParams fitted = MemoryModelParams::load(committed_memory_model());
  MemoryTime even;
  even.dram_cycles = 400;
  const double added_even = region_cycles(400, even, fitted) - 400;
  const double added_small = region_cycles(40, even, fitted) - 400;
  EXPECT_GT(added_even, 10 * added_small);
  EXPECT_LT(region_cycles(400, even, fitted), 800) << "the fitted model overlaps compute with DRAM";
  EXPECT_EQ(region_cycles(0, MemoryTime{}, fitted), 0);
}

TEST(MemoryTime, UnderTheFittedFiguresMoreDramTrafficAlwaysCostsMore) {
  const MemoryModelParams fitted = MemoryModelParams::load(committed_memory_model());
  double last = 0;
  for (uint64_t lines : {0, 10, 100, 1000, 10000}) {
    MemoryCounters m;
    m.load_fills[kVector][kDram][kStream] = lines;
    m.l2_writebacks = lines / 2;
    const double cycles = region_cycles(5000, memory_time(m, fitted), fitted);
    if (lines > 0) {
      EXPECT_GT(cycles, last) << lines << " lines";
    }
    last = cycles;
  }
  // The same lines from L2 cost less than from DRAM.
  MemoryCounters from_l2, from_dram;
  from_l2.load_fills[kVector][kL2][kStream] = 1000;
  from_dram.load_fills[kVector][kDram][kStream] = 1000;
  EXPECT_LT(region_cycles(5000, memory_time(from_l2, fitted), fitted),
            region_cycles(5000, memory_time(from_dram, fitted), fitted));
}

TEST(MemoryModelParams, AMissingOrBadFigureIsRefusedNamingItAndHowToRegenerate) {
  const nlohmann::json good = nlohmann::json::parse(read_file(committed_memory_model()));
  TempDir dir(fs::temp_directory_path(), "eok-memory-model-");
  auto load_edited = [&](const std::function<void(nlohmann::json&)>& edit) -> std::string {
    nlohmann::json j = good;
    edit(j);
    const fs::path file = dir.path() / "x60_memory.json";
    std::ofstream(file) << j.dump();
    try {
      MemoryModelParams::load(file);
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "";
  };
  const std::string no_dram = load_edited([](nlohmann::json& j) { j["bandwidth_bytes_per_cycle"].erase("dram_read"); });
  EXPECT_NE(no_dram.find("dram_read"), std::string::npos) << no_dram;
  EXPECT_NE(no_dram.find("fit_memory_model.py"), std::string::npos) << no_dram;
  const std::string no_stall =
      load_edited([](nlohmann::json& j) { j["load_stall_cycles"]["vector_dram_stream"] = -1; });
  EXPECT_NE(no_stall.find("vector_dram_stream"), std::string::npos) << no_stall;
  const std::string bad_p = load_edited([](nlohmann::json& j) { j["core"]["overlap_exponent"] = 0.5; });
  EXPECT_NE(bad_p.find("overlap_exponent"), std::string::npos) << bad_p;
  EXPECT_EQ(load_edited([](nlohmann::json&) {}), "") << "the committed figures load";
}

// ---------------------------------------------------------------------------------------------------
// X60CostModel::estimate

class EstimateTest : public ::testing::Test {
 protected:
  X60CostModel model_{testing::x60::table(), round_params(1), /*hot_blocks=*/2};

  // Cycles of one execution of `words` on their own, as the scoreboard costs them.
  double alone(const std::vector<uint32_t>& words, int32_t vtype) const {
    return steady_state_cycles(timings(words, vtype));
  }
  std::vector<SbInsn> timings(const std::vector<uint32_t>& words, int32_t vtype) const {
    std::vector<SbInsn> sb;
    for (const auto& in : decode_block(encode(words))) sb.push_back(model_.timing(in, vtype));
    return sb;
  }
};

TEST_F(EstimateTest, ABlockCostsItsExecutionsTimesItsSteadyStateAndBlocksAddUp) {
  BlockProfile p;
  p.blocks.push_back(block(0x1000, kFourMuls, 1000));
  p.blocks.push_back(block(0x2000, {kMulT0}, 10));
  const CostReport r = model_.estimate(p);
  EXPECT_DOUBLE_EQ(alone(kFourMuls, kVtypeNone), kFourMulsCycles) << "four muls share ieu_b, 3 cycles each";
  EXPECT_DOUBLE_EQ(r.compute_cycles, 1000 * kFourMulsCycles + 10 * alone({kMulT0}, kVtypeNone));
  EXPECT_EQ(r.instructions, 4u * 1000 + 10);
  EXPECT_EQ(r.fallback_instructions, 0u);
  EXPECT_DOUBLE_EQ(r.cycles, r.compute_cycles) << "no memory traffic: the region is its compute";
  EXPECT_EQ(r.bound, "compute");
  EXPECT_DOUBLE_EQ(r.memory.stall_cycles, 0);
  ASSERT_EQ(r.cycles_by_class.size(), 1u);
  EXPECT_DOUBLE_EQ(r.cycles_by_class.at("int_mul"), r.compute_cycles);
}

TEST_F(EstimateTest, AnInstructionTheTableCannotCostIsCostedByItsClassAndCounted) {
  BlockProfile p;
  p.blocks.push_back(block(0x1000, {kFence, kMulT0}, 25));
  const CostReport r = model_.estimate(p);
  EXPECT_EQ(r.instructions, 50u);
  EXPECT_EQ(r.fallback_instructions, 25u) << "each execution of the fence is reported";
  EXPECT_GT(r.cycles_by_class.at("fence"), 0) << "an uncosted instruction must not come out free";
}

TEST_F(EstimateTest, TheBoundIsTheLargestPartOfTheRegion) {
  auto estimate_with = [&](uint64_t count, const MemoryCounters& m) {
    BlockProfile p;
    p.blocks.push_back(block(0x1000, kFourMuls, count));
    p.mem = m;
    return model_.estimate(p);
  };
  MemoryCounters writes;
  writes.l2_writebacks = 1000;  // 64000 B to DRAM: 16000 cycles
  const CostReport bandwidth = estimate_with(100, writes);
  EXPECT_EQ(bandwidth.bound, "memory-bandwidth");
  EXPECT_DOUBLE_EQ(bandwidth.memory.dram_cycles, 16000);
  EXPECT_DOUBLE_EQ(bandwidth.cycles, 1200 + 16000) << "p = 1";
  EXPECT_DOUBLE_EQ(bandwidth.memory.stall_cycles, 16000) << "what memory added to the compute time";

  MemoryCounters chase;
  chase.load_fills[kScalar][kDram][kRandom] = 100;  // 2200 cycles of stalls beside 1200 of compute
  EXPECT_EQ(estimate_with(100, chase).bound, "memory-latency") << "stalls are most of the core's time";
  EXPECT_EQ(estimate_with(1000, chase).bound, "compute") << "12000 cycles of compute, 2200 of stalls";

  MemoryCounters stream;
  stream.load_fills[kVector][kL2][kStream] = 1000;  // 10000 cycles of stream stalls, 8000 of L2 time
  EXPECT_EQ(estimate_with(100, stream).bound, "memory-latency");
  EXPECT_EQ(estimate_with(100, stream).counters.load_fills[kVector][kL2][kStream], 1000u)
      << "the report carries the counters it was fed";
}

TEST_F(EstimateTest, HotBlocksAreTheCostliestFirstCutToTheirNumberWithTheirVtype) {
  BlockProfile p;
  p.blocks.push_back(block(0x1000, kFourMuls, 10, kVtypeNone));
  p.blocks.push_back(block(0x2000, kFourMuls, 300, kE32M1));
  p.blocks.push_back(block(0x3000, kFourMuls, 200, kVtypeUnknown));
  const CostReport r = model_.estimate(p);
  ASSERT_EQ(r.hot_blocks.size(), 2u) << "the model was built to keep two";
  EXPECT_EQ(r.hot_blocks[0].vaddr, 0x2000u);
  EXPECT_EQ(r.hot_blocks[0].vtype, "e32m1");
  EXPECT_EQ(r.hot_blocks[0].count, 300u);
  EXPECT_DOUBLE_EQ(r.hot_blocks[0].cycles_per_exec, kFourMulsCycles);
  EXPECT_DOUBLE_EQ(r.hot_blocks[0].cycles, 300 * kFourMulsCycles);
  EXPECT_EQ(r.hot_blocks[0].disasm.size(), 4u);
  EXPECT_EQ(r.hot_blocks[1].vaddr, 0x3000u);
  EXPECT_EQ(r.hot_blocks[1].vtype, "unknown");
  EXPECT_DOUBLE_EQ(r.compute_cycles, 510 * kFourMulsCycles) << "blocks left out of the list still count";
}

// QEMU ends a block at every vsetvli: a strip-mined loop is the block ending in vsetvli and the block
// after it, run in turn, and the model costs them as one loop body.
TEST_F(EstimateTest, AStripMinedLoopsBlocksAreCostedTogetherAndShareTheTimeByTheirOwnCost) {
  const std::vector<uint32_t> head = {kMulT0, kVsetvliE32M1};
  const std::vector<uint32_t> body = {kVle32, kVse32, kSubA2A3, kAddA1A3, kBnezA2};
  const uint64_t body_at = 0x1000 + 4 * head.size();
  std::vector<SbInsn> loop = timings(head, kVtypeNone);
  for (const SbInsn& s : timings(body, kE32M1)) loop.push_back(s);
  const double together = steady_state_cycles(loop);
  const double head_alone = alone(head, kVtypeNone), body_alone = alone(body, kE32M1);

  BlockProfile p;
  p.blocks.push_back(block(0x1000, head, 100));
  p.blocks.push_back(block(body_at, body, 150, kE32M1));
  const CostReport r = model_.estimate(p);
  // 100 iterations of the loop together; the body's 50 further executions on their own.
  EXPECT_NEAR(r.compute_cycles, 100 * together + 50 * body_alone, 1e-6);
  ASSERT_EQ(r.hot_blocks.size(), 2u);
  double head_cycles = 0, body_cycles = 0;
  for (const HotBlock& hb : r.hot_blocks) (hb.vaddr == 0x1000 ? head_cycles : body_cycles) = hb.cycles;
  EXPECT_NEAR(head_cycles, 100 * together * head_alone / (head_alone + body_alone), 1e-6);
  EXPECT_NEAR(body_cycles, 100 * together * body_alone / (head_alone + body_alone) + 50 * body_alone, 1e-6);

  // The same blocks at addresses that do not follow each other are not one loop: each costs alone.
  BlockProfile apart;
  apart.blocks.push_back(block(0x1000, head, 100));
  apart.blocks.push_back(block(0x9000, body, 150, kE32M1));
  EXPECT_NEAR(model_.estimate(apart).compute_cycles, 100 * head_alone + 150 * body_alone, 1e-6);
}

// QEMU also ends a block where the code crosses a page: a loop placed across a page boundary runs as blocks
// that fall through into each other, and costs what the same loop in one block costs.
TEST_F(EstimateTest, ALoopSplitAtAPageBoundaryCostsWhatTheWholeLoopCosts) {
  const std::vector<uint32_t> head = {kVsetvliE32M1};
  const std::vector<uint32_t> body = {kVle32, kVse32, kSubA2A3, kAddA1A3, kBnezA2};
  BlockProfile whole;
  whole.blocks.push_back(block(0x1ffc, head, 100));
  whole.blocks.push_back(block(0x2000, body, 100, kE32M1));
  BlockProfile split;  // the body's first two instructions end a page
  split.blocks.push_back(block(0x1ff4, head, 100));
  split.blocks.push_back(block(0x1ff8, {kVle32, kVse32}, 100, kE32M1));
  split.blocks.push_back(block(0x2000, {kSubA2A3, kAddA1A3, kBnezA2}, 100, kE32M1));
  const double whole_cycles = model_.estimate(whole).compute_cycles;
  EXPECT_NEAR(model_.estimate(split).compute_cycles, whole_cycles, 1e-6);
  // Costed block by block, the parts' overlap with each other would be lost.
  const double apart =
      100 * (alone(head, kVtypeNone) + alone({kVle32, kVse32}, kE32M1) + alone({kSubA2A3, kAddA1A3, kBnezA2}, kE32M1));
  EXPECT_GT(std::abs(apart - whole_cycles), 1) << "the test must tell the two costings apart";
  // A block that ends in a branch does not run on into the block after it.
  BlockProfile branches;
  branches.blocks.push_back(block(0x1000, {kMulT0, kBnezA2}, 100));
  branches.blocks.push_back(block(0x1008, kFourMuls, 100));
  EXPECT_NEAR(model_.estimate(branches).compute_cycles, 100 * (alone({kMulT0, kBnezA2}, kVtypeNone) + kFourMulsCycles),
              1e-6);
}

// A loop with two vsetvli runs as three blocks: the loop's first vsetvli (the branch's target), a block
// ending in the second vsetvli, and the block that branches. The middle one is the most executed (the
// first iteration reaches it through the entry's block), yet the loop is costed from its first vsetvli.
TEST_F(EstimateTest, ALoopOfSeveralBlocksIsCostedFromItsFirstBlock) {
  const std::vector<uint32_t> top = {kVsetvliE32M1}, entry = {kMulT0, kVsetvliE32M1};
  const std::vector<uint32_t> middle = {kVle32, kVsetvliE32M1}, bottom = {kVse32, kSubA2A3, kAddA1A3, kBnezA2};
  BlockProfile p;
  p.blocks.push_back(block(0x0ffc, entry, 1));  // runs on into the loop's first vsetvli at 0x1000
  p.blocks.push_back(block(0x1000, top, 99));
  p.blocks.push_back(block(0x1004, middle, 100, kE32M1));
  p.blocks.push_back(block(0x100c, bottom, 100, kE32M1));
  auto chain = [&](const std::vector<uint32_t>& first, int32_t vtype) {
    std::vector<SbInsn> all = timings(first, vtype);
    for (const SbInsn& s : timings(middle, kE32M1)) all.push_back(s);
    for (const SbInsn& s : timings(bottom, kE32M1)) all.push_back(s);
    return steady_state_cycles(all);
  };
  const double loop = chain(top, kVtypeNone), first_iteration = chain(entry, kVtypeNone);
  EXPECT_NEAR(model_.estimate(p).compute_cycles, 99 * loop + first_iteration, 1e-6);
  // Started at the most executed block, the chain would leave the first vsetvli to be costed alone.
  std::vector<SbInsn> rest = timings(middle, kE32M1);
  for (const SbInsn& s : timings(bottom, kE32M1)) rest.push_back(s);
  const double from_the_middle =
      100 * steady_state_cycles(rest) + 99 * alone(top, kVtypeNone) + alone(entry, kVtypeNone);
  EXPECT_GT(std::abs(from_the_middle - (99 * loop + first_iteration)), 1) << "the test must tell the two apart";
}

TEST_F(EstimateTest, AVectorLoadThatMovedFewerBytesThanItsGroupFeedsAStoreSooner) {
  const std::vector<uint32_t> copy = {kVle32, kVse32};
  constexpr int32_t kE32M8 = 0xd3;
  BlockProfile full, short_vl;
  full.blocks.push_back(block(0x1000, copy, 100, kE32M8));
  short_vl.blocks.push_back(block(0x1000, copy, 100, kE32M8));
  short_vl.blocks[0].vector_bytes = {{0, 16 * 100}};  // the load moved 16 bytes per execution
  EXPECT_LT(model_.estimate(short_vl).compute_cycles, model_.estimate(full).compute_cycles)
      << "the store waits for the bytes the load moved, not for a full m8 group";
}

TEST_F(EstimateTest, TheSameProfileAlwaysGivesTheSameReport) {
  BlockProfile p;
  p.blocks.push_back(block(0x1000, {kMulT0, kVsetvliE32M1}, 7));
  p.blocks.push_back(block(0x1008, {kVle32, kVse32, kBnezA2}, 9, kE32M1));
  p.mem.load_fills[kVector][kDram][kStream] = 12;
  const CostReport a = model_.estimate(p), b = model_.estimate(p);
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.compute_cycles, b.compute_cycles);
  EXPECT_EQ(a.bound, b.bound);
  EXPECT_EQ(model_.estimate(BlockProfile{}).cycles, 0) << "an empty region costs nothing";
}

}  // namespace
}  // namespace eok::cost::estimate_test
