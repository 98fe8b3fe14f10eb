#include <gtest/gtest.h>

extern "C" {
#include "evaluator/qemu_plugin/cache_sim.h"
}

namespace {

uint64_t load_fills(const cache_sim_t& s, int level) {
  uint64_t n = 0;
  for (int k = 0; k < 2; ++k) n += s.n.load_fills[k][level][0] + s.n.load_fills[k][level][1];
  return n;
}

class CacheSim : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(cache_sim_init(&sim, 64, 128, 4, 512, 16, CACHE_LRU)); }  // the X60's geometry
  void TearDown() override { cache_sim_free(&sim); }
  cache_sim_t sim;
};

TEST_F(CacheSim, StreamingReadFromColdCachesFillsEveryLineFromDramAsAStream) {
  for (uint64_t a = 0; a < 256 * 1024; a += 4) cache_sim_access(&sim, 0x100000 + a, 4, false, CACHE_SCALAR);
  EXPECT_EQ(sim.n.loads, 64u * 1024);
  EXPECT_EQ(load_fills(sim, CACHE_FROM_DRAM), 4096u);
  EXPECT_EQ(load_fills(sim, CACHE_FROM_L2), 0u);
  EXPECT_EQ(sim.n.load_fills[CACHE_SCALAR][CACHE_FROM_DRAM][CACHE_RANDOM], 1u);  // only the first line
  EXPECT_EQ(sim.n.l1_writebacks, 0u);
}

TEST_F(CacheSim, ScatteredLoadsAreNotAStream) {
  for (uint64_t i = 0; i < 1000; ++i) cache_sim_access(&sim, (i * 7919 % 1000) * 4096, 4, false, CACHE_VECTOR);
  EXPECT_EQ(sim.n.load_fills[CACHE_VECTOR][CACHE_FROM_DRAM][CACHE_RANDOM], 1000u);
  EXPECT_EQ(sim.n.load_fills[CACHE_VECTOR][CACHE_FROM_DRAM][CACHE_STREAM], 0u);
}

TEST_F(CacheSim, ADescendingReadIsNotAStream) {
  // The prefetcher follows ascending streams only: reading 256 KiB from the top down misses every line at
  // full latency.
  for (uint64_t a = 256 * 1024; a >= 4; a -= 4) cache_sim_access(&sim, 0x100000 + a - 4, 4, false, CACHE_SCALAR);
  EXPECT_EQ(sim.n.load_fills[CACHE_SCALAR][CACHE_FROM_DRAM][CACHE_RANDOM], 4096u);
  EXPECT_EQ(sim.n.load_fills[CACHE_SCALAR][CACHE_FROM_DRAM][CACHE_STREAM], 0u);
}

TEST_F(CacheSim, SecondPassOverAnL2ResidentSetHitsL2) {
  for (int pass = 0; pass < 2; ++pass) {
    for (uint64_t a = 0; a < 128 * 1024; a += 64) cache_sim_access(&sim, a, 8, false, CACHE_SCALAR);
  }
  EXPECT_EQ(load_fills(sim, CACHE_FROM_DRAM), 2048u);  // first pass only
  EXPECT_EQ(load_fills(sim, CACHE_FROM_L2), 2048u);    // 128 KiB does not fit the 32 KiB L1
}

TEST_F(CacheSim, WholeLineStoresAllocateWithoutReadingAndWriteBackWhenEvicted) {
  for (uint64_t a = 0; a < 64 * 1024; a += 8) cache_sim_access(&sim, a, 8, true, CACHE_SCALAR);
  EXPECT_EQ(sim.n.store_allocs[CACHE_FROM_DRAM], 1024u);
  EXPECT_EQ(load_fills(sim, CACHE_FROM_DRAM), 0u);
  EXPECT_EQ(sim.n.late_fills[CACHE_FROM_DRAM], 0u);  // every line was written whole
  EXPECT_EQ(sim.n.l1_writebacks, 512u);              // half of the 1024 dirty lines were pushed out of the 512-line L1
}

