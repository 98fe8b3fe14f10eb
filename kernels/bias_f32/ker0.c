// Bias, fp32, in place on planar [c][hw]: x[q][i] += bias[q]. A stream (load, one add, store) split into
// channels, so the kernel keeps the instructions per element low in the three shapes NCNN meets:
//  - hw == 1 (a Bias after an InnerProduct): the channels are contiguous, one vfadd.vv per strip against the
//    bias vector.
//  - 2 <= hw <= vlmax/2 (late small feature maps): a strip per channel would leave most lanes idle and pay
//    the loop overhead per channel, so each strip holds vlmax/hw whole channels and the bias is spread over
//    it by one indexed load with byte offsets (i / hw) * 4, computed once.
//  - otherwise one strip-mined pass per channel with vfadd.vf (the channel's bias in a scalar register):
//    two independent LMUL-4 strips per iteration so that loads overlap on the in-order X60, then one
//    vsetvl per tail strip.
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

// Tuning knobs (kernels/README.md): the LMUL, and the independent strips per main-loop iteration of the
// per-channel pass.
// eok-knob: LMUL = 4 in {1, 2, 4, 8}
// eok-knob: UNROLL = 2 in {1, 2, 4}
#ifndef UNROLL
#define UNROLL 2
#endif
#if UNROLL != 1 && UNROLL != 2 && UNROLL != 4
#error "UNROLL must be 1, 2 or 4"
#endif

void bias_f32(float *x, const float *bias, int c, int hw) {
  if (c <= 0 || hw <= 0) return;
  const size_t nc = (size_t)c, n = (size_t)hw;
  const size_t vlmax = __riscv_vsetvlmax_e32m4();

  if (n == 1) {
    for (size_t m = nc, vl; m > 0; m -= vl, x += vl, bias += vl) {
      vl = __riscv_vsetvl_e32m4(m);
      vfloat32m4_t v = __riscv_vle32_v_f32m4(x, vl);
      __riscv_vse32_v_f32m4(x, __riscv_vfadd_vv_f32m4(v, __riscv_vle32_v_f32m4(bias, vl), vl), vl);
    }
    return;
  }

  if (n <= vlmax / 2) {
    const size_t k = vlmax / n;  // whole channels per strip
    const vuint32m4_t off = __riscv_vsll_vx_u32m4(
        __riscv_vdivu_vx_u32m4(__riscv_vid_v_u32m4(vlmax), (uint32_t)n, vlmax), 2, vlmax);
    for (size_t q = 0; q < nc; q += k, x += k * n, bias += k) {
      const size_t vl = __riscv_vsetvl_e32m4((nc - q < k ? nc - q : k) * n);
      vfloat32m4_t v = __riscv_vle32_v_f32m4(x, vl);
      vfloat32m4_t b = __riscv_vluxei32_v_f32m4(bias, off, vl);
      __riscv_vse32_v_f32m4(x, __riscv_vfadd_vv_f32m4(v, b, vl), vl);
    }
    return;
  }

  for (size_t q = 0; q < nc; q++) {
    const float b = bias[q];
    size_t m = n;
    for (; m >= UNROLL * vlmax; m -= UNROLL * vlmax, x += UNROLL * vlmax) {
      vfloat32m4_t v0 = __riscv_vle32_v_f32m4(x, vlmax);
#if UNROLL >= 2
      vfloat32m4_t v1 = __riscv_vle32_v_f32m4(x + vlmax, vlmax);
#endif
#if UNROLL == 4
      vfloat32m4_t v2 = __riscv_vle32_v_f32m4(x + 2 * vlmax, vlmax);
      vfloat32m4_t v3 = __riscv_vle32_v_f32m4(x + 3 * vlmax, vlmax);
#endif
      __riscv_vse32_v_f32m4(x, __riscv_vfadd_vf_f32m4(v0, b, vlmax), vlmax);
#if UNROLL >= 2
      __riscv_vse32_v_f32m4(x + vlmax, __riscv_vfadd_vf_f32m4(v1, b, vlmax), vlmax);
#endif
#if UNROLL == 4
      __riscv_vse32_v_f32m4(x + 2 * vlmax, __riscv_vfadd_vf_f32m4(v2, b, vlmax), vlmax);
      __riscv_vse32_v_f32m4(x + 3 * vlmax, __riscv_vfadd_vf_f32m4(v3, b, vlmax), vlmax);
#endif
    }
    for (size_t vl; m > 0; m -= vl, x += vl) {
      vl = __riscv_vsetvl_e32m4(m);
      __riscv_vse32_v_f32m4(x, __riscv_vfadd_vf_f32m4(__riscv_vle32_v_f32m4(x, vl), b, vl), vl);
    }
  }
}
