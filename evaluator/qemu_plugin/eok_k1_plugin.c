/*
 * eok's QEMU TCG plugin: the trusted observer of a run on the virtual K1 board.
 *
 * The guest process is the harness linked with one untrusted candidate kernel; the plugin is the part of
 * the run the guest cannot reach. It
 *  - installs the emulator's seccomp allow-list (host_filter.h) before the guest's first instruction, and
 *    checks every guest system call against the guest policy (guest_policy.h) before it happens;
 *  - brackets every kernel call by the harness's marker instructions, honoured only at the two addresses
 *    eok found in the linked image (call_watch.h): at a call's beginning it copies the call's buffers, at
 *    its end it writes what the call produced (outputs, damaged guards, changed inputs, return value) to
 *    the measurement file (measurement_protocol.h);
 *  - rejects candidate code that runs outside a call (a constructor, an ifunc resolver, a kernel that
 *    redirects the harness's return to keep working after the call): by block execution counts, checked
 *    at every call's beginning, every guest system call outside calls, and exit;
 *  - with measure=1, feeds every memory access of the run to the cache simulation (cache_sim.h), so caches
 *    carry over from one call to the next as on the board, and for every timed call records each executed
 *    translation block with its vtype and count (inline counters) and the memory counts of that call, for
 *    the cost model in evaluator/cost_model/ (one PROFILE record per timed call). Every vset{i}vli ends a
 *    block in QEMU and QEMU keys blocks by vtype, so the vtype of the most recently executed vset
 *    instruction is the vtype of a block being translated.
 *  - with regions=1 (`eok measure`), there is no harness and no watch file: the region markers of
 *    evaluator/target/eok_region.h, wherever they are, delimit the measured regions of any program, and
 *    each region's end writes its PROFILE record.
 *
 * Arguments: -plugin eok-k1-plugin.so,out=FILE,(watch=FILE|regions=1)[,filter=FILE][,measure=1][,flush=1]
 *            [,line=64,l1_sets=128,l1_ways=4,l2_sets=512,l2_ways=16,l2_policy=lru|random]
 * flush=1 empties the caches before every timed call (write-backs of the flush are not timed).
 * Without filter= the run is not sandboxed (HELLO says so and eok refuses such measurements).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache_sim.h"
#include "call_watch.h"
#include "evaluator/target/eok_markers.h"
#include "evaluator/target/eok_region.h"
#include "guest_memory.h"
#include "guest_policy.h"
#include "host_filter.h"
#include "measurement_file.h"
#include "measurement_protocol.h"
#include "qemu_plugin_api.h"

EOK_PLUGIN_EXPORT int qemu_plugin_version = 1;

#define VTYPE_UNKNOWN (-1) /* after vsetvl: not known at translation time */
#define VTYPE_NONE (-2)    /* before any vset: vill */

typedef struct block {
  uint64_t vaddr;
  uint64_t count;        /* incremented inline at every execution */
  uint64_t count_before; /* count when the timed call began */
  uint64_t count_region; /* executions inside the timed call */
  uint64_t count_seen;   /* candidate blocks: count when calls last accounted for it */
  int32_t vtype;
  int candidate;
  uint32_t nbytes;
  uint8_t* bytes;
  struct vmem* vmem; /* its vector loads and stores, a list */
} block_t;

/* One vector load or store of a block: the bytes it moved inside the measured stretch, so the cost
 * model knows the vl it ran with (the X60's load-to-store wait depends on the bytes, its occupancy not). */
typedef struct vmem {
  block_t* block;
  uint32_t offset; /* byte offset of the instruction in its block */
  uint64_t bytes;
  struct vmem* next;
} vmem_t;

static struct {
  watch_t watch;
  block_t** blocks;
  size_t nblocks, cap;
  int32_t cur_vtype;
  guest_phase_t phase;
  size_t calls_begun, calls_ended;
  int measure, in_region, flush, started, sandboxed, regions;
  vmem_t* cur_vmem; /* the vector access whose elements are arriving */
  size_t regions_ended;
  cache_sim_t cache;
} g = {.cur_vtype = VTYPE_NONE, .flush = 0, .phase = PHASE_STARTUP};

/* udata of a memory callback: what kind of access the instruction makes. */
static int access_kind[2] = {CACHE_SCALAR, CACHE_VECTOR};

