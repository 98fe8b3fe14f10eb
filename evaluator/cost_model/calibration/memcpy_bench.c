/*
 * memcpy_bench.c: eok's own calibration program for the X60 memory model, "memcpy" benchmark.
 *
 * It reproduces, under `eok measure`, what rvv-bench (camel-cdr/rvv-bench @ e1b462f) timed on a SpacemiT
 * X60 (../shared/data/x60/rvv-bench-x60-kernels.json next to the eok checkout). It was written from a prose description of
 * rvv-bench's protocol and loops; no rvv-bench code was copied.
 *
 *   memcpy_bench CHART N TIMED [IMPL...]     CHART: base | aligned; N: bytes; TIMED: timed calls per impl
 *   memcpy_bench list                         print the implementation names, in run order
 *
 * For each selected implementation, in the fixed order of IMPLS[] (no IMPL argument: all of them):
 *   - print "impl <name>" on stdout;
 *   - one untimed call that validates the result (dst[0..n) == src[0..n), the 9 guard bytes dst[n..n+9)
 *     and up to 16 bytes before dst untouched; a mismatch aborts) and doubles as the warm-up;
 *   - TIMED timed calls, each one exactly:  pick offsets, pre-fill dst[0..n+9) with 0 (untimed), then
 *       EOK_REGION_BEGIN(); sink = fn(dst, src, n); EOK_REGION_END();
 *     with fn read from a volatile function pointer, so the indirect call is inside the region as it was
 *     inside rvv-bench's cycle-counter window.
 * So the program ends exactly (#impls x TIMED) regions, in impl order.
 *
 * Memory, as rvv-bench laid it out: one arena of 128 MiB + 4096 bytes rounded up to a page; dst = mem + dOff,
 * src = dst + 64 MiB + sOff + 9 (src is offset from dst). base chart: dOff, sOff uniform in 0..255, drawn
 * for every call; aligned chart: dOff = sOff = 0 (dst page-aligned, src = page + 9). Offsets come from a
 * fixed-seed PRNG that restarts for every implementation, so all implementations see the same offsets.
 * Unlike rvv-bench, the arena is not pre-touched as a whole (too slow under emulation): the source bytes
 * any call of this size can read are filled with pseudo-random bytes once, before the first impl; dst is
 * touched by its per-call pre-fill.
 *
 * Implementations (the data's series minus two):
 *   musl                    our C rendering of musl's memcpy algorithm (32-bit words even on RV64)
 *   scalar                  byte loop with an empty asm memory barrier after every byte
 *   rvv_m{1,2,4,8} rvv_align_dest_* rvv_align_src_* rvv_align_dest_hybrid_* rvv_vlmax_* rvv_tail_*
 *   rvv_128_*               hand-written assembly in memcpy_impls.S
 * Skipped: `libc` and `scalar_autovec` (on the board the latter compiled to a call of libc memcpy): the
 * board's glibc (version, IFUNC choice) is unknown, so there is nothing faithful to run here.
 *
 * Build (run_calibration.py does this):
 *   clang-22 --target=riscv64-linux-gnu -march=rv64gcv_zba_zbb_zbs -mcpu=spacemit-x60 -O3 -static \
 *            -fuse-ld=lld -I evaluator/target memcpy_bench.c memcpy_impls.S -o memcpy_bench
 */
#define BENCH "memcpy_bench"
#include "bench_harness.h" /* MAX_MEM, GUARD, PRE_GUARD, SEED, BARRIER, the command line, rng, fill_bytes */

#define SRC_DISTANCE (MAX_MEM / 2) /* src = dst + 64 MiB + sOff + 9 */
#define MAX_OFF 255                /* base chart: dOff, sOff in 0..255 */

typedef void* (*memcpy_fn)(void*, const void*, size_t);

/* ---------------------------------------------------------------- the C implementations */

/* scalar: one byte per iteration; the barrier (not a flag) keeps the compiler from vectorizing the loop or
 * turning it into a memcpy call. */
__attribute__((noinline)) static void* memcpy_scalar(void* restrict dest, const void* restrict src, size_t n) {
  unsigned char* d = dest;
  const unsigned char* s = src;
  while (n--) {
    *d++ = *s++;
    BARRIER();
  }
  return dest;
}

/* musl: our rendering of musl's memcpy algorithm (little-endian, 32-bit words). no_builtin keeps clang from
 * replacing its loops by a call to the (unknown) libc memcpy; it may still vectorize or unroll them. */
