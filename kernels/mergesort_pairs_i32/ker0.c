// Stable sort of int32 keys with int32 values (bottom-up merge sort, moderngpu-style), RVV.
// 1. Block sort: every 8 consecutive elements are one column of an 8 x C register tile (C = 8 lanes of
//    e64m2). Keys become 64-bit composites (key biased to unsigned << 32 | original index), which are all
//    distinct, so the optimal 19-comparator network (vminu/vmaxu between registers, no permutes) sorts
//    each column stably; values are then gathered through the index in the low half. Indexed loads and
//    stores with a column stride move the tile in and out.
// 2. Merge passes over runs of 8, 16, 32, ...: the output of a pass is cut into pieces of S outputs
//    (S = min(2w, PIECE)), a group of L = vlmax consecutive pieces is merged in lock step, one output per
//    lane per step: compare, vmin/vmerge the key, one gather of the value through the chosen index, scatter
//    key and value; the keys after the current ones are gathered a step ahead, so the loop-carried chain
//    is just compare -> vmerge. A vectorised merge-path binary search places every piece in its pair of
//    runs. Steps run in chunks; a chunk needs no bound checks when every lane has more than a chunk left
//    in both of its runs (one vredminu per chunk). Consecutive pieces keep the lanes' streams in distinct
//    L1 sets (pieces a power of two apart would thrash the 4-way L1).
// Ping-pong between keys_out/vals_out and keys/vals; the last step copies the result to the other pair.
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

// Tuning knobs (kernels/README.md): the LMUL of the merge lanes (the block sort scales with it:
// e64m2 columns at 2, e64m1 at 1), the outputs per lane per merge piece (a power of two), and the steps
// per bound-check chunk.
// eok-knob: LMUL = 2 in {1, 2}
// eok-knob: PIECE = 128 in {64, 128, 256}
// eok-knob: CHUNK = 8 in {8, 16, 32}
#ifndef PIECE
#define PIECE 128
#endif
#ifndef CHUNK
#define CHUNK 8
#endif

#define BIAS 0x80000000u

// One comparator of the network on 64-bit composites.
#define CE(x, y)                                           \
  do {                                                     \
    vuint64m2_t lo_ = __riscv_vminu_vv_u64m2(x, y, C);     \
    y = __riscv_vmaxu_vv_u64m2(x, y, C);                   \
    x = lo_;                                               \
  } while (0)

