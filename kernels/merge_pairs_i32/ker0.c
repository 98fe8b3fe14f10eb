// Stable merge of two sorted int32 key/value sequences (A first on equal keys), moderngpu-style merge
// path on RVV. Rounds of L = vlmax lanes: the next L * S outputs (S <= PIECE) are cut into L pieces of S
// outputs; a vectorised merge-path binary search (one lane per piece, gathers + masked compares) finds
// where each piece starts in A and B. Then the L pieces are merged in lock step, one output per lane per
// step: compare the lanes' current A and B keys, pick with vmerge, gather the chosen value from va or vb
// (two masked gathers), scatter key and value to the lane's output position, advance the consumed side
// and refill only that side's key (masked gathers). Indices are kept as byte offsets. The end of A or B
// needs bound checks; they cost a third of the step, so steps run in chunks and a chunk runs unchecked
// whenever every lane has more than a chunk's worth of both inputs left (one vredminu per chunk). A
// scalar merge-path search gives the next round's start. Pieces stay a few KiB apart with an odd number
// of cache lines between them: lanes a power of two apart would thrash the 4-way L1. Tiny inputs take a
// plain scalar merge. At the timed size the kernel is DRAM-bound (16 bytes in, 8 out per element).
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

// Tuning knobs (kernels/README.md): the LMUL of the lane vectors (more lanes = more independent merges
// in flight), the steps per chunk between bound checks, and the outputs per lane per round.
// eok-knob: LMUL = 2 in {1, 2, 4}
// eok-knob: CHUNK = 16 in {8, 16, 32}
// eok-knob: PIECE = 256 in {128, 256, 512}
#ifndef PIECE
#define PIECE 256
#endif
#ifndef CHUNK
#define CHUNK 16
#endif

// Below this many steps per lane the set-up costs more than it saves.
#define MIN_STEPS 4

static void merge_scalar(const int32_t *a, const int32_t *va, size_t i, size_t na, const int32_t *b,
                         const int32_t *vb, size_t j, size_t nb, int32_t *keys, int32_t *vals, size_t k,
                         size_t kend) {
  for (; k < kend; ++k) {
    if (j >= nb || (i < na && a[i] <= b[j])) {
      keys[k] = a[i];
      vals[k] = va[i++];
    } else {
      keys[k] = b[j];
      vals[k] = vb[j++];
    }
  }
}

// Number of A elements among the first d merged outputs.
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

static void merge_lanes(const int32_t *a, const int32_t *va, size_t na, const int32_t *b, const int32_t *vb,
                        size_t nb, int32_t *keys, int32_t *vals, size_t L, size_t S);

void merge_pairs_i32(const int32_t *a, const int32_t *va, int na_, const int32_t *b, const int32_t *vb, int nb_,
                     int32_t *keys, int32_t *vals) {
  size_t na = na_ > 0 ? (size_t)na_ : 0, nb = nb_ > 0 ? (size_t)nb_ : 0, n = na + nb;
  if (na == 0 || nb == 0) {  // one side only: a copy
    copy_pairs(na ? a : b, na ? va : vb, keys, vals, n);
    return;
  }
  const size_t L = __riscv_vsetvlmax_e32m2();
  // Each round merges L pieces of S outputs in lock step and leaves the rest (fewer than 32 L outputs,
  // from a merge-path split) to the next round, until too little is left for the lanes.
  while (n / L >= MIN_STEPS) {
    // S with an odd number of 64-byte lines (+ < 16 elements): pieces a power of two apart would put
    // every lane's streams into the same L1 sets and thrash the 4-way cache.
    size_t S = n / L;
    if (S > PIECE) S = PIECE;
    if (S >= 32 && ((S >> 4) & 1) == 0) S -= 16;
    merge_lanes(a, va, na, b, vb, nb, keys, vals, L, S);
    const size_t k0 = L * S, i0 = mp_search(a, na, b, nb, k0), j0 = k0 - i0;
    a += i0, va += i0, na -= i0, b += j0, vb += j0, nb -= j0, n -= k0, keys += k0, vals += k0;
    if (na == 0 || nb == 0) {
      copy_pairs(na ? a : b, na ? va : vb, keys, vals, n);
      return;
    }
  }
  merge_scalar(a, va, 0, na, b, vb, 0, nb, keys, vals, 0, n);
}

