// Scalar code as a compiler emits it: compressed instructions, Zba/Zbb/Zbs idioms, M, A, F, D and Zfh.
#include <stddef.h>
#include <stdint.h>

int64_t index_sum(const int64_t* a, const int32_t* b, const uint32_t* idx, size_t n) {
  int64_t s = 0;
  for (size_t i = 0; i < n; ++i) s += a[idx[i]] + b[i] * (int64_t)a[i];
  return s;
}

uint64_t bit_tricks(uint64_t x, uint32_t y, unsigned r) {
  uint64_t v = (uint64_t)__builtin_clzll(x | 1) + (uint64_t)__builtin_ctzll(x | 2) + (uint64_t)__builtin_popcountll(x);
  v += (uint64_t)__builtin_clz(y | 1) + (uint64_t)__builtin_ctz(y | 4) + (uint64_t)__builtin_popcount(y);
  v ^= (x << (r & 63)) | (x >> ((64 - r) & 63));
  v += ((uint32_t)y >> (r & 31)) | ((uint32_t)y << ((32 - r) & 31));
  v += x & ~(uint64_t)y;
  v += x | ~(uint64_t)r;
  v += ~(x ^ y);
  v += (int64_t)x < (int64_t)y ? x : y;
  v += x > y ? x : (uint64_t)y;
  v += (uint64_t)(int8_t)x + (uint64_t)(int16_t)y + (uint16_t)x;
  v += __builtin_bswap64(x);
  v |= 1ull << (r & 63);
  v &= ~(1ull << ((r + 7) & 63));
  v ^= 1ull << 40;
  v += (x >> (r & 63)) & 1;
  return v + (uint64_t)(uint32_t)(y + r);
}

int64_t muldiv(int64_t a, int64_t b, uint64_t c, int32_t d, int32_t e) {
  int64_t r = a * b + a / (b | 1) + a % (b | 1);
  r += (int64_t)(c / ((c >> 3) | 1)) + (int64_t)(c % 7);
  r += d / (e | 1) + d % (e | 1) + (int32_t)((uint32_t)d / ((uint32_t)e | 1));
  r += (int64_t)(((__int128)a * b) >> 64) + (int64_t)(((unsigned __int128)c * c) >> 64);
  return r + d * e;
}

double fp_mix(double a, double b, float c, float d, _Float16 h, _Float16 k, int64_t i, uint32_t u) {
  double r = a * b + a / b - __builtin_sqrt(a);
  r += __builtin_fma(a, b, -a);
  float f = c * d + c / d - __builtin_sqrtf(c);
  f = __builtin_fmaf(c, d, f);
  f = __builtin_fminf(f, c) + __builtin_fmaxf(f, d) + __builtin_copysignf(f, d);
  _Float16 hh = h * k + h / k - h;
  hh = (_Float16)__builtin_fmaf((float)hh, (float)k, 1.0f);
  r += (double)f + (double)hh + (double)i + (double)u + (double)(float)i;
  r += (double)(int64_t)(a * 3.0) + (double)(uint32_t)b + (double)(int32_t)(c);
  r += a < b ? 1.0 : 0.0;
  r += (c <= d) + (a == b);
  r += __builtin_fabs(b) + (double)__builtin_fabsf(c);
  return r;
}

int64_t atomics(int64_t* p, int32_t* q, int64_t v) {
  int64_t r = __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
  r += __atomic_fetch_and(q, (int32_t)v, __ATOMIC_ACQUIRE);
  r += __atomic_fetch_or(p, v, __ATOMIC_RELEASE);
  r += __atomic_fetch_xor(q, 3, __ATOMIC_RELAXED);
  r += __atomic_exchange_n(p, v, __ATOMIC_ACQ_REL);
  int64_t expected = 5;
  r += __atomic_compare_exchange_n(p, &expected, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  int32_t small = 1;
  r += __atomic_compare_exchange_n(q, &small, 2, 1, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  r += __atomic_load_n(p, __ATOMIC_ACQUIRE);
  __atomic_store_n(q, 9, __ATOMIC_RELEASE);
  return r;
}

void flush_icache(void) {
  __asm__ volatile("fence.i" ::: "memory");
}
