// Sorted search (moderngpu-style): lower bound of every sorted needle in a sorted haystack, as a merge of
// the two sequences in which a needle goes before haystack keys >= it; the number of haystack keys
// merged before a needle is its answer. On RVV the merge is cut by merge path into L = vlmax pieces of S
// steps (a vectorised binary search places all pieces at once) and the L pieces walk in lock step: a
// lane compares its needle with its haystack key (vmsle), a needle lane scatters its rank (masked
// vsuxei32) and moves on to the next needle, a haystack lane to the next key; the keys after the current
// ones are gathered a step ahead, so the loop-carried chain is one compare and one vmerge. The end
// of either input needs bound checks; steps run in chunks that skip the checks whenever every lane has
// more than a chunk left of both (one vredminu per chunk). What remains after the lanes (fewer than L
// steps per round), and tiny inputs, take a scalar walk.
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

// Tuning knobs (kernels/README.md): the LMUL of the lane vectors and the steps per bound-check chunk.
// eok-knob: LMUL = 4 in {1, 2, 4}
// eok-knob: CHUNK = 64 in {8, 16, 32, 64}
// eok-knob: PIECE = 512 in {256, 512, 1024}
#ifndef PIECE
#define PIECE 512
#endif
#ifndef CHUNK
#define CHUNK 64
#endif

#define MIN_STEPS 4  // below this many steps per lane the set-up costs more than it saves

// Needles [i, nn), the haystack walk resuming at h.
static void search_scalar(const int32_t *nd, size_t i, size_t nn, const int32_t *hay, size_t h, size_t nh,
                          int32_t *idx) {
  for (; i < nn; ++i) {
    const int32_t x = nd[i];
    while (h < nh && hay[h] < x) ++h;
    idx[i] = (int32_t)h;
  }
}