// Sorts every run [8k, 8k+8) of sk/sv (the last one may be shorter) into dk/dv.
static void block_sort8(const int32_t *sk, const int32_t *sv, int32_t *dk, int32_t *dv, size_t n) {
  const size_t C = __riscv_vsetvlmax_e64m2();  // columns per tile
  const vuint32m1_t col4 = __riscv_vmul_vx_u32m1(__riscv_vid_v_u32m1(C), 32, C);  // column start, bytes
  const vuint64m2_t col8 = __riscv_vmul_vx_u64m2(__riscv_vid_v_u64m2(C), 8, C);   // column start, index
  for (size_t base = 0; base < n; base += 8 * C) {
    const size_t left = n - base;
    const int full = left >= 8 * C;
    const vuint64m2_t pos = __riscv_vadd_vx_u64m2(col8, base, C);
    vuint64m2_t r0, r1, r2, r3, r4, r5, r6, r7;
    if (full) {
#define LOAD_ROW(i, R)                                                                                            \
  do {                                                                                                            \
    vuint32m1_t k_ = __riscv_vluxei32_v_u32m1((const uint32_t *)sk + base, __riscv_vadd_vx_u32m1(col4, 4 * i, C), C); \
    vuint64m2_t h_ = __riscv_vsll_vx_u64m2(__riscv_vzext_vf2_u64m2(__riscv_vxor_vx_u32m1(k_, BIAS, C), C), 32, C);     \
    R = __riscv_vor_vv_u64m2(h_, __riscv_vadd_vx_u64m2(pos, i, C), C);                                              \
  } while (0)
      LOAD_ROW(0, r0); LOAD_ROW(1, r1); LOAD_ROW(2, r2); LOAD_ROW(3, r3);
      LOAD_ROW(4, r4); LOAD_ROW(5, r5); LOAD_ROW(6, r6); LOAD_ROW(7, r7);
    } else {  // the tail: rows past n become all-ones composites, which sort last
#define LOAD_ROW_TAIL(i, R)                                                                                       \
  do {                                                                                                            \
    vuint64m2_t p_ = __riscv_vadd_vx_u64m2(pos, i, C);                                                            \
    vbool32_t ok_ = __riscv_vmsltu_vx_u64m2_b32(p_, n, C);                                                        \
    vuint32m1_t k_ = __riscv_vluxei32_v_u32m1_m(ok_, (const uint32_t *)sk + base, __riscv_vadd_vx_u32m1(col4, 4 * i, C), C); \
    vuint64m2_t h_ = __riscv_vsll_vx_u64m2(__riscv_vzext_vf2_u64m2(__riscv_vxor_vx_u32m1(k_, BIAS, C), C), 32, C);     \
    R = __riscv_vmerge_vxm_u64m2(__riscv_vor_vv_u64m2(h_, p_, C), UINT64_MAX, __riscv_vmnot_m_b32(ok_, C), C);      \
  } while (0)
      LOAD_ROW_TAIL(0, r0); LOAD_ROW_TAIL(1, r1); LOAD_ROW_TAIL(2, r2); LOAD_ROW_TAIL(3, r3);
      LOAD_ROW_TAIL(4, r4); LOAD_ROW_TAIL(5, r5); LOAD_ROW_TAIL(6, r6); LOAD_ROW_TAIL(7, r7);
    }
    CE(r0, r2); CE(r1, r3); CE(r4, r6); CE(r5, r7);
    CE(r0, r4); CE(r1, r5); CE(r2, r6); CE(r3, r7);
    CE(r0, r1); CE(r2, r3); CE(r4, r5); CE(r6, r7);
    CE(r2, r4); CE(r3, r5);
    CE(r1, r4); CE(r3, r6);
    CE(r1, r2); CE(r3, r4); CE(r5, r6);
    // Keys back from the high halves; values gathered through the original index in the low halves.
#define STORE_ROW(i, R)                                                                                           \
  do {                                                                                                            \
    vuint32m1_t key_ = __riscv_vxor_vx_u32m1(__riscv_vnsrl_wx_u32m1(R, 32, C), BIAS, C);                          \
    vuint32m1_t src_ = __riscv_vsll_vx_u32m1(__riscv_vnsrl_wx_u32m1(R, 0, C), 2, C);                              \
    vuint32m1_t dst_ = __riscv_vadd_vx_u32m1(col4, 4 * i, C);                                                     \
    if (full) {                                                                                                   \
      vint32m1_t val_ = __riscv_vluxei32_v_i32m1(sv, src_, C);                                                    \
      __riscv_vsuxei32_v_u32m1((uint32_t *)dk + base, dst_, key_, C);                                             \
      __riscv_vsuxei32_v_i32m1(dv + base, dst_, val_, C);                                                         \
    } else {                                                                                                      \
      vbool32_t ok_ = __riscv_vmsltu_vx_u64m2_b32(__riscv_vadd_vx_u64m2(pos, i, C), n, C);                        \
      vint32m1_t val_ = __riscv_vluxei32_v_i32m1_m(ok_, sv, src_, C);                                             \
      __riscv_vsuxei32_v_u32m1_m(ok_, (uint32_t *)dk + base, dst_, key_, C);                                      \
      __riscv_vsuxei32_v_i32m1_m(ok_, dv + base, dst_, val_, C);                                                  \
    }                                                                                                             \
  } while (0)
    STORE_ROW(0, r0); STORE_ROW(1, r1); STORE_ROW(2, r2); STORE_ROW(3, r3);
    STORE_ROW(4, r4); STORE_ROW(5, r5); STORE_ROW(6, r6); STORE_ROW(7, r7);
  }
}