// L lanes, lane l merges outputs [l S, (l+1) S) of a[0..na) and b[0..nb) (both non-empty).
static void merge_lanes(const int32_t *a, const int32_t *va, size_t na, const int32_t *b, const int32_t *vb,
                        size_t nb, int32_t *keys, int32_t *vals, size_t L, size_t S) {
  // Merge-path search of every lane's diagonal d = lane * S, all lanes at once.
  const vuint32m2_t d = __riscv_vmul_vx_u32m2(__riscv_vid_v_u32m2(L), (uint32_t)S, L);
  vuint32m2_t lo = __riscv_vssubu_vx_u32m2(d, (uint32_t)nb, L);  // max(d - nb, 0)
  vuint32m2_t hi = __riscv_vminu_vx_u32m2(d, (uint32_t)na, L);
  const vuint32m2_t d4m4 = __riscv_vsub_vx_u32m2(__riscv_vsll_vx_u32m2(d, 2, L), 4, L);  // 4d - 4
  for (size_t w = (na < nb ? na : nb) + 1; w > 0; w >>= 1) {  // hi - lo <= min(na, nb): log2 halvings
    vbool16_t act = __riscv_vmsltu_vv_u32m2_b16(lo, hi, L);
    vuint32m2_t mid = __riscv_vsrl_vx_u32m2(__riscv_vadd_vv_u32m2(lo, hi, L), 1, L);
    vuint32m2_t mid4 = __riscv_vsll_vx_u32m2(mid, 2, L);
    vint32m2_t ka = __riscv_vluxei32_v_i32m2_m(act, a, mid4, L);
    vint32m2_t kb = __riscv_vluxei32_v_i32m2_m(act, b, __riscv_vsub_vv_u32m2(d4m4, mid4, L), L);
    vbool16_t le = __riscv_vmsle_vv_i32m2_b16(ka, kb, L);
    vbool16_t up = __riscv_vmand_mm_b16(act, le, L), dn = __riscv_vmandn_mm_b16(act, le, L);
    lo = __riscv_vadd_vx_u32m2_mu(up, lo, mid, 1, L);
    hi = __riscv_vmerge_vvm_u32m2(hi, mid, dn, L);
  }

  // Lane state in byte offsets: next A element, next B element, output position; current keys.
  vuint32m2_t ia = __riscv_vsll_vx_u32m2(lo, 2, L);
  vuint32m2_t ib = __riscv_vsll_vx_u32m2(__riscv_vsub_vv_u32m2(d, lo, L), 2, L);
  vuint32m2_t o = __riscv_vsll_vx_u32m2(d, 2, L);
  const uint32_t na4 = (uint32_t)(4 * na), nb4 = (uint32_t)(4 * nb);
  // Clamped refills: a lane may sit at the end of A or B, where there is nothing to read.
  vint32m2_t ka = __riscv_vluxei32_v_i32m2(a, __riscv_vminu_vx_u32m2(ia, na4 - 4, L), L);
  vint32m2_t kb = __riscv_vluxei32_v_i32m2(b, __riscv_vminu_vx_u32m2(ib, nb4 - 4, L), L);

  for (size_t left = S; left > 0;) {
    const size_t c = left < CHUNK ? left : CHUNK;
    left -= c;
    // The fewest elements any lane has left in A or in B (in bytes).
    vuint32m2_t rem = __riscv_vminu_vv_u32m2(__riscv_vrsub_vx_u32m2(ia, na4, L), __riscv_vrsub_vx_u32m2(ib, nb4, L), L);
    uint32_t minrem = __riscv_vmv_x_s_u32m1_u32(__riscv_vredminu_vs_u32m2_u32m1(rem, __riscv_vmv_s_x_u32m1(UINT32_MAX, 1), L));
    if (minrem > 4 * c) {
      // No lane can reach the end of A or B within these c steps (refills included): no checks.
      for (size_t t = 0; t < c; ++t) {
        vbool16_t ta = __riscv_vmsle_vv_i32m2_b16(ka, kb, L);
        vbool16_t tb = __riscv_vmnot_m_b16(ta, L);
        vint32m2_t key = __riscv_vmerge_vvm_i32m2(kb, ka, ta, L);
        vint32m2_t val = __riscv_vluxei32_v_i32m2_m(tb, vb, ib, L);
        val = __riscv_vluxei32_v_i32m2_mu(ta, val, va, ia, L);
        __riscv_vsuxei32_v_i32m2(keys, o, key, L);
        __riscv_vsuxei32_v_i32m2(vals, o, val, L);
        ia = __riscv_vadd_vx_u32m2_mu(ta, ia, ia, 4, L);
        ib = __riscv_vadd_vx_u32m2_mu(tb, ib, ib, 4, L);
        ka = __riscv_vluxei32_v_i32m2_mu(ta, ka, a, ia, L);
        kb = __riscv_vluxei32_v_i32m2_mu(tb, kb, b, ib, L);
        o = __riscv_vadd_vx_u32m2(o, 4, L);
      }
    } else {
      for (size_t t = 0; t < c; ++t) {
        // Take A when A has elements and (B is done or a <= b). A lane never runs out of both.
        vbool16_t le = __riscv_vmsle_vv_i32m2_b16(ka, kb, L);
        vbool16_t bdone = __riscv_vmsgeu_vx_u32m2_b16(ib, nb4, L);
        vbool16_t ahas = __riscv_vmsltu_vx_u32m2_b16(ia, na4, L);
        vbool16_t ta = __riscv_vmand_mm_b16(ahas, __riscv_vmor_mm_b16(le, bdone, L), L);
        vbool16_t tb = __riscv_vmnot_m_b16(ta, L);
        vint32m2_t key = __riscv_vmerge_vvm_i32m2(kb, ka, ta, L);
        vint32m2_t val = __riscv_vluxei32_v_i32m2_m(tb, vb, ib, L);
        val = __riscv_vluxei32_v_i32m2_mu(ta, val, va, ia, L);
        __riscv_vsuxei32_v_i32m2(keys, o, key, L);
        __riscv_vsuxei32_v_i32m2(vals, o, val, L);
        ia = __riscv_vadd_vx_u32m2_mu(ta, ia, ia, 4, L);
        ib = __riscv_vadd_vx_u32m2_mu(tb, ib, ib, 4, L);
        ka = __riscv_vluxei32_v_i32m2_mu(ta, ka, a, __riscv_vminu_vx_u32m2(ia, na4 - 4, L), L);
        kb = __riscv_vluxei32_v_i32m2_mu(tb, kb, b, __riscv_vminu_vx_u32m2(ib, nb4 - 4, L), L);
        o = __riscv_vadd_vx_u32m2(o, 4, L);
      }
    }
  }

}
