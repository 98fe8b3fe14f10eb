// BatchNorm at inference, fp32, in place on planar x[c][hw]. As NCNN does at load time, each channel is
// folded to y = b*x + a with b = slope/sqrt(var+eps), a = bias - mean*b. The fold is vectorised across
// channels (a block of up to 64 at a time, into two small stack arrays): vfrsqrt7 gives 7 bits, two Newton
// steps y = y(1.5 - v/2 y^2) reach full precision, so no vfsqrt/vfdiv is needed. The element pass is then
// one vfmadd per element at LMUL 4 with the a splat kept in a register; two independent strips per
// iteration let the second load overlap the first on the in-order X60, and the channel tail is strip-mined.
#include <riscv_vector.h>
#include <stddef.h>

// Tuning knob (kernels/README.md): the LMUL every vector op runs at.
// eok-knob: LMUL = 4 in {1, 2, 4, 8}

#define BLOCK 64  // channels folded per block (stack arrays)

void batchnorm_f32(float *x, const float *slope, const float *mean, const float *var, const float *bias, float eps,
                   int c, int hw) {
  if (c <= 0 || hw <= 0) return;
  const size_t n = (size_t)hw, nc = (size_t)c;
  const size_t vlmax = __riscv_vsetvlmax_e32m4();
  float ka[BLOCK], kb[BLOCK];
  for (size_t q0 = 0; q0 < nc; q0 += BLOCK) {
    const size_t nb = nc - q0 < BLOCK ? nc - q0 : BLOCK;
    // fold: b = slope * rsqrt(var + eps), a = bias - mean * b
    for (size_t vl, j = 0; j < nb; j += vl) {
      vl = __riscv_vsetvl_e32m4(nb - j);
      vfloat32m4_t v = __riscv_vfadd_vf_f32m4(__riscv_vle32_v_f32m4(var + q0 + j, vl), eps, vl);
      vfloat32m4_t h = __riscv_vfmul_vf_f32m4(v, 0.5f, vl);
      vfloat32m4_t y = __riscv_vfrsqrt7_v_f32m4(v, vl);
      for (int it = 0; it < 2; it++) {
        vfloat32m4_t t = __riscv_vfmul_vv_f32m4(__riscv_vfmul_vv_f32m4(y, y, vl), h, vl);
        y = __riscv_vfmul_vv_f32m4(y, __riscv_vfrsub_vf_f32m4(t, 1.5f, vl), vl);
      }
      vfloat32m4_t b = __riscv_vfmul_vv_f32m4(__riscv_vle32_v_f32m4(slope + q0 + j, vl), y, vl);
      vfloat32m4_t a = __riscv_vfnmsac_vv_f32m4(__riscv_vle32_v_f32m4(bias + q0 + j, vl),
                                                __riscv_vle32_v_f32m4(mean + q0 + j, vl), b, vl);
      __riscv_vse32_v_f32m4(kb + j, b, vl);
      __riscv_vse32_v_f32m4(ka + j, a, vl);
    }
    // y = b * x + a, one fused multiply-add per element
    for (size_t q = 0; q < nb; q++) {
      float *p = x + (q0 + q) * n;
      const float b = kb[q];
      const vfloat32m4_t va = __riscv_vfmv_v_f_f32m4(ka[q], vlmax);
      size_t i = 0;
      for (; i + 2 * vlmax <= n; i += 2 * vlmax) {
        vfloat32m4_t v0 = __riscv_vle32_v_f32m4(p + i, vlmax);
        vfloat32m4_t v1 = __riscv_vle32_v_f32m4(p + i + vlmax, vlmax);
        __riscv_vse32_v_f32m4(p + i, __riscv_vfmadd_vf_f32m4(v0, b, va, vlmax), vlmax);
        __riscv_vse32_v_f32m4(p + i + vlmax, __riscv_vfmadd_vf_f32m4(v1, b, va, vlmax), vlmax);
      }
      for (size_t vl; i < n; i += vl) {
        vl = __riscv_vsetvl_e32m4(n - i);
        __riscv_vse32_v_f32m4(p + i, __riscv_vfmadd_vf_f32m4(__riscv_vle32_v_f32m4(p + i, vl), b, va, vl), vl);
      }
    }
  }
}