// One merge step of every lane. ia/ib/o: byte offsets of the current A and B element and of the
// output, om = ia + ib (one of them moves by 4 a step, so ib = om - ia); ka/kb: the current keys;
// na/nb: the keys after them, gathered one step ahead so that the loop-carried chain is just
// compare -> vmerge. CHECKED: a lane may reach the end of its A run (aend) or B run (bend); the take-A
// mask is then one masked compare whose masked-off lanes get the answer from the bounds alone, and the
// look-ahead reads are clamped to the array. MASKED: lanes outside `act` (short or no piece) stay idle.
#define MERGE_STEP(CHECKED, MASKED)                                                                  \
  do {                                                                                               \
    vbool16_t ta;                                                                                    \
    vint32m2_t key;                                                                                  \
    if (CHECKED) {                                                                                   \
      vbool16_t ahas = __riscv_vmsltu_vv_u32m2_b16(ia, aend, L);                                     \
      vbool16_t bdone = __riscv_vmsgeu_vv_u32m2_b16(ib, bend, L);                                    \
      if (MASKED) ahas = __riscv_vmand_mm_b16(ahas, act, L);                                         \
      vbool16_t cmp = __riscv_vmandn_mm_b16(ahas, bdone, L); /* both sides left: compare */          \
      vbool16_t onlya = __riscv_vmand_mm_b16(ahas, bdone, L); /* B done: take A */                   \
      ta = __riscv_vmsle_vv_i32m2_b16_mu(cmp, onlya, ka, kb, L);                                     \
      key = __riscv_vmerge_vvm_i32m2(kb, ka, ta, L);                                                 \
    } else {                                                                                         \
      ta = __riscv_vmsle_vv_i32m2_b16(ka, kb, L);                                                    \
      key = __riscv_vmin_vv_i32m2(ka, kb, L);                                                        \
    }                                                                                                \
    vuint32m2_t from = __riscv_vmerge_vvm_u32m2(ib, ia, ta, L);                                      \
    ka = __riscv_vmerge_vvm_i32m2(ka, na, ta, L);                                                    \
    kb = __riscv_vmerge_vvm_i32m2(nb, kb, ta, L);                                                    \
    ia = __riscv_vadd_vx_u32m2_mu(ta, ia, ia, 4, L);                                                 \
    if (MASKED) {                                                                                    \
      vint32m2_t val = __riscv_vluxei32_v_i32m2_m(act, sv, from, L);                                 \
      __riscv_vsuxei32_v_i32m2_m(act, dk, o, key, L);                                                \
      __riscv_vsuxei32_v_i32m2_m(act, dv, o, val, L);                                                \
      ib = __riscv_vadd_vx_u32m2_mu(__riscv_vmandn_mm_b16(act, ta, L), ib, ib, 4, L);                \
    } else {                                                                                         \
      vint32m2_t val = __riscv_vluxei32_v_i32m2(sv, from, L);                                        \
      __riscv_vsuxei32_v_i32m2(dk, o, key, L);                                                       \
      __riscv_vsuxei32_v_i32m2(dv, o, val, L);                                                       \
      om = __riscv_vadd_vx_u32m2(om, 4, L);                                                          \
      ib = __riscv_vsub_vv_u32m2(om, ia, L);                                                         \
    }                                                                                                \
    if (CHECKED) { /* past the array's end: clamped (such keys never win) */                         \
      na = __riscv_vluxei32_v_i32m2(sk + 1, __riscv_vminu_vx_u32m2(ia, last - 4, L), L);             \
      nb = __riscv_vluxei32_v_i32m2(sk + 1, __riscv_vminu_vx_u32m2(ib, last - 4, L), L);             \
    } else {                                                                                         \
      na = __riscv_vluxei32_v_i32m2(sk + 1, ia, L);                                                  \
      nb = __riscv_vluxei32_v_i32m2(sk + 1, ib, L);                                                  \
    }                                                                                                \
    o = __riscv_vadd_vx_u32m2(o, 4, L);                                                              \
  } while (0)

