/*
 * utf8_count_bench.c: a held-out check of the X60 memory model, "utf8 count" benchmark (the code points of
 * a byte string: the bytes that are not UTF-8 continuation bytes 10xxxxxx).
 *
 * Never used to fit the model: check_heldout.py runs it through `eok measure` and compares the modeled
 * speed with rvv-bench's published X60 page of the same benchmark. It reproduces what rvv-bench
 * (camel-cdr/rvv-bench) timed there; it was written from a description of that benchmark's protocol and
 * loops, in C and assembly; no rvv-bench code was copied.
 *
 *   utf8_count_bench base N TIMED [IMPL...]   N: bytes; TIMED: timed calls per impl
 *   utf8_count_bench list                      print the implementation names, in run order
 *
 * Per selected implementation: "impl <name>" on stdout; one untimed call that validates the count and
 * warms up; then TIMED timed calls, each: pick an offset (uniform 0..511), fill str[0..n+9) with fresh
 * pseudo-random bytes (untimed), then  EOK_REGION_BEGIN(); sink = fn(str, n); EOK_REGION_END();
 *
 * Implementations (a subset of the page's series, one of each kind of loop):
 *   scalar                  byte loop with a compiler barrier after every byte
 *   SWAR_popc               8 bytes per step with cpop (Zbb), a barrier after every step
 *   rvv_m{1,2,4,8}          vsetvli, load, compare, vcpop per strip
 *   rvv_vlmax_m{1,2,4,8}    a first strip of n mod VLMAX, then whole VLMAX strips (vsetvli at the bottom)
 *   rvv_4x_m{1,2,4,8}       four strips per iteration, each with its own vsetvli
 * The RVV loops are assembly (utf8_count_impls.S): compiled from intrinsics, their vsetvli placement is
 * the compiler's, not the page's.
 */
#define BENCH "utf8_count_bench"
#include "bench_harness.h" /* MAX_MEM, SEED, BARRIER, the command line, rng, fill_random */

#define MAX_OFF 511

typedef size_t (*count_fn)(const unsigned char*, size_t);

static size_t reference_count(const unsigned char* s, size_t n) {
  size_t c = 0;
  for (size_t i = 0; i < n; i++) c += (s[i] & 0xc0) != 0x80;
  return c;
}

__attribute__((noinline)) static size_t count_scalar(const unsigned char* s, size_t n) {
  size_t c = 0;
  while (n--) {
    c += (*s++ & 0xc0) != 0x80;
    BARRIER();
  }
  return c;
}

/* a byte is a code point's first byte when bit 7 is clear or bit 6 is set */
__attribute__((noinline)) static size_t count_swar_popc(const unsigned char* s, size_t n) {
  size_t c = 0;
  while (n && ((uintptr_t)s & 7)) {
    c += (*s++ & 0xc0) != 0x80;
    n--;
    BARRIER();
  }
  for (; n >= 8; n -= 8, s += 8) {
    uint64_t w;
    memcpy(&w, s, 8);
    c += (size_t)__builtin_popcountll((~w & 0x8080808080808080ull) >> 1 | (w & 0x4040404040404040ull));
    BARRIER();
  }
  while (n--) {
    c += (*s++ & 0xc0) != 0x80;
    BARRIER();
  }
  return c;
}

/* the assembly loops, utf8_count_impls.S */
#define DECL_FAMILY(fam)                                          \
  size_t cal_utf8_count_##fam##_m1(const unsigned char*, size_t); \
  size_t cal_utf8_count_##fam##_m2(const unsigned char*, size_t); \
  size_t cal_utf8_count_##fam##_m4(const unsigned char*, size_t); \
  size_t cal_utf8_count_##fam##_m8(const unsigned char*, size_t);
DECL_FAMILY(rvv)
DECL_FAMILY(rvv_vlmax)
DECL_FAMILY(rvv_4x)

#define FAMILY(name, fn)                                                 \
  {name "_m1", fn##_m1}, {name "_m2", fn##_m2}, {name "_m4", fn##_m4}, { \
    name "_m8", fn##_m8                                                  \
  }

static const struct {
  const char* name;
  count_fn fn;
} IMPLS[] = {
    {"scalar", count_scalar},
    {"SWAR_popc", count_swar_popc},
    FAMILY("rvv", cal_utf8_count_rvv),
    FAMILY("rvv_vlmax", cal_utf8_count_rvv_vlmax),
    FAMILY("rvv_4x", cal_utf8_count_rvv_4x),
};
#define NIMPLS (sizeof IMPLS / sizeof IMPLS[0])

static const char* impl_name(size_t i) {
  return i < NIMPLS ? IMPLS[i].name : NULL;
}

static count_fn volatile g_fn; /* read inside the region: the call is indirect, as on the board */
static volatile size_t g_sink;

int main(int argc, char** argv) {
  unsigned char selected[NIMPLS];
  const struct bench_args a =
      parse_args(argc, argv, MAX_MEM - MAX_OFF - GUARD, "N must be in 1 .. 128 MiB - 520", selected);
  const size_t n = a.n;
  unsigned char* mem = alloc_arena();
  for (size_t i = 0; i < NIMPLS; i++) {
    if (!selected[i]) continue;
    start_impl(IMPLS[i].name, &a);
    g_fn = IMPLS[i].fn;
    for (size_t call = 0; call <= a.timed; call++) { /* call 0: untimed validation + warm-up */
      const size_t off = rng_next() & MAX_OFF;
      const unsigned char* s = mem + off;
      fill_random((unsigned char*)s, n + GUARD);
      if (call == 0) {
        size_t got = g_fn(s, n), want = reference_count(s, n);
        if (got != want)
          validation_failed(IMPLS[i].name, &a, "wrong count", NO_BYTE, "off %zu, counted %zu, want %zu", off, got,
                            want);
        continue;
      }
      EOK_REGION_BEGIN();
      g_sink = g_fn(s, n);
      EOK_REGION_END();
    }
  }
  printf("done\n");
  return 0;
}
