#include "cache_sim.h"

#include <stdlib.h>
#include <string.h>

static bool level_init(cache_level_t* c, uint32_t sets, uint32_t ways, uint32_t policy, bool tracks_bytes) {
  if (sets == 0 || (sets & (sets - 1)) != 0 || ways == 0 || ways > 64 || policy > CACHE_PSEUDO_RANDOM) return false;
  const size_t n = (size_t)sets * ways;
  c->sets = sets;
  c->ways = ways;
  c->policy = policy;
  c->tags = calloc(n, sizeof *c->tags);
  c->age = calloc(n, sizeof *c->age);
  c->dirty = calloc(n, 1);
  if (tracks_bytes) {
    c->partial = calloc(n, 1);
    c->origin = calloc(n, 1);
    c->written = calloc(n, sizeof *c->written);
    if (!c->partial || !c->origin || !c->written) return false;
  }
  c->clock = 1;
  c->rng = 0x9e3779b97f4a7c15ull;
  return c->tags && c->age && c->dirty;
}

static void level_flush(cache_level_t* c) {
  const size_t n = (size_t)c->sets * c->ways;
  memset(c->tags, 0, n * sizeof *c->tags);
  memset(c->age, 0, n * sizeof *c->age);
  memset(c->dirty, 0, n);
  if (c->partial) memset(c->partial, 0, n);
  c->clock = 1;
  c->rng = 0x9e3779b97f4a7c15ull;
}

/* The way holding `line` in its set, or -1. */
static int level_find(const cache_level_t* c, uint64_t line) {
  const uint64_t* tags = c->tags + (size_t)(line & (c->sets - 1)) * c->ways;
  for (uint32_t w = 0; w < c->ways; ++w) {
    if (tags[w] == line + 1) return (int)w;
  }
  return -1;
}

/* The way to replace in `line`'s set: an invalid one, else by the level's policy. */
static uint32_t level_victim(cache_level_t* c, uint64_t line) {
  const size_t base = (size_t)(line & (c->sets - 1)) * c->ways;
  uint32_t victim = 0;
  for (uint32_t w = 0; w < c->ways; ++w) {
    if (c->tags[base + w] == 0) return w;
    if (c->age[base + w] < c->age[base + victim]) victim = w;
  }
  if (c->policy == CACHE_PSEUDO_RANDOM) {
    c->rng ^= c->rng << 13;
    c->rng ^= c->rng >> 7;
    c->rng ^= c->rng << 17;
    victim = (uint32_t)(c->rng % c->ways);
  }
  return victim;
}

static size_t slot(const cache_level_t* c, uint64_t line, uint32_t way) {
  return (size_t)(line & (c->sets - 1)) * c->ways + way;
}

/* Puts `line` into L2 (a fill from DRAM or a write-back from L1); a dirty victim goes to DRAM. */
static void l2_install(cache_sim_t* sim, uint64_t line, bool dirty) {
  cache_level_t* c = &sim->l2;
  int w = level_find(c, line);
  size_t i;
  if (w >= 0) {
    i = slot(c, line, (uint32_t)w);
  } else {
    i = slot(c, line, level_victim(c, line));
    if (c->tags[i] != 0 && c->dirty[i]) sim->n.l2_writebacks++;
    c->tags[i] = line + 1;
    c->dirty[i] = 0;
  }
  c->age[i] = ++c->clock;
  if (dirty) c->dirty[i] = 1;
}

/* One of the two lines before `line` missed recently: the stream prefetcher has it on its way. It follows
 * ascending streams only: a descending one misses at full latency (memreverse's strided loads on the X60). */
static bool in_stream(const cache_sim_t* sim, uint64_t line) {
  for (unsigned k = 0; k < CACHE_STREAM_HISTORY; ++k) {
    const uint64_t h = sim->history[k];
    if (h != 0 && (h == line || h + 1 == line || h + 2 == line)) return true;
  }
  return false;
}

