/*
 * The contract between eok (host) and the harness (guest): the plan the harness reads on stdin and the
 * records it writes on stdout. Both sides include this header; all integers are little-endian.
 *
 * Plan (text):
 *   eok-plan 3
 *   ret <vaddr>                                 the 8-byte return slot (a page the harness maps there)
 *   case <timed 0|1> <seed> <nargs>            one line per case, followed by its nargs argument lines:
 *   buf <access i|o|b> <type> <count> <dist> <lo> <hi> <specials> <tight 0|1> <map vaddr>
 *   scal <u64 bits>
 * Buffers: access i = input (must stay unchanged), o = output (poisoned before the call), b = both.
 * dist: enum eok_dist. lo/hi: the input range (integers: inclusive). specials: EOK_SPECIAL_* bits. tight: the
 * buffer ends exactly at an unmapped page (over-reads fault) instead of before a 64-byte guard zone.
 * map vaddr: where the buffer's mapping starts (eok_layout_buffer() says where its data lies in it); eok
 * tells the plugin the same addresses, and the plugin reads the buffers there.
 *
 * Records (binary): a SIGNAL record if the program faults. Everything eok checks about a call comes from
 * the plugin (evaluator/qemu_plugin/measurement_protocol.h), not from the harness: the harness shares its
 * process with the candidate, so what it would report could be forged.
 */
#ifndef EOK_HARNESS_PROTOCOL_H
#define EOK_HARNESS_PROTOCOL_H

#include <stdint.h>

#define EOK_PLAN_MAGIC "eok-plan 3"
#define EOK_PLAN_VERSION 3
#define EOK_PAGE_BYTES 4096u
#define EOK_MAX_ARGS 16
#define EOK_GUARD_BYTES 64

enum eok_type {
  EOK_T_F16 = 1,
  EOK_T_F32,
  EOK_T_F64,
  EOK_T_I8,
  EOK_T_I16,
  EOK_T_I32,
  EOK_T_I64,
  EOK_T_U8,
  EOK_T_U16,
  EOK_T_U32,
  EOK_T_U64
};

/* uniform draws; the same sorted; sorted with a few near swaps; sorted with the first element lo. */
enum eok_dist { EOK_DIST_UNIFORM = 0, EOK_DIST_SORTED, EOK_DIST_NEARLY_SORTED, EOK_DIST_OFFSETS };

enum eok_special {
  EOK_SPECIAL_NAN = 1,
  EOK_SPECIAL_INF = 2,
  EOK_SPECIAL_NEG_INF = 4,
  EOK_SPECIAL_ZERO = 8,
  EOK_SPECIAL_HUGE = 16
};

#define EOK_REC_SIGNAL 0x4c474953u /* "SIGL" */

/* A real board's harness (built with EOK_BOARD_TIMING) times each call itself: first a BOARD record saying
 * how, then one TIME record after every call. On a real board the harness shares its process with the
 * candidate too; the virtual board has checked the candidate before it ever runs there. */
#define EOK_REC_BOARD 0x44524f42u /* "BORD" */
#define EOK_REC_TIME 0x454d4954u  /* "TIME" */

/* The timer, best first: the cycle counter through perf_event_open, the cycle CSR (Linux may forbid it
 * to user space), CLOCK_MONOTONIC in nanoseconds. */
enum eok_timer { EOK_TIMER_PERF_CYCLES = 1, EOK_TIMER_RDCYCLE = 2, EOK_TIMER_MONOTONIC_NS = 3 };

struct eok_board_record {
  uint32_t magic;
  int32_t timer;         /* enum eok_timer */
  int32_t seccomp_errno; /* 0: the harness's seccomp filter is installed; else why not (ENOSYS under qemu-user) */
  int32_t pinned_core;   /* the core it runs on, or -1 (not asked), or -errno */
  uint64_t overhead;     /* the timer's own cost: the least of 16 empty timings, in its ticks */
  uint64_t perf_errno;   /* why perf_event_open was not used (0: it is) */
};

struct eok_time_record {
  uint32_t magic;
  int32_t case_index;
  uint64_t ticks; /* the call's duration in the timer's unit, overhead not subtracted */
};

struct eok_signal_record {
  uint32_t magic;
  int32_t signo;
  uint64_t fault_addr;
  int32_t case_index;
  int32_t arg_index;  /* the buffer the fault address is nearest to, or -1 */
  int64_t offset;     /* fault address minus that buffer's start */
  uint64_t buf_bytes; /* that buffer's size */
};

/* Where a buffer of `bytes` lies in its mapping: [guard][data][guard, or none when tight], then one unmapped
 * page. Offsets from the mapping's start; the same arithmetic on both sides of the plan. */
struct eok_buffer_layout {
  uint64_t map_bytes;   /* the whole mapping, the unmapped page included */
  uint64_t data_offset; /* the data's offset in the mapping */
  uint64_t guard_after; /* guard bytes after the data (0 when tight) */
};

static inline struct eok_buffer_layout eok_layout_buffer(uint64_t bytes, int tight) {
  struct eok_buffer_layout l;
  l.guard_after = tight ? 0 : EOK_GUARD_BYTES;
  const uint64_t used = EOK_GUARD_BYTES + bytes + l.guard_after;
  const uint64_t body = (used + EOK_PAGE_BYTES - 1) / EOK_PAGE_BYTES * EOK_PAGE_BYTES;
  l.map_bytes = body + EOK_PAGE_BYTES;
  l.data_offset = body - l.guard_after - bytes;
  return l;
}

#endif
