/*
 * bench_harness.h: the harness the calibration programs (memcpy_bench.c, memset_bench.c) and the held-out
 * ones (memreverse_bench.c, byteswap_bench.c, utf8_count_bench.c, LUT4_bench.c) share: the memory
 * constants, the offsets PRNG, the untimed pre-fill, the command line (CHART N TIMED [IMPL...] | list), the arena, the start of
 * each implementation's calls, and the pieces of the validating call that do not depend on what the
 * implementation does. Static functions only: each program includes it once.
 *
 * Contract with the including program:
 *   - define BENCH, its name as a string literal ("memcpy_bench"), before the #include; every message
 *     starts with it;
 *   - define  static const char *impl_name(size_t i)  returning the name of IMPLS[i], NULL for i >= NIMPLS
 *     (it is declared here, so it may come after the IMPLS[] table).
 */
#ifndef EOK_CALIBRATION_BENCH_HARNESS_H
#define EOK_CALIBRATION_BENCH_HARNESS_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eok_region.h"

#if defined(__riscv_vector)
#include <riscv_vector.h>
#endif

#define MAX_MEM ((size_t)128 << 20) /* rvv-bench's MAX_MEM for the X60 run */
#define GUARD 9                     /* bytes past n that must stay untouched */
#define PRE_GUARD 16                /* bytes before dst that must stay untouched (our addition) */
#define SEED 0x5eed0e0bca11b8a7ull

#define BARRIER() __asm__ volatile("" ::: "memory")

static const char* impl_name(size_t i); /* the program's, see the contract above */

/* xorshift64* with a splitmix64 seeding step: small, deterministic, good enough for offsets and fill */
static uint64_t rng_state;
static void rng_seed(uint64_t seed) {
  uint64_t z = seed + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  rng_state = (z ^ (z >> 31)) | 1;
}
static uint64_t rng_next(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545f4914f6cdd1dull;
}

/* exactly n pseudo-random bytes at p, from the PRNG above, 8 at a time (untimed fills of the held-out programs) */
__attribute__((unused)) static void fill_random(void* p, size_t n) {
  unsigned char* b = p;
  for (size_t i = 0; i < n; i += 8) {
    uint64_t r = rng_next();
    memcpy(b + i, &r, n - i < 8 ? n - i : 8);
  }
}

/* the untimed pre-fill: our own vector memset, so no libc code of unknown shape runs between regions */
__attribute__((noinline, unused)) static void fill_bytes(unsigned char* p, int c, size_t n) {
#if defined(__riscv_vector)
  size_t vlmax = __riscv_vsetvlmax_e8m8();
  vuint8m8_t v = __riscv_vmv_v_x_u8m8((uint8_t)c, vlmax);
  while (n) {
    size_t vl = __riscv_vsetvl_e8m8(n);
    __riscv_vse8_v_u8m8(p, v, vl);
    p += vl;
    n -= vl;
  }
#else
  while (n--) {
    *p++ = (unsigned char)c;
    BARRIER();
  }
#endif
}

/* "BENCH: msg" on stderr (after what stdout holds so far), exit 2 */
__attribute__((noreturn)) static void die(const char* msg) {
  fflush(stdout);
  fprintf(stderr, BENCH ": %s\n", msg);
  exit(2);
}

/* the usage and the implementation names on stderr, exit 2 */
__attribute__((noreturn)) static void usage(void) {
  fprintf(stderr, "usage: " BENCH
                  " CHART N TIMED [IMPL...]   (CHART: base | aligned)\n"
                  "       " BENCH " list\nimplementations:");
  for (size_t i = 0; impl_name(i); i++) fprintf(stderr, " %s", impl_name(i));
  fprintf(stderr, "\n");
  exit(2);
}

/* a whole-string unsigned number (strtoull base 0: decimal, 0x.., 0..) into *out; 0 if text is not one */
static int parse_size(const char* text, size_t* out) {
  char* end;
  unsigned long long v = strtoull(text, &end, 0);
  if (end == text || *end) return 0;
  *out = (size_t)v;
  return 1;
}

/* ---------------------------------------------------------------- command line and arena */

struct bench_args {
  const char* chart;  /* argv[1], "base" or "aligned" */
  int aligned;        /* chart == "aligned" */
  size_t n, timed;    /* bytes per call, timed calls per implementation */
  uint64_t size_seed; /* seeds what depends on (chart, n); size_seed + 1 restarts the offsets per impl */
};

/* The command line. `list` prints the implementation names and exits 0; a bad command line goes to usage();
 * N outside 1..max_n dies with n_range_msg. selected[i] (one flag per implementation) is set for every IMPL
 * argument, or for all implementations when there is none. */
