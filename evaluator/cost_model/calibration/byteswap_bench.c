/*
 * byteswap_bench.c: a held-out check of the X60 memory model, "byteswap32" benchmark (every 32-bit word of
 * an array byte-reversed in place).
 *
 * Never used to fit the model: check_heldout.py runs it through `eok measure` and compares the modeled
 * speed with rvv-bench's published X60 page of the same benchmark. It reproduces what rvv-bench
 * (camel-cdr/rvv-bench, the version of that page: byte-index vrgather) timed there; it was written from a
 * description of that benchmark's protocol and loops, in C with RVV intrinsics; no rvv-bench code was copied.
 *
 *   byteswap_bench base N TIMED [IMPL...]   N: 32-bit words; TIMED: timed calls per impl
 *   byteswap_bench list                      print the implementation names, in run order
 *
 * Per selected implementation: "impl <name>" on stdout; one untimed call that validates the result and
 * warms up; then TIMED timed calls, each: fill p[0..n) with fresh pseudo-random words (untimed), then
 *   EOK_REGION_BEGIN(); fn(p, n); EOK_REGION_END();
 * p is the page-aligned start of the arena, as on the board.
 *
 * Implementations (the page's series):
 *   scalar                  four byte loads, four byte stores with a compiler barrier after each store
 *   scalar_autovec          the same without the barriers, as the compiler vectorizes it
 *   SWAR_rev8               one word at a time with rev8 (Zbb) and a barrier
 *   rvv_vrgather_m{1,2,4,8} e32 load, vrgather.vv over the group's bytes with a byte index, e32 store
 *   rvv_m1_vrgathers_m{2,4,8}  e32 load of a group, one m1 vrgather.vv per register, e32 store
 */
#define BENCH "byteswap_bench"
#include "bench_harness.h" /* MAX_MEM, SEED, BARRIER, the command line, rng, fill_random */

typedef void (*byteswap_fn)(uint32_t*, size_t);

__attribute__((noinline)) static void swap_scalar(uint32_t* p, size_t n) {
  for (unsigned char* b = (unsigned char*)p; n--; b += 4) {
    unsigned char b0 = b[0], b1 = b[1], b2 = b[2], b3 = b[3];
    b[3] = b0;
    BARRIER();
    b[2] = b1;
    BARRIER();
    b[1] = b2;
    BARRIER();
    b[0] = b3;
    BARRIER();
  }
}

__attribute__((noinline)) static void swap_autovec(uint32_t* p, size_t n) {
  for (unsigned char* b = (unsigned char*)p; n--; b += 4) {
    unsigned char b0 = b[0], b1 = b[1], b2 = b[2], b3 = b[3];
    b[3] = b0;
    b[2] = b1;
    b[1] = b2;
    b[0] = b3;
  }
}

__attribute__((noinline)) static void swap_rev8(uint32_t* p, size_t n) {
  for (; n--; p++) {
    *p = __builtin_bswap32(*p);
    BARRIER();
  }
}

/* byte index (i & ~3) + 3 - (i & 3): reverses the bytes of every 32-bit word */
#define BYTE_INDEX(L, vlmax)                                                                                           \
  __riscv_vadd_vv_u8##L(__riscv_vand_vx_u8##L(__riscv_vid_v_u8##L(vlmax), 0xfc, vlmax),                                \
                        __riscv_vrsub_vx_u8##L(__riscv_vand_vx_u8##L(__riscv_vid_v_u8##L(vlmax), 3, vlmax), 3, vlmax), \
                        vlmax)

/* L: the group LMUL of both the e32 data and the e8 gather */
#define SWAP_GATHER(L)                                                                        \
  __attribute__((noinline)) static void swap_vrgather_##L(uint32_t* p, size_t n) {            \
    size_t vlmax8 = __riscv_vsetvlmax_e8##L();                                                \
    vuint8##L##_t idx = BYTE_INDEX(L, vlmax8);                                                \
    while (n) {                                                                               \
      size_t vl = __riscv_vsetvl_e32##L(n);                                                   \
      vuint8##L##_t v = __riscv_vreinterpret_v_u32##L##_u8##L(__riscv_vle32_v_u32##L(p, vl)); \
      vuint8##L##_t r = __riscv_vrgather_vv_u8##L(v, idx, vl * 4);                            \
      __riscv_vse32_v_u32##L(p, __riscv_vreinterpret_v_u8##L##_u32##L(r), vl);                \
      p += vl;                                                                                \
      n -= vl;                                                                                \
    }                                                                                         \
  }
