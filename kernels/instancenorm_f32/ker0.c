// InstanceNorm, fp32, in place on planar x[c][hw]; per channel the mean and the biased variance, then
// x = gamma*(x-mean)/sqrt(var+eps) + beta. Three vector passes per channel at LMUL 4, as NCNN does: the
// sum, the sum of squared deviations (two-pass, so no cancellation of E[x^2] - mean^2), and the affine
// x = a*x + b with a = gamma/sqrt(var+eps), b = beta - mean*a (one vfmadd per element). The reductions keep
// two independent vector accumulators (64 partial sums) so consecutive vfadd/vfmacc do not wait on one
// another on the in-order X60; the tail strip adds tail-undisturbed, and each sum is reduced once per
// channel. A channel is read three times but after the first pass it sits in L1 (32 KiB) for the others.
// The scalar sqrt and divisions run once per channel.
#include <riscv_vector.h>
#include <math.h>
#include <stddef.h>

// Tuning knob (kernels/README.md): the LMUL every vector op runs at.
// eok-knob: LMUL = 4 in {1, 2, 4, 8}

void instancenorm_f32(float *x, const float *gamma, const float *beta, float eps, int c, int hw) {
  if (c <= 0 || hw <= 0) return;
  const size_t n = (size_t)hw;
  const size_t vlmax = __riscv_vsetvlmax_e32m4();
  const float inv_n = 1.0f / (float)hw;
  for (size_t q = 0; q < (size_t)c; q++) {
    float *p = x + q * n;

    // pass 1: sum
    vfloat32m4_t s0 = __riscv_vfmv_v_f_f32m4(0.0f, vlmax), s1 = s0;
    size_t i = 0;
    for (; i + 2 * vlmax <= n; i += 2 * vlmax) {
      s0 = __riscv_vfadd_vv_f32m4(s0, __riscv_vle32_v_f32m4(p + i, vlmax), vlmax);
      s1 = __riscv_vfadd_vv_f32m4(s1, __riscv_vle32_v_f32m4(p + i + vlmax, vlmax), vlmax);
    }
    for (size_t vl; i < n; i += vl) {
      vl = __riscv_vsetvl_e32m4(n - i);
      s0 = __riscv_vfadd_vv_f32m4_tu(s0, s0, __riscv_vle32_v_f32m4(p + i, vl), vl);
    }
    s0 = __riscv_vfadd_vv_f32m4(s0, s1, vlmax);
    const float mean = inv_n * __riscv_vfmv_f_s_f32m1_f32(
        __riscv_vfredusum_vs_f32m4_f32m1(s0, __riscv_vfmv_s_f_f32m1(0.0f, 1), vlmax));

    // pass 2: sum of squared deviations
    s0 = __riscv_vfmv_v_f_f32m4(0.0f, vlmax);
    s1 = s0;
    i = 0;
    for (; i + 2 * vlmax <= n; i += 2 * vlmax) {
      vfloat32m4_t d0 = __riscv_vfsub_vf_f32m4(__riscv_vle32_v_f32m4(p + i, vlmax), mean, vlmax);
      vfloat32m4_t d1 = __riscv_vfsub_vf_f32m4(__riscv_vle32_v_f32m4(p + i + vlmax, vlmax), mean, vlmax);
      s0 = __riscv_vfmacc_vv_f32m4(s0, d0, d0, vlmax);
      s1 = __riscv_vfmacc_vv_f32m4(s1, d1, d1, vlmax);
    }
    for (size_t vl; i < n; i += vl) {
      vl = __riscv_vsetvl_e32m4(n - i);
      vfloat32m4_t d = __riscv_vfsub_vf_f32m4(__riscv_vle32_v_f32m4(p + i, vl), mean, vl);
      s0 = __riscv_vfmacc_vv_f32m4_tu(s0, d, d, vl);
    }
    s0 = __riscv_vfadd_vv_f32m4(s0, s1, vlmax);
    const float var = inv_n * __riscv_vfmv_f_s_f32m1_f32(
        __riscv_vfredusum_vs_f32m4_f32m1(s0, __riscv_vfmv_s_f_f32m1(0.0f, 1), vlmax));

    // pass 3: x = a * x + b
    const float a = gamma[q] / sqrtf(var + eps);
    const float b = beta[q] - mean * a;
    const vfloat32m4_t vb = __riscv_vfmv_v_f_f32m4(b, vlmax);
    i = 0;
    for (; i + 2 * vlmax <= n; i += 2 * vlmax) {
      vfloat32m4_t v0 = __riscv_vle32_v_f32m4(p + i, vlmax);
      vfloat32m4_t v1 = __riscv_vle32_v_f32m4(p + i + vlmax, vlmax);
      __riscv_vse32_v_f32m4(p + i, __riscv_vfmadd_vf_f32m4(v0, a, vb, vlmax), vlmax);
      __riscv_vse32_v_f32m4(p + i + vlmax, __riscv_vfmadd_vf_f32m4(v1, a, vb, vlmax), vlmax);
    }
    for (size_t vl; i < n; i += vl) {
      vl = __riscv_vsetvl_e32m4(n - i);
      __riscv_vse32_v_f32m4(p + i, __riscv_vfmadd_vf_f32m4(__riscv_vle32_v_f32m4(p + i, vl), a, vb, vl), vl);
    }
  }
}
