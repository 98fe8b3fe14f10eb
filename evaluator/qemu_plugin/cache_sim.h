/*
 * Two-level set-associative LRU cache simulation for the virtual board's memory model.
 *
 * Policy (documented in configs/boards/k1.toml): loads that miss fill the line from the next level; stores
 * that miss allocate the line dirty without a fill (full-line streaming stores, as the measured memset
 * figures imply); dirty victims are written back to the next level. Counts are what the cost model turns
 * into cycles with the measured L2 and DRAM bandwidths.
 */
#ifndef EOK_CACHE_SIM_H
#define EOK_CACHE_SIM_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
  uint64_t *tags;  /* sets * ways; 0 = invalid, else line number + 1 */
  uint32_t *age;   /* larger = more recently used */
  uint8_t *dirty;
  uint32_t sets, ways;
  uint32_t clock;
} cache_level_t;

typedef struct {
  cache_level_t l1, l2;
  unsigned line_shift;
  uint64_t last_line; /* fast path: repeated accesses to the line just touched */
  bool last_valid;
  /* counters */
  uint64_t loads, stores, load_bytes, store_bytes;
  uint64_t l1_load_misses, l1_store_misses, l1_writebacks;
  uint64_t l2_load_misses, l2_store_misses, l2_writebacks;
} cache_sim_t;

/* Returns false when the geometry is invalid (sets not a power of two, ways 0 or > 64, line not 2^k). */
bool cache_sim_init(cache_sim_t *sim, uint32_t line_bytes, uint32_t l1_sets, uint32_t l1_ways, uint32_t l2_sets,
                    uint32_t l2_ways);
/* Invalidates every line and zeroes the counters (the cache flush before a timed run). */
void cache_sim_flush(cache_sim_t *sim);
/* Zeroes the counters and keeps the contents (a timed run on warm caches). */
void cache_sim_reset_counters(cache_sim_t *sim);
void cache_sim_access(cache_sim_t *sim, uint64_t addr, unsigned size, bool is_store);
/* Dirty lines still cached: they are written back eventually and count as traffic of the region.
 * l1_dirty: dirty in L1 (will be written into L2); any_dirty: distinct lines dirty in L1 or L2 (will reach
 * DRAM). */
void cache_sim_dirty_lines(const cache_sim_t *sim, uint64_t *l1_dirty, uint64_t *any_dirty);

#endif
