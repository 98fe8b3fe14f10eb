// Bulk insert (moderngpu's bulk_insert), int32: out = b with a[i] inserted before b[pos[i]].
// a[i] lands at output slot i + pos[i], strictly increasing in i, so the output is cut into blocks of
// BLK slots and the a elements of a block are a contiguous run of a. Their slots are marked in a zeroed
// byte flag array on the stack (vsuxei32, masked by "slot < block end"; vcpop advances the run), and
// one e8m8 pass turns the flags into a free-slot bitmap (vmseq + vsm). b then fills the block in order:
// per LMUL-1 strip, viota of the free mask numbers the free lanes and vrgather picks them from a vle32
// of the next b elements; the strip is stored whole (lanes of a slots get a junk b value) and the b
// cursor advances by vcpop. Last, the run of a is scattered into its slots (vsuxei32), overwriting the
// junk. vrgather is cheap only at LMUL 1 on the X60 (4 cycles; 16 at m2), so strips are LMUL 1, four
// per iteration, with the next four masks (vlm, vcpop, viota) computed ahead so the in-order core has
// independent work while loads and gathers wait. A block with no a element is a plain LMUL-8 copy of
// b. If vlmax is not a multiple of 8 (bitmap bytes would not align with strips) the strips read the byte
// flags instead.
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

// No LMUL knob: the strips must stay at LMUL 1 (vcompress/vrgather cost), and the LMUL-8 copy and
// e8m8 passes cannot be scaled up. The block size (positions per flag array on the stack) is a knob.
// eok-knob: BLK = 2048 in {512, 1024, 2048, 4096}
#ifndef BLK
#define BLK 2048
#endif
#if BLK % 256 != 0
#error "BLK must be a multiple of 256"
#endif

// Fills the free slots of o[0..i) from b[*jb..], four LMUL-1 strips of vl slots per iteration while a
// whole group fits in the block and in b; returns i. The next group's masks (vlm, vcpop, viota) are
// computed while the current group's loads and gathers are in flight.
static inline __attribute__((always_inline)) size_t fill_groups_body(int32_t *o, const uint8_t *bits, size_t len,
                                                                     const int32_t *b, size_t *jbp, size_t NB,
                                                                     size_t vl) {
  const size_t q = 4 * vl, qb = vl / 8;
  size_t i = 0, jb = *jbp;
  if (q > len || jb + q > NB) return 0;
  vbool32_t k0 = __riscv_vlm_v_b32(bits, vl), k1 = __riscv_vlm_v_b32(bits + qb, vl);
  vbool32_t k2 = __riscv_vlm_v_b32(bits + 2 * qb, vl), k3 = __riscv_vlm_v_b32(bits + 3 * qb, vl);
  size_t c0 = __riscv_vcpop_m_b32(k0, vl), c1 = __riscv_vcpop_m_b32(k1, vl);
  size_t c2 = __riscv_vcpop_m_b32(k2, vl), c3 = __riscv_vcpop_m_b32(k3, vl);
  vuint32m1_t d0 = __riscv_viota_m_u32m1(k0, vl), d1 = __riscv_viota_m_u32m1(k1, vl);
  vuint32m1_t d2 = __riscv_viota_m_u32m1(k2, vl), d3 = __riscv_viota_m_u32m1(k3, vl);
  for (;;) {
    const int32_t *b0 = b + jb, *b1 = b0 + c0, *b2 = b1 + c1, *b3 = b2 + c2;
    jb += c0 + c1 + c2 + c3;
    vint32m1_t v0 = __riscv_vle32_v_i32m1(b0, vl);
    vint32m1_t v1 = __riscv_vle32_v_i32m1(b1, vl);
    vint32m1_t v2 = __riscv_vle32_v_i32m1(b2, vl);
    vint32m1_t v3 = __riscv_vle32_v_i32m1(b3, vl);
    vint32m1_t g0 = __riscv_vrgather_vv_i32m1(v0, d0, vl);
    vint32m1_t g1 = __riscv_vrgather_vv_i32m1(v1, d1, vl);
    vint32m1_t g2 = __riscv_vrgather_vv_i32m1(v2, d2, vl);
    vint32m1_t g3 = __riscv_vrgather_vv_i32m1(v3, d3, vl);
    const uint8_t *bb = bits + (i + q) / 8;  // next group (bits has slack; unused when the loop ends)
    k0 = __riscv_vlm_v_b32(bb, vl);
    k1 = __riscv_vlm_v_b32(bb + qb, vl);
    k2 = __riscv_vlm_v_b32(bb + 2 * qb, vl);
    k3 = __riscv_vlm_v_b32(bb + 3 * qb, vl);
    int32_t *oo = o + i;
    __riscv_vse32_v_i32m1(oo, g0, vl);
    c0 = __riscv_vcpop_m_b32(k0, vl);
    d0 = __riscv_viota_m_u32m1(k0, vl);
    __riscv_vse32_v_i32m1(oo + vl, g1, vl);
    c1 = __riscv_vcpop_m_b32(k1, vl);
    d1 = __riscv_viota_m_u32m1(k1, vl);
    __riscv_vse32_v_i32m1(oo + 2 * vl, g2, vl);
    c2 = __riscv_vcpop_m_b32(k2, vl);
    d2 = __riscv_viota_m_u32m1(k2, vl);
    __riscv_vse32_v_i32m1(oo + 3 * vl, g3, vl);
    c3 = __riscv_vcpop_m_b32(k3, vl);
    d3 = __riscv_viota_m_u32m1(k3, vl);
    i += q;
    if (i + q > len || jb + q > NB) break;
  }
  *jbp = jb;
  return i;
}

