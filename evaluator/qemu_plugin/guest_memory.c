#include "guest_memory.h"

#include <stdlib.h>
#include <string.h>

#include "qemu_plugin_api.h"

/* riscv64 (generic Linux) system call numbers. */
enum { SYS_MUNMAP = 215, SYS_MMAP = 222, SYS_MPROTECT = 226 };
enum { GUEST_PROT_READ = 1 };

static intptr_t g_base;
static bool g_known;

typedef struct {
  uint64_t lo, hi;
} span_t;

static span_t* g_spans;
static size_t g_nspans, g_cap;
static uint64_t g_pending_len; /* length of the mmap in flight */

void guest_memory_learn(const struct qemu_plugin_insn* insn) {
  if (g_known) return;
  const uint8_t* host = qemu_plugin_insn_haddr(insn);
  const uint64_t vaddr = qemu_plugin_insn_vaddr(insn);
  if (!host) return;
  g_base = (intptr_t)host - (intptr_t)vaddr;
  g_known = memcmp(host, qemu_plugin_insn_data(insn), qemu_plugin_insn_size(insn)) == 0;
}

bool guest_memory_ok(void) {
  return g_known;
}

const uint8_t* guest_ptr(uint64_t vaddr) {
  return (const uint8_t*)(g_base + (intptr_t)vaddr);
}

static void add_span(uint64_t lo, uint64_t hi) {
  if (g_nspans == g_cap) {
    g_cap = g_cap ? 2 * g_cap : 64;
    g_spans = realloc(g_spans, g_cap * sizeof *g_spans);
    if (!g_spans) abort();
  }
  g_spans[g_nspans++] = (span_t){lo, hi};
}

/* Removes [lo, hi) from every span, splitting where needed. */
static void remove_span(uint64_t lo, uint64_t hi) {
  for (size_t i = 0; i < g_nspans; ++i) {
    span_t s = g_spans[i];
    if (s.hi <= lo || s.lo >= hi) continue;
    if (s.lo < lo && s.hi > hi) {
      g_spans[i].hi = lo;
      add_span(hi, s.hi);
    } else if (s.lo < lo) {
      g_spans[i].hi = lo;
    } else if (s.hi > hi) {
      g_spans[i].lo = hi;
    } else {
      g_spans[i] = g_spans[--g_nspans];
      --i;
    }
  }
}

void guest_memory_syscall(int64_t num, uint64_t a1, uint64_t a2, uint64_t a3) {
  if (num == SYS_MMAP)
    g_pending_len = a2;
  else if (num == SYS_MUNMAP)
    remove_span(a1, a1 + a2);
  /* Memory made unreadable is no longer readable by the plugin either (made readable again: stays out). */
  else if (num == SYS_MPROTECT && !(a3 & GUEST_PROT_READ))
    remove_span(a1, a1 + a2);
}

void guest_memory_syscall_ret(int64_t num, int64_t ret) {
  if (num != SYS_MMAP || ret < 0) return; /* a negative value is -errno */
  const uint64_t lo = (uint64_t)ret, len = (g_pending_len + 4095) & ~(uint64_t)4095;
  remove_span(lo, lo + len); /* MAP_FIXED over an old mapping replaces it */
  add_span(lo, lo + len);
}

bool guest_range_mapped(uint64_t vaddr, uint64_t len) {
  uint64_t at = vaddr, end = vaddr + len;
  if (end < vaddr) return false;
  /* Spans may be adjacent: walk forward through them until the range is covered. */
  for (int progress = 1; at < end && progress;) {
    progress = 0;
    for (size_t i = 0; i < g_nspans; ++i) {
      if (g_spans[i].lo <= at && at < g_spans[i].hi) {
        at = g_spans[i].hi;
        progress = 1;
      }
    }
  }
  return at >= end;
}
