/*
 * eok's QEMU TCG plugin for the virtual K1 board.
 *
 * What it records, for the cost model in evaluator/cost_model/:
 *  - every translation block executed inside the timed region: its guest address, raw instruction bytes
 *    and execution count (inline counters, no callback per block), and the vtype it runs under. Every
 *    vset{i}vli ends a block in QEMU and QEMU keys blocks by vtype, so the vtype set by the most recently
 *    executed vset instruction (tracked by an exec callback on each one) is the vtype of a block being
 *    translated now. vsetvl (register form) makes the vtype unknown (-1): the model costs it as worst case.
 *  - every memory access inside the timed region, fed to a two-level cache simulation (cache_sim.c).
 * The timed region is delimited by marker instructions (evaluator/target/eok_markers.h) that only the
 * trusted harness executes. It also installs the seccomp sandbox (sandbox.c) before the guest's first
 * instruction runs.
 *
 * Arguments (-plugin eok-k1-plugin.so,out=FILE,line=64,l1_sets=128,l1_ways=4,l2_sets=512,l2_ways=16,flush=1,
 * sandbox=1); flush=1 empties the simulated caches when the region begins, as a real run flushes them.
 * Output (text, written when the region ends): see write_profile() and evaluator/cost_model/block_profile.cc.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache_sim.h"
#include "evaluator/target/eok_markers.h"
#include "qemu_plugin_api.h"
#include "sandbox.h"

EOK_PLUGIN_EXPORT int qemu_plugin_version = 1;

#define VTYPE_UNKNOWN (-1) /* after vsetvl: not known at translation time */
#define VTYPE_NONE (-2)    /* before any vset: vill */

typedef struct block {
  uint64_t vaddr;
  uint64_t count;        /* incremented inline at every execution */
  uint64_t count_before; /* count when the region began */
  uint64_t count_region; /* executions inside the region */
  int32_t vtype;
  uint32_t nbytes;
  uint8_t *bytes;
} block_t;

static struct {
  FILE *out;
  block_t **blocks;
  size_t nblocks, cap;
  int32_t cur_vtype;
  int in_region;
  int begins, ends;
  int sandbox_wanted, sandbox_done;
  int flush;
  cache_sim_t cache;
} g = {.cur_vtype = VTYPE_NONE, .flush = 1};

static void on_vset(unsigned int vcpu, void *udata) {
  (void)vcpu;
  g.cur_vtype = (int32_t)(intptr_t)udata;
}

static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata) {
  (void)vcpu;
  (void)udata;
  if (!g.in_region) return;
  cache_sim_access(&g.cache, vaddr, 1u << qemu_plugin_mem_size_shift(info), qemu_plugin_mem_is_store(info));
}

static void write_profile(void) {
  if (!g.out) return;
  uint64_t l1_dirty, any_dirty;
  cache_sim_dirty_lines(&g.cache, &l1_dirty, &any_dirty);
  const cache_sim_t *c = &g.cache;
  fprintf(g.out, "region begins %d ends %d\n", g.begins, g.ends);
  fprintf(g.out,
          "mem loads %" PRIu64 " stores %" PRIu64 " load_bytes %" PRIu64 " store_bytes %" PRIu64
          " l1_load_misses %" PRIu64 " l1_store_misses %" PRIu64 " l1_writebacks %" PRIu64
          " l2_load_misses %" PRIu64 " l2_store_misses %" PRIu64 " l2_writebacks %" PRIu64
          " l1_dirty_end %" PRIu64 " dirty_end %" PRIu64 "\n",
          c->loads, c->stores, c->load_bytes, c->store_bytes, c->l1_load_misses, c->l1_store_misses,
          c->l1_writebacks, c->l2_load_misses, c->l2_store_misses, c->l2_writebacks, l1_dirty, any_dirty);
  for (size_t i = 0; i < g.nblocks; ++i) {
    const block_t *b = g.blocks[i];
    if (b->count_region == 0) continue;
    fprintf(g.out, "block %" PRIx64 " %d %" PRIu64 " ", b->vaddr, b->vtype, b->count_region);
    for (uint32_t k = 0; k < b->nbytes; ++k) fprintf(g.out, "%02x", b->bytes[k]);
    fputc('\n', g.out);
  }
  fputs("end\n", g.out);
  fflush(g.out);
}

static void on_marker(unsigned int vcpu, void *udata) {
  (void)vcpu;
  if ((intptr_t)udata == EOK_MARK_BEGIN_IMM) {
    g.begins++;
    for (size_t i = 0; i < g.nblocks; ++i) g.blocks[i]->count_before = g.blocks[i]->count;
    if (g.flush) cache_sim_flush(&g.cache);
    else cache_sim_reset_counters(&g.cache);
    g.in_region = 1;
  } else {
    g.ends++;
    if (!g.in_region) return;
    for (size_t i = 0; i < g.nblocks; ++i) g.blocks[i]->count_region = g.blocks[i]->count - g.blocks[i]->count_before;
    g.in_region = 0;
    /* Blocks first translated inside the region started with count_before = 0 (calloc). */
    write_profile();
  }
}

static uint32_t insn_word(const struct qemu_plugin_insn *insn) {
  uint32_t w = 0;
  size_t n = qemu_plugin_insn_size(insn);
  memcpy(&w, qemu_plugin_insn_data(insn), n < 4 ? n : 4);
  return n == 4 ? w : (w & 0xffff);
}

/* vsetvli: bit31 = 0, vtype = bits 30:20; vsetivli: bits 31:30 = 11, vtype = bits 29:20;
 * vsetvl: bits 31:25 = 1000000. All with opcode OP-V (1010111) and funct3 OPCFG (111). */
