/*
 * Two-level set-associative cache simulation for the virtual board's memory model: what each access costs
 * beyond the core is decided by the cost model (evaluator/cost_model/memory_model.h) from the counts made
 * here.
 *
 * Policy (documented in configs/boards/k1.toml):
 *  - a load that misses L1 fills the line from L2 or DRAM; it is counted by where the line came from, by
 *    scalar/vector, and as part of a stream (the line after one of the last 16 missed lines, which a
 *    stream prefetcher has on its way) or not (a dependent or scattered access pays the full latency);
 *  - a store that misses at the start of a line allocates it dirty without reading it (a write-combining
 *    store of whole lines written in ascending order, as the measured memset figures imply); the bytes
 *    written are tracked, and a line evicted or read before it was written whole is filled late (the
 *    read-for-ownership a partial line needs); a store that misses elsewhere in a line (a descending or
 *    scattered store) reads the line for ownership at once;
 *  - a unit-stride vector store that continues a store stream going down (it starts below the stream's
 *    last store, which started below the one before: the prefetcher runs ahead of ascending streams only)
 *    is counted per line it missed in L1 and took from DRAM: the core waits for those lines;
 *  - dirty victims are written back to the next level. Lines still dirty when a region ends are not
 *    charged: the board writes them back when they are evicted, in whatever runs then.
 *  - L1 replaces the least recently used way; L2 the LRU way or a pseudo-random one (deterministic).
 */
#ifndef EOK_CACHE_SIM_H
#define EOK_CACHE_SIM_H

#include <stdbool.h>
#include <stdint.h>

enum { CACHE_FROM_L2 = 0, CACHE_FROM_DRAM = 1 };
enum { CACHE_SCALAR = 0, CACHE_VECTOR = 1 };
enum { CACHE_RANDOM = 0, CACHE_STREAM = 1 };
enum { CACHE_LRU = 0, CACHE_PSEUDO_RANDOM = 1 };

#define CACHE_STREAM_HISTORY 16

typedef struct {
  uint64_t* tags; /* sets * ways; 0 = invalid, else line number + 1 */
  uint32_t* age;  /* larger = more recently used */
  uint8_t* dirty;
  uint8_t* partial;  /* L1 only: allocated by a store miss and not yet written whole or filled */
  uint8_t* origin;   /* L1 only: where a partial line's memory is (CACHE_FROM_*) */
  uint64_t* written; /* L1 only: bytes written of a partial line (64-byte lines: one bit per byte) */
  uint32_t sets, ways, policy;
  uint32_t clock;
  uint64_t rng;
} cache_level_t;

/* What the cost model is given; reset at every region's start. */
typedef struct {
  uint64_t loads, stores, load_bytes, store_bytes;
  uint64_t load_fills[2][2][2]; /* [scalar|vector][from L2|DRAM][random|stream]: lines a load waited for */
  uint64_t store_allocs[2];     /* [from L2|DRAM]: lines a store miss allocated without reading */
  uint64_t late_fills[2];       /* [from L2|DRAM]: lines read for ownership (stores not from a line's start) */
  uint64_t l1_writebacks, l2_writebacks;
  /* [load|store]: lines a unit-stride vector access touched beyond the fewest its bytes need (it was not
   * aligned to a line, so a register's worth of data was split across one more line). */
  uint64_t vector_split_lines[2];
  /* Lines from DRAM that unit-stride vector stores of a descending store stream missed in L1. */
  uint64_t descending_store_misses;
} cache_counters_t;

/* The vector memory instruction being executed: its element accesses arrive one by one. */
typedef struct {
  bool active, store, contiguous;
  uint64_t start_addr, next_addr, bytes, lines, last_line;
  uint64_t dram_store_misses; /* lines of this store that missed L1 and came from DRAM */
} vector_access_t;

/* A stream of unit-stride vector stores: where its latest store started, and whether that step went down. */
typedef struct {
  uint64_t last; /* 0 = unused */
  bool down;
} store_stream_t;

#define CACHE_STORE_STREAMS 4

typedef struct {
  cache_level_t l1, l2;
  unsigned line_shift;
  uint64_t last_line; /* fast path: repeated loads from the line just loaded */
  bool last_valid;
  uint64_t history[CACHE_STREAM_HISTORY];
  unsigned history_next;
  vector_access_t vec;
  store_stream_t store_streams[CACHE_STORE_STREAMS];
  unsigned store_streams_next;
  cache_counters_t n;
} cache_sim_t;

/* Returns false when the geometry is invalid (sets not a power of two, ways 0 or > 64, line not 2^k in
 * [8, 64] bytes). */
bool cache_sim_init(cache_sim_t* sim, uint32_t line_bytes, uint32_t l1_sets, uint32_t l1_ways, uint32_t l2_sets,
                    uint32_t l2_ways, uint32_t l2_policy);
/* Releases what cache_sim_init allocated (also after a failed init); the simulator may be initialised again. */
void cache_sim_free(cache_sim_t* sim);
/* Invalidates every line (a cache flush whose write-backs nobody times) and zeroes the counters. */
void cache_sim_flush(cache_sim_t* sim);
/* Zeroes the counters and keeps the contents. */
void cache_sim_reset_counters(cache_sim_t* sim);
void cache_sim_access(cache_sim_t* sim, uint64_t addr, unsigned size, bool is_store, int kind);
/* A vector load or store starts executing (its element accesses follow), or a region ends: the previous
 * vector access is complete and its line splits and, for a descending unit-stride store, its DRAM misses
 * are counted. */
void cache_sim_vector_boundary(cache_sim_t* sim);

#endif
