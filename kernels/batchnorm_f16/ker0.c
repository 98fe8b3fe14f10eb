// BatchNorm at inference, fp16 storage and arithmetic, in place on planar x[c][hw]. As NCNN does at load
// time, each channel is folded to y = b*x + a with b = slope/sqrt(var+eps), a = bias - mean*b. The fold is
// computed in fp32 (widened parameters, vfrsqrt7 plus two Newton steps, no vfsqrt/vfdiv), vectorised across
// channels in blocks of up to 64, and narrowed once to half into two small stack arrays. The element pass
// is then one half-precision vfmadd per element at LMUL 4 (64 halves per op) with the a splat kept in a
// register; two independent strips per iteration overlap the loads on the in-order X60; the channel tail
// is strip-mined. The fold uses f16 at LMUL 2 widened to f32 at LMUL 4, so the LMUL knob scales both.
#include <riscv_vector.h>
#include <stddef.h>

// Tuning knob (kernels/README.md): the LMUL of the element pass (the fold runs at half of it in f16).
// eok-knob: LMUL = 4 in {1, 2, 4, 8}

#define BLOCK 64  // channels folded per block (stack arrays)

void batchnorm_f16(_Float16 *x, const _Float16 *slope, const _Float16 *mean, const _Float16 *var,
                   const _Float16 *bias, float eps, int c, int hw) {
  if (c <= 0 || hw <= 0) return;
  const size_t n = (size_t)hw, nc = (size_t)c;
  const size_t vlmax = __riscv_vsetvlmax_e16m4();
  _Float16 ka[BLOCK], kb[BLOCK];
  for (size_t q0 = 0; q0 < nc; q0 += BLOCK) {
    const size_t nb = nc - q0 < BLOCK ? nc - q0 : BLOCK;
    // fold in fp32: b = slope * rsqrt(var + eps), a = bias - mean * b; each rounded once to half
    for (size_t vl, j = 0; j < nb; j += vl) {
      vl = __riscv_vsetvl_e16m2(nb - j);
      vfloat32m4_t v = __riscv_vfadd_vf_f32m4(__riscv_vfwcvt_f_f_v_f32m4(__riscv_vle16_v_f16m2(var + q0 + j, vl), vl), eps, vl);
      vfloat32m4_t h = __riscv_vfmul_vf_f32m4(v, 0.5f, vl);
      vfloat32m4_t y = __riscv_vfrsqrt7_v_f32m4(v, vl);
      for (int it = 0; it < 2; it++) {
        vfloat32m4_t t = __riscv_vfmul_vv_f32m4(__riscv_vfmul_vv_f32m4(y, y, vl), h, vl);
        y = __riscv_vfmul_vv_f32m4(y, __riscv_vfrsub_vf_f32m4(t, 1.5f, vl), vl);
      }
      vfloat32m4_t b = __riscv_vfmul_vv_f32m4(__riscv_vfwcvt_f_f_v_f32m4(__riscv_vle16_v_f16m2(slope + q0 + j, vl), vl), y, vl);
      vfloat32m4_t a = __riscv_vfnmsac_vv_f32m4(__riscv_vfwcvt_f_f_v_f32m4(__riscv_vle16_v_f16m2(bias + q0 + j, vl), vl),
                                                __riscv_vfwcvt_f_f_v_f32m4(__riscv_vle16_v_f16m2(mean + q0 + j, vl), vl), b, vl);
      __riscv_vse16_v_f16m2(kb + j, __riscv_vfncvt_f_f_w_f16m2(b, vl), vl);
      __riscv_vse16_v_f16m2(ka + j, __riscv_vfncvt_f_f_w_f16m2(a, vl), vl);
    }
    // y = b * x + a, one half-precision fused multiply-add per element
    for (size_t q = 0; q < nb; q++) {
      _Float16 *p = x + (q0 + q) * n;
      const _Float16 b = kb[q];
      const vfloat16m4_t va = __riscv_vfmv_v_f_f16m4(ka[q], vlmax);
      size_t i = 0;
      for (; i + 2 * vlmax <= n; i += 2 * vlmax) {
        vfloat16m4_t v0 = __riscv_vle16_v_f16m4(p + i, vlmax);
        vfloat16m4_t v1 = __riscv_vle16_v_f16m4(p + i + vlmax, vlmax);
        __riscv_vse16_v_f16m4(p + i, __riscv_vfmadd_vf_f16m4(v0, b, va, vlmax), vlmax);
        __riscv_vse16_v_f16m4(p + i + vlmax, __riscv_vfmadd_vf_f16m4(v1, b, va, vlmax), vlmax);
      }
      for (size_t vl; i < n; i += vl) {
        vl = __riscv_vsetvl_e16m4(n - i);
        __riscv_vse16_v_f16m4(p + i, __riscv_vfmadd_vf_f16m4(__riscv_vle16_v_f16m4(p + i, vl), b, va, vl), vl);
      }
    }
  }
}
