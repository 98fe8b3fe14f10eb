#include <gtest/gtest.h>

extern "C" {
#include "evaluator/qemu_plugin/cache_sim.h"
}

namespace {

class CacheSim : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(cache_sim_init(&sim, 64, 128, 4, 512, 16)); }  // the X60's geometry
  cache_sim_t sim;
};

TEST_F(CacheSim, StreamingReadFromColdCachesMissesOncePerLine) {
  for (uint64_t a = 0; a < 256 * 1024; a += 4) cache_sim_access(&sim, 0x100000 + a, 4, false);
  EXPECT_EQ(sim.loads, 64u * 1024);
  EXPECT_EQ(sim.l1_load_misses, 4096u);
  EXPECT_EQ(sim.l2_load_misses, 4096u);  // cold: every line comes from DRAM
  EXPECT_EQ(sim.l1_writebacks, 0u);
}

TEST_F(CacheSim, SecondPassOverAnL2ResidentSetHitsL2) {
  for (int pass = 0; pass < 2; ++pass) {
    for (uint64_t a = 0; a < 128 * 1024; a += 64) cache_sim_access(&sim, a, 8, false);
  }
  EXPECT_EQ(sim.l2_load_misses, 2048u);  // first pass only
  EXPECT_EQ(sim.l1_load_misses, 4096u);  // 128 KiB does not fit the 32 KiB L1
}

TEST_F(CacheSim, StoreMissesAllocateWithoutFillAndWriteBackWhenEvicted) {
  for (uint64_t a = 0; a < 64 * 1024; a += 64) cache_sim_access(&sim, a, 8, true);
  EXPECT_EQ(sim.l1_store_misses, 1024u);
  EXPECT_EQ(sim.l2_load_misses, 0u);
  EXPECT_EQ(sim.l1_writebacks, 512u);  // half of the 1024 dirty lines were pushed out of the 512-line L1
  uint64_t l1_dirty, any_dirty;
  cache_sim_dirty_lines(&sim, &l1_dirty, &any_dirty);
  EXPECT_EQ(l1_dirty, 512u);
  EXPECT_EQ(any_dirty, 1024u);  // every written line still has to reach DRAM
}

TEST_F(CacheSim, FlushForgetsContentsAndCounters) {
  cache_sim_access(&sim, 0x40, 4, false);
  cache_sim_flush(&sim);
  EXPECT_EQ(sim.loads, 0u);
  cache_sim_access(&sim, 0x40, 4, false);
  EXPECT_EQ(sim.l2_load_misses, 1u);
}

TEST_F(CacheSim, AccessSpanningTwoLinesTouchesBoth) {
  cache_sim_access(&sim, 60, 8, false);
  EXPECT_EQ(sim.l1_load_misses, 2u);
}

TEST(CacheSimGeometry, RejectsInvalidGeometry) {
  cache_sim_t sim;
  EXPECT_FALSE(cache_sim_init(&sim, 48, 128, 4, 512, 16));
  EXPECT_FALSE(cache_sim_init(&sim, 64, 100, 4, 512, 16));
  EXPECT_FALSE(cache_sim_init(&sim, 64, 128, 0, 512, 16));
}

}  // namespace
