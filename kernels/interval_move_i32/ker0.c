// Interval move (moderngpu's interval_move), int32: interval k copies input[gather[k] ..] to
// out[scatter[k] ..] up to the next scatter start (the last to count).
// The output is cut into blocks of BLK items; a block's intervals start in a contiguous run
// scatter[js..je) (scatter is sorted). Two paths, chosen per block by density:
// - Few intervals (at least COPY_T items per interval): contiguous copies interval by interval
//   (copy_block below). An interval of up to vlmax elements is one LMUL-1 vle32 + vse32 at full vl: the
//   surplus lanes land in the following intervals' output, which is written later, so no vsetvl waits
//   on the length (the X60 charges loads/stores by LMUL, not vl); near the end of out or input exact
//   copies are used. The next interval's bounds are loaded one interval ahead. Intervals longer than
//   LONG elements are copied by LMUL-4 vsetvl strips.
// - Dense (short intervals): load-balancing search by rank, then an indexed gather. Each distinct
//   interval start p is marked in a zeroed byte flag array on the stack (vsuxei32; empty intervals
//   write the same byte), and delta = gather - scatter of the last interval of every run of equal
//   starts is compacted into L (vcompress at LMUL 1, where it is cheap on the X60). out[i] =
//   input[i + L[number of distinct starts <= i]]: the flags are stored shifted by one item so viota's
//   exclusive count is the inclusive one, one e8m4 pass makes them a bitmap (vmsne + vsm), and each
//   LMUL-4 strip is vlm, viota, vluxei32 of the delta from L (base moved by the rank so far), vluxei32
//   of input, vse32; two strips per iteration, software-pipelined. If vlmax is not a multiple of 8 the
//   strips read the byte flags instead.
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

// The L compaction is written at m1 (a quarter of the main LMUL), so LMUL cannot go below 4.
// eok-knob: LMUL = 4 in {4, 8}
#ifndef BLK
#define BLK 2048
#endif
#define BITS_SLACK 64
// A block with at least COPY_T items per interval on average is copied interval by interval (cheaper
// for long intervals); denser blocks take the rank/gather path (0: always copies).
// eok-knob: COPY_T = 4 in {0, 2, 4, 6, 8, 1000000}
#ifndef COPY_T
#define COPY_T 4
#endif
// Intervals longer than LONG elements are copied with LMUL-4 strips.
#ifndef LONG
#define LONG 64
#endif

// dst[0..n) = src[0..n) exactly: LMUL-1 strips, or LMUL-4 strips past LONG elements.
static void copy_exact(int32_t *dst, const int32_t *src, size_t n) {
  if (n > LONG) {
    for (size_t i = 0, vl; i < n; i += vl) {
      vl = __riscv_vsetvl_e32m4(n - i);
      __riscv_vse32_v_i32m4(dst + i, __riscv_vle32_v_i32m4(src + i, vl), vl);
    }
    return;
  }
  for (size_t i = 0, vl; i < n; i += vl) {
    vl = __riscv_vsetvl_e32m1(n - i);
    __riscv_vse32_v_i32m1(dst + i, __riscv_vle32_v_i32m1(src + i, vl), vl);
  }
}

// Copy path for a block with few intervals: part t = 0..k (k = je - js) of the block's output runs
// from p (t = 0) or sc[t - 1] up to E(t) = sc[t] (t < k) or oe (t = k); part 0 continues the interval
// before the block and reads from src0, part t >= 1 is interval js + t - 1 and reads from input + ga[t-1]
// (sc = scatter + js, ga = gather + js). A whole interval of at most vlmax elements whose full-vl load
// and store stay inside input (nin) and out (count) is one LMUL-1 load and store (the store spills into
// the following intervals' output, written later); the others, and the first and last parts, are
// exact copies. The next interval's bounds are loaded one interval ahead.
__attribute__((noinline)) static void copy_block(int32_t *p, const int32_t *src0, const int32_t *sc, const int32_t *ga,
                                                 size_t k, int32_t *out, int32_t *oe, const int32_t *input,
                                                 size_t count, size_t nin, size_t vlmax) {
  copy_exact(p, src0, (size_t)((k > 0 ? out + sc[0] : oe) - p));
  if (k == 0) return;
  const int64_t lim_out = (int64_t)count - (int64_t)vlmax, lim_in = (int64_t)nin - (int64_t)vlmax;
  int32_t cs = sc[0];
  if (k > 1) {
    int32_t ce = sc[1], g = ga[0];
    for (size_t t = 1;;) {
      const int32_t *src = input + g;
      int32_t *dst = out + cs;
      const size_t n = (size_t)(ce - cs);
      cs = ce;
      if (++t < k) {
        ce = sc[t];
        g = ga[t - 1];
      }
      if (n <= vlmax && (int64_t)cs <= lim_out && (int64_t)(src - input) <= lim_in)
        __riscv_vse32_v_i32m1(dst, __riscv_vle32_v_i32m1(src, vlmax), vlmax);
      else
        copy_exact(dst, src, n);
      if (t >= k) break;
    }
  }
  copy_exact(out + cs, input + ga[k - 1], (size_t)(oe - (out + cs)));  // part k
}

