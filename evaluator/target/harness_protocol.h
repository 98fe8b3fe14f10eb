/*
 * The contract between eok (host) and the harness (guest): the plan the harness reads on stdin and the
 * binary records it writes on stdout. Both sides include this header; all integers are little-endian.
 *
 * Plan (text):
 *   eok-plan 2
 *   case <timed 0|1> <seed> <nargs>            one line per case, followed by its nargs argument lines:
 *   buf <access i|o|b> <type> <count> <dist> <lo> <hi> <specials> <tight 0|1>
 *   scal <u64 bits>
 * Buffers: access i = input (checked unchanged), o = output (poisoned before the call), b = both.
 * dist: enum eok_dist. lo/hi: the input range (integers: inclusive). specials: EOK_SPECIAL_* bits. tight: the buffer
 * ends exactly at an unmapped page (over-reads fault) instead of before a 64-byte guard zone.
 *
 * Records (binary), in order: for each case a START record before the call, then a CASE record with one
 * ARG record (+ data) per argument; a SIGNAL record if the program faults; DONE at the end.
 */
#ifndef EOK_HARNESS_PROTOCOL_H
#define EOK_HARNESS_PROTOCOL_H

#include <stdint.h>

#define EOK_PLAN_MAGIC "eok-plan 2"
#define EOK_PLAN_VERSION 2
#define EOK_MAX_ARGS 16
#define EOK_GUARD_BYTES 64

enum eok_type {
  EOK_T_F16 = 1, EOK_T_F32, EOK_T_F64, EOK_T_I8, EOK_T_I16, EOK_T_I32, EOK_T_I64, EOK_T_U8, EOK_T_U16, EOK_T_U32,
  EOK_T_U64
};

/* uniform draws; the same sorted; sorted with a few near swaps; sorted with the first element lo. */
enum eok_dist { EOK_DIST_UNIFORM = 0, EOK_DIST_SORTED, EOK_DIST_NEARLY_SORTED, EOK_DIST_OFFSETS };

enum eok_special { EOK_SPECIAL_NAN = 1, EOK_SPECIAL_INF = 2, EOK_SPECIAL_NEG_INF = 4, EOK_SPECIAL_ZERO = 8,
                   EOK_SPECIAL_HUGE = 16 };

#define EOK_REC_START 0x54525453u  /* "STRT" */
#define EOK_REC_CASE 0x45534143u   /* "CASE" */
#define EOK_REC_SIGNAL 0x4c474953u /* "SIGL" */
#define EOK_REC_DONE 0x454e4f44u   /* "DONE" */

struct eok_start_record {
  uint32_t magic;
  uint32_t case_index;
};

struct eok_case_record {
  uint32_t magic;
  uint32_t case_index;
  uint32_t nargs;
  uint32_t reserved;
  uint64_t ret_bits; /* the entry function's return value, zero- or sign-extended, floats as bits */
};

/* One per argument; buffers with access o or b are followed by data_bytes of output. */
struct eok_arg_record {
  uint32_t arg_index;
  uint32_t is_buffer;
  uint64_t data_bytes;
  int64_t guard_before; /* k >= 1: the damaged guard byte nearest the buffer is k bytes before its start; 0: intact */
  int64_t guard_after;  /* k >= 1: the first damaged guard byte is at end + k - 1; 0: intact */
  uint32_t input_changed; /* access i: 1 + index of the first element that differs, or 0 */
  uint32_t reserved;
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

struct eok_done_record {
  uint32_t magic;
  uint32_t ncases;
};

#endif
