/*
 * memset_bench.c: eok's own calibration program for the X60 memory model, "memset" benchmark.
 *
 * It reproduces, under `eok measure`, what rvv-bench (camel-cdr/rvv-bench @ e1b462f) timed on a SpacemiT
 * X60 (../shared/data/x60/rvv-bench-x60-kernels.json next to the eok checkout). It was written from a prose description of
 * rvv-bench's protocol and loops; no rvv-bench code was copied.
 *
 *   memset_bench CHART N TIMED [IMPL...]     CHART: base | aligned; N: bytes; TIMED: timed calls per impl
 *   memset_bench list                         print the implementation names, in run order
 *
 * For each selected implementation, in the fixed order of IMPLS[] (no IMPL argument: all of them):
 *   - print "impl <name>" on stdout;
 *   - one untimed call that validates the result (dst[0..n) == c, the 9 guard bytes dst[n..n+9) still
 *     c+3 and up to 16 bytes before dst untouched; a mismatch aborts) and doubles as the warm-up;
 *   - TIMED timed calls, each one exactly:  pick the offset, pre-fill dst[0..n+9) with c+3 (untimed), then
 *       EOK_REGION_BEGIN(); sink = fn(dst, c, n); EOK_REGION_END();
 *     with fn read from a volatile function pointer, so the indirect call is inside the region as it was
 *     inside rvv-bench's cycle-counter window.
 * So the program ends exactly (#impls x TIMED) regions, in impl order.
 *
 * Memory, as rvv-bench laid it out: one arena of 128 MiB + 4096 bytes rounded up to a page; dst = mem + off.
 * base chart: off uniform in 0..511, drawn for every call; aligned chart: off = 0 (dst page-aligned). The
 * fill byte c is one fixed pseudo-random byte per run. Offsets come from a fixed-seed PRNG that restarts
 * for every implementation, so all implementations see the same offsets. Unlike rvv-bench, the arena is
 * not pre-touched as a whole (too slow under emulation): dst is touched by its per-call pre-fill.
 *
 * Implementations (the data's series minus two):
 *   musl                    our C rendering of musl's memset algorithm (the 64-bit variant)
 *   scalar                  byte loop with an empty asm memory barrier after every byte
 *   rvv_m{1,2,4,8} rvv_align_* rvv_vlmax_* rvv_tail_* rvv_tail_4x_*   hand-written assembly, memset_impls.S
 * Skipped: `libc` and `scalar_autovec` (on the board the latter compiled to a call of libc memset): the
 * board's glibc (version, IFUNC choice) is unknown, so there is nothing faithful to run here.
 *
 * Build (run_calibration.py does this):
 *   clang-22 --target=riscv64-linux-gnu -march=rv64gcv_zba_zbb_zbs -mcpu=spacemit-x60 -O3 -static \
 *            -fuse-ld=lld -I evaluator/target memset_bench.c memset_impls.S -o memset_bench
 */
#define BENCH "memset_bench"
#include "bench_harness.h" /* MAX_MEM, GUARD, PRE_GUARD, SEED, BARRIER, the command line, rng, fill_bytes */

#define MAX_OFF 511 /* base chart: off in 0..511 */

typedef void* (*memset_fn)(void*, int, size_t);

/* ---------------------------------------------------------------- the C implementations */

/* scalar: one byte per iteration; the barrier keeps the compiler from vectorizing the loop or turning it
 * into a memset call. */
__attribute__((noinline)) static void* memset_scalar(void* dest, int c, size_t n) {
  unsigned char* d = dest;
  while (n--) {
    *d++ = (unsigned char)c;
    BARRIER();
  }
  return dest;
}

/* musl: our rendering of musl's memset algorithm (the variant for 64-bit targets). no_builtin keeps clang
 * from replacing its loop by a call to the (unknown) libc memset; it may still vectorize or unroll it. */
typedef uint32_t __attribute__((__may_alias__)) u32a;
typedef uint64_t __attribute__((__may_alias__)) u64a;