/* The guest broke a rule: say which, and end the process before it does anything else. */
static void violation(const char* rule, const char* fmt, ...) {
  char text[768];
  int n = snprintf(text, sizeof text, "%s\n", rule);
  va_list ap;
  va_start(ap, fmt);
  if (n > 0 && (size_t)n < sizeof text) vsnprintf(text + n, sizeof text - (size_t)n, fmt, ap);
  va_end(ap);
  mfile_record(EOK_M_VIOLATION, text, strlen(text));
  _exit(EOK_VIOLATION_EXIT);
}

/* Candidate code may run only inside a call: every candidate block's count must be what it was when the
 * last call ended (or zero before the first call). */
static void account_candidate_code(const char* when) {
  for (size_t i = 0; i < g.nblocks; ++i) {
    block_t* b = g.blocks[i];
    if (!b->candidate || b->count == b->count_seen) continue;
    violation("code-outside-call",
              "candidate code at 0x%" PRIx64 " ran %" PRIu64 " time(s) %s; a kernel may run only inside its call",
              b->vaddr, b->count - b->count_seen, when);
  }
}

static void write_profile(void) {
  const cache_counters_t* c = &g.cache.n;
  char* text = NULL;
  size_t len = 0;
  FILE* m = open_memstream(&text, &len);
  if (!m) abort();
  fputs("eok-profile 2\n", m);
  fprintf(m, "mem loads %" PRIu64 " stores %" PRIu64 " load_bytes %" PRIu64 " store_bytes %" PRIu64, c->loads,
          c->stores, c->load_bytes, c->store_bytes);
  static const char *const kind[2] = {"scalar", "vector"}, *const level[2] = {"l2", "dram"},
                           *const how[2] = {"random", "stream"};
  for (int k = 0; k < 2; ++k) {
    for (int l = 0; l < 2; ++l) {
      for (int s = 0; s < 2; ++s)
        fprintf(m, " fill_%s_%s_%s %" PRIu64, kind[k], level[l], how[s], c->load_fills[k][l][s]);
    }
  }
  fprintf(m,
          " store_alloc_l2 %" PRIu64 " store_alloc_dram %" PRIu64 " late_fill_l2 %" PRIu64 " late_fill_dram %" PRIu64
          " l1_writebacks %" PRIu64 " l2_writebacks %" PRIu64 " vector_split_load %" PRIu64
          " vector_split_store %" PRIu64 " descending_store_dram %" PRIu64 "\n",
          c->store_allocs[0], c->store_allocs[1], c->late_fills[0], c->late_fills[1], c->l1_writebacks,
          c->l2_writebacks, c->vector_split_lines[0], c->vector_split_lines[1], c->descending_store_misses);
  for (size_t i = 0; i < g.nblocks; ++i) {
    const block_t* b = g.blocks[i];
    if (b->count_region == 0) continue;
    fprintf(m, "block %" PRIx64 " %d %" PRIu64 " ", b->vaddr, b->vtype, b->count_region);
    for (uint32_t k = 0; k < b->nbytes; ++k) fprintf(m, "%02x", b->bytes[k]);
    fputc('\n', m);
    for (const vmem_t* v = b->vmem; v; v = v->next) {
      if (v->bytes) fprintf(m, "vmem %" PRIu32 " %" PRIu64 "\n", v->offset, v->bytes);
    }
  }
  fputs("end\n", m);
  fclose(m);
  mfile_record(EOK_M_PROFILE, text, len);
  free(text);
}

/* A measured stretch starts: block counts are taken, the memory counters start from zero. */
/* The vector access in flight is complete: its bytes count for its instruction if the region is on. */
static void vector_access_done(void) {
  if (g.cur_vmem && g.in_region && g.cache.vec.active) g.cur_vmem->bytes += g.cache.vec.bytes;
  cache_sim_vector_boundary(&g.cache);
  g.cur_vmem = NULL;
}

static void region_begin(void) {
  vector_access_done();
  for (size_t i = 0; i < g.nblocks; ++i) {
    g.blocks[i]->count_before = g.blocks[i]->count;
    for (vmem_t* v = g.blocks[i]->vmem; v; v = v->next) v->bytes = 0;
  }
  if (g.flush)
    cache_sim_flush(&g.cache);
  else
    cache_sim_reset_counters(&g.cache);
  g.in_region = 1;
}

