// Integer and fixed-point RVV intrinsics over several SEW/LMUL settings, masked and unmasked.
// Compiled with clang-22 -march=rv64gcv_zfh_zvfh_zba_zbb_zbs -O2 -ffreestanding; the object is the fixture.
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

void add_sub_e32m1(int32_t* dst, const int32_t* a, const int32_t* b, size_t n) {
  for (size_t vl; n > 0; n -= vl, a += vl, b += vl, dst += vl) {
    vl = __riscv_vsetvl_e32m1(n);
    vint32m1_t va = __riscv_vle32_v_i32m1(a, vl);
    vint32m1_t vb = __riscv_vle32_v_i32m1(b, vl);
    vint32m1_t sum = __riscv_vadd_vv_i32m1(va, vb, vl);
    vint32m1_t diff = __riscv_vsub_vx_i32m1(sum, 7, vl);
    diff = __riscv_vrsub_vx_i32m1(diff, 3, vl);
    diff = __riscv_vadd_vx_i32m1(diff, 5, vl);
    __riscv_vse32_v_i32m1(dst, diff, vl);
  }
}

vint16m2_t logic_e16m2(vint16m2_t a, vint16m2_t b, int16_t x, size_t vl) {
  vint16m2_t r = __riscv_vand_vv_i16m2(a, b, vl);
  r = __riscv_vor_vx_i16m2(r, x, vl);
  r = __riscv_vxor_vx_i16m2(r, -1, vl);
  r = __riscv_vand_vx_i16m2(r, 0x0f0f, vl);
  r = __riscv_vor_vv_i16m2(r, a, vl);
  return __riscv_vxor_vv_i16m2(r, b, vl);
}

vuint64m4_t shifts_e64m4(vuint64m4_t a, vuint64m4_t s, size_t sh, size_t vl) {
  vuint64m4_t r = __riscv_vsll_vv_u64m4(a, s, vl);
  r = __riscv_vsrl_vx_u64m4(r, sh, vl);
  r = __riscv_vsll_vx_u64m4(r, 3, vl);
  vint64m4_t t = __riscv_vsra_vx_i64m4(__riscv_vreinterpret_v_u64m4_i64m4(r), 9, vl);
  t = __riscv_vsra_vv_i64m4(t, s, vl);
  return __riscv_vsrl_vv_u64m4(__riscv_vreinterpret_v_i64m4_u64m4(t), s, vl);
}

vint8m8_t minmax_e8m8(vint8m8_t a, vint8m8_t b, vuint8m8_t c, vuint8m8_t d, size_t vl) {
  vint8m8_t lo = __riscv_vmin_vv_i8m8(a, b, vl);
  vint8m8_t hi = __riscv_vmax_vx_i8m8(a, 3, vl);
  vuint8m8_t ulo = __riscv_vminu_vv_u8m8(c, d, vl);
  vuint8m8_t uhi = __riscv_vmaxu_vx_u8m8(c, 200, vl);
  lo = __riscv_vmin_vx_i8m8(lo, 9, vl);
  hi = __riscv_vmax_vv_i8m8(hi, lo, vl);
  ulo = __riscv_vminu_vx_u8m8(ulo, 17, vl);
  uhi = __riscv_vmaxu_vv_u8m8(uhi, ulo, vl);
  return __riscv_vadd_vv_i8m8(hi, __riscv_vreinterpret_v_u8m8_i8m8(uhi), vl);
}

vint32m2_t compare_merge_e32m2(vint32m2_t a, vint32m2_t b, int32_t x, size_t vl) {
  vbool16_t eq = __riscv_vmseq_vv_i32m2_b16(a, b, vl);
  vbool16_t ne = __riscv_vmsne_vx_i32m2_b16(a, x, vl);
  vbool16_t lt = __riscv_vmslt_vv_i32m2_b16(a, b, vl);
  vbool16_t le = __riscv_vmsle_vx_i32m2_b16(a, 4, vl);
  vbool16_t gt = __riscv_vmsgt_vx_i32m2_b16(a, x, vl);
  vbool16_t ltu = __riscv_vmsltu_vv_u32m2_b16(__riscv_vreinterpret_v_i32m2_u32m2(a),
                                              __riscv_vreinterpret_v_i32m2_u32m2(b), vl);
  vbool16_t gtu = __riscv_vmsgtu_vx_u32m2_b16(__riscv_vreinterpret_v_i32m2_u32m2(a), 12, vl);
  vbool16_t leu = __riscv_vmsleu_vv_u32m2_b16(__riscv_vreinterpret_v_i32m2_u32m2(a),
                                              __riscv_vreinterpret_v_i32m2_u32m2(b), vl);
  vint32m2_t r = __riscv_vmerge_vvm_i32m2(a, b, eq, vl);
  r = __riscv_vmerge_vxm_i32m2(r, x, ne, vl);
  r = __riscv_vmerge_vxm_i32m2(r, 7, lt, vl);
  r = __riscv_vadd_vv_i32m2_m(le, r, a, vl);
  r = __riscv_vsub_vv_i32m2_mu(gt, r, r, b, vl);
  r = __riscv_vadd_vx_i32m2_mu(ltu, r, r, 1, vl);
  r = __riscv_vxor_vv_i32m2_tumu(gtu, r, r, a, vl);
  return __riscv_vor_vx_i32m2_m(leu, r, 2, vl);
}

