// RVV loads and stores from intrinsics: unit-stride, strided, indexed, segment, fault-only-first and mask.
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

void copy_all_widths(void* dst, const void* src, size_t n) {
  size_t vl = __riscv_vsetvl_e8m8(n);
  __riscv_vse8_v_u8m8((uint8_t*)dst, __riscv_vle8_v_u8m8((const uint8_t*)src, vl), vl);
  vl = __riscv_vsetvl_e16m4(n);
  __riscv_vse16_v_u16m4((uint16_t*)dst, __riscv_vle16_v_u16m4((const uint16_t*)src, vl), vl);
  vl = __riscv_vsetvl_e32m2(n);
  __riscv_vse32_v_u32m2((uint32_t*)dst, __riscv_vle32_v_u32m2((const uint32_t*)src, vl), vl);
  vl = __riscv_vsetvl_e64m1(n);
  __riscv_vse64_v_u64m1((uint64_t*)dst, __riscv_vle64_v_u64m1((const uint64_t*)src, vl), vl);
}

void strided(double* dst, const double* src, ptrdiff_t stride, size_t n) {
  size_t vl = __riscv_vsetvl_e64m2(n);
  vfloat64m2_t v = __riscv_vlse64_v_f64m2(src, stride, vl);
  __riscv_vsse64_v_f64m2(dst, stride * 2, v, vl);
  vint16mf2_t h = __riscv_vlse16_v_i16mf2((const int16_t*)src, 6, vl);
  __riscv_vsse16_v_i16mf2((int16_t*)dst, 10, h, vl);
}

void indexed(float* dst, const float* src, vuint32m2_t off32, vuint16m1_t off16, vuint64m4_t off64, size_t vl) {
  vfloat32m2_t a = __riscv_vluxei32_v_f32m2(src, off32, vl);
  vfloat32m2_t b = __riscv_vloxei16_v_f32m2(src, off16, vl);
  vfloat32m2_t c = __riscv_vluxei64_v_f32m2(src, off64, vl);
  __riscv_vsuxei32_v_f32m2(dst, off32, __riscv_vfadd_vv_f32m2(a, b, vl), vl);
  __riscv_vsoxei64_v_f32m2(dst, off64, c, vl);
  vuint8mf2_t off8 = __riscv_vncvt_x_x_w_u8mf2(off16, vl);
  __riscv_vsoxei8_v_f32m2(dst, off8, a, vl);
  __riscv_vsuxei16_v_f32m2(dst, off16, b, vl);
  vfloat32m2_t d = __riscv_vloxei8_v_f32m2(src, off8, vl);
  __riscv_vse32_v_f32m2(dst, d, vl);
}

void segments(int16_t* dst, const int16_t* src, ptrdiff_t stride, vuint16m1_t idx, size_t vl) {
  vint16m1x2_t pair = __riscv_vlseg2e16_v_i16m1x2(src, vl);
  __riscv_vsseg2e16_v_i16m1x2(dst, pair, vl);
  vint16m1x3_t tri = __riscv_vlsseg3e16_v_i16m1x3(src, stride, vl);
  __riscv_vssseg3e16_v_i16m1x3(dst, stride, tri, vl);
  vint16m1x4_t quad = __riscv_vluxseg4ei16_v_i16m1x4(src, idx, vl);
  __riscv_vsoxseg4ei16_v_i16m1x4(dst, idx, quad, vl);
  vint16m1x8_t oct = __riscv_vlseg8e16_v_i16m1x8(src, vl);
  __riscv_vsseg8e16_v_i16m1x8(dst, oct, vl);
  vint16m2x4_t wide = __riscv_vloxseg4ei16_v_i16m2x4(src, __riscv_vlmul_ext_v_u16m1_u16m2(idx), vl);
  __riscv_vsuxseg4ei16_v_i16m2x4(dst, __riscv_vlmul_ext_v_u16m1_u16m2(idx), wide, vl);
}

size_t fault_first(int32_t* dst, const int32_t* src, size_t n) {
  size_t vl = __riscv_vsetvl_e32m4(n);
  vint32m4_t v = __riscv_vle32ff_v_i32m4(src, &vl, vl);
  __riscv_vse32_v_i32m4(dst, v, vl);
  vint32m1x2_t seg = __riscv_vlseg2e32ff_v_i32m1x2(src, &vl, vl);
  __riscv_vsseg2e32_v_i32m1x2(dst, seg, vl);
  return vl;
}

void masks_and_masked(uint8_t* bits, int64_t* dst, const int64_t* src, size_t n) {
  size_t vl = __riscv_vsetvl_e64m8(n);
  vbool8_t m = __riscv_vlm_v_b8(bits, vl);
  vint64m8_t v = __riscv_vle64_v_i64m8_m(m, src, vl);
  __riscv_vse64_v_i64m8_m(m, dst, v, vl);
  vint64m8_t s = __riscv_vlse64_v_i64m8_m(m, src, 16, vl);
  __riscv_vsse64_v_i64m8_m(m, dst, 24, s, vl);
  __riscv_vsm_v_b8(bits, __riscv_vmnot_m_b8(m, vl), vl);
}
