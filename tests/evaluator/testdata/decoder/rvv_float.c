// Floating-point RVV intrinsics: f16 (Zvfh), f32 and f64, widening/narrowing, conversions, masked forms.
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

void axpy_f32m4(float* y, const float* x, float a, size_t n) {
  for (size_t vl; n > 0; n -= vl, x += vl, y += vl) {
    vl = __riscv_vsetvl_e32m4(n);
    vfloat32m4_t vx = __riscv_vle32_v_f32m4(x, vl);
    vfloat32m4_t vy = __riscv_vle32_v_f32m4(y, vl);
    vy = __riscv_vfmacc_vf_f32m4(vy, a, vx, vl);
    __riscv_vse32_v_f32m4(y, vy, vl);
  }
}

vfloat64m1_t arith_f64m1(vfloat64m1_t a, vfloat64m1_t b, double s, size_t vl) {
  vfloat64m1_t r = __riscv_vfadd_vv_f64m1(a, b, vl);
  r = __riscv_vfsub_vf_f64m1(r, s, vl);
  r = __riscv_vfmul_vv_f64m1(r, b, vl);
  r = __riscv_vfdiv_vf_f64m1(r, s, vl);
  r = __riscv_vfrdiv_vf_f64m1(r, s, vl);
  r = __riscv_vfrsub_vf_f64m1(r, s, vl);
  r = __riscv_vfdiv_vv_f64m1(r, a, vl);
  r = __riscv_vfmin_vv_f64m1(r, a, vl);
  r = __riscv_vfmax_vf_f64m1(r, s, vl);
  r = __riscv_vfsgnj_vv_f64m1(r, a, vl);
  r = __riscv_vfsgnjn_vf_f64m1(r, s, vl);
  r = __riscv_vfsgnjx_vv_f64m1(r, b, vl);
  r = __riscv_vfsqrt_v_f64m1(r, vl);
  r = __riscv_vfrec7_v_f64m1(r, vl);
  return __riscv_vfrsqrt7_v_f64m1(r, vl);
}

vfloat32m2_t fused_f32m2(vfloat32m2_t acc, vfloat32m2_t a, vfloat32m2_t b, float s, vbool16_t m, size_t vl) {
  acc = __riscv_vfmacc_vv_f32m2(acc, a, b, vl);
  acc = __riscv_vfnmacc_vf_f32m2(acc, s, b, vl);
  acc = __riscv_vfmsac_vv_f32m2(acc, a, b, vl);
  acc = __riscv_vfnmsac_vf_f32m2(acc, s, b, vl);
  acc = __riscv_vfmadd_vv_f32m2(acc, a, b, vl);
  acc = __riscv_vfnmadd_vf_f32m2(acc, s, b, vl);
  acc = __riscv_vfmsub_vv_f32m2(acc, a, b, vl);
  acc = __riscv_vfnmsub_vf_f32m2(acc, s, b, vl);
  return __riscv_vfmacc_vv_f32m2_m(m, acc, a, b, vl);
}

vfloat16m8_t half_m8(vfloat16m8_t a, vfloat16m8_t b, _Float16 s, size_t vl) {
  vfloat16m8_t r = __riscv_vfadd_vv_f16m8(a, b, vl);
  r = __riscv_vfmul_vf_f16m8(r, s, vl);
  r = __riscv_vfmacc_vv_f16m8(r, a, b, vl);
  r = __riscv_vfdiv_vv_f16m8(r, b, vl);
  vbool2_t lt = __riscv_vmflt_vv_f16m8_b2(r, a, vl);
  return __riscv_vfmerge_vfm_f16m8(r, s, lt, vl);
}

vfloat32m2_t half_widen(vfloat16m1_t a, vfloat16m1_t b, vfloat32m2_t acc, _Float16 s, size_t vl) {
  vfloat32m2_t w = __riscv_vfwadd_vv_f32m2(a, b, vl);
  w = __riscv_vfwsub_wf_f32m2(w, s, vl);
  w = __riscv_vfwmacc_vv_f32m2(w, a, b, vl);
  w = __riscv_vfwnmsac_vf_f32m2(w, s, b, vl);
  w = __riscv_vfadd_vv_f32m2(w, __riscv_vfwmul_vf_f32m2(a, s, vl), vl);
  w = __riscv_vfadd_vv_f32m2(w, __riscv_vfwcvt_f_f_v_f32m2(a, vl), vl);
  w = __riscv_vfwadd_wv_f32m2(w, b, vl);
  return __riscv_vfadd_vv_f32m2(w, acc, vl);
}

vfloat64m8_t widen_f32m4(vfloat32m4_t a, vfloat32m4_t b, float s, size_t vl) {
  vfloat64m8_t w = __riscv_vfwmul_vv_f64m8(a, b, vl);
  w = __riscv_vfwmacc_vf_f64m8(w, s, a, vl);
  w = __riscv_vfwnmacc_vv_f64m8(w, a, b, vl);
  w = __riscv_vfwmsac_vv_f64m8(w, a, b, vl);
  w = __riscv_vfwsub_wv_f64m8(w, a, vl);
  return __riscv_vfadd_vv_f64m8(w, __riscv_vfwsub_vf_f64m8(a, s, vl), vl);
}