typedef uint32_t __attribute__((__may_alias__)) u32a;

__attribute__((noinline, no_builtin("memcpy"))) static void* memcpy_musl(void* restrict dest, const void* restrict src,
                                                                         size_t n) {
  unsigned char* d = dest;
  const unsigned char* s = src;
  uint32_t w, x;

  /* 1. bytes until src is 4-aligned */
  while (((uintptr_t)s & 3) && n) {
    *d++ = *s++;
    n--;
  }

  /* 2. dst 4-aligned too: 16-byte blocks of four words, then 8/4/2/1 */
  if (((uintptr_t)d & 3) == 0) {
    while (n >= 16) {
      *(u32a*)(d + 0) = *(const u32a*)(s + 0);
      *(u32a*)(d + 4) = *(const u32a*)(s + 4);
      *(u32a*)(d + 8) = *(const u32a*)(s + 8);
      *(u32a*)(d + 12) = *(const u32a*)(s + 12);
      s += 16;
      d += 16;
      n -= 16;
    }
    if (n & 8) {
      *(u32a*)(d + 0) = *(const u32a*)(s + 0);
      *(u32a*)(d + 4) = *(const u32a*)(s + 4);
      d += 8;
      s += 8;
    }
    if (n & 4) {
      *(u32a*)d = *(const u32a*)s;
      d += 4;
      s += 4;
    }
    if (n & 2) {
      *d++ = *s++;
      *d++ = *s++;
    }
    if (n & 1) *d = *s;
    return dest;
  }

  /* 3. dst misaligned (src aligned), n >= 32: copy 3/2/1 bytes to align dst, then 16-byte blocks whose
     *    words are merged from two aligned source words (little-endian shifts). */
  if (n >= 32) {
    switch ((uintptr_t)d & 3) {
      case 1:
        w = *(const u32a*)s;
        *d++ = *s++;
        *d++ = *s++;
        *d++ = *s++;
        n -= 3;
        while (n >= 17) {
          x = *(const u32a*)(s + 1);
          *(u32a*)(d + 0) = (w >> 24) | (x << 8);
          w = *(const u32a*)(s + 5);
          *(u32a*)(d + 4) = (x >> 24) | (w << 8);
          x = *(const u32a*)(s + 9);
          *(u32a*)(d + 8) = (w >> 24) | (x << 8);
          w = *(const u32a*)(s + 13);
          *(u32a*)(d + 12) = (x >> 24) | (w << 8);
          s += 16;
          d += 16;
          n -= 16;
        }
        break;
      case 2:
        w = *(const u32a*)s;
        *d++ = *s++;
        *d++ = *s++;
        n -= 2;
        while (n >= 18) {
          x = *(const u32a*)(s + 2);
          *(u32a*)(d + 0) = (w >> 16) | (x << 16);
          w = *(const u32a*)(s + 6);
          *(u32a*)(d + 4) = (x >> 16) | (w << 16);
          x = *(const u32a*)(s + 10);
          *(u32a*)(d + 8) = (w >> 16) | (x << 16);
          w = *(const u32a*)(s + 14);
          *(u32a*)(d + 12) = (x >> 16) | (w << 16);
          s += 16;
          d += 16;
          n -= 16;
        }
        break;
      case 3:
        w = *(const u32a*)s;
        *d++ = *s++;
        n -= 1;
        while (n >= 19) {
          x = *(const u32a*)(s + 3);
          *(u32a*)(d + 0) = (w >> 8) | (x << 24);
          w = *(const u32a*)(s + 7);
          *(u32a*)(d + 4) = (x >> 8) | (w << 24);
          x = *(const u32a*)(s + 11);
          *(u32a*)(d + 8) = (w >> 8) | (x << 24);
          w = *(const u32a*)(s + 15);
          *(u32a*)(d + 12) = (x >> 8) | (w << 24);
          s += 16;
          d += 16;
          n -= 16;
        }
        break;
    }
  }

  /* 4. remainder, one byte at a time in groups of 16/8/4/2/1 */
  if (n & 16) {
    for (int i = 0; i < 16; i++) *d++ = *s++;
  }
  if (n & 8) {
    for (int i = 0; i < 8; i++) *d++ = *s++;
  }
  if (n & 4) {
    *d++ = *s++;
    *d++ = *s++;
    *d++ = *s++;
    *d++ = *s++;
  }
  if (n & 2) {
    *d++ = *s++;
    *d++ = *s++;
  }
  if (n & 1) *d = *s;
  return dest;
}