static void region_end(void) {
  vector_access_done();
  /* Blocks first translated inside the region started with count_before = 0 (calloc). */
  for (size_t i = 0; i < g.nblocks; ++i) g.blocks[i]->count_region = g.blocks[i]->count - g.blocks[i]->count_before;
  g.in_region = 0;
  write_profile();
}

/* eok measure: the program's own region markers. */
static void on_region_begin(unsigned int vcpu, void* udata) {
  (void)vcpu;
  (void)udata;
  if (g.in_region)
    violation("region-markers", "EOK_REGION_BEGIN inside region %zu; regions do not nest", g.regions_ended);
  region_begin();
}

static void on_region_end(unsigned int vcpu, void* udata) {
  (void)vcpu;
  (void)udata;
  if (!g.in_region)
    violation("region-markers", "EOK_REGION_END without EOK_REGION_BEGIN (after region %zu)", g.regions_ended);
  region_end();
  g.regions_ended++;
}

static void on_begin(unsigned int vcpu, void* udata) {
  (void)vcpu;
  (void)udata;
  if (g.phase == PHASE_CALL) violation("measurement-markers", "a call began inside call %zu", g.calls_begun - 1);
  if (g.calls_begun >= g.watch.ncalls) {
    violation("measurement-markers", "call %zu began, but the plan has %zu calls", g.calls_begun, g.watch.ncalls);
  }
  account_candidate_code(g.calls_begun == 0 ? "before the first call" : "between calls");
  const size_t c = g.calls_begun++;
  const char* why = watch_call_begin(&g.watch, c);
  if (why) violation("harness-layout", "call %zu: %s", c, why);
  g.phase = PHASE_CALL;
  if (g.measure && g.watch.calls[c].timed) region_begin();
}

static void on_end(unsigned int vcpu, void* udata) {
  (void)vcpu;
  (void)udata;
  if (g.phase != PHASE_CALL) violation("measurement-markers", "a call ended that had not begun");
  const size_t c = g.calls_ended++;
  watch_call_end(&g.watch, c);
  for (size_t i = 0; i < g.nblocks; ++i) {
    block_t* b = g.blocks[i];
    if (b->candidate) b->count_seen = b->count;
  }
  if (g.in_region) region_end();
  g.phase = PHASE_HARNESS;
}

static void on_vset(unsigned int vcpu, void* udata) {
  (void)vcpu;
  g.cur_vtype = (int32_t)(intptr_t)udata;
}

static void on_vector_memory_insn(unsigned int vcpu, void* udata) {
  (void)vcpu;
  vector_access_done();
  g.cur_vmem = (vmem_t*)udata;
}

static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void* udata) {
  (void)vcpu;
  cache_sim_access(&g.cache, vaddr, 1u << qemu_plugin_mem_size_shift(info), qemu_plugin_mem_is_store(info),
                   *(int*)udata);
}

static void on_syscall(qemu_plugin_id_t id, unsigned int vcpu, int64_t num, uint64_t a1, uint64_t a2, uint64_t a3,
                       uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8) {
  (void)id;
  (void)vcpu;
  (void)a7;
  (void)a8;
  const uint64_t args[6] = {a1, a2, a3, a4, a5, a6};
  char why[256];
  if (guest_policy_check(g.phase, num, args, why, sizeof why)) violation("forbidden-syscall", "%s", why);
  if (g.phase != PHASE_CALL && !g.regions) account_candidate_code("outside a call");
  guest_memory_syscall(num, a1, a2, a3);
}

static void on_syscall_ret(qemu_plugin_id_t id, unsigned int vcpu, int64_t num, int64_t ret) {
  (void)id;
  (void)vcpu;
  guest_memory_syscall_ret(num, ret);
}

static void on_exit_cb(qemu_plugin_id_t id, void* udata) {
  (void)id;
  (void)udata;
  if (g.phase == PHASE_CALL) return; /* exited inside a call: eok sees the call never ended */
  if (g.in_region) return;           /* exited inside a region: eok sees the region never ended */
  if (!g.regions) account_candidate_code("after the last call");
  struct eok_m_exit rec = {(uint32_t)(g.regions ? g.regions_ended : g.calls_ended), 0u};
  mfile_record(EOK_M_EXIT, &rec, sizeof rec);
}

