// Load-balancing search (moderngpu's load_balance_search), int32: out[i] = last s with seg[s] <= i.
// The items are cut into blocks of BLK; a block's starts are a contiguous run seg[js..je) (seg is
// sorted). Two paths, chosen per block by density:
// - Few starts (at least FILL_T items per start): splat each segment's index over its items with LMUL-1
//   stores (fill_block below).
// - Dense: rank by viota, segment by gather. Each distinct start position p is marked in a zeroed byte
//   flag array on the stack (vsuxei32; equal starts of empty segments write the same byte), and the
//   last s of every run of equal starts is compacted into L (vcompress of s under "seg[s] != seg[s+1]"),
//   with L[0] = js - 1, the segment running into the block. Then out[i] = L[number of distinct starts
//   <= i], a rank that viota computes for a whole register of items: the flags are stored shifted by one
//   item (flag[p - 1]) so viota's exclusive count is the inclusive one, one e8m4 pass turns them into a
//   bitmap (vmsne + vsm), and each strip is vlm, viota, vluxei32 from L (base moved by the rank so far),
//   vse32. The gather from L (in L1) is what makes empty segments free: ranks count positions, L maps
//   them to segments. LMUL 4 strips (viota and indexed loads cost the same per element at every LMUL on
//   the X60, so the widest strip that keeps vlm byte-aligned saves loop overhead); if vlmax is not a
//   multiple of 8 the strips read the byte flags instead.
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

// The L compaction is written at m1 (a quarter of the main LMUL), so LMUL cannot go below 4.
// eok-knob: LMUL = 4 in {4, 8}
#ifndef BLK
#define BLK 2048
#endif
#define BITS_SLACK 64
// A block with at least FILL_T items per start on average is filled segment by segment with splats
// (cheaper for long segments); denser blocks take the rank/gather path (0: always splats).
// eok-knob: FILL_T = 6 in {0, 4, 6, 8, 12, 1000000}
#ifndef FILL_T
#define FILL_T 6
#endif

// Splat path for a block with few starts (long segments): items from p get v up to the first start, then
// each start seg[s] (s in [js, je)) opens segment s, up to oe. Away from the end of out (out_n), a
// segment is written by full LMUL-1 splat stores from its first item, the last one spilling up to vlmax
// lanes into the following segments, which are written later (at least one store even for an empty
// segment, so a short segment costs one store and no vsetvl); the next segment's end is loaded and its
// splat made one segment ahead. The last segments (and any near the end of out) use exact stores.
__attribute__((noinline)) static int32_t *fill_block(int32_t *p, int32_t v, const int32_t *seg, size_t js, size_t je, int32_t *out, int32_t *oe,
                           int32_t *out_n, size_t vlmax) {
  // Segment t (t = 0..k) ends at E(t): out + seg[js + t] for t < k, oe for t = k.
  const size_t k = je - js;
  const int32_t *sp = seg + js;
  const ptrdiff_t safe = (out_n - out) - (ptrdiff_t)vlmax;
  size_t t = 0;
  if (k > 1) {
    int32_t raw = sp[0];
    vint32m1_t vs = __riscv_vmv_v_x_i32m1(v, vlmax);
    for (; t + 1 < k && raw <= safe; t++) {
      int32_t *e = out + raw;
      raw = sp[t + 1];  // next end, loaded a segment ahead
      do {
        __riscv_vse32_v_i32m1(p, vs, vlmax);
        p += vlmax;
      } while (p < e);
      p = e;
      v++;
      vs = __riscv_vmv_v_x_i32m1(v, vlmax);  // the next segment's splat, ahead of its stores
    }
  }
  for (;; t++, v++) {  // the rest with exact stores
    int32_t *e = t < k ? out + sp[t] : oe;
    for (size_t vl; p < e; p += vl) {
      vl = __riscv_vsetvl_e32m1((size_t)(e - p));
      __riscv_vse32_v_i32m1(p, __riscv_vmv_v_x_i32m1(v, vl), vl);
    }
    p = e;
    if (t == k) return p;
  }
}