vfloat16mf2_t narrow_f32m1(vfloat32m1_t a, vint32m1_t i, size_t vl) {
  vfloat16mf2_t h = __riscv_vfncvt_f_f_w_f16mf2(a, vl);
  h = __riscv_vfadd_vv_f16mf2(h, __riscv_vfncvt_rod_f_f_w_f16mf2(a, vl), vl);
  h = __riscv_vfadd_vv_f16mf2(h, __riscv_vfncvt_f_x_w_f16mf2(i, vl), vl);
  vint16mf2_t n = __riscv_vfncvt_x_f_w_i16mf2(a, vl);
  n = __riscv_vadd_vv_i16mf2(n, __riscv_vfncvt_rtz_x_f_w_i16mf2(a, vl), vl);
  vuint16mf2_t u = __riscv_vfncvt_xu_f_w_u16mf2(a, vl);
  u = __riscv_vadd_vv_u16mf2(u, __riscv_vfncvt_rtz_xu_f_w_u16mf2(a, vl), vl);
  h = __riscv_vfadd_vv_f16mf2(h, __riscv_vfcvt_f_x_v_f16mf2(n, vl), vl);
  return __riscv_vfadd_vv_f16mf2(h, __riscv_vfcvt_f_xu_v_f16mf2(u, vl), vl);
}

vint64m2_t converts_f32m1(vfloat32m1_t a, vint32m1_t i, vuint32m1_t u, size_t vl) {
  vint32m1_t x = __riscv_vfcvt_x_f_v_i32m1(a, vl);
  x = __riscv_vadd_vv_i32m1(x, __riscv_vfcvt_rtz_x_f_v_i32m1(a, vl), vl);
  vuint32m1_t y = __riscv_vfcvt_xu_f_v_u32m1(a, vl);
  y = __riscv_vadd_vv_u32m1(y, __riscv_vfcvt_rtz_xu_f_v_u32m1(a, vl), vl);
  vfloat32m1_t f = __riscv_vfcvt_f_x_v_f32m1(i, vl);
  f = __riscv_vfadd_vv_f32m1(f, __riscv_vfcvt_f_xu_v_f32m1(u, vl), vl);
  vint64m2_t w = __riscv_vfwcvt_x_f_v_i64m2(f, vl);
  w = __riscv_vadd_vv_i64m2(w, __riscv_vfwcvt_rtz_x_f_v_i64m2(a, vl), vl);
  vuint64m2_t wu = __riscv_vfwcvt_xu_f_v_u64m2(a, vl);
  wu = __riscv_vadd_vv_u64m2(wu, __riscv_vfwcvt_rtz_xu_f_v_u64m2(a, vl), vl);
  vfloat64m2_t d = __riscv_vfwcvt_f_x_v_f64m2(x, vl);
  d = __riscv_vfadd_vv_f64m2(d, __riscv_vfwcvt_f_xu_v_f64m2(y, vl), vl);
  vuint32m1_t cls = __riscv_vfclass_v_u32m1(a, vl);
  w = __riscv_vadd_vv_i64m2(w, __riscv_vfcvt_x_f_v_i64m2(d, vl), vl);
  w = __riscv_vadd_vx_i64m2(w, __riscv_vmv_x_s_u32m1_u32(cls), vl);
  return __riscv_vadd_vv_i64m2(w, __riscv_vreinterpret_v_u64m2_i64m2(wu), vl);
}

vbool8_t compares_f32m4(vfloat32m4_t a, vfloat32m4_t b, float s, size_t vl) {
  vbool8_t eq = __riscv_vmfeq_vv_f32m4_b8(a, b, vl);
  vbool8_t ne = __riscv_vmfne_vf_f32m4_b8(a, s, vl);
  vbool8_t le = __riscv_vmfle_vv_f32m4_b8(a, b, vl);
  vbool8_t gt = __riscv_vmfgt_vf_f32m4_b8(a, s, vl);
  vbool8_t ge = __riscv_vmfge_vf_f32m4_b8_m(gt, a, s, vl);
  vbool8_t r = __riscv_vmor_mm_b8(eq, ne, vl);
  r = __riscv_vmand_mm_b8(r, le, vl);
  return __riscv_vmxor_mm_b8(r, ge, vl);
}

vfloat32m1_t masked_fp(vbool32_t m, vfloat32m1_t d, vfloat32m1_t a, vfloat32m1_t b, float s, size_t vl) {
  vfloat32m1_t r = __riscv_vfadd_vv_f32m1_m(m, a, b, vl);
  r = __riscv_vfmul_vf_f32m1_mu(m, r, r, s, vl);
  r = __riscv_vfsqrt_v_f32m1_tumu(m, d, r, vl);
  r = __riscv_vfmv_v_f_f32m1(s, vl);
  return __riscv_vfsub_vv_f32m1_tum(m, r, r, a, vl);
}