vint32m1_t moves_e32m1(int32_t x, size_t vl) {
  vint32m1_t a = __riscv_vmv_v_x_i32m1(x, vl);
  vint32m1_t b = __riscv_vmv_v_x_i32m1(5, vl);
  vint32m1_t c = __riscv_vmv_v_v_i32m1(a, vl);
  return __riscv_vadd_vv_i32m1(b, c, vl);
}

vint64m8_t mul_div_e64m8(vint64m8_t a, vint64m8_t b, int64_t x, size_t vl) {
  vint64m8_t r = __riscv_vmul_vv_i64m8(a, b, vl);
  r = __riscv_vmulh_vx_i64m8(r, x, vl);
  r = __riscv_vdiv_vv_i64m8(r, b, vl);
  r = __riscv_vrem_vx_i64m8(r, x, vl);
  vuint64m8_t u = __riscv_vreinterpret_v_i64m8_u64m8(r);
  u = __riscv_vdivu_vx_u64m8(u, 10, vl);
  u = __riscv_vremu_vv_u64m8(u, __riscv_vreinterpret_v_i64m8_u64m8(b), vl);
  u = __riscv_vmulhu_vv_u64m8(u, u, vl);
  r = __riscv_vmulhsu_vv_i64m8(__riscv_vreinterpret_v_u64m8_i64m8(u), u, vl);
  return r;
}

vint16m4_t muladd_e16m4(vint16m4_t acc, vint16m4_t a, vint16m4_t b, int16_t x, vbool4_t m, size_t vl) {
  acc = __riscv_vmacc_vv_i16m4(acc, a, b, vl);
  acc = __riscv_vnmsac_vx_i16m4(acc, x, b, vl);
  acc = __riscv_vmadd_vv_i16m4(acc, a, b, vl);
  acc = __riscv_vnmsub_vx_i16m4(acc, x, b, vl);
  return __riscv_vmacc_vv_i16m4_m(m, acc, a, b, vl);
}

vint32m4_t widening_e16m2(vint16m2_t a, vint16m2_t b, vint32m4_t w, int16_t x, size_t vl) {
  vint32m4_t r = __riscv_vwadd_vv_i32m4(a, b, vl);
  r = __riscv_vadd_vv_i32m4(r, __riscv_vwsub_vx_i32m4(a, x, vl), vl);
  r = __riscv_vwadd_wv_i32m4(r, a, vl);
  r = __riscv_vwsub_wx_i32m4(r, x, vl);
  r = __riscv_vadd_vv_i32m4(r, __riscv_vwmul_vv_i32m4(a, b, vl), vl);
  r = __riscv_vwmacc_vx_i32m4(r, x, b, vl);
  r = __riscv_vwmacc_vv_i32m4(r, a, b, vl);
  vuint16m2_t ua = __riscv_vreinterpret_v_i16m2_u16m2(a);
  vuint32m4_t u = __riscv_vwaddu_vv_u32m4(ua, ua, vl);
  u = __riscv_vwsubu_wx_u32m4(u, 3, vl);
  u = __riscv_vwmaccu_vv_u32m4(u, ua, ua, vl);
  r = __riscv_vwmaccsu_vv_i32m4(r, a, ua, vl);
  r = __riscv_vwmaccus_vx_i32m4(r, 7, a, vl);
  u = __riscv_vadd_vv_u32m4(u, __riscv_vwmulu_vx_u32m4(ua, 9, vl), vl);
  r = __riscv_vadd_vv_i32m4(r, __riscv_vwmulsu_vv_i32m4(a, ua, vl), vl);
  return __riscv_vadd_vv_i32m4(r, __riscv_vreinterpret_v_u32m4_i32m4(u), vl);
}