__attribute__((noinline, no_builtin("memset"))) static void* memset_musl(void* dest, int c, size_t n) {
  unsigned char* s = dest;
  size_t k;

  /* 1-2. head and tail bytes; small n is done here */
  if (!n) return dest;
  s[0] = (unsigned char)c;
  s[n - 1] = (unsigned char)c;
  if (n <= 2) return dest;
  s[1] = (unsigned char)c;
  s[2] = (unsigned char)c;
  s[n - 2] = (unsigned char)c;
  s[n - 3] = (unsigned char)c;
  if (n <= 6) return dest;
  s[3] = (unsigned char)c;
  s[n - 4] = (unsigned char)c;
  if (n <= 8) return dest;

  /* 3. align s to 4, round n down to a multiple of 4 */
  k = -(uintptr_t)s & 3;
  s += k;
  n -= k;
  n &= -(size_t)4;

  /* 4. head and tail words */
  uint32_t c32 = ((uint32_t)-1) / 255 * (unsigned char)c;
  *(u32a*)(s + 0) = c32;
  *(u32a*)(s + n - 4) = c32;
  if (n <= 8) return dest;
  *(u32a*)(s + 4) = c32;
  *(u32a*)(s + 8) = c32;
  *(u32a*)(s + n - 12) = c32;
  *(u32a*)(s + n - 8) = c32;
  if (n <= 24) return dest;
  *(u32a*)(s + 12) = c32;
  *(u32a*)(s + 16) = c32;
  *(u32a*)(s + 20) = c32;
  *(u32a*)(s + 24) = c32;
  *(u32a*)(s + n - 28) = c32;
  *(u32a*)(s + n - 24) = c32;
  *(u32a*)(s + n - 20) = c32;
  *(u32a*)(s + n - 16) = c32;

  /* 5. advance so that s is 8-aligned; the bytes skipped and the last bytes are already stored */
  k = 24 + ((uintptr_t)s & 4);
  s += k;
  n -= k;

  /* 6. 32 bytes per iteration as four 64-bit stores */
  uint64_t c64 = c32 | ((uint64_t)c32 << 32);
  for (; n >= 32; n -= 32, s += 32) {
    *(u64a*)(s + 0) = c64;
    *(u64a*)(s + 8) = c64;
    *(u64a*)(s + 16) = c64;
    *(u64a*)(s + 24) = c64;
  }
  return dest;
}

/* ---------------------------------------------------------------- the assembly implementations */

#define DECL_FAMILY(fam)                           \
  void* cal_memset_##fam##_m1(void*, int, size_t); \
  void* cal_memset_##fam##_m2(void*, int, size_t); \
  void* cal_memset_##fam##_m4(void*, int, size_t); \
  void* cal_memset_##fam##_m8(void*, int, size_t);
DECL_FAMILY(rvv)
DECL_FAMILY(rvv_align)
DECL_FAMILY(rvv_vlmax)
DECL_FAMILY(rvv_tail)
DECL_FAMILY(rvv_tail_4x)

#define FAMILY(fam)                                                                                                \
  {#fam "_m1", cal_memset_##fam##_m1}, {#fam "_m2", cal_memset_##fam##_m2}, {#fam "_m4", cal_memset_##fam##_m4}, { \
    #fam "_m8", cal_memset_##fam##_m8                                                                              \
  }

static const struct {
  const char* name;
  memset_fn fn;
} IMPLS[] = {
    {"musl", memset_musl}, {"scalar", memset_scalar}, FAMILY(rvv),         FAMILY(rvv_align),
    FAMILY(rvv_vlmax),     FAMILY(rvv_tail),          FAMILY(rvv_tail_4x),
};
#define NIMPLS (sizeof IMPLS / sizeof IMPLS[0])

/* ---------------------------------------------------------------- harness (the rest: bench_harness.h) */

static const char* impl_name(size_t i) {
  return i < NIMPLS ? IMPLS[i].name : NULL;
}

static memset_fn volatile g_fn; /* read inside the region: the call is indirect, as on the board */
static volatile uintptr_t g_sink;

int main(int argc, char** argv) {
  unsigned char selected[NIMPLS];
  const struct bench_args a =
      parse_args(argc, argv, MAX_MEM - MAX_OFF - GUARD - 1, "N must be in 1 .. 128 MiB - 521", selected);
  const size_t n = a.n;
  unsigned char* mem = alloc_arena();

  rng_seed(SEED);
  const int c = (int)(rng_next() & 255); /* one fill byte for the whole run, as rvv-bench's init() */
  const unsigned char cb = (unsigned char)c, guard = (unsigned char)(c + 3);

  for (size_t i = 0; i < NIMPLS; i++) {
    if (!selected[i]) continue;
    start_impl(IMPLS[i].name, &a);
    g_fn = IMPLS[i].fn;

    for (size_t call = 0; call <= a.timed; call++) { /* call 0: untimed validation + warm-up */
      size_t off = a.aligned ? 0 : (rng_next() & MAX_OFF);
      unsigned char* dst = mem + off;
      fill_bytes(dst, guard, n + GUARD);

      if (call == 0) {
        struct pre_guard before;
        save_pre_guard(&before, dst, off);
        g_sink = (uintptr_t)g_fn(dst, c, n);
        const char* what = NULL;
        size_t at;
        for (at = 0; at < n; at++)
          if (dst[at] != cb) {
            what = "wrong byte stored";
            break;
          }
        if (!what) what = check_guards(dst, n, &before, guard, &at);
        if (what) validation_failed(IMPLS[i].name, &a, what, at, "off %zu, c 0x%02x", off, (unsigned)cb);
        continue;
      }

      EOK_REGION_BEGIN();
      g_sink = (uintptr_t)g_fn(dst, c, n);
      EOK_REGION_END();
    }
  }
  printf("done\n");
  return 0;
}