void load_balance_search_i32(int count, const int32_t *seg, int nseg, int32_t *out) {
  uint8_t flags[BLK];
  uint8_t bits[BLK / 8 + BITS_SLACK];  // slack: the pipelined loop reads one pair of masks ahead
  int32_t L[BLK + 1 + 64];  // slack for full-vl stores of the compaction (vlmax of e32m1 <= 64)
  const size_t N = count > 0 ? (size_t)count : 0, S = nseg > 0 ? (size_t)nseg : 0;
  const size_t vlmax = __riscv_vsetvlmax_e32m4();
  const vint32m1_t vid1 = __riscv_vreinterpret_v_u32m1_i32m1(__riscv_vid_v_u32m1(__riscv_vsetvlmax_e32m1()));
  size_t js = 0;  // first start at or after the block
  for (size_t ib = 0; ib < N; ib += BLK) {
    const size_t len = N - ib < BLK ? N - ib : BLK;
    int32_t *o = out + ib;
    // The block's starts: seg[js..je) = those < ib + len.
    size_t je = js;
    while (je < S) {
      size_t vl = __riscv_vsetvl_e32m4(S - je);
      vuint32m4_t p = __riscv_vle32_v_u32m4((const uint32_t *)seg + je, vl);
      size_t c = __riscv_vcpop_m_b8(__riscv_vmsltu_vx_u32m4_b8(p, (uint32_t)(ib + len), vl), vl);
      je += c;
      if (c < vl) break;
    }
    if ((je - js) * FILL_T <= len) {  // few starts: splat segment by segment
      fill_block(o, (int32_t)js - 1, seg, js, je, out, o + len, out + N, __riscv_vsetvlmax_e32m1());
      js = je;
      continue;
    }
    for (size_t i = 0, vl; i < len; i += vl) {
      vl = __riscv_vsetvl_e8m4(len - i);
      __riscv_vse8_v_u8m4(flags + i, __riscv_vmv_v_x_u8m4(0, vl), vl);
    }
    // flag[p - 1] for each start p in (ib, ib + len); L[1..] = the last s of each run of equal starts.
    L[0] = (int32_t)js - 1;
    int32_t *lp = L + 1;
    for (size_t s = js, vl; s < je; s += vl) {
      vl = __riscv_vsetvl_e32m4(je - s);
      vuint32m4_t f = __riscv_vsub_vx_u32m4(__riscv_vle32_v_u32m4((const uint32_t *)seg + s, vl), (uint32_t)(ib + 1), vl);
      // p == ib wraps around and is masked off
      __riscv_vsuxei32_v_u8m1_m(__riscv_vmsltu_vx_u32m4_b8(f, (uint32_t)len, vl), flags, f, __riscv_vmv_v_x_u8m1(1, vl), vl);
    }
    // vcompress is cheap only at LMUL 1 on the X60 (3 cycles; 36 at m4), so the compaction of L runs
    // at a quarter of the main LMUL.
    for (size_t s = js, vl; s < je; s += vl) {
      vl = __riscv_vsetvl_e32m1(je - s);
      vuint32m1_t p = __riscv_vle32_v_u32m1((const uint32_t *)seg + s, vl);
      vuint32m1_t nx = s + vl < S ? __riscv_vle32_v_u32m1((const uint32_t *)seg + s + 1, vl)
                                  : __riscv_vslide1down_vx_u32m1(p, 0xffffffffu, vl);  // the very last start
      vbool32_t last = __riscv_vmsne_vv_u32m1_b32(p, nx, vl);
      // Stored at full vl (L has slack; the surplus lanes are overwritten or never read).
      __riscv_vse32_v_i32m1(lp, __riscv_vcompress_vm_i32m1(__riscv_vadd_vx_i32m1(vid1, (int32_t)s, vl), last, vl), vl);
      lp += __riscv_vcpop_m_b32(last, vl);
    }
    // A start exactly at ib is not in the shifted flags: it starts every rank at 1.
    int32_t rank = (uint32_t)seg[js] == ib;
    size_t i = 0;
    if (vlmax % 8 == 0) {
      for (size_t vl, k = 0; k < len; k += vl) {  // flags -> bitmap
        vl = __riscv_vsetvl_e8m4(len - k);
        __riscv_vsm_v_b2(bits + k / 8, __riscv_vmsne_vx_u8m4_b2(__riscv_vle8_v_u8m4(flags + k, vl), 0, vl), vl);
      }
      // Two strips per iteration, software-pipelined: the next pair's masks, ranks (viota) and byte
      // offsets are computed while this pair's gathers and stores occupy the load/store unit, which
      // bounds the loop (vluxei32 costs 16 cycles per LMUL-4 register). The rank so far moves the
      // gather's base pointer instead of the offsets.
      const size_t q = 2 * vlmax;
      if (q <= len && vlmax <= 4 * BITS_SLACK) {
        vbool8_t m0 = __riscv_vlm_v_b8(bits, vlmax), m1 = __riscv_vlm_v_b8(bits + vlmax / 8, vlmax);
        vuint32m4_t r0 = __riscv_vsll_vx_u32m4(__riscv_viota_m_u32m4(m0, vlmax), 2, vlmax);
        vuint32m4_t r1 = __riscv_vsll_vx_u32m4(__riscv_viota_m_u32m4(m1, vlmax), 2, vlmax);
        size_t c0 = __riscv_vcpop_m_b8(m0, vlmax), c1 = __riscv_vcpop_m_b8(m1, vlmax);
        for (;;) {
          const int32_t *l0 = L + rank, *l1 = l0 + c0;
          rank += (int32_t)(c0 + c1);
          vint32m4_t v0 = __riscv_vluxei32_v_i32m4(l0, r0, vlmax);
          m0 = __riscv_vlm_v_b8(bits + (i + q) / 8, vlmax);  // next pair (bits has slack past the block)
          m1 = __riscv_vlm_v_b8(bits + (i + q + vlmax) / 8, vlmax);
          vint32m4_t v1 = __riscv_vluxei32_v_i32m4(l1, r1, vlmax);
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
        __riscv_vse32_v_i32m4(o + i, __riscv_vluxei32_v_i32m4(L + rank, r, vl), vl);
        rank += (int32_t)__riscv_vcpop_m_b8(m, vl);
      }
    } else {
      for (size_t vl; i < len; i += vl) {
        vl = __riscv_vsetvl_e32m4(len - i);
        vbool8_t m = __riscv_vmsne_vx_u8m1_b8(__riscv_vle8_v_u8m1(flags + i, vl), 0, vl);
        vuint32m4_t r = __riscv_vsll_vx_u32m4(__riscv_viota_m_u32m4(m, vl), 2, vl);
        __riscv_vse32_v_i32m4(o + i, __riscv_vluxei32_v_i32m4(L + rank, r, vl), vl);
        rank += (int32_t)__riscv_vcpop_m_b8(m, vl);
      }
    }
    js = je;
  }
}