TEST_F(CacheSim, PartlyWrittenLinesAreReadForOwnershipWhenEvicted) {
  // A strided store: 4 bytes of every line, over 64 KiB (twice L1).
  for (uint64_t a = 0; a < 64 * 1024; a += 64) cache_sim_access(&sim, a, 4, true, CACHE_VECTOR);
  EXPECT_EQ(sim.n.late_fills[CACHE_FROM_DRAM], 512u);  // the evicted half
}

TEST_F(CacheSim, ADescendingStoreReadsEachLineForOwnership) {
  // 32-byte stores from the top of 16 KiB down: every line is first written in its upper half.
  for (uint64_t a = 16 * 1024; a >= 32; a -= 32) cache_sim_access(&sim, 0x100000 + a - 32, 32, true, CACHE_VECTOR);
  EXPECT_EQ(sim.n.late_fills[CACHE_FROM_DRAM], 256u);
  EXPECT_EQ(sim.n.store_allocs[CACHE_FROM_DRAM], 0u);
  // Ascending, even from an unaligned start, only the first line is entered midway.
  cache_sim_flush(&sim);
  for (uint64_t a = 17; a < 16 * 1024; a += 32) cache_sim_access(&sim, 0x200000 + a, 32, true, CACHE_VECTOR);
  EXPECT_EQ(sim.n.late_fills[CACHE_FROM_DRAM], 1u);
}

// One vector store as the plugin reports it: its elements one by one, between two boundaries.
void vector_store(cache_sim_t& sim, uint64_t addr, unsigned elements, unsigned element_bytes, int64_t stride) {
  cache_sim_vector_boundary(&sim);
  for (unsigned i = 0; i < elements; ++i) {
    cache_sim_access(&sim, addr + static_cast<uint64_t>(static_cast<int64_t>(i) * stride), element_bytes, true,
                     CACHE_VECTOR);
  }
  cache_sim_vector_boundary(&sim);
}

TEST_F(CacheSim, DescendingUnitStrideVectorStoresCountTheirDramMisses) {
  // 256-byte stores (e32, 64 elements) from the top of 64 KiB down, cold: every store misses 4 lines. The
  // first store starts a stream and the second is its first step down: from the third on, it is descending.
  for (uint64_t a = 64 * 1024; a >= 256; a -= 256) vector_store(sim, 0x100000 + a - 256, 64, 4, 4);
  EXPECT_EQ(sim.n.descending_store_misses, 254u * 4);
  // The same upwards: a stream the prefetcher follows.
  cache_sim_flush(&sim);
  for (uint64_t a = 0; a < 64 * 1024; a += 256) vector_store(sim, 0x200000 + a, 64, 4, 4);
  EXPECT_EQ(sim.n.descending_store_misses, 0u);
  // One step back within a stream that goes up (a harness restarting a buffer a little lower): not descending.
  for (uint64_t a : {0x300000, 0x300100, 0x2fff00, 0x300000, 0x300100}) vector_store(sim, a, 64, 4, 4);
  EXPECT_EQ(sim.n.descending_store_misses, 0u);
}

TEST_F(CacheSim, DescendingStoresOtherThanUnitStrideVectorOnesAreNotCounted) {
  // A strided vector store with stride -1 (element by element, downwards) and scalar stores downwards.
  for (uint64_t a = 64 * 1024; a >= 32; a -= 32) vector_store(sim, 0x100000 + a - 1, 32, 1, -1);
  for (uint64_t a = 64 * 1024; a >= 8; a -= 8) cache_sim_access(&sim, 0x300000 + a - 8, 8, true, CACHE_SCALAR);
  EXPECT_EQ(sim.n.descending_store_misses, 0u);
  EXPECT_GT(sim.n.late_fills[CACHE_FROM_DRAM], 0u);  // they still read their lines for ownership
}

