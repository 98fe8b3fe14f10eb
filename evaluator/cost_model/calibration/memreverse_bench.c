/*
 * memreverse_bench.c: a held-out check of the X60 memory model, "memreverse" benchmark (dst[i] = src[n-1-i]).
 *
 * Never used to fit the model: check_heldout.py runs it through `eok measure` and compares the modeled
 * speed with rvv-bench's published X60 page of the same benchmark. It reproduces what rvv-bench
 * (camel-cdr/rvv-bench) timed there; it was written from a description of that benchmark's protocol and
 * loops, in C with RVV intrinsics; no rvv-bench code was copied.
 *
 *   memreverse_bench base N TIMED [IMPL...]   N: bytes; TIMED: timed calls per impl
 *   memreverse_bench list                      print the implementation names, in run order
 *
 * Per selected implementation: "impl <name>" on stdout; one untimed call that validates the result and
 * warms up; then TIMED timed calls, each: pick offsets, zero dst[0..n+9) (untimed), then
 *   EOK_REGION_BEGIN(); fn(dst, src, n); EOK_REGION_END();
 * Memory as the board's run: dst = mem + dOff, src = dst + 64 MiB + sOff + 9, dOff and sOff uniform in
 * 0..255 for every call. The source bytes are filled once, before the first implementation, and never
 * written again (on the board they were written once at start-up).
 *
 * Implementations (the page's series):
 *   scalar                    byte loop with a compiler barrier after every byte
 *   scalar_autovec            the same loop without the barrier, as the compiler vectorizes it
 *   rvv_vsse_m{1,2,4,8}       unit-stride load, store with stride -1 from the end of dst
 *   rvv_vlse_m{1,2,4,8}       load with stride -1 from the end of src, unit-stride store
 *   rvv_vrgatherei16_m{1,2,4} whole register groups reversed by vrgatherei16 with a reversed index;
 *                             the tail (< VLMAX bytes) with a strided store
 *   rvv_m1_vrgatherei16_m{1,2,4,8}  a group of LMUL registers loaded at once, each register reversed by
 *                             its own m1 vrgatherei16, the registers stored in reverse order
 */
#define BENCH "memreverse_bench"
#include "bench_harness.h" /* MAX_MEM, GUARD, SEED, the command line, rng, fill_random, fill_bytes */

#define SRC_DISTANCE (MAX_MEM / 2)
#define MAX_OFF 255

typedef void (*memreverse_fn)(unsigned char* restrict, const unsigned char* restrict, size_t);

__attribute__((noinline)) static void reverse_scalar(unsigned char* restrict d, const unsigned char* restrict s,
                                                     size_t n) {
  for (size_t i = 0; i < n; i++) {
    d[i] = s[n - 1 - i];
    BARRIER();
  }
}

__attribute__((noinline)) static void reverse_autovec(unsigned char* restrict d, const unsigned char* restrict s,
                                                      size_t n) {
  for (size_t i = 0; i < n; i++) d[i] = s[n - 1 - i];
}

/* one function per (family, LMUL); L is the LMUL suffix of the intrinsic types (m1, m2, m4, m8) */
#define REVERSE_STRIDED(L)                                                                                           \
  __attribute__((noinline)) static void reverse_vsse_##L(unsigned char* restrict d, const unsigned char* restrict s, \
                                                         size_t n) {                                                 \
    unsigned char* end = d + n - 1;                                                                                  \
    while (n) {                                                                                                      \
      size_t vl = __riscv_vsetvl_e8##L(n);                                                                           \
      vuint8##L##_t v = __riscv_vle8_v_u8##L(s, vl);                                                                 \
      __riscv_vsse8_v_u8##L(end, -1, v, vl);                                                                         \
      s += vl;                                                                                                       \
      end -= vl;                                                                                                     \
      n -= vl;                                                                                                       \
    }                                                                                                                \
  }                                                                                                                  \
  __attribute__((noinline)) static void reverse_vlse_##L(unsigned char* restrict d, const unsigned char* restrict s, \
                                                         size_t n) {                                                 \
    const unsigned char* end = s + n - 1;                                                                            \
    while (n) {                                                                                                      \
      size_t vl = __riscv_vsetvl_e8##L(n);                                                                           \
      vuint8##L##_t v = __riscv_vlse8_v_u8##L(end, -1, vl);                                                          \
      __riscv_vse8_v_u8##L(d, v, vl);                                                                                \
      d += vl;                                                                                                       \
      end -= vl;                                                                                                     \
      n -= vl;                                                                                                       \
    }                                                                                                                \
  }
