/*
 * The contract between the virtual board's plugin (it writes) and eok (it reads): the watch file that
 * tells the plugin what to observe, and the measurement file the plugin writes. The measurement file is
 * the only channel eok trusts about a run on the virtual board: the harness inside the guest prepares
 * inputs and calls the kernel, but every output eok checks is read by the plugin from guest memory at the
 * instant the call ends, and the guest cannot name or write this file (the plugin's guest policy allows
 * the guest no file descriptor but 0, 1 and 2).
 *
 * Watch file (text, written by eok, read once by the plugin before the guest runs):
 *   eok-watch 1
 *   markers <begin vaddr hex> <end vaddr hex>    the harness's marker instructions; others are ignored
 *   code <lo hex> <hi hex>                       [lo, hi): candidate code; any number of lines
 *   ret <vaddr hex>                              8-byte slot the glue stores the entry's return value in (0: none)
 *   call <index> <timed 0|1> <nbuf>              one per call the harness will make, in order
 *   buf <arg> <access i|o|b> <elem bytes> <range vaddr hex> <guard before> <data bytes> <guard after>
 *                                                nbuf lines after each call line; the range is
 *                                                guard before + data + guard after bytes
 *
 * Measurement file (binary, little-endian): EOK_MEAS_MAGIC, then records, each an eok_m_header followed
 * by `length` payload bytes. Records are flushed one by one, so a run killed midway leaves every record
 * it completed.
 *   HELLO      eok_m_hello: the plugin is loaded and sees guest memory; written before the guest runs
 *   BEGIN      eok_m_begin, then nbuf uint64 input hashes: a call began
 *   CALL       eok_m_call, then per buffer eok_m_buffer + data_bytes of output: a call ended
 *   PROFILE    text "eok-profile 2": a timed call's (or, with regions=1, a region's) executed blocks, the bytes
 *              each vector load/store of a block moved, and the memory counts (evaluator/cost_model/
 *              block_profile.h); one right after each timed call's CALL record
 *   VIOLATION  text "rule\ndetail": the guest broke a rule; the plugin ends the process right after
 *   EXIT       eok_m_exit: the guest exited normally (exit_group); with regions=1 its calls_completed
 *              counts the regions that ended
 */
#ifndef EOK_MEASUREMENT_PROTOCOL_H
#define EOK_MEASUREMENT_PROTOCOL_H

#include <stdint.h>

#define EOK_WATCH_MAGIC "eok-watch 1"
#define EOK_MEAS_MAGIC "eok-measure 1\n"
#define EOK_MEAS_MAGIC_LEN 14

/* Exit status of a process the plugin ended for a violation (the VIOLATION record says which). */
#define EOK_VIOLATION_EXIT 113

enum eok_m_type {
  EOK_M_HELLO = 1,
  EOK_M_BEGIN = 2,
  EOK_M_CALL = 3,
  EOK_M_PROFILE = 4,
  EOK_M_VIOLATION = 5,
  EOK_M_EXIT = 6
};

struct eok_m_header {
  uint32_t type;
  uint32_t reserved;
  uint64_t length; /* payload bytes that follow */
};

struct eok_m_hello {
  uint32_t sandboxed;       /* the host seccomp filter is installed for every thread */
  uint32_t guest_memory_ok; /* the plugin can read guest memory (needed for every CALL record) */
};

struct eok_m_begin {
  uint32_t call_index;
  uint32_t nbuffers; /* followed by one uint64 FNV-1a hash per buffer of its data at the call's start */
};

struct eok_m_call {
  uint32_t call_index;
  uint32_t nbuffers;
  uint64_t ret_bits; /* the return slot at the end of the call */
};

/* One per buffer of the call; out and inout buffers are followed by data_bytes of their data. */
struct eok_m_buffer {
  uint32_t arg_index;
  uint32_t reserved;
  int64_t guard_before;   /* k >= 1: the damaged guard byte nearest the buffer is k bytes before it; 0: intact */
  int64_t guard_after;    /* k >= 1: the first damaged guard byte is at end + k - 1; 0: intact */
  uint64_t input_changed; /* inputs: 1 + index of the first element that changed, or 0 */
  uint64_t data_bytes;
};

struct eok_m_exit {
  uint32_t calls_completed;
  uint32_t reserved;
};

#endif
