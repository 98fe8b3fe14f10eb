/*
 * LUT4_bench.c: a held-out check of the X60 memory model, "LUT4" benchmark (every byte b of an array
 * replaced in place by lut[b & 15], a 16-entry table).
 *
 * Never used to fit the model: check_heldout.py runs it through `eok measure` and compares the modeled
 * speed with rvv-bench's published X60 page of the same benchmark. It reproduces what rvv-bench
 * (camel-cdr/rvv-bench) timed there; it was written from a description of that benchmark's protocol and
 * loops, in C and assembly (LUT4_impls.S); no rvv-bench code was copied.
 *
 *   LUT4_bench base N TIMED [IMPL...]   N: bytes; TIMED: timed calls per impl
 *   LUT4_bench list                      print the implementation names, in run order
 *
 * Per selected implementation: "impl <name>" on stdout; one untimed call that validates the result and
 * warms up; then TIMED timed calls, each: fill p[0..n) with fresh pseudo-random bytes (untimed), then
 *   EOK_REGION_BEGIN(); fn(lut, p, n); EOK_REGION_END();
 * p is the page-aligned start of the arena, as on the board.
 *
 * Implementations (the page's series but the compiler-vectorized one):
 *   scalar                        byte loop with a compiler barrier after every byte
 *   rvv_vrgather_m{1,2,4,8}       table in one register, vrgather.vv over the group
 *   rvv_m1_vrgathers_m{2,4,8}     a group loaded and stored at once, one m1 vrgather.vv per register
 *   rvv_vluxei8_m{1,2,4,8}, rvv_vloxei8_m{1,2,4,8}   the lookup as an indexed load from the table
 */
#define BENCH "LUT4_bench"
#include "bench_harness.h" /* MAX_MEM, SEED, BARRIER, the command line, rng, fill_random */

typedef void (*lut_fn)(const uint8_t*, uint8_t*, size_t);

__attribute__((noinline)) static void lut_scalar(const uint8_t* lut, uint8_t* p, size_t n) {
  while (n--) {
    *p = lut[*p & 15];
    p++;
    BARRIER();
  }
}

#define DECL_FAMILY(fam)                                      \
  void cal_lut4_##fam##_m1(const uint8_t*, uint8_t*, size_t); \
  void cal_lut4_##fam##_m2(const uint8_t*, uint8_t*, size_t); \
  void cal_lut4_##fam##_m4(const uint8_t*, uint8_t*, size_t); \
  void cal_lut4_##fam##_m8(const uint8_t*, uint8_t*, size_t);
DECL_FAMILY(rvv_vrgather)
DECL_FAMILY(rvv_vluxei8)
DECL_FAMILY(rvv_vloxei8)
void cal_lut4_rvv_m1_vrgathers_m2(const uint8_t*, uint8_t*, size_t);
void cal_lut4_rvv_m1_vrgathers_m4(const uint8_t*, uint8_t*, size_t);
void cal_lut4_rvv_m1_vrgathers_m8(const uint8_t*, uint8_t*, size_t);

#define FAMILY(name, fn)                                                 \
  {name "_m1", fn##_m1}, {name "_m2", fn##_m2}, {name "_m4", fn##_m4}, { \
    name "_m8", fn##_m8                                                  \
  }

static const struct {
  const char* name;
  lut_fn fn;
} IMPLS[] = {
    {"scalar", lut_scalar},
    FAMILY("rvv_vrgather", cal_lut4_rvv_vrgather),
    {"rvv_m1_vrgathers_m2", cal_lut4_rvv_m1_vrgathers_m2},
    {"rvv_m1_vrgathers_m4", cal_lut4_rvv_m1_vrgathers_m4},
    {"rvv_m1_vrgathers_m8", cal_lut4_rvv_m1_vrgathers_m8},
    FAMILY("rvv_vluxei8", cal_lut4_rvv_vluxei8),
    FAMILY("rvv_vloxei8", cal_lut4_rvv_vloxei8),
};
#define NIMPLS (sizeof IMPLS / sizeof IMPLS[0])

static const char* impl_name(size_t i) {
  return i < NIMPLS ? IMPLS[i].name : NULL;
}

static lut_fn volatile g_fn; /* read inside the region: the call is indirect, as on the board */

/* the board's table: four fixed 32-bit words, little-endian */
static const uint32_t LUT_WORDS[4] = {0x4564907f, 0xb8ce2de0, 0xc0f7adf8, 0xa048aa9f};

int main(int argc, char** argv) {
  unsigned char selected[NIMPLS];
  const struct bench_args a = parse_args(argc, argv, MAX_MEM, "N must be in 1 .. 128 MiB", selected);
  const size_t n = a.n;
  uint8_t* p = alloc_arena();
  uint8_t lut[16], *want = malloc(n);
  memcpy(lut, LUT_WORDS, 16);
  if (!want) die("cannot allocate the validation copy");
  for (size_t i = 0; i < NIMPLS; i++) {
    if (!selected[i]) continue;
    start_impl(IMPLS[i].name, &a);
    g_fn = IMPLS[i].fn;
    for (size_t call = 0; call <= a.timed; call++) { /* call 0: untimed validation + warm-up */
      fill_random(p, n);
      if (call == 0) {
        for (size_t k = 0; k < n; k++) want[k] = lut[p[k] & 15];
        g_fn(lut, p, n);
        for (size_t k = 0; k < n; k++)
          if (p[k] != want[k]) validation_failed(IMPLS[i].name, &a, "wrong byte", k, "lut[%u]", want[k]);
        continue;
      }
      EOK_REGION_BEGIN();
      g_fn(lut, p, n);
      EOK_REGION_END();
    }
  }
  printf("done\n");
  return 0;
}