// Merges the sorted runs [2kw, 2kw+w) and [2kw+w, 2kw+2w) (clipped to n) of sk/sv into dk/dv.
static void merge_pass(const int32_t *sk, const int32_t *sv, int32_t *dk, int32_t *dv, size_t n, size_t w) {
  const size_t L = __riscv_vsetvlmax_e32m2();
  const size_t S = 2 * w < PIECE ? 2 * w : PIECE;  // divides 2w: a piece never spans two merges
  const uint32_t jmask = ~(uint32_t)(2 * w - 1);
  const uint32_t last = (uint32_t)(4 * n - 4);
  const vuint32m2_t lane = __riscv_vmul_vx_u32m2(__riscv_vid_v_u32m2(L), (uint32_t)S, L);
  int iters = 0;
  if (S < 2 * w)
    for (size_t x = w; x > 0; x >>= 1) ++iters;  // merge-path window <= w
  for (size_t g = 0; g < n; g += L * S) {
    const vuint32m2_t p = __riscv_vadd_vx_u32m2(lane, (uint32_t)g, L);  // piece start (output index)
    const vuint32m2_t js = __riscv_vand_vx_u32m2(p, jmask, L);         // its merge's start
    const vuint32m2_t mid = __riscv_vminu_vx_u32m2(__riscv_vadd_vx_u32m2(js, (uint32_t)w, L), (uint32_t)n, L);
    const vuint32m2_t end = __riscv_vminu_vx_u32m2(__riscv_vadd_vx_u32m2(js, (uint32_t)(2 * w), L), (uint32_t)n, L);
    const vuint32m2_t d = __riscv_vsub_vv_u32m2(p, js, L);  // diagonal inside the merge
    vuint32m2_t lo = __riscv_vssubu_vv_u32m2(d, __riscv_vsub_vv_u32m2(end, mid, L), L);
    vuint32m2_t hi = __riscv_vminu_vv_u32m2(d, __riscv_vsub_vv_u32m2(mid, js, L), L);
    // lo/hi count A elements; A starts at js, B element for a given count c is at mid + d - c - 1.
    const vuint32m2_t bdiag = __riscv_vsub_vx_u32m2(__riscv_vadd_vv_u32m2(mid, d, L), 1, L);
    const vbool16_t live = __riscv_vmsltu_vx_u32m2_b16(p, (uint32_t)n, L);
    for (int it = 0; it < iters; ++it) {
      vbool16_t act = __riscv_vmand_mm_b16(live, __riscv_vmsltu_vv_u32m2_b16(lo, hi, L), L);
      vuint32m2_t m = __riscv_vsrl_vx_u32m2(__riscv_vadd_vv_u32m2(lo, hi, L), 1, L);
      vuint32m2_t ai = __riscv_vsll_vx_u32m2(__riscv_vadd_vv_u32m2(js, m, L), 2, L);
      vuint32m2_t bi = __riscv_vsll_vx_u32m2(__riscv_vsub_vv_u32m2(bdiag, m, L), 2, L);
      vint32m2_t xa = __riscv_vluxei32_v_i32m2_m(act, sk, ai, L);
      vint32m2_t xb = __riscv_vluxei32_v_i32m2_m(act, sk, bi, L);
      vbool16_t le = __riscv_vmsle_vv_i32m2_b16(xa, xb, L);
      lo = __riscv_vadd_vx_u32m2_mu(__riscv_vmand_mm_b16(act, le, L), lo, m, 1, L);
      hi = __riscv_vmerge_vvm_u32m2(hi, m, __riscv_vmandn_mm_b16(act, le, L), L);
    }
    vuint32m2_t ia = __riscv_vsll_vx_u32m2(__riscv_vadd_vv_u32m2(js, lo, L), 2, L);
    vuint32m2_t ib = __riscv_vsll_vx_u32m2(__riscv_vsub_vv_u32m2(__riscv_vadd_vv_u32m2(mid, d, L), lo, L), 2, L);
    const vuint32m2_t aend = __riscv_vsll_vx_u32m2(mid, 2, L), bend = __riscv_vsll_vx_u32m2(end, 2, L);
    vuint32m2_t o = __riscv_vsll_vx_u32m2(p, 2, L);
    // Past-the-end positions read (clamped) elements that the bound checks never let win.
    vint32m2_t ka = __riscv_vluxei32_v_i32m2_m(live, sk, __riscv_vminu_vx_u32m2(ia, last, L), L);
    vint32m2_t kb = __riscv_vluxei32_v_i32m2_m(live, sk, __riscv_vminu_vx_u32m2(ib, last, L), L);
    vint32m2_t na = __riscv_vluxei32_v_i32m2_m(live, sk, __riscv_vminu_vx_u32m2(__riscv_vadd_vx_u32m2(ia, 4, L), last, L), L);
    vint32m2_t nb = __riscv_vluxei32_v_i32m2_m(live, sk, __riscv_vminu_vx_u32m2(__riscv_vadd_vx_u32m2(ib, 4, L), last, L), L);
    if (g + L * S <= n) {
      const vbool16_t act = live;  // unused by the unmasked steps
      (void)act;
      vuint32m2_t om = __riscv_vadd_vv_u32m2(ia, ib, L);
      for (size_t left = S; left > 0;) {
        const size_t c = left < CHUNK ? left : CHUNK;
        left -= c;
        // The fewest elements any lane has left in its A or B run: if more than c, no lane can reach
        // the end of a run (or read past it) within these c steps, so they run without bound checks.
        vuint32m2_t rem = __riscv_vminu_vv_u32m2(__riscv_vsub_vv_u32m2(aend, ia, L), __riscv_vsub_vv_u32m2(bend, ib, L), L);
        uint32_t minrem = __riscv_vmv_x_s_u32m1_u32(__riscv_vredminu_vs_u32m2_u32m1(rem, __riscv_vmv_s_x_u32m1(UINT32_MAX, 1), L));
        if (minrem > 4 * c) {
          for (size_t t = 0; t < c; ++t) MERGE_STEP(0, 0);
        } else {
          for (size_t t = 0; t < c; ++t) MERGE_STEP(1, 0);
        }
      }
    } else {  // the last group: some lanes have a short piece or none
      vuint32m2_t om = ia;  // unused by the masked steps
      (void)om;
      const vuint32m2_t len = __riscv_vminu_vx_u32m2(__riscv_vrsub_vx_u32m2(p, (uint32_t)n, L), (uint32_t)S, L);
      for (size_t t = 0; t < S; ++t) {
        vbool16_t act = __riscv_vmand_mm_b16(live, __riscv_vmsgtu_vx_u32m2_b16(len, (uint32_t)t, L), L);
        MERGE_STEP(1, 1);
      }
    }
  }
}

static void copy_pairs(const int32_t *sk, const int32_t *sv, int32_t *dk, int32_t *dv, size_t n) {
  for (size_t i = 0, vl; i < n; i += vl) {
    vl = __riscv_vsetvl_e32m8(n - i);
    __riscv_vse32_v_i32m8(dk + i, __riscv_vle32_v_i32m8(sk + i, vl), vl);
    __riscv_vse32_v_i32m8(dv + i, __riscv_vle32_v_i32m8(sv + i, vl), vl);
  }
}

void mergesort_pairs_i32(int32_t *keys, int32_t *vals, int32_t *keys_out, int32_t *vals_out, int n_) {
  const size_t n = n_ > 0 ? (size_t)n_ : 0;
  if (n == 0) return;
  block_sort8(keys, vals, keys_out, vals_out, n);
  int32_t *sk = keys_out, *sv = vals_out, *dk = keys, *dv = vals;
  for (size_t w = 8; w < n; w *= 2) {
    merge_pass(sk, sv, dk, dv, n, w);
    int32_t *tk = sk, *tv = sv;
    sk = dk, sv = dv, dk = tk, dv = tv;
  }
  copy_pairs(sk, sv, dk, dv, n);  // the result is in sk/sv; the other pair gets a copy
}