bool cache_sim_init(cache_sim_t* sim, uint32_t line_bytes, uint32_t l1_sets, uint32_t l1_ways, uint32_t l2_sets,
                    uint32_t l2_ways, uint32_t l2_policy) {
  memset(sim, 0, sizeof *sim);
  if (line_bytes < 8 || line_bytes > 64 || (line_bytes & (line_bytes - 1)) != 0) return false;
  while ((1u << sim->line_shift) < line_bytes) sim->line_shift++;
  if (level_init(&sim->l1, l1_sets, l1_ways, CACHE_LRU, true) &&
      level_init(&sim->l2, l2_sets, l2_ways, l2_policy, false)) {
    return true;
  }
  cache_sim_free(sim);
  return false;
}

static void level_free(cache_level_t* c) {
  free(c->tags);
  free(c->age);
  free(c->dirty);
  free(c->partial);
  free(c->origin);
  free(c->written);
  memset(c, 0, sizeof *c);
}

void cache_sim_free(cache_sim_t* sim) {
  level_free(&sim->l1);
  level_free(&sim->l2);
}

void cache_sim_flush(cache_sim_t* sim) {
  level_flush(&sim->l1);
  level_flush(&sim->l2);
  memset(sim->history, 0, sizeof sim->history);
  memset(sim->store_streams, 0, sizeof sim->store_streams);
  sim->last_valid = false;
  cache_sim_reset_counters(sim);
}

void cache_sim_reset_counters(cache_sim_t* sim) {
  memset(&sim->n, 0, sizeof sim->n);
  sim->vec.active = false;
}

/* Whether a unit-stride store starting at `start` continues a store stream that is going downwards (its
 * previous step went down too, so a one-off step back, as when a harness restarts a buffer, is not one);
 * remembers it as its stream's latest start. A stream is the recent store that started within a few of
 * these stores' widths. */
static bool continues_descending(cache_sim_t* sim, uint64_t start, uint64_t bytes) {
  const uint64_t reach = 4 * bytes + (1ull << sim->line_shift);
  for (unsigned k = 0; k < CACHE_STORE_STREAMS; ++k) {
    store_stream_t* s = &sim->store_streams[k];
    if (s->last != 0 && (s->last > start ? s->last - start : start - s->last) <= reach) {
      const bool down = s->last > start, was_down = s->down;
      s->last = start;
      s->down = down;
      return down && was_down;
    }
  }
  sim->store_streams[sim->store_streams_next] = (store_stream_t){start, false};
  sim->store_streams_next = (sim->store_streams_next + 1) % CACHE_STORE_STREAMS;
  return false;
}

void cache_sim_vector_boundary(cache_sim_t* sim) {
  vector_access_t* v = &sim->vec;
  if (v->active && v->contiguous && v->bytes > 0) {
    const uint64_t line = 1ull << sim->line_shift;
    const uint64_t fewest = (v->bytes + line - 1) / line;
    if (v->lines > fewest) sim->n.vector_split_lines[v->store ? 1 : 0] += v->lines - fewest;
    if (v->store && continues_descending(sim, v->start_addr, v->bytes)) {
      sim->n.descending_store_misses += v->dram_store_misses;
    }
  }
  v->active = false;
}

/* One element access of the current vector instruction. */
static void vector_element(cache_sim_t* sim, uint64_t addr, unsigned size, bool is_store) {
  vector_access_t* v = &sim->vec;
  const uint64_t first = addr >> sim->line_shift, last = (addr + size - 1) >> sim->line_shift;
  if (!v->active) {
    v->active = true;
    v->store = is_store;
    v->contiguous = true;
    v->start_addr = addr;
    v->bytes = 0;
    v->lines = 0;
    v->last_line = ~0ull;
    v->dram_store_misses = 0;
  } else if (addr != v->next_addr || is_store != v->store) {
    v->contiguous = false; /* strided, indexed or segment: its cost is the instruction's own */
  }
  v->next_addr = addr + size;
  v->bytes += size;
  for (uint64_t l = first; l <= last; ++l) {
    if (l != v->last_line) v->lines++;
    v->last_line = l;
  }
}

static uint64_t full_mask(const cache_sim_t* sim) {
  const unsigned bytes = 1u << sim->line_shift;
  return bytes == 64 ? ~0ull : (1ull << bytes) - 1;
}