// Needles among the first d merged elements (a needle goes before haystack keys >= it).
static size_t mp_search(const int32_t *nd, size_t nn, const int32_t *hay, size_t nh, size_t d) {
  size_t lo = d > nh ? d - nh : 0, hi = d < nn ? d : nn;
  while (lo < hi) {
    size_t mid = (lo + hi) >> 1;
    if (nd[mid] <= hay[d - 1 - mid]) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// L lanes; lane l walks merged elements [l S, (l+1) S) of nd[0..nn) and hay[0..nh) (both non-empty);
// hoff: haystack index of hay[0] (answers are written relative to the whole haystack).
static void search_lanes(const int32_t *nd, size_t nn, const int32_t *hay, size_t nh, int32_t *idx,
                         uint32_t hoff, size_t L, size_t S) {
  const vuint32m4_t d = __riscv_vmul_vx_u32m4(__riscv_vid_v_u32m4(L), (uint32_t)S, L);
  vuint32m4_t lo = __riscv_vssubu_vx_u32m4(d, (uint32_t)nh, L);
  vuint32m4_t hi = __riscv_vminu_vx_u32m4(d, (uint32_t)nn, L);
  const vuint32m4_t d4m4 = __riscv_vsub_vx_u32m4(__riscv_vsll_vx_u32m4(d, 2, L), 4, L);
  for (size_t w = (nn < nh ? nn : nh) + 1; w > 0; w >>= 1) {
    vbool8_t act = __riscv_vmsltu_vv_u32m4_b8(lo, hi, L);
    vuint32m4_t mid = __riscv_vsrl_vx_u32m4(__riscv_vadd_vv_u32m4(lo, hi, L), 1, L);
    vuint32m4_t mid4 = __riscv_vsll_vx_u32m4(mid, 2, L);
    vint32m4_t x = __riscv_vluxei32_v_i32m4_m(act, nd, mid4, L);
    vint32m4_t y = __riscv_vluxei32_v_i32m4_m(act, hay, __riscv_vsub_vv_u32m4(d4m4, mid4, L), L);
    vbool8_t le = __riscv_vmsle_vv_i32m4_b8(x, y, L);
    lo = __riscv_vadd_vx_u32m4_mu(__riscv_vmand_mm_b8(act, le, L), lo, mid, 1, L);
    hi = __riscv_vmerge_vvm_u32m4(hi, mid, __riscv_vmandn_mm_b8(act, le, L), L);
  }
  // Byte offsets of the lane's current needle and haystack key (om = ia + ib: one of them moves by 4 a
  // step, so ib = om - ia); the current keys ka/kb and the ones after them na/nb, gathered a step ahead
  // so that the loop-carried chain is just compare -> vmerge. Reads past an end are clamped.
  vuint32m4_t ia = __riscv_vsll_vx_u32m4(lo, 2, L);
  vuint32m4_t ib = __riscv_vsll_vx_u32m4(__riscv_vsub_vv_u32m4(d, lo, L), 2, L);
  vuint32m4_t om = __riscv_vadd_vv_u32m4(ia, ib, L);
  const uint32_t nn4 = (uint32_t)(4 * nn), nh4 = (uint32_t)(4 * nh);
  vint32m4_t ka = __riscv_vluxei32_v_i32m4(nd, __riscv_vminu_vx_u32m4(ia, nn4 - 4, L), L);
  vint32m4_t kb = __riscv_vluxei32_v_i32m4(hay, __riscv_vminu_vx_u32m4(ib, nh4 - 4, L), L);
  vint32m4_t na = __riscv_vluxei32_v_i32m4(nd, __riscv_vminu_vx_u32m4(__riscv_vadd_vx_u32m4(ia, 4, L), nn4 - 4, L), L);
  vint32m4_t nb = __riscv_vluxei32_v_i32m4(hay, __riscv_vminu_vx_u32m4(__riscv_vadd_vx_u32m4(ib, 4, L), nh4 - 4, L), L);

  for (size_t left = S; left > 0;) {
    const size_t c = left < CHUNK ? left : CHUNK;
    left -= c;
    vuint32m4_t rem = __riscv_vminu_vv_u32m4(__riscv_vrsub_vx_u32m4(ia, nn4, L), __riscv_vrsub_vx_u32m4(ib, nh4, L), L);
    uint32_t minrem = __riscv_vmv_x_s_u32m1_u32(__riscv_vredminu_vs_u32m4_u32m1(rem, __riscv_vmv_s_x_u32m1(UINT32_MAX, 1), L));
    if (minrem > 4 * c) {  // nobody reaches an end within c steps (look-ahead included): no checks
      for (size_t t = 0; t < c; ++t) {
        vbool8_t ta = __riscv_vmsle_vv_i32m4_b8(ka, kb, L);
        vuint32m4_t rank = __riscv_vadd_vx_u32m4(__riscv_vsrl_vx_u32m4(ib, 2, L), hoff, L);
        __riscv_vsuxei32_v_u32m4_m(ta, (uint32_t *)idx, ia, rank, L);
        ka = __riscv_vmerge_vvm_i32m4(ka, na, ta, L);
        kb = __riscv_vmerge_vvm_i32m4(nb, kb, ta, L);
        ia = __riscv_vadd_vx_u32m4_mu(ta, ia, ia, 4, L);
        om = __riscv_vadd_vx_u32m4(om, 4, L);
        ib = __riscv_vsub_vv_u32m4(om, ia, L);
        na = __riscv_vluxei32_v_i32m4(nd + 1, ia, L);
        nb = __riscv_vluxei32_v_i32m4(hay + 1, ib, L);
      }
    } else {
      for (size_t t = 0; t < c; ++t) {
        // A needle goes next when needles remain and (the haystack is done or needle <= key): one masked
        // compare; lanes without both sides get the answer from the bounds.
        vbool8_t nhas = __riscv_vmsltu_vx_u32m4_b8(ia, nn4, L);
        vbool8_t hdone = __riscv_vmsgeu_vx_u32m4_b8(ib, nh4, L);
        vbool8_t cmp = __riscv_vmandn_mm_b8(nhas, hdone, L);
        vbool8_t onlyn = __riscv_vmand_mm_b8(nhas, hdone, L);
        vbool8_t ta = __riscv_vmsle_vv_i32m4_b8_mu(cmp, onlyn, ka, kb, L);
        vuint32m4_t rank = __riscv_vadd_vx_u32m4(__riscv_vsrl_vx_u32m4(ib, 2, L), hoff, L);
        __riscv_vsuxei32_v_u32m4_m(ta, (uint32_t *)idx, ia, rank, L);
        ka = __riscv_vmerge_vvm_i32m4(ka, na, ta, L);
        kb = __riscv_vmerge_vvm_i32m4(nb, kb, ta, L);
        ia = __riscv_vadd_vx_u32m4_mu(ta, ia, ia, 4, L);
        om = __riscv_vadd_vx_u32m4(om, 4, L);
        ib = __riscv_vsub_vv_u32m4(om, ia, L);
        na = __riscv_vluxei32_v_i32m4(nd, __riscv_vminu_vx_u32m4(__riscv_vadd_vx_u32m4(ia, 4, L), nn4 - 4, L), L);
        nb = __riscv_vluxei32_v_i32m4(hay, __riscv_vminu_vx_u32m4(__riscv_vadd_vx_u32m4(ib, 4, L), nh4 - 4, L), L);
      }
    }
  }
}

void sorted_search_i32(const int32_t *needles, int nn_, const int32_t *haystack, int nh_, int32_t *idx) {
  size_t nn = nn_ > 0 ? (size_t)nn_ : 0, nh = nh_ > 0 ? (size_t)nh_ : 0;
  const int32_t *hay = haystack;
  const size_t L = __riscv_vsetvlmax_e32m4();
  // Each round walks L pieces of S merged elements and leaves the rest (a merge-path split) to the next.
  while (nn > 0 && nh > 0 && (nn + nh) / L >= MIN_STEPS) {
    // S with an odd number of 64-byte lines (+ < 16): pieces a power of two apart would map every lane's
    // streams to the same L1 sets.
    size_t S = (nn + nh) / L;
    if (S > PIECE) S = PIECE;
    if (S >= 32 && ((S >> 4) & 1) == 0) S -= 16;
    search_lanes(needles, nn, hay, nh, idx, (uint32_t)(hay - haystack), L, S);
    const size_t k0 = L * S, i0 = mp_search(needles, nn, hay, nh, k0);
    needles += i0, idx += i0, nn -= i0, hay += k0 - i0, nh -= k0 - i0;
  }
  if (nh == 0) {  // every needle left is past the haystack's end
    const int32_t r = (int32_t)(hay - haystack);
    for (size_t i = 0, vl; i < nn; i += vl) {
      vl = __riscv_vsetvl_e32m4(nn - i);
      __riscv_vse32_v_i32m4(idx + i, __riscv_vmv_v_x_i32m4(r, vl), vl);
    }
    return;
  }
  const size_t base = (size_t)(hay - haystack);
  search_scalar(needles, 0, nn, haystack, base, base + nh, idx);
}