static int vset_vtype(uint32_t w, int32_t *vtype) {
  if ((w & 0x7f) != 0x57 || ((w >> 12) & 7) != 7) return 0;
  if ((w >> 31) == 0) *vtype = (int32_t)((w >> 20) & 0x7ff);
  else if ((w >> 30) == 3) *vtype = (int32_t)((w >> 20) & 0x3ff);
  else *vtype = VTYPE_UNKNOWN;
  return 1;
}

/* Loads, stores and AMOs (scalar, floating-point, vector, compressed): the only instructions given a
 * memory callback, so the others run without the plugin's per-instruction memory hook. */
static int is_memory_insn(uint32_t w, size_t size) {
  if (size == 2) {
    unsigned quadrant = w & 3, funct3 = (w >> 13) & 7;
    if (quadrant == 0) return funct3 != 0 && funct3 != 4; /* c.addi4spn and reserved are not memory */
    if (quadrant == 2) return funct3 == 1 || funct3 == 2 || funct3 == 3 || funct3 >= 5;
    return 0;
  }
  unsigned opcode = w & 0x7f;
  return opcode == 0x03 || opcode == 0x23 || opcode == 0x07 || opcode == 0x27 || opcode == 0x2f;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  (void)id;
  if (g.sandbox_wanted && !g.sandbox_done) {
    /* The guest is loaded and about to run: from here on the process needs no new files. */
    g.sandbox_done = sandbox_install() ? 1 : -1;
    if (g.out) {
      fprintf(g.out, "sandbox %s\n", g.sandbox_done == 1 ? "seccomp" : "unavailable");
      fflush(g.out);
    }
  }
  size_t n = qemu_plugin_tb_n_insns(tb);
  block_t *b = calloc(1, sizeof *b);
  if (!b) abort();
  b->vaddr = qemu_plugin_tb_vaddr(tb);
  b->vtype = g.cur_vtype;
  for (size_t i = 0; i < n; ++i) b->nbytes += (uint32_t)qemu_plugin_insn_size(qemu_plugin_tb_get_insn(tb, i));
  b->bytes = malloc(b->nbytes ? b->nbytes : 1);
  if (!b->bytes) abort();
  uint32_t off = 0;
  for (size_t i = 0; i < n; ++i) {
    struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
    size_t sz = qemu_plugin_insn_size(insn);
    memcpy(b->bytes + off, qemu_plugin_insn_data(insn), sz);
    off += (uint32_t)sz;
    uint32_t w = insn_word(insn);
    int32_t vt;
    if (vset_vtype(w, &vt)) {
      qemu_plugin_register_vcpu_insn_exec_cb(insn, on_vset, QEMU_PLUGIN_CB_NO_REGS, (void *)(intptr_t)vt);
    } else if (w == EOK_MARK_BEGIN_INSN || w == EOK_MARK_END_INSN) {
      intptr_t which = w == EOK_MARK_BEGIN_INSN ? EOK_MARK_BEGIN_IMM : EOK_MARK_END_IMM;
      qemu_plugin_register_vcpu_insn_exec_cb(insn, on_marker, QEMU_PLUGIN_CB_NO_REGS, (void *)which);
    }
    if (is_memory_insn(w, sz)) {
      qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, NULL);
    }
  }
  qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &b->count, 1);
  if (g.nblocks == g.cap) {
    g.cap = g.cap ? 2 * g.cap : 4096;
    g.blocks = realloc(g.blocks, g.cap * sizeof *g.blocks);
    if (!g.blocks) abort();
  }
  g.blocks[g.nblocks++] = b;
}

static const char *arg_value(const char *arg, const char *key) {
  size_t k = strlen(key);
  return strncmp(arg, key, k) == 0 && arg[k] == '=' ? arg + k + 1 : NULL;
}

EOK_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv) {
  (void)info;
  const char *out_path = NULL;
  unsigned line = 64, l1_sets = 128, l1_ways = 4, l2_sets = 512, l2_ways = 16;
  for (int i = 0; i < argc; ++i) {
    const char *v;
    if ((v = arg_value(argv[i], "out"))) out_path = v;
    else if ((v = arg_value(argv[i], "line"))) line = (unsigned)strtoul(v, NULL, 10);
    else if ((v = arg_value(argv[i], "l1_sets"))) l1_sets = (unsigned)strtoul(v, NULL, 10);
    else if ((v = arg_value(argv[i], "l1_ways"))) l1_ways = (unsigned)strtoul(v, NULL, 10);
    else if ((v = arg_value(argv[i], "l2_sets"))) l2_sets = (unsigned)strtoul(v, NULL, 10);
    else if ((v = arg_value(argv[i], "l2_ways"))) l2_ways = (unsigned)strtoul(v, NULL, 10);
    else if ((v = arg_value(argv[i], "sandbox"))) g.sandbox_wanted = strcmp(v, "0") != 0;
    else if ((v = arg_value(argv[i], "flush"))) g.flush = strcmp(v, "0") != 0;
    else {
      fprintf(stderr, "eok-k1-plugin: unknown argument '%s'\n", argv[i]);
      return -1;
    }
  }
  if (!cache_sim_init(&g.cache, line, l1_sets, l1_ways, l2_sets, l2_ways)) {
    fprintf(stderr, "eok-k1-plugin: invalid cache geometry\n");
    return -1;
  }
  if (out_path) {
    g.out = fopen(out_path, "w");
    if (!g.out) {
      fprintf(stderr, "eok-k1-plugin: cannot write %s\n", out_path);
      return -1;
    }
    fputs("eok-profile 1\n", g.out);
    fflush(g.out);
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
  return 0;
}
