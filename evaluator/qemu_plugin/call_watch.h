/*
 * What the plugin observes about each kernel call, from the watch file eok wrote (measurement_protocol.h):
 * where the harness's markers and the candidate's code are, and for every call the buffers to snapshot.
 * At a call's beginning every buffer range (guards included) is copied and the inputs hashed; at its end
 * the guards and inputs are compared with that copy and the outputs are written to the measurement file,
 * so what eok checks is guest memory at the instant the call ended, whatever the guest does afterwards.
 */
#ifndef EOK_CALL_WATCH_H
#define EOK_CALL_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint32_t arg;
  char access; /* 'i' input, 'o' output, 'b' both */
  uint32_t elem_bytes;
  uint64_t range; /* guest address of the first guard byte */
  uint64_t guard_before, data_bytes, guard_after;
  uint8_t* copy; /* the range at the call's beginning */
} watch_buffer_t;

typedef struct {
  int timed;
  uint32_t nbuf;
  watch_buffer_t* bufs;
} watch_call_t;

typedef struct {
  uint64_t begin_marker, end_marker, ret_slot;
  uint64_t (*code)[2];
  size_t ncode;
  watch_call_t* calls;
  size_t ncalls;
} watch_t;

/* Reads the watch file. false with a message in err when it is missing or malformed. */
bool watch_load(const char* path, watch_t* w, char* err, size_t errlen);

/* vaddr lies in the candidate's code. */
bool watch_is_candidate_code(const watch_t* w, uint64_t vaddr);

/* At the beginning of call `c`: copies its ranges and writes the BEGIN record. Returns NULL, or why the
 * ranges cannot be read (the guest broke the harness's memory layout). */
const char* watch_call_begin(watch_t* w, size_t c);

/* At the end of call `c`: writes the CALL record. */
void watch_call_end(watch_t* w, size_t c);

#endif