TEST_F(CacheSim, DescendingVectorStoresHittingL2AreNotCounted) {
  // 64 KiB: twice L1, well inside L2. The second pass finds every line in L2.
  for (int pass = 0; pass < 2; ++pass) {
    cache_sim_reset_counters(&sim);
    for (uint64_t a = 64 * 1024; a >= 64; a -= 64) vector_store(sim, 0x100000 + a - 64, 16, 4, 4);
  }
  EXPECT_EQ(sim.n.descending_store_misses, 0u);
  EXPECT_EQ(sim.n.store_allocs[CACHE_FROM_L2], 1024u);
}

TEST_F(CacheSim, LoadOfUnwrittenBytesOfAPartialLineWaitsForTheFill) {
  cache_sim_access(&sim, 0x1000, 4, true, CACHE_SCALAR);
  cache_sim_access(&sim, 0x1000, 4, false, CACHE_SCALAR);  // written bytes: no fill
  EXPECT_EQ(load_fills(sim, CACHE_FROM_DRAM), 0u);
  cache_sim_access(&sim, 0x1008, 4, false, CACHE_SCALAR);
  EXPECT_EQ(load_fills(sim, CACHE_FROM_DRAM), 1u);
}

TEST_F(CacheSim, FlushForgetsContentsAndCounters) {
  cache_sim_access(&sim, 0x40, 4, false, CACHE_SCALAR);
  cache_sim_flush(&sim);
  EXPECT_EQ(sim.n.loads, 0u);
  cache_sim_access(&sim, 0x40, 4, false, CACHE_SCALAR);
  EXPECT_EQ(load_fills(sim, CACHE_FROM_DRAM), 1u);
}

TEST_F(CacheSim, CountersResetKeepsContents) {
  cache_sim_access(&sim, 0x40, 4, false, CACHE_SCALAR);
  cache_sim_reset_counters(&sim);
  cache_sim_access(&sim, 0x80, 4, false, CACHE_SCALAR);
  cache_sim_access(&sim, 0x40, 4, false, CACHE_SCALAR);
  EXPECT_EQ(load_fills(sim, CACHE_FROM_DRAM), 1u);  // 0x40 is still cached
}

TEST_F(CacheSim, AccessSpanningTwoLinesTouchesBoth) {
  cache_sim_access(&sim, 60, 8, false, CACHE_SCALAR);
  EXPECT_EQ(load_fills(sim, CACHE_FROM_DRAM), 2u);
}

TEST(CacheSimPolicy, PseudoRandomL2KeepsPartOfAScanLargerThanIt) {
  cache_sim_t lru, rnd;
  ASSERT_TRUE(cache_sim_init(&lru, 64, 128, 4, 512, 16, CACHE_LRU));
  ASSERT_TRUE(cache_sim_init(&rnd, 64, 128, 4, 512, 16, CACHE_PSEUDO_RANDOM));
  for (int pass = 0; pass < 3; ++pass) {
    cache_sim_reset_counters(&lru);
    cache_sim_reset_counters(&rnd);
    for (uint64_t a = 0; a < 640 * 1024; a += 64) {  // 640 KiB, L2 is 512 KiB
      cache_sim_access(&lru, a, 8, false, CACHE_SCALAR);
      cache_sim_access(&rnd, a, 8, false, CACHE_SCALAR);
    }
  }
  EXPECT_EQ(load_fills(lru, CACHE_FROM_DRAM), 10240u);  // LRU loses every line of a cyclic scan
  EXPECT_LT(load_fills(rnd, CACHE_FROM_DRAM), 10240u * 6 / 10);
  cache_sim_free(&lru);
  cache_sim_free(&rnd);
}

TEST(CacheSimGeometry, RejectsInvalidGeometry) {
  cache_sim_t sim;
  EXPECT_FALSE(cache_sim_init(&sim, 48, 128, 4, 512, 16, CACHE_LRU));
  EXPECT_FALSE(cache_sim_init(&sim, 64, 100, 4, 512, 16, CACHE_LRU));
  EXPECT_FALSE(cache_sim_init(&sim, 64, 128, 0, 512, 16, CACHE_LRU));
  EXPECT_FALSE(cache_sim_init(&sim, 128, 128, 4, 512, 16, CACHE_LRU));
}

}  // namespace
