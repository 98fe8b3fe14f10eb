// Inner join of sorted int32 keys (moderngpu's relational join: sorted search + load-balanced
// expansion), RVV. A is processed in rounds of R keys:
//  1. lower and upper bounds of the round's A keys in their B window: two sorted searches (merge path
//     splits the merge of the A keys with the B window into L = vlmax pieces that walk in lock step, one
//     key per lane per step, next keys gathered a step ahead; as sorted_search_i32, the upper bound with a
//     strict compare), into stack buffers; matches per key = upper - lower;
//  2. per 32 consecutive A keys (e32m4): output offsets by an in-register exclusive scan of the counts
//     (vslideup + vadd) plus the running total;
//  3. expansion: for t < min(count, T), every lane writes its pair (i, lower + t) at offset + t (masked
//     vsuxei32 into out_i/out_j, offsets < cap); the rare keys with more than T matches write the rest
//     with contiguous vector stores (vmv / vid).
// The total counts every pair, also those past cap.
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

// Tuning knobs (kernels/README.md): the merged elements per lane per sorted-search round, and the
// lock-step expansion steps per key before contiguous stores take over. (No LMUL knob: the search runs at
// m2, the chunks at m4, and m8 chunks would not fit the registers.)
// eok-knob: PIECE = 512 in {128, 256, 512, 1024}
// eok-knob: T = 8 in {2, 4, 8, 16}
#ifndef PIECE
#define PIECE 512
#endif
#ifndef T
#define T 8
#endif
#define CHUNK 16
#define R 2048  // A keys per round (the lower bounds live on the stack)
#define MAXC 64  // A keys per expansion chunk at most (vlmax of e32m4, capped)

#define MIN_STEPS 4  // below this many steps per lane the set-up costs more than it saves

// Needles [i, nn), the haystack walk resuming at h.
static void search_scalar(const int32_t *nd, size_t i, size_t nn, const int32_t *hay, size_t h, size_t nh,
                          int32_t *idx, int strict) {
  for (; i < nn; ++i) {
    const int32_t x = nd[i];
    while (h < nh && (strict ? hay[h] <= x : hay[h] < x)) ++h;
    idx[i] = (int32_t)h;
  }
}