REVERSE_STRIDED(m1)
REVERSE_STRIDED(m2)
REVERSE_STRIDED(m4)
REVERSE_STRIDED(m8)

/* the tail both gather families share: the last n < VLMAX source bytes to dst_end - n .. dst_end - 1 */
#define REVERSE_TAIL(L, dst_end, s, n)                       \
  do {                                                       \
    size_t vl = __riscv_vsetvl_e8##L(n);                     \
    vuint8##L##_t v = __riscv_vle8_v_u8##L(s, vl);           \
    if (vl) __riscv_vsse8_v_u8##L((dst_end) - 1, -1, v, vl); \
  } while (0)

/* L: data LMUL, I: the e16 index LMUL (2 x L) */
#define REVERSE_GATHER(L, I)                                                                                  \
  __attribute__((noinline)) static void reverse_vrgatherei16_##L(unsigned char* restrict d,                   \
                                                                 const unsigned char* restrict s, size_t n) { \
    size_t vlmax = __riscv_vsetvlmax_e8##L();                                                                 \
    unsigned char* dst_end = d + n;                                                                           \
    if (n >= vlmax) {                                                                                         \
      vuint16##I##_t idx = __riscv_vrsub_vx_u16##I(__riscv_vid_v_u16##I(vlmax), vlmax - 1, vlmax);            \
      while (n >= vlmax) {                                                                                    \
        dst_end -= vlmax;                                                                                     \
        n -= vlmax;                                                                                           \
        vuint8##L##_t v = __riscv_vle8_v_u8##L(s, vlmax);                                                     \
        __riscv_vse8_v_u8##L(dst_end, __riscv_vrgatherei16_vv_u8##L(v, idx, vlmax), vlmax);                   \
        s += vlmax;                                                                                           \
      }                                                                                                       \
    }                                                                                                         \
    REVERSE_TAIL(L, dst_end, s, n);                                                                           \
  }
REVERSE_GATHER(m1, m2)
REVERSE_GATHER(m2, m4)
REVERSE_GATHER(m4, m8)

/* G: registers per group (1, 2, 4, 8); L: the group's LMUL */
/* register k of the group, reversed, into register G-1-k of `out` (overloaded intrinsics: any group LMUL) */
#define PART(G, k) out = __riscv_vset(out, (G) - 1 - (k), __riscv_vrgatherei16(__riscv_vget_u8m1(v, k), idx, vlmax1))
#define REVERSE_M1_GATHERS(L, G, BODY)                                                                           \
  __attribute__((noinline)) static void reverse_m1_vrgatherei16_##L(unsigned char* restrict d,                   \
                                                                    const unsigned char* restrict s, size_t n) { \
    size_t vlmax1 = __riscv_vsetvlmax_e8m1();                                                                    \
    vuint16m2_t idx = __riscv_vrsub_vx_u16m2(__riscv_vid_v_u16m2(vlmax1), vlmax1 - 1, vlmax1);                   \
    size_t vlmax = __riscv_vsetvlmax_e8##L();                                                                    \
    unsigned char* dst_end = d + n;                                                                              \
    while (n >= vlmax) {                                                                                         \
      dst_end -= vlmax;                                                                                          \
      n -= vlmax;                                                                                                \
      vuint8##L##_t v = __riscv_vle8_v_u8##L(s, vlmax);                                                          \
      vuint8##L##_t out = __riscv_vundefined_u8##L();                                                            \
      BODY;                                                                                                      \
      __riscv_vse8_v_u8##L(dst_end, out, vlmax);                                                                 \
      s += vlmax;                                                                                                \
    }                                                                                                            \
    REVERSE_TAIL(L, dst_end, s, n);                                                                              \
  }