void interval_move_i32(int count, const int32_t *scatter, const int32_t *gather, int nint, const int32_t *input, int nin,
                       int32_t *out) {
  uint8_t flags[BLK];
  uint8_t bits[BLK / 8 + BITS_SLACK];  // slack: the pipelined loop reads one pair of masks ahead
  int32_t L[BLK + 1 + 64];  // slack for full-vl stores of the compaction (vlmax of e32m1 <= 64)
  const size_t N = count > 0 ? (size_t)count : 0, S = nint > 0 ? (size_t)nint : 0;
  const size_t NIN = nin > 0 ? (size_t)nin : 0;
  const size_t vlmax = __riscv_vsetvlmax_e32m4();
  const vuint32m4_t vid = __riscv_vid_v_u32m4(vlmax);
  size_t js = 0;  // first interval starting at or after the block
  for (size_t ib = 0; ib < N; ib += BLK) {
    const size_t len = N - ib < BLK ? N - ib : BLK;
    int32_t *o = out + ib;
    // The block's interval starts: scatter[js..je) = those < ib + len.
    size_t je = js;
    while (je < S) {
      size_t vl = __riscv_vsetvl_e32m4(S - je);
      vuint32m4_t p = __riscv_vle32_v_u32m4((const uint32_t *)scatter + je, vl);
      size_t c = __riscv_vcpop_m_b8(__riscv_vmsltu_vx_u32m4_b8(p, (uint32_t)(ib + len), vl), vl);
      je += c;
      if (c < vl) break;
    }
    // delta of the interval running into the block (none at item 0)
    const int32_t d0 = js > 0 ? gather[js - 1] - scatter[js - 1] : 0;
    if ((je - js) * COPY_T <= len) {  // few intervals: contiguous copies
      copy_block(o, input + ((int64_t)ib + d0), scatter + js, gather + js, je - js, out, o + len, input, N, NIN,
                 __riscv_vsetvlmax_e32m1());
      js = je;
      continue;
    }
    for (size_t i = 0, vl; i < len; i += vl) {
      vl = __riscv_vsetvl_e8m4(len - i);
      __riscv_vse8_v_u8m4(flags + i, __riscv_vmv_v_x_u8m4(0, vl), vl);
    }
    // flag[p - 1] for each start p in (ib, ib + len); L[1..] = delta of the last interval of each run of
    // equal starts; L[0] = delta of the interval running into the block.
    L[0] = d0;
    int32_t *lp = L + 1;
    for (size_t s = js, vl; s < je; s += vl) {
      vl = __riscv_vsetvl_e32m4(je - s);
      vuint32m4_t f = __riscv_vsub_vx_u32m4(__riscv_vle32_v_u32m4((const uint32_t *)scatter + s, vl), (uint32_t)(ib + 1), vl);
      // p == ib wraps around and is masked off
      __riscv_vsuxei32_v_u8m1_m(__riscv_vmsltu_vx_u32m4_b8(f, (uint32_t)len, vl), flags, f, __riscv_vmv_v_x_u8m1(1, vl), vl);
    }
    // vcompress is cheap only at LMUL 1 on the X60 (3 cycles; 36 at m4), so the compaction of L runs
    // at a quarter of the main LMUL.
    for (size_t s = js, vl; s < je; s += vl) {
      vl = __riscv_vsetvl_e32m1(je - s);
      vint32m1_t p = __riscv_vle32_v_i32m1(scatter + s, vl);
      vint32m1_t nx = s + vl < S ? __riscv_vle32_v_i32m1(scatter + s + 1, vl)
                                 : __riscv_vslide1down_vx_i32m1(p, -1, vl);  // the very last interval
      vbool32_t last = __riscv_vmsne_vv_i32m1_b32(p, nx, vl);
      vint32m1_t d = __riscv_vsub_vv_i32m1(__riscv_vle32_v_i32m1(gather + s, vl), p, vl);
      // Stored at full vl (L has slack; the surplus lanes are overwritten or never read).
      __riscv_vse32_v_i32m1(lp, __riscv_vcompress_vm_i32m1(d, last, vl), vl);
      lp += __riscv_vcpop_m_b32(last, vl);
    }
    // A start exactly at ib is not in the shifted flags: it starts every rank at 1.
    int32_t rank = (uint32_t)scatter[js] == ib;
    size_t i = 0;
    if (vlmax % 8 == 0) {
      for (size_t vl, k = 0; k < len; k += vl) {  // flags -> bitmap
        vl = __riscv_vsetvl_e8m4(len - k);
        __riscv_vsm_v_b2(bits + k / 8, __riscv_vmsne_vx_u8m4_b2(__riscv_vle8_v_u8m4(flags + k, vl), 0, vl), vl);
      }
      // Two strips per iteration, software-pipelined: the next pair's masks, ranks (viota) and byte
      // offsets are computed while this pair's gathers and stores occupy the load/store unit, which
      // bounds the loop. The rank so far moves the delta gather's base pointer instead of the offsets;
      // the input offsets are (item + delta) * 4, never negative.
      const size_t q = 2 * vlmax;
      if (q <= len && vlmax <= 4 * BITS_SLACK) {
        vbool8_t m0 = __riscv_vlm_v_b8(bits, vlmax), m1 = __riscv_vlm_v_b8(bits + vlmax / 8, vlmax);
        vuint32m4_t r0 = __riscv_vsll_vx_u32m4(__riscv_viota_m_u32m4(m0, vlmax), 2, vlmax);
        vuint32m4_t r1 = __riscv_vsll_vx_u32m4(__riscv_viota_m_u32m4(m1, vlmax), 2, vlmax);
        size_t c0 = __riscv_vcpop_m_b8(m0, vlmax), c1 = __riscv_vcpop_m_b8(m1, vlmax);
        for (;;) {
          const int32_t *l0 = L + rank, *l1 = l0 + c0;
          rank += (int32_t)(c0 + c1);
          vuint32m4_t d0v = __riscv_vluxei32_v_u32m4((const uint32_t *)l0, r0, vlmax);
          vuint32m4_t d1v = __riscv_vluxei32_v_u32m4((const uint32_t *)l1, r1, vlmax);
          d0v = __riscv_vsll_vx_u32m4(__riscv_vadd_vx_u32m4(__riscv_vadd_vv_u32m4(d0v, vid, vlmax), (uint32_t)(ib + i), vlmax), 2, vlmax);
          d1v = __riscv_vsll_vx_u32m4(__riscv_vadd_vx_u32m4(__riscv_vadd_vv_u32m4(d1v, vid, vlmax), (uint32_t)(ib + i + vlmax), vlmax), 2, vlmax);
          vint32m4_t v0 = __riscv_vluxei32_v_i32m4(input, d0v, vlmax);
          m0 = __riscv_vlm_v_b8(bits + (i + q) / 8, vlmax);  // next pair (bits has slack past the block)
          m1 = __riscv_vlm_v_b8(bits + (i + q + vlmax) / 8, vlmax);
          vint32m4_t v1 = __riscv_vluxei32_v_i32m4(input, d1v, vlmax);
          r0 = __riscv_vsll_vx_u32m4(__riscv_viota_m_u32m4(m0, vlmax), 2, vlmax);
          r1 = __riscv_vsll_vx_u32m4(__riscv_viota_m_u32m4(m1, vlmax), 2, vlmax);
          c0 = __riscv_vcpop_m_b8(m0, vlmax);
          c1 = __riscv_vcpop_m_b8(m1, vlmax);
          __riscv_vse32_v_i32m4(o + i, v0, vlmax);
          __riscv_vse32_v_i32m4(o + i + vlmax, v1, vlmax);
          i += q;
          if (i + q > len) break;
        }
      }
      for (size_t vl; i < len; i += vl) {
        vl = __riscv_vsetvl_e32m4(len - i);
        vbool8_t m = __riscv_vlm_v_b8(bits + i / 8, vl);
        vuint32m4_t r = __riscv_vsll_vx_u32m4(__riscv_viota_m_u32m4(m, vl), 2, vl);
        vuint32m4_t d = __riscv_vluxei32_v_u32m4((const uint32_t *)L + rank, r, vl);
        d = __riscv_vsll_vx_u32m4(__riscv_vadd_vx_u32m4(__riscv_vadd_vv_u32m4(d, vid, vl), (uint32_t)(ib + i), vl), 2, vl);
        __riscv_vse32_v_i32m4(o + i, __riscv_vluxei32_v_i32m4(input, d, vl), vl);
        rank += (int32_t)__riscv_vcpop_m_b8(m, vl);
      }
    } else {
      for (size_t vl; i < len; i += vl) {
        vl = __riscv_vsetvl_e32m4(len - i);
        vbool8_t m = __riscv_vmsne_vx_u8m1_b8(__riscv_vle8_v_u8m1(flags + i, vl), 0, vl);
        vuint32m4_t r = __riscv_vsll_vx_u32m4(__riscv_viota_m_u32m4(m, vl), 2, vl);
        vuint32m4_t d = __riscv_vluxei32_v_u32m4((const uint32_t *)L + rank, r, vl);
        d = __riscv_vsll_vx_u32m4(__riscv_vadd_vx_u32m4(__riscv_vadd_vv_u32m4(d, vid, vl), (uint32_t)(ib + i), vl), 2, vl);
        __riscv_vse32_v_i32m4(o + i, __riscv_vluxei32_v_i32m4(input, d, vl), vl);
        rank += (int32_t)__riscv_vcpop_m_b8(m, vl);
      }
    }
    js = je;
  }
}
