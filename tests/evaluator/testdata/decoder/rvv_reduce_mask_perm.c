// RVV reductions, mask-register instructions and permutations (gather, slides, compress, scalar moves).
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

int32_t sum_e32m8(const int32_t* p, size_t n) {
  size_t vl = __riscv_vsetvlmax_e32m1();
  vint32m1_t acc = __riscv_vmv_s_x_i32m1(0, vl);
  for (; n > 0; n -= vl, p += vl) {
    vl = __riscv_vsetvl_e32m8(n);
    acc = __riscv_vredsum_vs_i32m8_i32m1(__riscv_vle32_v_i32m8(p, vl), acc, vl);
  }
  return __riscv_vmv_x_s_i32m1_i32(acc);
}

int64_t int_reductions(vint16m2_t a, vuint16m2_t u, vbool8_t m, size_t vl) {
  vint16m1_t s = __riscv_vmv_v_x_i16m1(0, 1);
  vuint16m1_t us = __riscv_vmv_v_x_u16m1(0, 1);
  int64_t r = __riscv_vmv_x_s_i16m1_i16(__riscv_vredmax_vs_i16m2_i16m1(a, s, vl));
  r += __riscv_vmv_x_s_i16m1_i16(__riscv_vredmin_vs_i16m2_i16m1(a, s, vl));
  r += __riscv_vmv_x_s_u16m1_u16(__riscv_vredmaxu_vs_u16m2_u16m1(u, us, vl));
  r += __riscv_vmv_x_s_u16m1_u16(__riscv_vredminu_vs_u16m2_u16m1(u, us, vl));
  r += __riscv_vmv_x_s_i16m1_i16(__riscv_vredand_vs_i16m2_i16m1(a, s, vl));
  r += __riscv_vmv_x_s_i16m1_i16(__riscv_vredor_vs_i16m2_i16m1(a, s, vl));
  r += __riscv_vmv_x_s_i16m1_i16(__riscv_vredxor_vs_i16m2_i16m1_m(m, a, s, vl));
  vint32m1_t w = __riscv_vmv_v_x_i32m1(0, 1);
  r += __riscv_vmv_x_s_i32m1_i32(__riscv_vwredsum_vs_i16m2_i32m1(a, w, vl));
  vuint32m1_t wu = __riscv_vmv_v_x_u32m1(0, 1);
  r += __riscv_vmv_x_s_u32m1_u32(__riscv_vwredsumu_vs_u16m2_u32m1(u, wu, vl));
  return r;
}

double fp_reductions(vfloat32m4_t a, vfloat64m2_t d, vfloat16m1_t h, size_t vl) {
  vfloat32m1_t s = __riscv_vfmv_s_f_f32m1(0.0f, 1);
  double r = __riscv_vfmv_f_s_f32m1_f32(__riscv_vfredusum_vs_f32m4_f32m1(a, s, vl));
  r += __riscv_vfmv_f_s_f32m1_f32(__riscv_vfredosum_vs_f32m4_f32m1(a, s, vl));
  r += __riscv_vfmv_f_s_f32m1_f32(__riscv_vfredmax_vs_f32m4_f32m1(a, s, vl));
  r += __riscv_vfmv_f_s_f32m1_f32(__riscv_vfredmin_vs_f32m4_f32m1(a, s, vl));
  vfloat64m1_t ds = __riscv_vfmv_s_f_f64m1(0.0, 1);
  r += __riscv_vfmv_f_s_f64m1_f64(__riscv_vfwredusum_vs_f32m4_f64m1(a, ds, vl));
  r += __riscv_vfmv_f_s_f64m1_f64(__riscv_vfwredosum_vs_f32m4_f64m1(a, ds, vl));
  r += __riscv_vfmv_f_s_f64m1_f64(__riscv_vfredusum_vs_f64m2_f64m1(d, ds, vl));
  vfloat16m1_t hs = __riscv_vfmv_s_f_f16m1((_Float16)0, 1);
  r += (double)__riscv_vfmv_f_s_f16m1_f16(__riscv_vfredosum_vs_f16m1_f16m1(h, hs, vl));
  return r;
}

long mask_ops(vint8m1_t a, vint8m1_t b, size_t vl) {
  vbool8_t x = __riscv_vmslt_vv_i8m1_b8(a, b, vl);
  vbool8_t y = __riscv_vmseq_vx_i8m1_b8(a, 0, vl);
  vbool8_t m = __riscv_vmandn_mm_b8(x, y, vl);
  m = __riscv_vmnand_mm_b8(m, x, vl);
  m = __riscv_vmnor_mm_b8(m, y, vl);
  m = __riscv_vmorn_mm_b8(m, x, vl);
  m = __riscv_vmxnor_mm_b8(m, y, vl);
  long r = __riscv_vcpop_m_b8(m, vl);
  r += __riscv_vfirst_m_b8(m, vl);
  r += __riscv_vcpop_m_b8_m(x, y, vl);
  vbool8_t bf = __riscv_vmsbf_m_b8(m, vl);
  vbool8_t sf = __riscv_vmsif_m_b8(bf, vl);
  vbool8_t of = __riscv_vmsof_m_b8_m(x, sf, vl);
  r += __riscv_vcpop_m_b8(of, vl);
  vuint8m1_t idx = __riscv_viota_m_u8m1(m, vl);
  vuint8m1_t ids = __riscv_vid_v_u8m1(vl);
  ids = __riscv_vid_v_u8m1_m(x, vl);
  return r + __riscv_vmv_x_s_u8m1_u8(__riscv_vadd_vv_u8m1(idx, ids, vl));
}

vfloat32m2_t permutations(vfloat32m2_t a, vuint32m2_t idx, vuint16m1_t idx16, float f, size_t off, size_t vl) {
  vfloat32m2_t r = __riscv_vrgather_vv_f32m2(a, idx, vl);
  r = __riscv_vrgather_vx_f32m2(r, off, vl);
  r = __riscv_vrgather_vx_f32m2(r, 3, vl);
  r = __riscv_vrgatherei16_vv_f32m2(r, idx16, vl);
  r = __riscv_vslideup_vx_f32m2(r, a, off, vl);
  r = __riscv_vslideup_vx_f32m2(r, a, 2, vl);
  r = __riscv_vslidedown_vx_f32m2(r, off, vl);
  r = __riscv_vslidedown_vx_f32m2(r, 5, vl);
  r = __riscv_vfslide1up_vf_f32m2(r, f, vl);
  r = __riscv_vfslide1down_vf_f32m2(r, f, vl);
  vbool16_t m = __riscv_vmfgt_vf_f32m2_b16(r, f, vl);
  return __riscv_vcompress_vm_f32m2(r, m, vl);
}

vint64m4_t int_slides(vint64m4_t a, int64_t x, size_t vl) {
  vint64m4_t r = __riscv_vslide1up_vx_i64m4(a, x, vl);
  r = __riscv_vslide1down_vx_i64m4(r, x, vl);
  return __riscv_vmv_s_x_i64m4_tu(r, x, vl);
}