/* ---------------------------------------------------------------- the assembly implementations */

#define DECL_FAMILY(fam)                                   \
  void* cal_memcpy_##fam##_m1(void*, const void*, size_t); \
  void* cal_memcpy_##fam##_m2(void*, const void*, size_t); \
  void* cal_memcpy_##fam##_m4(void*, const void*, size_t); \
  void* cal_memcpy_##fam##_m8(void*, const void*, size_t);
DECL_FAMILY(rvv)
DECL_FAMILY(rvv_align_dest)
DECL_FAMILY(rvv_align_src)
DECL_FAMILY(rvv_align_dest_hybrid)
DECL_FAMILY(rvv_vlmax)
DECL_FAMILY(rvv_tail)
DECL_FAMILY(rvv_128)

#define FAMILY(fam)                                                                                                \
  {#fam "_m1", cal_memcpy_##fam##_m1}, {#fam "_m2", cal_memcpy_##fam##_m2}, {#fam "_m4", cal_memcpy_##fam##_m4}, { \
    #fam "_m8", cal_memcpy_##fam##_m8                                                                              \
  }

static const struct {
  const char* name;
  memcpy_fn fn;
} IMPLS[] = {
    {"musl", memcpy_musl},  {"scalar", memcpy_scalar}, FAMILY(rvv),
    FAMILY(rvv_align_dest), FAMILY(rvv_align_src),     FAMILY(rvv_align_dest_hybrid),
    FAMILY(rvv_vlmax),      FAMILY(rvv_tail),          FAMILY(rvv_128),
};
#define NIMPLS (sizeof IMPLS / sizeof IMPLS[0])

/* ---------------------------------------------------------------- harness (the rest: bench_harness.h) */

static const char* impl_name(size_t i) {
  return i < NIMPLS ? IMPLS[i].name : NULL;
}

static memcpy_fn volatile g_fn; /* read inside the region: the call is indirect, as on the board */
static volatile uintptr_t g_sink;

int main(int argc, char** argv) {
  unsigned char selected[NIMPLS];
  const struct bench_args a =
      parse_args(argc, argv, SRC_DISTANCE - 2 * MAX_OFF - 4096, "N must be in 1 .. 64 MiB - 4606", selected);
  const size_t n = a.n;
  unsigned char* mem = alloc_arena();

  /* every source byte a call of this size may read: mem + 64 MiB + [9, 9 + 2*255 + n) */
  rng_seed(a.size_seed);
  {
    unsigned char* p = mem + SRC_DISTANCE;
    size_t len = GUARD + 2 * MAX_OFF + n + 64;
    for (size_t i = 0; i < len; i += 8) {
      uint64_t r = rng_next();
      memcpy(p + i, &r, 8);
    }
  }

  for (size_t i = 0; i < NIMPLS; i++) {
    if (!selected[i]) continue;
    start_impl(IMPLS[i].name, &a);
    g_fn = IMPLS[i].fn;

    for (size_t call = 0; call <= a.timed; call++) { /* call 0: untimed validation + warm-up */
      size_t doff = 0, soff = 0;
      if (!a.aligned) {
        doff = rng_next() & MAX_OFF;
        soff = rng_next() & MAX_OFF;
      }
      unsigned char* dst = mem + doff;
      const unsigned char* src = dst + SRC_DISTANCE + soff + GUARD;
      fill_bytes(dst, 0, n + GUARD);

      if (call == 0) {
        struct pre_guard before;
        save_pre_guard(&before, dst, doff);
        g_sink = (uintptr_t)g_fn(dst, src, n);
        const char* what = NULL;
        size_t at = 0;
        if (memcmp(dst, src, n)) {
          what = "wrong bytes copied";
          while (at < n && dst[at] == src[at]) at++;
        } else {
          what = check_guards(dst, n, &before, 0, &at);
        }
        if (what) validation_failed(IMPLS[i].name, &a, what, at, "dOff %zu, sOff %zu", doff, soff);
        continue;
      }

      EOK_REGION_BEGIN();
      g_sink = (uintptr_t)g_fn(dst, src, n);
      EOK_REGION_END();
    }
  }
  printf("done\n");
  return 0;
}
