/*
 * How the harness draws a buffer's inputs from a case seed: the one definition, compiled into the harness
 * (C, on the board) and into eok (C++, on the host, to show the inputs behind a mismatch). Both sides
 * must produce the same bits, so everything here is plain IEEE double arithmetic on the same operations.
 */
#ifndef EOK_INPUT_VALUES_H
#define EOK_INPUT_VALUES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness_protocol.h"

struct eok_input_spec {
  int type; /* enum eok_type */
  int dist; /* enum eok_dist */
  double lo, hi;
  unsigned specials; /* EOK_SPECIAL_* bits */
  uint64_t count;
};

static inline uint64_t eok_splitmix64(uint64_t* s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static inline double eok_uniform01(uint64_t* s) {
  return (double)(eok_splitmix64(s) >> 11) * (1.0 / 9007199254740992.0);
}

static inline size_t eok_type_size(int t) {
  switch (t) {
    case EOK_T_F16:
    case EOK_T_I16:
    case EOK_T_U16:
      return 2;
    case EOK_T_F32:
    case EOK_T_I32:
    case EOK_T_U32:
      return 4;
    case EOK_T_F64:
    case EOK_T_I64:
    case EOK_T_U64:
      return 8;
    default:
      return 1;
  }
}

static inline int eok_type_is_float(int t) {
  return t == EOK_T_F16 || t == EOK_T_F32 || t == EOK_T_F64;
}

/* IEEE binary16 bits of v, rounded to nearest even (the harness is built without Zfh). */
static inline uint16_t eok_f16_bits(double v) {
  float f = (float)v;
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u) return (uint16_t)(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0));
  if (abs >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* rounds to infinity */
  if (abs < 0x38800000u) {                                   /* subnormal half or zero */
    if (abs < 0x33000000u) return (uint16_t)sign;
    uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
    int shift = 126 - (int)(abs >> 23) + 11;
    uint32_t half = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1))) half++;
    return (uint16_t)(sign | half);
  }
  uint32_t half = ((abs - 0x38000000u) >> 13);
  uint32_t rem = abs & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1))) half++;
  return (uint16_t)(sign | half);
}

static inline void eok_store_value(unsigned char* dst, int type, double v) {
  switch (type) {
    case EOK_T_F16: {
      uint16_t h = eok_f16_bits(v);
      memcpy(dst, &h, 2);
      break;
    }
    case EOK_T_F32: {
      float f = (float)v;
      memcpy(dst, &f, 4);
      break;
    }
    case EOK_T_F64:
      memcpy(dst, &v, 8);
      break;
    case EOK_T_I8:
    case EOK_T_U8: {
      int8_t x = (int8_t)(int64_t)v;
      memcpy(dst, &x, 1);
      break;
    }
    case EOK_T_I16:
    case EOK_T_U16: {
      int16_t x = (int16_t)(int64_t)v;
      memcpy(dst, &x, 2);
      break;
    }
    case EOK_T_I32:
    case EOK_T_U32: {
      int32_t x = (int32_t)(int64_t)v;
      memcpy(dst, &x, 4);
      break;
    }
    default: {
      int64_t x = (int64_t)v;
      memcpy(dst, &x, 8);
      break;
    }
  }
}

static inline int eok_cmp_double(const void* x, const void* y) {
  double a = *(const double*)x, b = *(const double*)y;
  return (a > b) - (a < b);
}

static inline double eok_draw(const struct eok_input_spec* a, uint64_t* seed) {
  if (eok_type_is_float(a->type)) return a->lo + (a->hi - a->lo) * eok_uniform01(seed);
  double span = a->hi - a->lo + 1.0;
  double v = a->lo + (double)(uint64_t)(eok_uniform01(seed) * span);
  return v > a->hi ? a->hi : v;
}

/* Fills `data` (count elements of the spec's type) from `seed`; `plain` (timed and warm-up calls) leaves
 * out the special values. Returns 0, or -1 when memory for a sorted distribution is short. */
static inline int eok_fill_input(const struct eok_input_spec* a, unsigned char* data, uint64_t seed, int plain) {
  const size_t es = eok_type_size(a->type);
  if (a->dist == EOK_DIST_UNIFORM) {
    for (uint64_t i = 0; i < a->count; ++i) eok_store_value(data + i * es, a->type, eok_draw(a, &seed));
  } else if (a->count > 0) {
    double* v = (double*)malloc(a->count * sizeof *v);
    if (!v) return -1;
    for (uint64_t i = 0; i < a->count; ++i) v[i] = eok_draw(a, &seed);
    qsort(v, a->count, sizeof *v, eok_cmp_double);
    if (a->dist == EOK_DIST_OFFSETS) v[0] = a->lo;
    if (a->dist == EOK_DIST_NEARLY_SORTED) {
      /* One swap per 16 elements, each with a neighbour at most 16 places ahead. */
      for (uint64_t k = 0; k < a->count / 16 + 1 && a->count > 1; ++k) {
        uint64_t p = eok_splitmix64(&seed) % a->count;
        uint64_t q = p + 1 + eok_splitmix64(&seed) % 16;
        if (q >= a->count) q = a->count - 1;
        double t = v[p];
        v[p] = v[q];
        v[q] = t;
      }
    }
    for (uint64_t i = 0; i < a->count; ++i) eok_store_value(data + i * es, a->type, v[i]);
    free(v);
  }
  if (plain || a->specials == 0 || a->count == 0 || !eok_type_is_float(a->type)) return 0;
  /* A few special values at spread positions; the timed case keeps the plain distribution. */
  double huge = a->type == EOK_T_F16 ? 60000.0 : 1e30;
  double choices[8];
  int n = 0;
  if (a->specials & EOK_SPECIAL_NAN) choices[n++] = __builtin_nan("");
  if (a->specials & EOK_SPECIAL_INF) choices[n++] = __builtin_inf();
  if (a->specials & EOK_SPECIAL_NEG_INF) choices[n++] = -__builtin_inf();
  if (a->specials & EOK_SPECIAL_ZERO) {
    choices[n++] = 0.0;
    choices[n++] = -0.0;
  }
  if (a->specials & EOK_SPECIAL_HUGE) {
    choices[n++] = huge;
    choices[n++] = -huge;
  }
  uint64_t places = a->count < 16 ? 1 : (a->count < 64 ? 4 : 12);
  for (uint64_t k = 0; k < places; ++k) {
    uint64_t pos = eok_splitmix64(&seed) % a->count;
    eok_store_value(data + pos * es, a->type, choices[k % (uint64_t)n]);
  }
  return 0;
}

/* The seed of argument `arg` (its index in the task's arguments) in a case with seed `case_seed`. */
static inline uint64_t eok_input_seed(uint64_t case_seed, int arg) {
  return case_seed ^ (0x9e3779b97f4a7c15ull * (uint64_t)(arg + 1));
}

#endif /* EOK_INPUT_VALUES_H */