__attribute__((noinline)) static void reverse_m1_vrgatherei16_m1(unsigned char* restrict d,
                                                                 const unsigned char* restrict s, size_t n) {
  size_t vlmax = __riscv_vsetvlmax_e8m1();
  vuint16m2_t idx = __riscv_vrsub_vx_u16m2(__riscv_vid_v_u16m2(vlmax), vlmax - 1, vlmax);
  unsigned char* dst_end = d + n;
  while (n >= vlmax) {
    dst_end -= vlmax;
    n -= vlmax;
    vuint8m1_t v = __riscv_vle8_v_u8m1(s, vlmax);
    __riscv_vse8_v_u8m1(dst_end, __riscv_vrgatherei16_vv_u8m1(v, idx, vlmax), vlmax);
    s += vlmax;
  }
  REVERSE_TAIL(m1, dst_end, s, n);
}
REVERSE_M1_GATHERS(m2, 2, PART(2, 0); PART(2, 1))
REVERSE_M1_GATHERS(m4, 4, PART(4, 0); PART(4, 1); PART(4, 2); PART(4, 3))
REVERSE_M1_GATHERS(m8, 8, PART(8, 0); PART(8, 1); PART(8, 2); PART(8, 3); PART(8, 4); PART(8, 5); PART(8, 6);
                   PART(8, 7))

static const struct {
  const char* name;
  memreverse_fn fn;
} IMPLS[] = {
    {"scalar", reverse_scalar},
    {"scalar_autovec", reverse_autovec},
    {"rvv_vsse_m1", reverse_vsse_m1},
    {"rvv_vsse_m2", reverse_vsse_m2},
    {"rvv_vsse_m4", reverse_vsse_m4},
    {"rvv_vsse_m8", reverse_vsse_m8},
    {"rvv_vlse_m1", reverse_vlse_m1},
    {"rvv_vlse_m2", reverse_vlse_m2},
    {"rvv_vlse_m4", reverse_vlse_m4},
    {"rvv_vlse_m8", reverse_vlse_m8},
    {"rvv_vrgatherei16_m1", reverse_vrgatherei16_m1},
    {"rvv_vrgatherei16_m2", reverse_vrgatherei16_m2},
    {"rvv_vrgatherei16_m4", reverse_vrgatherei16_m4},
    {"rvv_m1_vrgatherei16_m1", reverse_m1_vrgatherei16_m1},
    {"rvv_m1_vrgatherei16_m2", reverse_m1_vrgatherei16_m2},
    {"rvv_m1_vrgatherei16_m4", reverse_m1_vrgatherei16_m4},
    {"rvv_m1_vrgatherei16_m8", reverse_m1_vrgatherei16_m8},
};
#define NIMPLS (sizeof IMPLS / sizeof IMPLS[0])

static const char* impl_name(size_t i) {
  return i < NIMPLS ? IMPLS[i].name : NULL;
}

static memreverse_fn volatile g_fn; /* read inside the region: the call is indirect, as on the board */

int main(int argc, char** argv) {
  unsigned char selected[NIMPLS];
  const struct bench_args a =
      parse_args(argc, argv, SRC_DISTANCE - 2 * MAX_OFF - 2 * GUARD, "N must be in 1 .. 64 MiB - 528", selected);
  const size_t n = a.n;
  unsigned char* mem = alloc_arena();

  /* every source byte any call can read, once */
  rng_seed(SEED);
  fill_random(mem + SRC_DISTANCE, n + 2 * MAX_OFF + 2 * GUARD);

  for (size_t i = 0; i < NIMPLS; i++) {
    if (!selected[i]) continue;
    start_impl(IMPLS[i].name, &a);
    g_fn = IMPLS[i].fn;
    for (size_t call = 0; call <= a.timed; call++) { /* call 0: untimed validation + warm-up */
      size_t doff = rng_next() & MAX_OFF, soff = rng_next() & MAX_OFF;
      unsigned char* dst = mem + doff;
      const unsigned char* src = dst + SRC_DISTANCE + soff + GUARD;
      fill_bytes(dst, 0, n + GUARD);
      if (call == 0) {
        g_fn(dst, src, n);
        for (size_t k = 0; k < n + GUARD; k++) {
          unsigned char want = k < n ? src[n - 1 - k] : 0;
          if (dst[k] != want) validation_failed(IMPLS[i].name, &a, "wrong byte", k, "dOff %zu, sOff %zu", doff, soff);
        }
        continue;
      }
      EOK_REGION_BEGIN();
      g_fn(dst, src, n);
      EOK_REGION_END();
    }
  }
  printf("done\n");
  return 0;
}