vint8mf2_t narrowing_e16m1(vint16m1_t a, vuint16m1_t b, size_t sh, size_t vl) {
  vint8mf2_t r = __riscv_vnsra_wx_i8mf2(a, sh, vl);
  vuint8mf2_t u = __riscv_vnsrl_wv_u8mf2(b, __riscv_vreinterpret_v_i8mf2_u8mf2(r), vl);
  u = __riscv_vadd_vv_u8mf2(u, __riscv_vnsrl_wx_u8mf2(b, 4, vl), vl);
  r = __riscv_vadd_vv_i8mf2(r, __riscv_vnclip_wx_i8mf2(a, 2, __RISCV_VXRM_RNU, vl), vl);
  u = __riscv_vadd_vv_u8mf2(u, __riscv_vnclipu_wv_u8mf2(b, u, __RISCV_VXRM_RDN, vl), vl);
  return __riscv_vadd_vv_i8mf2(r, __riscv_vreinterpret_v_u8mf2_i8mf2(u), vl);
}

vint64m2_t extend_e64m2(vint32m1_t a, vuint16mf2_t b, vint8mf4_t c, size_t vl) {
  vint64m2_t r = __riscv_vsext_vf2_i64m2(a, vl);
  r = __riscv_vadd_vv_i64m2(r, __riscv_vreinterpret_v_u64m2_i64m2(__riscv_vzext_vf4_u64m2(b, vl)), vl);
  return __riscv_vadd_vv_i64m2(r, __riscv_vsext_vf8_i64m2(c, vl), vl);
}

vint16m1_t fixed_point_e16m1(vint16m1_t a, vint16m1_t b, vuint16m1_t c, size_t vl) {
  vint16m1_t r = __riscv_vsadd_vv_i16m1(a, b, vl);
  r = __riscv_vssub_vx_i16m1(r, 100, vl);
  vuint16m1_t u = __riscv_vsaddu_vx_u16m1(c, 9, vl);
  u = __riscv_vssubu_vv_u16m1(u, c, vl);
  r = __riscv_vaadd_vv_i16m1(r, b, __RISCV_VXRM_RNU, vl);
  r = __riscv_vasub_vx_i16m1(r, 3, __RISCV_VXRM_RNE, vl);
  u = __riscv_vaaddu_vv_u16m1(u, c, __RISCV_VXRM_RDN, vl);
  u = __riscv_vasubu_vx_u16m1(u, 5, __RISCV_VXRM_ROD, vl);
  r = __riscv_vsmul_vv_i16m1(r, b, __RISCV_VXRM_RNU, vl);
  r = __riscv_vssra_vx_i16m1(r, 2, __RISCV_VXRM_RNU, vl);
  u = __riscv_vssrl_vv_u16m1(u, c, __RISCV_VXRM_RNU, vl);
  return __riscv_vadd_vv_i16m1(r, __riscv_vreinterpret_v_u16m1_i16m1(u), vl);
}

vuint32m8_t carry_e32m8(vuint32m8_t a, vuint32m8_t b, size_t vl) {
  vbool4_t carry = __riscv_vmadc_vv_u32m8_b4(a, b, vl);
  vuint32m8_t sum = __riscv_vadd_vv_u32m8(a, b, vl);
  vuint32m8_t hi = __riscv_vadc_vxm_u32m8(b, 0, carry, vl);
  vbool4_t borrow = __riscv_vmsbc_vvm_u32m8_b4(a, b, carry, vl);
  hi = __riscv_vsbc_vvm_u32m8(hi, a, borrow, vl);
  vbool4_t c2 = __riscv_vmadc_vxm_u32m8_b4(sum, 1, borrow, vl);
  return __riscv_vadc_vvm_u32m8(hi, sum, c2, vl);
}

vint32mf2_t masked_tail_policies(vbool64_t m, vint32mf2_t dst, vint32mf2_t a, vint32mf2_t b, size_t vl) {
  vint32mf2_t r = __riscv_vadd_vv_i32mf2_tu(dst, a, b, vl);
  r = __riscv_vmul_vv_i32mf2_tum(m, r, a, b, vl);
  r = __riscv_vsll_vx_i32mf2_tumu(m, r, r, 2, vl);
  return __riscv_vmax_vv_i32mf2_mu(m, r, r, b, vl);
}