SWAP_GATHER(m1)
SWAP_GATHER(m2)
SWAP_GATHER(m4)
SWAP_GATHER(m8)

/* register k of the group gathered by the m1 index into register k of `out` */
#define PART(k) out = __riscv_vset(out, k, __riscv_vrgather(__riscv_vget_u8m1(v, k), idx, vlmax1))
#define SWAP_M1_GATHERS(L, BODY)                                                              \
  __attribute__((noinline)) static void swap_m1_vrgathers_##L(uint32_t* p, size_t n) {        \
    size_t vlmax1 = __riscv_vsetvlmax_e8m1();                                                 \
    vuint8m1_t idx = BYTE_INDEX(m1, vlmax1);                                                  \
    while (n) {                                                                               \
      size_t vl = __riscv_vsetvl_e32##L(n);                                                   \
      vuint8##L##_t v = __riscv_vreinterpret_v_u32##L##_u8##L(__riscv_vle32_v_u32##L(p, vl)); \
      vuint8##L##_t out = __riscv_vundefined_u8##L();                                         \
      BODY;                                                                                   \
      __riscv_vse32_v_u32##L(p, __riscv_vreinterpret_v_u8##L##_u32##L(out), vl);              \
      p += vl;                                                                                \
      n -= vl;                                                                                \
    }                                                                                         \
  }
SWAP_M1_GATHERS(m2, PART(0); PART(1))
SWAP_M1_GATHERS(m4, PART(0); PART(1); PART(2); PART(3))
SWAP_M1_GATHERS(m8, PART(0); PART(1); PART(2); PART(3); PART(4); PART(5); PART(6); PART(7))

static const struct {
  const char* name;
  byteswap_fn fn;
} IMPLS[] = {
    {"scalar", swap_scalar},
    {"scalar_autovec", swap_autovec},
    {"SWAR_rev8", swap_rev8},
    {"rvv_vrgather_m1", swap_vrgather_m1},
    {"rvv_vrgather_m2", swap_vrgather_m2},
    {"rvv_vrgather_m4", swap_vrgather_m4},
    {"rvv_vrgather_m8", swap_vrgather_m8},
    {"rvv_m1_vrgathers_m2", swap_m1_vrgathers_m2},
    {"rvv_m1_vrgathers_m4", swap_m1_vrgathers_m4},
    {"rvv_m1_vrgathers_m8", swap_m1_vrgathers_m8},
};
#define NIMPLS (sizeof IMPLS / sizeof IMPLS[0])

static const char* impl_name(size_t i) {
  return i < NIMPLS ? IMPLS[i].name : NULL;
}

static byteswap_fn volatile g_fn; /* read inside the region: the call is indirect, as on the board */

int main(int argc, char** argv) {
  unsigned char selected[NIMPLS];
  const struct bench_args a = parse_args(argc, argv, MAX_MEM / 4, "N must be in 1 .. 32 Mi words", selected);
  const size_t n = a.n;
  uint32_t* p = (uint32_t*)alloc_arena();
  uint32_t* want = malloc(n * sizeof *want);
  if (!want) die("cannot allocate the validation copy");

  for (size_t i = 0; i < NIMPLS; i++) {
    if (!selected[i]) continue;
    start_impl(IMPLS[i].name, &a);
    g_fn = IMPLS[i].fn;
    for (size_t call = 0; call <= a.timed; call++) { /* call 0: untimed validation + warm-up */
      fill_random(p, n * sizeof *p);
      if (call == 0) {
        for (size_t k = 0; k < n; k++) want[k] = __builtin_bswap32(p[k]);
        g_fn(p, n);
        for (size_t k = 0; k < n; k++)
          if (p[k] != want[k]) validation_failed(IMPLS[i].name, &a, "wrong word", k * 4, "word %zu", k);
        continue;
      }
      EOK_REGION_BEGIN();
      g_fn(p, n);
      EOK_REGION_END();
    }
  }
  printf("done\n");
  return 0;
}