static uint32_t insn_word(const struct qemu_plugin_insn* insn) {
  uint32_t w = 0;
  size_t n = qemu_plugin_insn_size(insn);
  memcpy(&w, qemu_plugin_insn_data(insn), n < 4 ? n : 4);
  return n == 4 ? w : (w & 0xffff);
}

/* vsetvli: bit31 = 0, vtype = bits 30:20; vsetivli: bits 31:30 = 11, vtype = bits 29:20;
 * vsetvl: bits 31:25 = 1000000. All with opcode OP-V (1010111) and funct3 OPCFG (111). */
static int vset_vtype(uint32_t w, int32_t* vtype) {
  if ((w & 0x7f) != 0x57 || ((w >> 12) & 7) != 7) return 0;
  if ((w >> 31) == 0)
    *vtype = (int32_t)((w >> 20) & 0x7ff);
  else if ((w >> 30) == 3)
    *vtype = (int32_t)((w >> 20) & 0x3ff);
  else
    *vtype = VTYPE_UNKNOWN;
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

/* Vector loads and stores: LOAD-FP/STORE-FP with a width field that is not a scalar FP width. */
static int is_vector_memory_insn(uint32_t w, size_t size) {
  if (size != 4) return 0;
  unsigned opcode = w & 0x7f, width = (w >> 12) & 7;
  return (opcode == 0x07 || opcode == 0x27) && (width == 0 || width >= 5);
}

/* The guest is loaded and about to run its first instruction. */
static void start_guest(const struct qemu_plugin_insn* first) {
  g.started = 1;
  guest_memory_learn(first);
  g.sandboxed = host_filter_install();
  struct eok_m_hello hello = {(uint32_t)g.sandboxed, guest_memory_ok() ? 1u : 0u};
  mfile_record(EOK_M_HELLO, &hello, sizeof hello);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb* tb) {
  (void)id;
  size_t n = qemu_plugin_tb_n_insns(tb);
  if (!g.started && n > 0) start_guest(qemu_plugin_tb_get_insn(tb, 0));
  block_t* b = calloc(1, sizeof *b);
  if (!b) abort();
  b->vaddr = qemu_plugin_tb_vaddr(tb);
  b->vtype = g.cur_vtype;
  for (size_t i = 0; i < n; ++i) b->nbytes += (uint32_t)qemu_plugin_insn_size(qemu_plugin_tb_get_insn(tb, i));
  b->bytes = malloc(b->nbytes ? b->nbytes : 1);
  if (!b->bytes) abort();
  uint32_t off = 0;
  for (size_t i = 0; i < n; ++i) {
    struct qemu_plugin_insn* insn = qemu_plugin_tb_get_insn(tb, i);
    size_t sz = qemu_plugin_insn_size(insn);
    memcpy(b->bytes + off, qemu_plugin_insn_data(insn), sz);
    off += (uint32_t)sz;
    uint32_t w = insn_word(insn);
    uint64_t at = qemu_plugin_insn_vaddr(insn);
    /* A block is the candidate's if any instruction of it is (one may run on from other code into it). */
    if (watch_is_candidate_code(&g.watch, at)) b->candidate = 1;
    int32_t vt;
    if (vset_vtype(w, &vt)) {
      qemu_plugin_register_vcpu_insn_exec_cb(insn, on_vset, QEMU_PLUGIN_CB_NO_REGS, (void*)(intptr_t)vt);
    } else if (g.regions && w == EOK_MARK_ENCODE(EOK_REGION_BEGIN_IMM)) {
      qemu_plugin_register_vcpu_insn_exec_cb(insn, on_region_begin, QEMU_PLUGIN_CB_NO_REGS, NULL);
    } else if (g.regions && w == EOK_MARK_ENCODE(EOK_REGION_END_IMM)) {
      qemu_plugin_register_vcpu_insn_exec_cb(insn, on_region_end, QEMU_PLUGIN_CB_NO_REGS, NULL);
    } else if (!g.regions && w == EOK_MARK_BEGIN_INSN && at == g.watch.begin_marker) {
      qemu_plugin_register_vcpu_insn_exec_cb(insn, on_begin, QEMU_PLUGIN_CB_NO_REGS, NULL);
    } else if (!g.regions && w == EOK_MARK_END_INSN && at == g.watch.end_marker) {
      qemu_plugin_register_vcpu_insn_exec_cb(insn, on_end, QEMU_PLUGIN_CB_NO_REGS, NULL);
    }
    if (g.measure && is_memory_insn(w, sz)) {
      const int vector = is_vector_memory_insn(w, sz);
      /* A vector access's elements arrive one callback each: its start delimits them. */
      if (vector) {
        vmem_t* v = calloc(1, sizeof *v);
        if (!v) abort();
        v->block = b;
        v->offset = off - (uint32_t)sz;
        v->next = b->vmem;
        b->vmem = v;
        qemu_plugin_register_vcpu_insn_exec_cb(insn, on_vector_memory_insn, QEMU_PLUGIN_CB_NO_REGS, v);
      }
      qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, &access_kind[vector]);
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

static const char* arg_value(const char* arg, const char* key) {
  size_t k = strlen(key);
  return strncmp(arg, key, k) == 0 && arg[k] == '=' ? arg + k + 1 : NULL;
}

EOK_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t* info, int argc, char** argv) {
  (void)info;
  const char *out_path = NULL, *watch_path = NULL, *filter_path = NULL;
  unsigned line = 64, l1_sets = 128, l1_ways = 4, l2_sets = 512, l2_ways = 16, l2_policy = CACHE_LRU;
  for (int i = 0; i < argc; ++i) {
    const char* v;
    if ((v = arg_value(argv[i], "out")))
      out_path = v;
    else if ((v = arg_value(argv[i], "watch")))
      watch_path = v;
    else if ((v = arg_value(argv[i], "filter")))
      filter_path = v;
    else if ((v = arg_value(argv[i], "measure")))
      g.measure = strcmp(v, "0") != 0;
    else if ((v = arg_value(argv[i], "flush")))
      g.flush = strcmp(v, "0") != 0;
    else if ((v = arg_value(argv[i], "regions")))
      g.regions = strcmp(v, "0") != 0;
    else if ((v = arg_value(argv[i], "l2_policy")) && strcmp(v, "lru") == 0)
      l2_policy = CACHE_LRU;
    else if ((v = arg_value(argv[i], "l2_policy")) && strcmp(v, "random") == 0)
      l2_policy = CACHE_PSEUDO_RANDOM;
    else if ((v = arg_value(argv[i], "line")))
      line = (unsigned)strtoul(v, NULL, 10);
    else if ((v = arg_value(argv[i], "l1_sets")))
      l1_sets = (unsigned)strtoul(v, NULL, 10);
    else if ((v = arg_value(argv[i], "l1_ways")))
      l1_ways = (unsigned)strtoul(v, NULL, 10);
    else if ((v = arg_value(argv[i], "l2_sets")))
      l2_sets = (unsigned)strtoul(v, NULL, 10);
    else if ((v = arg_value(argv[i], "l2_ways")))
      l2_ways = (unsigned)strtoul(v, NULL, 10);
    else {
      fprintf(stderr, "eok-k1-plugin: unknown argument '%s'\n", argv[i]);
      return -1;
    }
  }
  char err[256];
  if (!out_path || (!watch_path && !g.regions) || (watch_path && g.regions)) {
    fprintf(stderr, "eok-k1-plugin: out= and one of watch= or regions=1 are required\n");
    return -1;
  }
  if (g.regions) {
    g.measure = 1; /* a program run for its regions is measured throughout */
    g.phase = PHASE_PROGRAM;
  }
  if ((watch_path && !watch_load(watch_path, &g.watch, err, sizeof err)) ||
      (filter_path && !host_filter_load(filter_path, err, sizeof err))) {
    fprintf(stderr, "eok-k1-plugin: %s\n", err);
    return -1;
  }
  if (!cache_sim_init(&g.cache, line, l1_sets, l1_ways, l2_sets, l2_ways, l2_policy)) {
    fprintf(stderr, "eok-k1-plugin: invalid cache geometry\n");
    return -1;
  }
  if (!mfile_open(out_path)) {
    fprintf(stderr, "eok-k1-plugin: cannot write %s\n", out_path);
    return -1;
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
  qemu_plugin_register_vcpu_syscall_cb(id, on_syscall);
  qemu_plugin_register_vcpu_syscall_ret_cb(id, on_syscall_ret);
  qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
  return 0;
}
