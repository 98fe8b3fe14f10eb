#include "cache_sim.h"

#include <stdlib.h>
#include <string.h>

static bool level_init(cache_level_t *c, uint32_t sets, uint32_t ways) {
  if (sets == 0 || (sets & (sets - 1)) != 0 || ways == 0 || ways > 64) return false;
  c->sets = sets;
  c->ways = ways;
  c->tags = calloc((size_t)sets * ways, sizeof *c->tags);
  c->age = calloc((size_t)sets * ways, sizeof *c->age);
  c->dirty = calloc((size_t)sets * ways, sizeof *c->dirty);
  c->clock = 1;
  return c->tags && c->age && c->dirty;
}

static void level_flush(cache_level_t *c) {
  memset(c->tags, 0, (size_t)c->sets * c->ways * sizeof *c->tags);
  memset(c->age, 0, (size_t)c->sets * c->ways * sizeof *c->age);
  memset(c->dirty, 0, (size_t)c->sets * c->ways);
  c->clock = 1;
}

/* Looks up `line`; on a miss installs it over the LRU way. Returns true on a hit. *evicted_dirty receives
 * the line number of a dirty victim plus one, or 0. */
static bool level_touch(cache_level_t *c, uint64_t line, bool make_dirty, uint64_t *evicted_dirty) {
  uint32_t set = (uint32_t)(line & (c->sets - 1));
  uint64_t *tags = c->tags + (size_t)set * c->ways;
  uint32_t *age = c->age + (size_t)set * c->ways;
  uint8_t *dirty = c->dirty + (size_t)set * c->ways;
  uint32_t victim = 0;
  *evicted_dirty = 0;
  for (uint32_t w = 0; w < c->ways; ++w) {
    if (tags[w] == line + 1) {
      age[w] = ++c->clock;
      if (make_dirty) dirty[w] = 1;
      return true;
    }
    if (age[w] < age[victim]) victim = w;
  }
  if (tags[victim] != 0 && dirty[victim]) *evicted_dirty = tags[victim];
  tags[victim] = line + 1;
  age[victim] = ++c->clock;
  dirty[victim] = make_dirty;
  return false;
}

bool cache_sim_init(cache_sim_t *sim, uint32_t line_bytes, uint32_t l1_sets, uint32_t l1_ways, uint32_t l2_sets,
                    uint32_t l2_ways) {
  memset(sim, 0, sizeof *sim);
  if (line_bytes < 8 || (line_bytes & (line_bytes - 1)) != 0) return false;
  while ((1u << sim->line_shift) < line_bytes) sim->line_shift++;
  return level_init(&sim->l1, l1_sets, l1_ways) && level_init(&sim->l2, l2_sets, l2_ways);
}

void cache_sim_flush(cache_sim_t *sim) {
  level_flush(&sim->l1);
  level_flush(&sim->l2);
  sim->last_valid = false;
  cache_sim_reset_counters(sim);
}

void cache_sim_reset_counters(cache_sim_t *sim) {
  sim->loads = sim->stores = sim->load_bytes = sim->store_bytes = 0;
  sim->l1_load_misses = sim->l1_store_misses = sim->l1_writebacks = 0;
  sim->l2_load_misses = sim->l2_store_misses = sim->l2_writebacks = 0;
}

static void access_line(cache_sim_t *sim, uint64_t line, bool is_store) {
  uint64_t victim;
  if (level_touch(&sim->l1, line, is_store, &victim)) return;
  if (is_store) sim->l1_store_misses++;
  else sim->l1_load_misses++;
  if (victim) {
    /* A dirty L1 victim is written into L2. */
    uint64_t l2_victim;
    sim->l1_writebacks++;
    level_touch(&sim->l2, victim - 1, true, &l2_victim);
    if (l2_victim) sim->l2_writebacks++;
  }
  if (!level_touch(&sim->l2, line, false, &victim)) {
    if (is_store) sim->l2_store_misses++;
    else sim->l2_load_misses++;
  }
  if (victim) sim->l2_writebacks++;
}

void cache_sim_access(cache_sim_t *sim, uint64_t addr, unsigned size, bool is_store) {
  if (is_store) {
    sim->stores++;
    sim->store_bytes += size;
  } else {
    sim->loads++;
    sim->load_bytes += size;
  }
  uint64_t first = addr >> sim->line_shift;
  uint64_t last = (addr + (size ? size - 1 : 0)) >> sim->line_shift;
  for (uint64_t line = first; line <= last; ++line) {
    /* Consecutive element accesses of a vector load stay in one line: skip the set search, but a store
     * into a line last touched by a load still has to mark it dirty. */
    if (sim->last_valid && line == sim->last_line && !is_store) continue;
    access_line(sim, line, is_store);
    sim->last_line = line;
    sim->last_valid = true;
  }
}

static bool dirty_in(const cache_level_t *c, uint64_t tag) {
  uint32_t set = (uint32_t)((tag - 1) & (c->sets - 1));
  for (uint32_t w = 0; w < c->ways; ++w) {
    size_t i = (size_t)set * c->ways + w;
    if (c->tags[i] == tag) return c->dirty[i] != 0;
  }
  return false;
}

void cache_sim_dirty_lines(const cache_sim_t *sim, uint64_t *l1_dirty, uint64_t *any_dirty) {
  uint64_t l1 = 0, l2 = 0, l1_only = 0;
  const cache_level_t *c1 = &sim->l1, *c2 = &sim->l2;
  for (size_t i = 0; i < (size_t)c1->sets * c1->ways; ++i) {
    if (c1->tags[i] == 0 || !c1->dirty[i]) continue;
    l1++;
    if (!dirty_in(c2, c1->tags[i])) l1_only++;
  }
  for (size_t i = 0; i < (size_t)c2->sets * c2->ways; ++i) l2 += c2->tags[i] != 0 && c2->dirty[i];
  *l1_dirty = l1;
  *any_dirty = l2 + l1_only;
}
