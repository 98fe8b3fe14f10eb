// InstanceNorm, fp16 storage, in place on planar x[c][hw]; per channel the mean and the biased variance,
// then x = gamma*(x-mean)/sqrt(var+eps) + beta. Three vector passes per channel, as NCNN does. The two
// reductions accumulate in fp32 (a half accumulator's ulp grows with the sum: at 2048 it is already 2):
// the sum by vfwadd.wv of f16 LMUL 2 into f32 LMUL 4, the sum of squares of the deviations d = x - mean_h
// (d in half, at most 2^-11 relative error, so ~1e-3 in the variance at worst) by vfwmacc. Each reduction
// keeps two independent accumulators so consecutive widening adds do not wait on one another on the
// in-order X60; the tail strip adds tail-undisturbed; one vfredusum per sum. The affine pass is
// x = a*(x - mean) + beta in half at LMUL 4 (vfsub + vfmadd per element; a = gamma/sqrt(var+eps) from fp32
// rounded once to half), not NCNN's folded a*x + b: b carries a*mean, and rounding it to half costs up to
// ~0.05 when the variance is tiny. The channel stays in L1 between passes.
#include <riscv_vector.h>
#include <math.h>
#include <stddef.h>

// Tuning knob (kernels/README.md): the LMUL of the affine pass (the sums read f16 at half of it into f32
// at the same LMUL).
// eok-knob: LMUL = 4 in {1, 2, 4, 8}

void instancenorm_f16(_Float16 *x, const _Float16 *gamma, const _Float16 *beta, float eps, int c, int hw) {
  if (c <= 0 || hw <= 0) return;
  const size_t n = (size_t)hw;
  const size_t vls = __riscv_vsetvlmax_e16m2();  // elements per strip in the two sums
  const size_t vla = __riscv_vsetvlmax_e16m4();  // elements per strip in the affine pass
  const float inv_n = 1.0f / (float)hw;
  for (size_t q = 0; q < (size_t)c; q++) {
    _Float16 *p = x + q * n;

    // pass 1: sum, widened into fp32
    vfloat32m4_t s0 = __riscv_vfmv_v_f_f32m4(0.0f, vls), s1 = s0;
    size_t i = 0;
    for (; i + 2 * vls <= n; i += 2 * vls) {
      s0 = __riscv_vfwadd_wv_f32m4(s0, __riscv_vle16_v_f16m2(p + i, vls), vls);
      s1 = __riscv_vfwadd_wv_f32m4(s1, __riscv_vle16_v_f16m2(p + i + vls, vls), vls);
    }
    for (size_t vl; i < n; i += vl) {
      vl = __riscv_vsetvl_e16m2(n - i);
      s0 = __riscv_vfwadd_wv_f32m4_tu(s0, s0, __riscv_vle16_v_f16m2(p + i, vl), vl);
    }
    s0 = __riscv_vfadd_vv_f32m4(s0, s1, vls);
    const float mean = inv_n * __riscv_vfmv_f_s_f32m1_f32(
        __riscv_vfredusum_vs_f32m4_f32m1(s0, __riscv_vfmv_s_f_f32m1(0.0f, 1), vls));
    const _Float16 mean_h = (_Float16)mean;

    // pass 2: sum of squared deviations, half deviations squared and accumulated in fp32
    s0 = __riscv_vfmv_v_f_f32m4(0.0f, vls);
    s1 = s0;
    i = 0;
    for (; i + 2 * vls <= n; i += 2 * vls) {
      vfloat16m2_t d0 = __riscv_vfsub_vf_f16m2(__riscv_vle16_v_f16m2(p + i, vls), mean_h, vls);
      vfloat16m2_t d1 = __riscv_vfsub_vf_f16m2(__riscv_vle16_v_f16m2(p + i + vls, vls), mean_h, vls);
      s0 = __riscv_vfwmacc_vv_f32m4(s0, d0, d0, vls);
      s1 = __riscv_vfwmacc_vv_f32m4(s1, d1, d1, vls);
    }
    for (size_t vl; i < n; i += vl) {
      vl = __riscv_vsetvl_e16m2(n - i);
      vfloat16m2_t d = __riscv_vfsub_vf_f16m2(__riscv_vle16_v_f16m2(p + i, vl), mean_h, vl);
      s0 = __riscv_vfwmacc_vv_f32m4_tu(s0, d, d, vl);
    }
    s0 = __riscv_vfadd_vv_f32m4(s0, s1, vls);
    // the deviations were taken from mean_h: E[(x - mean_h)^2] = var + (mean - mean_h)^2
    const float dm = mean - (float)mean_h;
    float var = inv_n * __riscv_vfmv_f_s_f32m1_f32(
        __riscv_vfredusum_vs_f32m4_f32m1(s0, __riscv_vfmv_s_f_f32m1(0.0f, 1), vls)) - dm * dm;
    if (var < 0.0f) var = 0.0f;

    // pass 3: x = a * (x - mean_h) + (beta - a * dm) in half. Folding to a*x + b would round b, which
    // holds a*mean, to half: with a tiny variance (a up to gamma/sqrt(eps) ~ 63) that error is ~0.05.
    const float af = (float)gamma[q] / sqrtf(var + eps);
    const _Float16 a = (_Float16)af, b = (_Float16)((float)beta[q] - af * dm);
    const vfloat16m4_t vb = __riscv_vfmv_v_f_f16m4(b, vla);
    i = 0;
    for (; i + 2 * vla <= n; i += 2 * vla) {
      vfloat16m4_t d0 = __riscv_vfsub_vf_f16m4(__riscv_vle16_v_f16m4(p + i, vla), mean_h, vla);
      vfloat16m4_t d1 = __riscv_vfsub_vf_f16m4(__riscv_vle16_v_f16m4(p + i + vla, vla), mean_h, vla);
      __riscv_vse16_v_f16m4(p + i, __riscv_vfmadd_vf_f16m4(d0, a, vb, vla), vla);
      __riscv_vse16_v_f16m4(p + i + vla, __riscv_vfmadd_vf_f16m4(d1, a, vb, vla), vla);
    }
    for (size_t vl; i < n; i += vl) {
      vl = __riscv_vsetvl_e16m4(n - i);
      vfloat16m4_t d = __riscv_vfsub_vf_f16m4(__riscv_vle16_v_f16m4(p + i, vl), mean_h, vl);
      __riscv_vse16_v_f16m4(p + i, __riscv_vfmadd_vf_f16m4(d, a, vb, vl), vl);
    }
  }
}