/* Returns whether the line is now whole in L1 (not a partly written line). */
static bool access_line(cache_sim_t* sim, uint64_t line, uint64_t mask, bool is_store, int kind) {
  cache_level_t* l1 = &sim->l1;
  int w = level_find(l1, line);
  if (w >= 0) {
    const size_t i = slot(l1, line, (uint32_t)w);
    l1->age[i] = ++l1->clock;
    if (is_store) {
      l1->dirty[i] = 1;
      if (l1->partial[i] && (l1->written[i] |= mask) == full_mask(sim)) l1->partial[i] = 0;
    } else if (l1->partial[i] && (mask & ~l1->written[i]) != 0) {
      /* Reading bytes of a partly written line that were never fetched: the load waits for them. */
      sim->n.load_fills[kind][l1->origin[i]][CACHE_RANDOM]++;
      l1->partial[i] = 0;
    }
    return !l1->partial[i];
  }
  const size_t i = slot(l1, line, level_victim(l1, line));
  if (l1->tags[i] != 0) {
    const uint64_t victim = l1->tags[i] - 1;
    if (l1->partial[i]) sim->n.late_fills[l1->origin[i]]++;
    if (l1->dirty[i]) {
      sim->n.l1_writebacks++;
      l2_install(sim, victim, true);
    }
  }
  const int from = level_find(&sim->l2, line) >= 0 ? CACHE_FROM_L2 : CACHE_FROM_DRAM;
  l1->tags[i] = line + 1;
  l1->age[i] = ++l1->clock;
  if (is_store) {
    l1->dirty[i] = 1;
    l1->origin[i] = (uint8_t)from;
    if (kind == CACHE_VECTOR && from == CACHE_FROM_DRAM) sim->vec.dram_store_misses++;
    if (!(mask & 1)) {
      /* The first store into the line is not at its start, so the line is not being written from one end
       * to the other (a descending or scattered store): the core reads it for ownership now. */
      sim->n.late_fills[from]++;
      l1->partial[i] = 0;
      l1->written[i] = full_mask(sim);
      return true;
    }
    sim->n.store_allocs[from]++;
    l1->written[i] = mask;
    l1->partial[i] = mask != full_mask(sim);
    return !l1->partial[i];
  }
  const int stream = in_stream(sim, line) ? CACHE_STREAM : CACHE_RANDOM;
  sim->history[sim->history_next] = line;
  sim->history_next = (sim->history_next + 1) % CACHE_STREAM_HISTORY;
  sim->n.load_fills[kind][from][stream]++;
  l1->dirty[i] = 0;
  l1->partial[i] = 0;
  l2_install(sim, line, false); /* a fill from DRAM passes L2; a fill from L2 refreshes its recency */
  return true;
}

void cache_sim_access(cache_sim_t* sim, uint64_t addr, unsigned size, bool is_store, int kind) {
  if (is_store) {
    sim->n.stores++;
    sim->n.store_bytes += size;
  } else {
    sim->n.loads++;
    sim->n.load_bytes += size;
  }
  if (size == 0) size = 1;
  if (kind == CACHE_VECTOR) vector_element(sim, addr, size, is_store);
  const unsigned shift = sim->line_shift;
  const uint64_t line_mask = (1ull << shift) - 1;
  const uint64_t first = addr >> shift, last = (addr + size - 1) >> shift;
  for (uint64_t line = first; line <= last; ++line) {
    /* Consecutive element loads of a vector load stay in one line: skip the set search. */
    if (!is_store && sim->last_valid && line == sim->last_line) continue;
    const uint64_t lo = line == first ? (addr & line_mask) : 0;
    const uint64_t hi = line == last ? ((addr + size - 1) & line_mask) : line_mask;
    const uint64_t span = hi - lo + 1;
    const uint64_t mask = (span >= 64 ? ~0ull : ((1ull << span) - 1)) << lo;
    const bool whole = access_line(sim, line, mask, is_store, kind);
    sim->last_line = line;
    sim->last_valid = !is_store && whole;
  }
}
