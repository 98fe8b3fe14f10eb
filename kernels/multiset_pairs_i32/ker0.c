// Multiset intersection / union / difference / symmetric difference of sorted int32 keys with values,
// std::set_* semantics, moderngpu-style on RVV. std::set_* walk both inputs: a smaller A key is A-only, a
// smaller B key is B-only, equal keys pair one A with one B element. The walk is cut into rounds and
// pieces at valid walk states: merge path (a vectorised binary search) picks A positions i spread evenly
// over the combined input, and the B position before A[i] is #(B < A[i]) + min(r, #(B == A[i])), with r
// the rank of A[i] among its equal keys in A (three more vectorised binary searches). L = vlmax pieces
// walk in lock step (two strict compares classify every lane's step as A-only / B-only / pair; lanes
// re-gather their current keys). Nothing may be written past the total, and a piece's output size is not
// known in advance, so:
//  - intersection and difference keep a subsequence of A: one walk scatters a keep-flag byte per A key of
//    the round into a stack buffer, then vcompress packs the kept keys and values (vcpop-long stores);
//  - union and symmetric difference: the lanes walk twice, first counting their outputs (from their steps,
//    pairs = A taken + B taken - steps, and A taken), then, after an exclusive scan of the counts,
//    scattering keys (vmin: equal keys give A's) and values (vmerge of va/vb gathers) to their places.
// Steps run in chunks; a chunk needs no end-of-piece checks while every lane has more than a chunk left
// on both sides (one vredminu per chunk). Pieces are capped (PIECE merged inputs per lane per round) so
// that the lanes' streams stay close together (pieces far apart, a power of two, thrash the 4-way L1).
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

// Tuning knobs (kernels/README.md): the LMUL of the lane vectors, and the merged inputs per lane per
// round.
// eok-knob: LMUL = 2 in {1, 2}
// eok-knob: PIECE = 256 in {128, 256, 512}
#ifndef PIECE
#define PIECE 256
#endif

#define MAXL 64  // lanes used at most (per-lane counts live on the stack)

// ---- scalar helpers ----------------------------------------------------------------------------------

static size_t lower_bound(const int32_t *x, size_t lo, size_t hi, int32_t k) {  // first x >= k
  while (lo < hi) {
    size_t m = (lo + hi) >> 1;
    if (x[m] < k) lo = m + 1;
    else hi = m;
  }
  return lo;
}

static size_t upper_bound(const int32_t *x, size_t lo, size_t hi, int32_t k) {  // first x > k
  while (lo < hi) {
    size_t m = (lo + hi) >> 1;
    if (x[m] <= k) lo = m + 1;
    else hi = m;
  }
  return lo;
}

// The B position of the walk just before it takes A[i] (i = na: the end).
static size_t walk_j(const int32_t *a, size_t na, const int32_t *b, size_t nb, size_t i) {
  if (i >= na) return nb;
  const int32_t k = a[i];
  const size_t r = i - lower_bound(a, 0, i, k);
  const size_t lb = lower_bound(b, 0, nb, k), ub = upper_bound(b, lb, nb, k);
  return lb + (r < ub - lb ? r : ub - lb);
}

