#include "call_watch.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guest_memory.h"
#include "measurement_file.h"
#include "measurement_protocol.h"

static uint64_t fnv1a(const uint8_t* p, uint64_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint64_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

static uint64_t range_bytes(const watch_buffer_t* b) {
  return b->guard_before + b->data_bytes + b->guard_after;
}

bool watch_load(const char* path, watch_t* w, char* err, size_t errlen) {
  memset(w, 0, sizeof *w);
  FILE* f = fopen(path, "r");
  if (!f) {
    snprintf(err, errlen, "cannot read the watch file %s", path);
    return false;
  }
  char word[16];
  bool ok = fscanf(f, "%15s", word) == 1 && strcmp(word, "eok-watch") == 0 && fscanf(f, "%15s", word) == 1 &&
            strcmp(word, "1") == 0;
  size_t code_cap = 0, call_cap = 0;
  watch_call_t* call = NULL;
  uint32_t bufs_left = 0;
  while (ok && fscanf(f, "%15s", word) == 1) {
    if (strcmp(word, "markers") == 0) {
      ok = fscanf(f, "%" SCNx64 " %" SCNx64, &w->begin_marker, &w->end_marker) == 2;
    } else if (strcmp(word, "ret") == 0) {
      ok = fscanf(f, "%" SCNx64, &w->ret_slot) == 1;
    } else if (strcmp(word, "code") == 0) {
      if (w->ncode == code_cap) {
        code_cap = code_cap ? 2 * code_cap : 8;
        w->code = realloc(w->code, code_cap * sizeof *w->code);
        if (!w->code) abort();
      }
      ok = fscanf(f, "%" SCNx64 " %" SCNx64, &w->code[w->ncode][0], &w->code[w->ncode][1]) == 2;
      w->ncode++;
    } else if (strcmp(word, "call") == 0 && bufs_left == 0) {
      if (w->ncalls == call_cap) {
        call_cap = call_cap ? 2 * call_cap : 16;
        w->calls = realloc(w->calls, call_cap * sizeof *w->calls);
        if (!w->calls) abort();
      }
      call = &w->calls[w->ncalls];
      memset(call, 0, sizeof *call);
      size_t index;
      ok = fscanf(f, "%zu %d %" SCNu32, &index, &call->timed, &call->nbuf) == 3 && index == w->ncalls &&
           call->nbuf <= 64;
      if (ok) {
        call->bufs = calloc(call->nbuf ? call->nbuf : 1, sizeof *call->bufs);
        if (!call->bufs) abort();
        bufs_left = call->nbuf;
        w->ncalls++;
      }
    } else if (strcmp(word, "buf") == 0 && bufs_left > 0) {
      watch_buffer_t* b = &call->bufs[call->nbuf - bufs_left--];
      ok = fscanf(f, "%" SCNu32 " %c %" SCNu32 " %" SCNx64 " %" SCNu64 " %" SCNu64 " %" SCNu64, &b->arg, &b->access,
                  &b->elem_bytes, &b->range, &b->guard_before, &b->data_bytes, &b->guard_after) == 7 &&
           (b->access == 'i' || b->access == 'o' || b->access == 'b') && b->elem_bytes > 0;
    } else {
      ok = false;
    }
  }
  fclose(f);
  if (!ok || bufs_left != 0) snprintf(err, errlen, "malformed watch file %s", path);
  return ok && bufs_left == 0;
}

bool watch_is_candidate_code(const watch_t* w, uint64_t vaddr) {
  for (size_t i = 0; i < w->ncode; ++i) {
    if (w->code[i][0] <= vaddr && vaddr < w->code[i][1]) return true;
  }
  return false;
}

const char* watch_call_begin(watch_t* w, size_t c) {
  watch_call_t* call = &w->calls[c];
  if (!guest_memory_ok()) return "the plugin cannot read guest memory";
  if (w->ret_slot && !guest_range_mapped(w->ret_slot, 8)) return "the return slot is not mapped";
  for (uint32_t i = 0; i < call->nbuf; ++i) {
    if (!guest_range_mapped(call->bufs[i].range, range_bytes(&call->bufs[i])))
      return "a buffer is not mapped where the plan put it";
  }
  uint64_t hashes[64];
  for (uint32_t i = 0; i < call->nbuf; ++i) {
    watch_buffer_t* b = &call->bufs[i];
    const uint64_t n = range_bytes(b);
    free(b->copy);
    b->copy = malloc(n ? n : 1);
    if (!b->copy) abort();
    memcpy(b->copy, guest_ptr(b->range), n);
    hashes[i] = b->access == 'o' ? 0 : fnv1a(b->copy + b->guard_before, b->data_bytes);
  }
  struct eok_m_begin rec = {(uint32_t)c, call->nbuf};
  mfile_begin(EOK_M_BEGIN, sizeof rec + call->nbuf * sizeof(uint64_t));
  mfile_write(&rec, sizeof rec);
  mfile_write(hashes, call->nbuf * sizeof(uint64_t));
  mfile_end();
  return NULL;
}

void watch_call_end(watch_t* w, size_t c) {
  watch_call_t* call = &w->calls[c];
  struct eok_m_call rec = {(uint32_t)c, call->nbuf, 0};
  if (w->ret_slot) memcpy(&rec.ret_bits, guest_ptr(w->ret_slot), 8);
  uint64_t length = sizeof rec;
  for (uint32_t i = 0; i < call->nbuf; ++i) {
    length += sizeof(struct eok_m_buffer) + (call->bufs[i].access == 'i' ? 0 : call->bufs[i].data_bytes);
  }
  mfile_begin(EOK_M_CALL, length);
  mfile_write(&rec, sizeof rec);
  for (uint32_t i = 0; i < call->nbuf; ++i) {
    watch_buffer_t* b = &call->bufs[i];
    const uint8_t* now = guest_ptr(b->range);
    struct eok_m_buffer r;
    memset(&r, 0, sizeof r);
    r.arg_index = b->arg;
    for (uint64_t k = 1; k <= b->guard_before; ++k) {
      const uint64_t at = b->guard_before - k;
      if (now[at] != b->copy[at]) {
        r.guard_before = (int64_t)k;
        break;
      }
    }
    const uint64_t after = b->guard_before + b->data_bytes;
    for (uint64_t k = 0; k < b->guard_after; ++k) {
      if (now[after + k] != b->copy[after + k]) {
        r.guard_after = (int64_t)k + 1;
        break;
      }
    }
    if (b->access == 'i') {
      const uint8_t *was = b->copy + b->guard_before, *is = now + b->guard_before;
      for (uint64_t k = 0; k < b->data_bytes; ++k) {
        if (was[k] != is[k]) {
          r.input_changed = k / b->elem_bytes + 1;
          break;
        }
      }
    } else {
      r.data_bytes = b->data_bytes;
    }
    mfile_write(&r, sizeof r);
    if (r.data_bytes) mfile_write(now + b->guard_before, b->data_bytes);
    free(b->copy);
    b->copy = NULL;
  }
  mfile_end();
}