// Needles among the first d merged elements (a needle goes before haystack keys >= it).
static size_t mp_search(const int32_t *nd, size_t nn, const int32_t *hay, size_t nh, size_t d, int strict) {
  size_t lo = d > nh ? d - nh : 0, hi = d < nn ? d : nn;
  while (lo < hi) {
    size_t mid = (lo + hi) >> 1;
    if (strict ? nd[mid] < hay[d - 1 - mid] : nd[mid] <= hay[d - 1 - mid]) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// L lanes; lane l walks merged elements [l S, (l+1) S) of nd[0..nn) and hay[0..nh) (both non-empty);
// hoff: haystack index of hay[0] (answers are written relative to the whole haystack).
static inline __attribute__((always_inline)) void search_lanes(const int32_t *nd, size_t nn, const int32_t *hay, size_t nh, int32_t *idx, int strict,
                         uint32_t hoff, size_t L, size_t S) {
  const vuint32m2_t d = __riscv_vmul_vx_u32m2(__riscv_vid_v_u32m2(L), (uint32_t)S, L);
  vuint32m2_t lo = __riscv_vssubu_vx_u32m2(d, (uint32_t)nh, L);
  vuint32m2_t hi = __riscv_vminu_vx_u32m2(d, (uint32_t)nn, L);
  const vuint32m2_t d4m4 = __riscv_vsub_vx_u32m2(__riscv_vsll_vx_u32m2(d, 2, L), 4, L);
  for (size_t w = (nn < nh ? nn : nh) + 1; w > 0; w >>= 1) {
    vbool16_t act = __riscv_vmsltu_vv_u32m2_b16(lo, hi, L);
    vuint32m2_t mid = __riscv_vsrl_vx_u32m2(__riscv_vadd_vv_u32m2(lo, hi, L), 1, L);
    vuint32m2_t mid4 = __riscv_vsll_vx_u32m2(mid, 2, L);
    vint32m2_t x = __riscv_vluxei32_v_i32m2_m(act, nd, mid4, L);
    vint32m2_t y = __riscv_vluxei32_v_i32m2_m(act, hay, __riscv_vsub_vv_u32m2(d4m4, mid4, L), L);
    vbool16_t le = strict ? __riscv_vmslt_vv_i32m2_b16(x, y, L) : __riscv_vmsle_vv_i32m2_b16(x, y, L);
    lo = __riscv_vadd_vx_u32m2_mu(__riscv_vmand_mm_b16(act, le, L), lo, mid, 1, L);
    hi = __riscv_vmerge_vvm_u32m2(hi, mid, __riscv_vmandn_mm_b16(act, le, L), L);
  }
  // Byte offsets of the lane's current needle and haystack key (om = ia + ib: one of them moves by 4 a
  // step, so ib = om - ia); the current keys ka/kb and the ones after them na/nb, gathered a step ahead
  // so that the loop-carried chain is just compare -> vmerge. Reads past an end are clamped.
  vuint32m2_t ia = __riscv_vsll_vx_u32m2(lo, 2, L);
  vuint32m2_t ib = __riscv_vsll_vx_u32m2(__riscv_vsub_vv_u32m2(d, lo, L), 2, L);
  vuint32m2_t om = __riscv_vadd_vv_u32m2(ia, ib, L);
  const uint32_t nn4 = (uint32_t)(4 * nn), nh4 = (uint32_t)(4 * nh);
  vint32m2_t ka = __riscv_vluxei32_v_i32m2(nd, __riscv_vminu_vx_u32m2(ia, nn4 - 4, L), L);
  vint32m2_t kb = __riscv_vluxei32_v_i32m2(hay, __riscv_vminu_vx_u32m2(ib, nh4 - 4, L), L);
  vint32m2_t na = __riscv_vluxei32_v_i32m2(nd, __riscv_vminu_vx_u32m2(__riscv_vadd_vx_u32m2(ia, 4, L), nn4 - 4, L), L);
  vint32m2_t nb = __riscv_vluxei32_v_i32m2(hay, __riscv_vminu_vx_u32m2(__riscv_vadd_vx_u32m2(ib, 4, L), nh4 - 4, L), L);

  for (size_t left = S; left > 0;) {
    const size_t c = left < CHUNK ? left : CHUNK;
    left -= c;
    vuint32m2_t rem = __riscv_vminu_vv_u32m2(__riscv_vrsub_vx_u32m2(ia, nn4, L), __riscv_vrsub_vx_u32m2(ib, nh4, L), L);
    uint32_t minrem = __riscv_vmv_x_s_u32m1_u32(__riscv_vredminu_vs_u32m2_u32m1(rem, __riscv_vmv_s_x_u32m1(UINT32_MAX, 1), L));
    if (minrem > 4 * c) {  // nobody reaches an end within c steps (look-ahead included): no checks
      for (size_t t = 0; t < c; ++t) {
        vbool16_t ta = strict ? __riscv_vmslt_vv_i32m2_b16(ka, kb, L) : __riscv_vmsle_vv_i32m2_b16(ka, kb, L);
        vuint32m2_t rank = __riscv_vadd_vx_u32m2(__riscv_vsrl_vx_u32m2(ib, 2, L), hoff, L);
        __riscv_vsuxei32_v_u32m2_m(ta, (uint32_t *)idx, ia, rank, L);
        ka = __riscv_vmerge_vvm_i32m2(ka, na, ta, L);
        kb = __riscv_vmerge_vvm_i32m2(nb, kb, ta, L);
        ia = __riscv_vadd_vx_u32m2_mu(ta, ia, ia, 4, L);
        om = __riscv_vadd_vx_u32m2(om, 4, L);
        ib = __riscv_vsub_vv_u32m2(om, ia, L);
        na = __riscv_vluxei32_v_i32m2(nd + 1, ia, L);
        nb = __riscv_vluxei32_v_i32m2(hay + 1, ib, L);
      }
    } else {
      for (size_t t = 0; t < c; ++t) {
        // A needle goes next when needles remain and (the haystack is done or needle <= key): one masked
        // compare; lanes without both sides get the answer from the bounds.
        vbool16_t nhas = __riscv_vmsltu_vx_u32m2_b16(ia, nn4, L);
        vbool16_t hdone = __riscv_vmsgeu_vx_u32m2_b16(ib, nh4, L);
        vbool16_t cmp = __riscv_vmandn_mm_b16(nhas, hdone, L);
        vbool16_t onlyn = __riscv_vmand_mm_b16(nhas, hdone, L);
        vbool16_t ta = strict ? __riscv_vmslt_vv_i32m2_b16_mu(cmp, onlyn, ka, kb, L) : __riscv_vmsle_vv_i32m2_b16_mu(cmp, onlyn, ka, kb, L);
        vuint32m2_t rank = __riscv_vadd_vx_u32m2(__riscv_vsrl_vx_u32m2(ib, 2, L), hoff, L);
        __riscv_vsuxei32_v_u32m2_m(ta, (uint32_t *)idx, ia, rank, L);
        ka = __riscv_vmerge_vvm_i32m2(ka, na, ta, L);
        kb = __riscv_vmerge_vvm_i32m2(nb, kb, ta, L);
        ia = __riscv_vadd_vx_u32m2_mu(ta, ia, ia, 4, L);
        om = __riscv_vadd_vx_u32m2(om, 4, L);
        ib = __riscv_vsub_vv_u32m2(om, ia, L);
        na = __riscv_vluxei32_v_i32m2(nd, __riscv_vminu_vx_u32m2(__riscv_vadd_vx_u32m2(ia, 4, L), nn4 - 4, L), L);
        nb = __riscv_vluxei32_v_i32m2(hay, __riscv_vminu_vx_u32m2(__riscv_vadd_vx_u32m2(ib, 4, L), nh4 - 4, L), L);
      }
    }
  }
}

// idx[i] = the lower bound (strict = 0) or upper bound (strict = 1) of needles[i] in haystack[0..nh)
// (sorted search, as sorted_search_i32; for the upper bound a needle goes before keys > it).
static inline __attribute__((always_inline)) void bounds(const int32_t *needles, size_t nn, const int32_t *haystack, size_t nh, int32_t *idx, int strict) {
  const int32_t *hay = haystack;
  const size_t L = __riscv_vsetvlmax_e32m2();
  // Each round walks L pieces of S merged elements and leaves the rest (a merge-path split) to the next.
  while (nn > 0 && nh > 0 && (nn + nh) / L >= MIN_STEPS) {
    // S with an odd number of 64-byte lines (+ < 16): pieces a power of two apart would map every lane's
    // streams to the same L1 sets.
    size_t S = (nn + nh) / L;
    if (S > PIECE) S = PIECE;
    if (S >= 32 && ((S >> 4) & 1) == 0) S -= 16;
    search_lanes(needles, nn, hay, nh, idx, strict, (uint32_t)(hay - haystack), L, S);
    const size_t k0 = L * S, i0 = mp_search(needles, nn, hay, nh, k0, strict);
    needles += i0, idx += i0, nn -= i0, hay += k0 - i0, nh -= k0 - i0;
  }
  if (nh == 0) {  // every needle left is past the haystack's end
    const int32_t r = (int32_t)(hay - haystack);
    for (size_t i = 0, vl; i < nn; i += vl) {
      vl = __riscv_vsetvl_e32m2(nn - i);
      __riscv_vse32_v_i32m2(idx + i, __riscv_vmv_v_x_i32m2(r, vl), vl);
    }
    return;
  }
  const size_t base = (size_t)(hay - haystack);
  search_scalar(needles, 0, nn, haystack, base, base + nh, idx, strict);
}

static size_t upper_bound_s(const int32_t *x, size_t lo, size_t hi, int32_t k) {  // first x > k
  while (lo < hi) {
    size_t m = (lo + hi) >> 1;
    if (x[m] <= k) lo = m + 1;
    else hi = m;
  }
  return lo;
}

static size_t lower_bound_s(const int32_t *x, size_t lo, size_t hi, int32_t k) {  // first x >= k
  while (lo < hi) {
    size_t m = (lo + hi) >> 1;
    if (x[m] < k) lo = m + 1;
    else hi = m;
  }
  return lo;
}

// In-register inclusive scan of v[0..vl) (vl <= vlmax), log-step vslideup + vadd.
static inline vuint32m4_t scan_incl(vuint32m4_t v, size_t vl) {
  const size_t vlmax = __riscv_vsetvlmax_e32m4();
  vuint32m4_t z = __riscv_vmv_v_x_u32m4(0, vl);
  for (size_t off = vlmax >> 1; off > 0; off >>= 1) {
    z = __riscv_vslideup_vx_u32m4(z, v, off, vl);
    v = __riscv_vadd_vv_u32m4(v, z, vl);
  }
  return v;
}

int32_t relational_join_i32(const int32_t *a, int na_, const int32_t *b, int nb_, int32_t *out_i, int32_t *out_j,
                            int cap_) {
  const size_t na = na_ > 0 ? (size_t)na_ : 0, nb = nb_ > 0 ? (size_t)nb_ : 0;
  const uint32_t cap = cap_ > 0 ? (uint32_t)cap_ : 0;
  if (na == 0 || nb == 0) return 0;
  int32_t lbuf[R], ubuf[R];
  uint32_t cbuf[MAXC], offs[MAXC], lbs[MAXC];
  uint32_t total = 0;
  size_t jlo = 0;
  for (size_t i0 = 0; i0 < na; i0 += R) {
    const size_t i1 = na - i0 < R ? na : i0 + R;
    jlo = lower_bound_s(b, jlo, nb, a[i0]);
    const size_t jhi = upper_bound_s(b, jlo, nb, a[i1 - 1]);
    // 1. lower and upper bounds (relative to jlo)
    bounds(a + i0, i1 - i0, b + jlo, jhi - jlo, lbuf, 0);
    bounds(a + i0, i1 - i0, b + jlo, jhi - jlo, ubuf, 1);
    for (size_t i = i0, vl; i < i1; i += vl) {
      vl = __riscv_vsetvl_e32m4(i1 - i < MAXC ? i1 - i : MAXC);
      const vuint32m4_t lbr = __riscv_vle32_v_u32m4((const uint32_t *)lbuf + (i - i0), vl);
      const vuint32m4_t lb = __riscv_vadd_vx_u32m4(lbr, (uint32_t)jlo, vl);
      // 2. matches per key
      const vuint32m4_t c = __riscv_vsub_vv_u32m4(__riscv_vle32_v_u32m4((const uint32_t *)ubuf + (i - i0), vl), lbr, vl);
      // 3. output offsets: exclusive scan of the counts + the running total
      const vuint32m4_t incl = scan_incl(c, vl);
      const vuint32m4_t off = __riscv_vadd_vx_u32m4(__riscv_vsub_vv_u32m4(incl, c, vl), total, vl);
      const uint32_t chunk_total = __riscv_vmv_x_s_u32m4_u32(__riscv_vslidedown_vx_u32m4(incl, vl - 1, vl));
      // 4. expansion, below cap
      if (total < cap) {
        const vuint32m4_t iv = __riscv_vadd_vx_u32m4(__riscv_vid_v_u32m4(vl), (uint32_t)i, vl);
        const uint32_t maxc = __riscv_vmv_x_s_u32m1_u32(__riscv_vredmaxu_vs_u32m4_u32m1(c, __riscv_vmv_s_x_u32m1(0, 1), vl));
        const uint32_t steps = maxc < T ? maxc : T;
        vuint32m4_t o = off, jv = lb;
        for (uint32_t s = 0; s < steps; ++s) {
          vbool8_t w = __riscv_vmand_mm_b8(__riscv_vmsgtu_vx_u32m4_b8(c, s, vl), __riscv_vmsltu_vx_u32m4_b8(o, cap, vl), vl);
          vuint32m4_t o4 = __riscv_vsll_vx_u32m4(o, 2, vl);
          __riscv_vsuxei32_v_u32m4_m(w, (uint32_t *)out_i, o4, iv, vl);
          __riscv_vsuxei32_v_u32m4_m(w, (uint32_t *)out_j, o4, jv, vl);
          o = __riscv_vadd_vx_u32m4(o, 1, vl);
          jv = __riscv_vadd_vx_u32m4(jv, 1, vl);
        }
        if (maxc > T) {  // pairs T.. of the long lanes: contiguous stores
          __riscv_vse32_v_u32m4(cbuf, c, vl);
          __riscv_vse32_v_u32m4(offs, off, vl);
          __riscv_vse32_v_u32m4(lbs, lb, vl);
          vbool8_t lng = __riscv_vmsgtu_vx_u32m4_b8(c, T, vl);
          for (long l; (l = __riscv_vfirst_m_b8(lng, vl)) >= 0;) {
            lng = __riscv_vmand_mm_b8(lng, __riscv_vmsne_vx_u32m4_b8(__riscv_vid_v_u32m4(vl), (uint32_t)l, vl), vl);
            uint32_t o0 = offs[l] + T, cnt = cbuf[l] - T;
            if (o0 >= cap) continue;
            if (cnt > cap - o0) cnt = cap - o0;
            for (uint32_t k = 0, sl; k < cnt; k += sl) {
              sl = (uint32_t)__riscv_vsetvl_e32m4(cnt - k);
              __riscv_vse32_v_i32m4(out_i + o0 + k, __riscv_vmv_v_x_i32m4((int32_t)(i + (size_t)l), sl), sl);
              __riscv_vse32_v_u32m4((uint32_t *)out_j + o0 + k, __riscv_vadd_vx_u32m4(__riscv_vid_v_u32m4(sl), lbs[l] + T + k, sl), sl);
            }
            vl = __riscv_vsetvl_e32m4(i1 - i < MAXC ? i1 - i : MAXC);
          }
        }
      }
      total += chunk_total;
    }
  }
  return (int32_t)total;
}