// A elements among the first d merged elements (A first on equal keys).
static size_t mp_search(const int32_t *a, size_t na, const int32_t *b, size_t nb, size_t d) {
  size_t lo = d > nb ? d - nb : 0, hi = d < na ? d : na;
  while (lo < hi) {
    size_t mid = (lo + hi) >> 1;
    if (a[mid] <= b[d - 1 - mid]) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

static void copy_pairs(const int32_t *k, const int32_t *v, int32_t *keys, int32_t *vals, size_t n) {
  for (size_t i = 0, vl; i < n; i += vl) {
    vl = __riscv_vsetvl_e32m4(n - i);
    __riscv_vse32_v_i32m4(keys + i, __riscv_vle32_v_i32m4(k + i, vl), vl);
    __riscv_vse32_v_i32m4(vals + i, __riscv_vle32_v_i32m4(v + i, vl), vl);
  }
}

// ---- vector helpers -----------------------------------------------------------------------------------

// Per lane, in [lo, hi): the first index whose key is >= key (upper = 0) or > key (upper = 1).
static inline vuint32m2_t vbound(const int32_t *x, vuint32m2_t lo, vuint32m2_t hi, vint32m2_t key, int upper,
                                 vbool16_t live, size_t span, size_t L) {
  for (size_t w = span + 1; w > 0; w >>= 1) {
    vbool16_t act = __riscv_vmand_mm_b16(live, __riscv_vmsltu_vv_u32m2_b16(lo, hi, L), L);
    vuint32m2_t m = __riscv_vsrl_vx_u32m2(__riscv_vadd_vv_u32m2(lo, hi, L), 1, L);
    vint32m2_t v = __riscv_vluxei32_v_i32m2_m(act, x, __riscv_vsll_vx_u32m2(m, 2, L), L);
    vbool16_t go = upper ? __riscv_vmsle_vv_i32m2_b16(v, key, L) : __riscv_vmslt_vv_i32m2_b16(v, key, L);
    lo = __riscv_vadd_vx_u32m2_mu(__riscv_vmand_mm_b16(act, go, L), lo, m, 1, L);
    hi = __riscv_vmerge_vvm_u32m2(hi, m, __riscv_vmandn_mm_b16(act, go, L), L);
  }
  return lo;
}

// ---- the lock-step walk -------------------------------------------------------------------------------

// One walk over the lanes' pieces [ia, aend) x [ib, bend) (byte offsets). EMIT = 0: count every lane's
// steps (a step takes an A-only, a B-only or a pair of keys; the op's output count follows from the
// steps, the pairs = A taken + B taken - steps, and A taken); EMIT = 1: scatter what the op emits to
// keys/vals at the lanes' byte offsets o[]. Steps run in chunks of CHUNK; a chunk needs no end-of-piece
// checks when every lane has more than CHUNK elements left on both sides (one vredminu per chunk): then
// only the two strict compares are masks, the key is vmin (equal keys: A's), the value a vmerge of two
// gathers, and A (B) advances unless the step is B-only (A-only).
#define CHUNK 8
static inline __attribute__((always_inline)) void walk(const int32_t *a, const int32_t *va, size_t na,
                                                       const int32_t *b, const int32_t *vb, size_t nb, int op,
                                                       int emit, vuint32m2_t ia, vuint32m2_t ib,
                                                       vuint32m2_t aend, vuint32m2_t bend, vuint32m2_t o,
                                                       uint32_t *cnt, int32_t *keys, int32_t *vals, uint8_t *fl,
                                                       uint32_t i0, size_t L) {
  const uint32_t alast = (uint32_t)(4 * na - 4), blast = (uint32_t)(4 * nb - 4);
  const vuint32m2_t ia0 = ia, ib0 = ib;
  vint32m2_t ka = __riscv_vluxei32_v_i32m2(a, __riscv_vminu_vx_u32m2(ia, alast, L), L);
  vint32m2_t kb = __riscv_vluxei32_v_i32m2(b, __riscv_vminu_vx_u32m2(ib, blast, L), L);
  vuint32m2_t st = __riscv_vmv_v_x_u32m2(0, L);  // steps in checked chunks
  uint32_t ust = 0;                                // steps in unchecked chunks (every lane)
  for (;;) {
    vuint32m2_t ra = __riscv_vsub_vv_u32m2(aend, ia, L), rb = __riscv_vsub_vv_u32m2(bend, ib, L);
    const uint32_t maxrem = __riscv_vmv_x_s_u32m1_u32(__riscv_vredmaxu_vs_u32m2_u32m1(__riscv_vmaxu_vv_u32m2(ra, rb, L), __riscv_vmv_s_x_u32m1(0, 1), L));
    if (maxrem == 0) break;  // every lane is done
    const uint32_t minrem = __riscv_vmv_x_s_u32m1_u32(__riscv_vredminu_vs_u32m2_u32m1(__riscv_vminu_vv_u32m2(ra, rb, L), __riscv_vmv_s_x_u32m1(UINT32_MAX, 1), L));
    if (minrem > 4 * CHUNK) {
      for (int s = 0; s < CHUNK; ++s) {
        vbool16_t aonly = __riscv_vmslt_vv_i32m2_b16(ka, kb, L);
        vbool16_t bonly = __riscv_vmslt_vv_i32m2_b16(kb, ka, L);
        if (emit == 2) {  // a flag per A key taken: does the op keep it?
          vbool16_t keep = op == 0 ? __riscv_vmnor_mm_b16(aonly, bonly, L) : aonly;
          vuint8mf2_t f = __riscv_vmerge_vxm_u8mf2(__riscv_vmv_v_x_u8mf2(0, L), 1, keep, L);
          vuint32m2_t at = __riscv_vsub_vx_u32m2(__riscv_vsrl_vx_u32m2(ia, 2, L), i0, L);
          __riscv_vsuxei32_v_u8mf2_m(__riscv_vmnot_m_b16(bonly, L), fl, at, f, L);
        } else if (emit) {
          vint32m2_t key = __riscv_vmin_vv_i32m2(ka, kb, L);
          vint32m2_t val = __riscv_vluxei32_v_i32m2(va, ia, L);
          if (op == 1 || op == 3) val = __riscv_vmerge_vvm_i32m2(val, __riscv_vluxei32_v_i32m2(vb, ib, L), bonly, L);
          vbool16_t e = op == 0 ? __riscv_vmnor_mm_b16(aonly, bonly, L) : op == 2 ? aonly : __riscv_vmor_mm_b16(aonly, bonly, L);
          if (op == 1) {  // union emits every step
            __riscv_vsuxei32_v_i32m2(keys, o, key, L);
            __riscv_vsuxei32_v_i32m2(vals, o, val, L);
            o = __riscv_vadd_vx_u32m2(o, 4, L);
          } else {
            __riscv_vsuxei32_v_i32m2_m(e, keys, o, key, L);
            __riscv_vsuxei32_v_i32m2_m(e, vals, o, val, L);
            o = __riscv_vadd_vx_u32m2_mu(e, o, o, 4, L);
          }
        }
        ia = __riscv_vadd_vx_u32m2(ia, 4, L);
        ia = __riscv_vsub_vx_u32m2_mu(bonly, ia, ia, 4, L);
        ib = __riscv_vadd_vx_u32m2(ib, 4, L);
        ib = __riscv_vsub_vx_u32m2_mu(aonly, ib, ib, 4, L);
        ka = __riscv_vluxei32_v_i32m2(a, __riscv_vminu_vx_u32m2(ia, alast, L), L);
        kb = __riscv_vluxei32_v_i32m2(b, __riscv_vminu_vx_u32m2(ib, blast, L), L);
      }
      ust += CHUNK;
    } else {
      for (int s = 0; s < CHUNK; ++s) {  // finished lanes idle
        // Take A when A is left and the step is not B-only (B left and (A done or b < a)); take B
        // likewise; both = a pair.
        vbool16_t ahas = __riscv_vmsltu_vv_u32m2_b16(ia, aend, L);
        vbool16_t bhas = __riscv_vmsltu_vv_u32m2_b16(ib, bend, L);
        vbool16_t both = __riscv_vmand_mm_b16(ahas, bhas, L);
        vbool16_t aonly = __riscv_vmslt_vv_i32m2_b16_mu(both, __riscv_vmandn_mm_b16(ahas, bhas, L), ka, kb, L);
        vbool16_t bonly = __riscv_vmslt_vv_i32m2_b16_mu(both, __riscv_vmandn_mm_b16(bhas, ahas, L), kb, ka, L);
        vbool16_t takea = __riscv_vmandn_mm_b16(ahas, bonly, L), takeb = __riscv_vmandn_mm_b16(bhas, aonly, L);
        if (emit == 2) {
          vbool16_t keep = op == 0 ? __riscv_vmand_mm_b16(takea, takeb, L) : aonly;
          vuint8mf2_t f = __riscv_vmerge_vxm_u8mf2(__riscv_vmv_v_x_u8mf2(0, L), 1, keep, L);
          vuint32m2_t at = __riscv_vsub_vx_u32m2(__riscv_vsrl_vx_u32m2(ia, 2, L), i0, L);
          __riscv_vsuxei32_v_u8mf2_m(takea, fl, at, f, L);
        } else if (emit) {
          vbool16_t ea = op == 0 ? __riscv_vmand_mm_b16(takea, takeb, L) : op == 1 ? takea : aonly;
          vbool16_t e = (op == 1 || op == 3) ? __riscv_vmor_mm_b16(ea, bonly, L) : ea;
          vint32m2_t key = __riscv_vmerge_vvm_i32m2(kb, ka, ea, L);
          vint32m2_t val = __riscv_vluxei32_v_i32m2_m(ea, va, ia, L);
          if (op == 1 || op == 3) val = __riscv_vluxei32_v_i32m2_mu(bonly, val, vb, ib, L);
          __riscv_vsuxei32_v_i32m2_m(e, keys, o, key, L);
          __riscv_vsuxei32_v_i32m2_m(e, vals, o, val, L);
          o = __riscv_vadd_vx_u32m2_mu(e, o, o, 4, L);
        } else {
          st = __riscv_vadd_vx_u32m2_mu(__riscv_vmor_mm_b16(ahas, bhas, L), st, st, 1, L);
        }
        ia = __riscv_vadd_vx_u32m2_mu(takea, ia, ia, 4, L);
        ib = __riscv_vadd_vx_u32m2_mu(takeb, ib, ib, 4, L);
        ka = __riscv_vluxei32_v_i32m2_mu(takea, ka, a, __riscv_vminu_vx_u32m2(ia, alast, L), L);
        kb = __riscv_vluxei32_v_i32m2_mu(takeb, kb, b, __riscv_vminu_vx_u32m2(ib, blast, L), L);
      }
    }
  }
  if (!emit) {
    // steps, A taken, pairs = A taken + B taken - steps -> the op's count
    vuint32m2_t steps = __riscv_vadd_vx_u32m2(st, ust, L);
    vuint32m2_t ta = __riscv_vsrl_vx_u32m2(__riscv_vsub_vv_u32m2(aend, ia0, L), 2, L);
    vuint32m2_t tb = __riscv_vsrl_vx_u32m2(__riscv_vsub_vv_u32m2(bend, ib0, L), 2, L);
    vuint32m2_t pairs = __riscv_vsub_vv_u32m2(__riscv_vadd_vv_u32m2(ta, tb, L), steps, L);
    vuint32m2_t c = op == 0 ? pairs : op == 1 ? steps : op == 2 ? __riscv_vsub_vv_u32m2(ta, pairs, L)
                                                               : __riscv_vsub_vv_u32m2(steps, pairs, L);
    __riscv_vse32_v_u32m2(cnt, c, L);
  }
}

static void walk_op(const int32_t *a, const int32_t *va, size_t na, const int32_t *b, const int32_t *vb,
                    size_t nb, int op, int emit, vuint32m2_t ia, vuint32m2_t ib, vuint32m2_t aend,
                    vuint32m2_t bend, vuint32m2_t o, uint32_t *cnt, int32_t *keys, int32_t *vals, uint8_t *fl,
                    uint32_t i0, size_t L) {
  switch (op) {  // one specialised walk per op
    case 0: walk(a, va, na, b, vb, nb, 0, emit, ia, ib, aend, bend, o, cnt, keys, vals, fl, i0, L); break;
    case 1: walk(a, va, na, b, vb, nb, 1, emit, ia, ib, aend, bend, o, cnt, keys, vals, fl, i0, L); break;
    case 2: walk(a, va, na, b, vb, nb, 2, emit, ia, ib, aend, bend, o, cnt, keys, vals, fl, i0, L); break;
    default: walk(a, va, na, b, vb, nb, 3, emit, ia, ib, aend, bend, o, cnt, keys, vals, fl, i0, L); break;
  }
}

int32_t multiset_pairs_i32(const int32_t *a, const int32_t *va, int na_, const int32_t *b, const int32_t *vb,
                           int nb_, int op, int32_t *keys, int32_t *vals) {
  const size_t na = na_ > 0 ? (size_t)na_ : 0, nb = nb_ > 0 ? (size_t)nb_ : 0, n = na + nb;
  if (op < 0 || op > 3) return 0;
  if (na == 0 || nb == 0) {  // no pairs: A-only and B-only elements
    const int keep_a = op != 0, keep_b = op == 1 || op == 3;
    if (na > 0 && keep_a) { copy_pairs(a, va, keys, vals, na); return (int32_t)na; }
    if (nb > 0 && keep_b) { copy_pairs(b, vb, keys, vals, nb); return (int32_t)nb; }
    return 0;
  }
  size_t L = __riscv_vsetvlmax_e32m2();
  if (L > MAXL) L = MAXL;
  uint32_t cnt[MAXL];
  uint8_t fl[MAXL * PIECE];  // round flags (op 0, 2): a round spans at most L * PIECE A keys
  const vuint32m2_t lane = __riscv_vid_v_u32m2(L);
  size_t total = 0;  // pairs written so far
  size_t d0 = 0, i0 = 0, j0 = 0;  // the round's start: merged position and walk state
  while (i0 < na || j0 < nb) {
    // Round end: PIECE merged inputs per lane further on, moved to a walk state.
    size_t d1 = d0 + L * PIECE < n ? d0 + L * PIECE : n;
    size_t i1 = mp_search(a, na, b, nb, d1);
    if (i1 < i0) i1 = i0;
    if (i1 > i0 + L * PIECE) i1 = i0 + L * PIECE;  // (keeps the round's A keys within the flag buffer)
    size_t j1 = walk_j(a, na, b, nb, i1);
    if (j1 < j0) j1 = j0;
    // Lane starts: merge path at L evenly spaced diagonals of [i0 + j0, i1 + j1), then the walk's B
    // position before that A element (vectorised versions of mp_search and walk_j).
    const size_t span = (i1 + j1) - (i0 + j0);
    const vuint32m2_t dv = __riscv_vadd_vx_u32m2(
        __riscv_vdivu_vx_u32m2(__riscv_vmul_vx_u32m2(lane, (uint32_t)span, L), (uint32_t)L, L), (uint32_t)(i0 + j0), L);
    vuint32m2_t lo = __riscv_vmaxu_vx_u32m2(__riscv_vssubu_vx_u32m2(dv, (uint32_t)nb, L), (uint32_t)i0, L);
    vuint32m2_t hi = __riscv_vminu_vx_u32m2(__riscv_vminu_vx_u32m2(dv, (uint32_t)na, L), (uint32_t)i1, L);
    const vuint32m2_t dm1 = __riscv_vsub_vx_u32m2(dv, 1, L);
    for (size_t w = i1 - i0 + 1; w > 0; w >>= 1) {
      vbool16_t act = __riscv_vmsltu_vv_u32m2_b16(lo, hi, L);
      vuint32m2_t m = __riscv_vsrl_vx_u32m2(__riscv_vadd_vv_u32m2(lo, hi, L), 1, L);
      vint32m2_t x = __riscv_vluxei32_v_i32m2_m(act, a, __riscv_vsll_vx_u32m2(m, 2, L), L);
      vint32m2_t y = __riscv_vluxei32_v_i32m2_m(act, b, __riscv_vsll_vx_u32m2(__riscv_vsub_vv_u32m2(dm1, m, L), 2, L), L);
      vbool16_t le = __riscv_vmsle_vv_i32m2_b16(x, y, L);
      lo = __riscv_vadd_vx_u32m2_mu(__riscv_vmand_mm_b16(act, le, L), lo, m, 1, L);
      hi = __riscv_vmerge_vvm_u32m2(hi, m, __riscv_vmandn_mm_b16(act, le, L), L);
    }
    // Lane 0 starts exactly at the round's start (the walk may be inside a stretch of B-only keys there).
    const vbool16_t first = __riscv_vmseq_vx_u32m2_b16(lane, 0, L);
    const vuint32m2_t si = __riscv_vmerge_vxm_u32m2(lo, (uint32_t)i0, first, L);
    const vbool16_t inA = __riscv_vmsltu_vx_u32m2_b16(si, (uint32_t)na, L);
    const vint32m2_t k = __riscv_vluxei32_v_i32m2_m(inA, a, __riscv_vsll_vx_u32m2(si, 2, L), L);
    const vuint32m2_t zero = __riscv_vmv_v_x_u32m2(0, L);
    const vuint32m2_t la = vbound(a, zero, si, k, 0, inA, na, L);
    const vuint32m2_t lb = vbound(b, zero, __riscv_vmv_v_x_u32m2((uint32_t)nb, L), k, 0, inA, nb, L);
    const vuint32m2_t ub = vbound(b, lb, __riscv_vmv_v_x_u32m2((uint32_t)nb, L), k, 1, inA, nb, L);
    vuint32m2_t sj = __riscv_vadd_vv_u32m2(lb, __riscv_vminu_vv_u32m2(__riscv_vsub_vv_u32m2(si, la, L), __riscv_vsub_vv_u32m2(ub, lb, L), L), L);
    sj = __riscv_vmerge_vxm_u32m2(sj, (uint32_t)nb, __riscv_vmnot_m_b16(inA, L), L);
    sj = __riscv_vminu_vx_u32m2(__riscv_vmaxu_vx_u32m2(sj, (uint32_t)j0, L), (uint32_t)j1, L);
    sj = __riscv_vmerge_vxm_u32m2(sj, (uint32_t)j0, first, L);
    // Lane ends: the next lane's start; the last lane ends at the round's end.
    const vuint32m2_t ei = __riscv_vslide1down_vx_u32m2(si, (uint32_t)i1, L);
    const vuint32m2_t ej = __riscv_vslide1down_vx_u32m2(sj, (uint32_t)j1, L);
    const vuint32m2_t ia = __riscv_vsll_vx_u32m2(si, 2, L), ib = __riscv_vsll_vx_u32m2(sj, 2, L);
    const vuint32m2_t aend = __riscv_vsll_vx_u32m2(ei, 2, L), bend = __riscv_vsll_vx_u32m2(ej, 2, L);
    if (op == 0 || op == 2) {
      // The output is the A keys the op keeps, in order: one walk sets a flag per A key of the round
      // (stack), then vcompress packs the kept keys and values.
      walk_op(a, va, na, b, vb, nb, op, 2, ia, ib, aend, bend, zero, cnt, keys, vals, fl, (uint32_t)i0, L);
      for (size_t i = i0, vl; i < i1; i += vl) {
        vl = __riscv_vsetvl_e32m1(i1 - i);
        vbool32_t keep = __riscv_vmsne_vx_u8mf4_b32(__riscv_vle8_v_u8mf4(fl + (i - i0), vl), 0, vl);
        const size_t k = __riscv_vcpop_m_b32(keep, vl);
        vint32m1_t kk = __riscv_vcompress_vm_i32m1(__riscv_vle32_v_i32m1(a + i, vl), keep, vl);
        vint32m1_t vv = __riscv_vcompress_vm_i32m1(__riscv_vle32_v_i32m1(va + i, vl), keep, vl);
        __riscv_vse32_v_i32m1(keys + total, kk, k);
        __riscv_vse32_v_i32m1(vals + total, vv, k);
        total += k;
      }
      d0 = i1 + j1, i0 = i1, j0 = j1;
      continue;
    }
    // Count, scan, emit.
    walk_op(a, va, na, b, vb, nb, op, 0, ia, ib, aend, bend, zero, cnt, keys, vals, fl, (uint32_t)i0, L);
    for (size_t l = 0; l < L; ++l) {
      const uint32_t c = cnt[l];
      cnt[l] = (uint32_t)(4 * total);
      total += c;
    }
    const vuint32m2_t o = __riscv_vle32_v_u32m2(cnt, L);
    walk_op(a, va, na, b, vb, nb, op, 1, ia, ib, aend, bend, o, cnt, keys, vals, fl, (uint32_t)i0, L);
    d0 = i1 + j1, i0 = i1, j0 = j1;
  }
  return (int32_t)total;
}