static struct bench_args parse_args(int argc, char** argv, size_t max_n, const char* n_range_msg,
                                    unsigned char* selected) {
  size_t nimpls = 0;
  while (impl_name(nimpls)) nimpls++;
  if (argc == 2 && !strcmp(argv[1], "list")) {
    for (size_t i = 0; i < nimpls; i++) printf("%s\n", impl_name(i));
    exit(0);
  }
  if (argc < 4) usage();
  struct bench_args a;
  a.chart = argv[1];
  if (!strcmp(argv[1], "base"))
    a.aligned = 0;
  else if (!strcmp(argv[1], "aligned"))
    a.aligned = 1;
  else
    usage();
  if (!parse_size(argv[2], &a.n) || !parse_size(argv[3], &a.timed)) usage();
  if (a.n < 1 || a.n > max_n) die(n_range_msg);

  /* the selected implementations, always in the fixed IMPLS[] order */
  memset(selected, argc == 4, nimpls);
  for (int arg = 4; arg < argc; arg++) {
    size_t i = 0;
    while (i < nimpls && strcmp(impl_name(i), argv[arg])) i++;
    if (i == nimpls) {
      fprintf(stderr, BENCH ": unknown implementation '%s'\n", argv[arg]);
      usage();
    }
    selected[i] = 1;
  }
  a.size_seed = SEED ^ ((uint64_t)a.n * 0x100000001b3ull) ^ (a.aligned ? 0xa11a11a11ull : 0);
  return a;
}

/* the page-aligned start of a fresh MAX_MEM arena (not touched here); dies if it cannot be allocated */
static unsigned char* alloc_arena(void) {
  unsigned char* arena = malloc(MAX_MEM + 4096);
  if (!arena) die("cannot allocate the 128 MiB arena");
  return (unsigned char*)(((uintptr_t)arena + 4095) & ~(uintptr_t)4095);
}

/* before an implementation's calls: "impl <name>" on stdout (flushed, so it stays in order with the regions
 * and any message), and the offsets PRNG restarted, so every implementation sees the same offsets */
static void start_impl(const char* name, const struct bench_args* a) {
  printf("impl %s\n", name);
  fflush(stdout);
  rng_seed(a->size_seed + 1);
}

/* ---------------------------------------------------------------- the validating call */

/* the up to PRE_GUARD bytes just before dst, saved before the validating call */
struct pre_guard {
  size_t len;
  unsigned char bytes[PRE_GUARD];
};
__attribute__((unused)) static void save_pre_guard(struct pre_guard* g, const unsigned char* dst, size_t off) {
  g->len = off < PRE_GUARD ? off : PRE_GUARD;
  memcpy(g->bytes, dst - g->len, g->len);
}

/* After the validating call: the bytes before dst as saved in *g, and the GUARD bytes dst[n..n+GUARD) still
 * `fill`. NULL if so; else what went wrong, with *at = the first changed byte past n (*at is left alone when
 * a byte before dst changed). */
__attribute__((unused)) static const char* check_guards(const unsigned char* dst, size_t n, const struct pre_guard* g,
                                                        unsigned char fill, size_t* at) {
  if (memcmp(g->bytes, dst - g->len, g->len)) return "wrote before dst";
  for (size_t i = n; i < n + GUARD; i++)
    if (dst[i] != fill) {
      *at = i;
      return "wrote past dst + n";
    }
  return NULL;
}

/* "BENCH: VALIDATION FAILED: impl I, chart C, n N, <where>: <what> (byte <at>)" on stderr, exit 3; `where`
 * (a printf format and its arguments) names the call's offsets and data. NO_BYTE as `at`: a result that is
 * not a byte of memory (a count), and no "(byte ...)". */
#define NO_BYTE ((size_t)-1)
__attribute__((noreturn, format(printf, 5, 6))) static void validation_failed(const char* impl,
                                                                              const struct bench_args* a,
                                                                              const char* what, size_t at,
                                                                              const char* where, ...) {
  fflush(stdout);
  fprintf(stderr, BENCH ": VALIDATION FAILED: impl %s, chart %s, n %zu, ", impl, a->chart, a->n);
  va_list ap;
  va_start(ap, where);
  vfprintf(stderr, where, ap);
  va_end(ap);
  if (at == NO_BYTE)
    fprintf(stderr, ": %s\n", what);
  else
    fprintf(stderr, ": %s (byte %zu)\n", what, at);
  exit(3);
}

#endif