// Specialised for VLEN 256 (vl 8: offsets become immediates) and generic.
static size_t fill_groups_vl8(int32_t *o, const uint8_t *bits, size_t len, const int32_t *b, size_t *jb, size_t NB) {
  return fill_groups_body(o, bits, len, b, jb, NB, 8);
}
static size_t fill_groups(int32_t *o, const uint8_t *bits, size_t len, const int32_t *b, size_t *jb, size_t NB,
                          size_t vl) {
  return fill_groups_body(o, bits, len, b, jb, NB, vl);
}

void bulk_insert_i32(const int32_t *a, const int32_t *pos, int na, const int32_t *b, int nb, int32_t *out) {
  uint8_t flags[BLK];
  uint8_t bits[BLK / 8 + 64];  // slack: the pipelined loop may read (and ignore) masks past the block
  const size_t NA = na > 0 ? (size_t)na : 0, NB = nb > 0 ? (size_t)nb : 0, NO = NA + NB;
  const size_t vlmax = __riscv_vsetvlmax_e32m1();
  const vuint32m4_t vid = __riscv_vid_v_u32m4(__riscv_vsetvlmax_e32m4());
  size_t ia = 0, jb = 0;
  for (size_t obase = 0; obase < NO; obase += BLK) {
    const size_t len = NO - obase < BLK ? NO - obase : BLK;
    const size_t olim = obase + len;
    int32_t *o = out + obase;
    if (ia >= NA || ia + (size_t)pos[ia] >= olim) {  // no a element here: the block is b[jb..jb+len)
      for (size_t i = 0, vl; i < len; i += vl) {
        vl = __riscv_vsetvl_e32m8(len - i);
        __riscv_vse32_v_i32m8(o + i, __riscv_vle32_v_i32m8(b + jb + i, vl), vl);
      }
      jb += len;
      continue;
    }
    for (size_t i = 0, vl; i < len; i += vl) {
      vl = __riscv_vsetvl_e8m8(len - i);
      __riscv_vse8_v_u8m8(flags + i, __riscv_vmv_v_x_u8m8(0, vl), vl);
    }
    // Mark the block's a slots: flag[i + pos[i] - obase] = 1.
    const size_t ia0 = ia;
    while (ia < NA) {
      size_t vl = __riscv_vsetvl_e32m4(NA - ia);
      vuint32m4_t slot = __riscv_vle32_v_u32m4((const uint32_t *)pos + ia, vl);
      slot = __riscv_vadd_vx_u32m4(__riscv_vadd_vv_u32m4(slot, vid, vl), (uint32_t)ia, vl);
      vbool8_t in = __riscv_vmsltu_vx_u32m4_b8(slot, (uint32_t)olim, vl);
      slot = __riscv_vsub_vx_u32m4(slot, (uint32_t)obase, vl);
      __riscv_vsuxei32_v_u8m1_m(in, flags, slot, __riscv_vmv_v_x_u8m1(1, vl), vl);
      size_t c = __riscv_vcpop_m_b8(in, vl);
      ia += c;
      if (c < vl) break;
    }
    size_t i = 0;
    if (vlmax % 8 == 0) {
      for (size_t vl; i < len; i += vl) {  // free-slot bitmap
        vl = __riscv_vsetvl_e8m8(len - i);
        __riscv_vsm_v_b1(bits + i / 8, __riscv_vmseq_vx_u8m8_b1(__riscv_vle8_v_u8m8(flags + i, vl), 0, vl), vl);
      }
      i = vlmax == 8 ? fill_groups_vl8(o, bits, len, b, &jb, NB) : fill_groups(o, bits, len, b, &jb, NB, vlmax);
      for (size_t vl; i < len; i += vl) {
        vl = __riscv_vsetvl_e32m1(len - i);
        vbool32_t k = __riscv_vlm_v_b32(bits + i / 8, vl);
        vint32m1_t vb = __riscv_vle32_v_i32m1(b + jb, NB - jb < vl ? NB - jb : vl);
        __riscv_vse32_v_i32m1(o + i, __riscv_vrgather_vv_i32m1(vb, __riscv_viota_m_u32m1(k, vl), vl), vl);
        jb += __riscv_vcpop_m_b32(k, vl);
      }
    } else {
      for (size_t vl; i < len; i += vl) {
        vl = __riscv_vsetvl_e32m1(len - i);
        vbool32_t k = __riscv_vmseq_vx_u8mf4_b32(__riscv_vle8_v_u8mf4(flags + i, vl), 0, vl);
        vint32m1_t vb = __riscv_vle32_v_i32m1(b + jb, NB - jb < vl ? NB - jb : vl);
        __riscv_vse32_v_i32m1(o + i, __riscv_vrgather_vv_i32m1(vb, __riscv_viota_m_u32m1(k, vl), vl), vl);
        jb += __riscv_vcpop_m_b32(k, vl);
      }
    }
    // The block's a values into their slots, over the junk the fill left there.
    for (size_t t = ia0, vl; t < ia; t += vl) {
      vl = __riscv_vsetvl_e32m4(ia - t);
      vuint32m4_t slot = __riscv_vle32_v_u32m4((const uint32_t *)pos + t, vl);
      slot = __riscv_vadd_vx_u32m4(__riscv_vadd_vv_u32m4(slot, vid, vl), (uint32_t)t, vl);
      __riscv_vsuxei32_v_i32m4(out, __riscv_vsll_vx_u32m4(slot, 2, vl), __riscv_vle32_v_i32m4(a + t, vl), vl);
    }
  }
}
