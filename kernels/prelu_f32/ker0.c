// PReLU, fp32, in place on planar [c][hw] with one slope per channel: x = x < 0 ? x * slope[q] : x.
// Two vector ops per element: a mask of the negative lanes (vmflt.vf) and a masked vfmul whose inactive
// lanes keep x (mask-undisturbed), so NaN, +inf and +-0 pass through as in the reference. (The maskless
// max(x,0) + slope*min(x,0) turns NaN into 0; max(x, slope*x) needs 0 <= slope <= 1.) The stream is split
// into channels, so the kernel keeps the instructions per element low in the three shapes NCNN meets:
//  - hw == 1 (PReLU after an InnerProduct): the channels are contiguous, the slopes are one vector load.
//  - 2 <= hw <= vlmax/2 (small feature maps): a strip per channel would leave most lanes idle and pay the
//    loop overhead per channel, so each strip holds vlmax/hw whole channels and the slope is spread over it
//    by one indexed load with byte offsets (i / hw) * 4, computed once.
//  - otherwise one strip-mined pass per channel with the slope in a scalar register (vfmul.vf): two
//    independent LMUL-4 strips per iteration so that loads overlap on the in-order X60, then one vsetvl per
//    tail strip.
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

static inline vfloat32m4_t prelu_vf(vfloat32m4_t v, float s, size_t vl) {
  vbool8_t neg = __riscv_vmflt_vf_f32m4_b8(v, 0.0f, vl);
  return __riscv_vfmul_vf_f32m4_mu(neg, v, v, s, vl);
}

static inline vfloat32m4_t prelu_vv(vfloat32m4_t v, vfloat32m4_t s, size_t vl) {
  vbool8_t neg = __riscv_vmflt_vf_f32m4_b8(v, 0.0f, vl);
  return __riscv_vfmul_vv_f32m4_mu(neg, v, v, s, vl);
}

void prelu_f32(float *x, const float *slope, int c, int hw) {
  if (c <= 0 || hw <= 0) return;
  const size_t nc = (size_t)c, n = (size_t)hw;
  const size_t vlmax = __riscv_vsetvlmax_e32m4();

  if (n == 1) {
    for (size_t m = nc, vl; m > 0; m -= vl, x += vl, slope += vl) {
      vl = __riscv_vsetvl_e32m4(m);
      vfloat32m4_t v = __riscv_vle32_v_f32m4(x, vl);
      __riscv_vse32_v_f32m4(x, prelu_vv(v, __riscv_vle32_v_f32m4(slope, vl), vl), vl);
    }
    return;
  }

  if (n <= vlmax / 2) {
    const size_t k = vlmax / n;  // whole channels per strip
    const vuint32m4_t off = __riscv_vsll_vx_u32m4(
        __riscv_vdivu_vx_u32m4(__riscv_vid_v_u32m4(vlmax), (uint32_t)n, vlmax), 2, vlmax);
    for (size_t q = 0; q < nc; q += k, x += k * n, slope += k) {
      const size_t vl = __riscv_vsetvl_e32m4((nc - q < k ? nc - q : k) * n);
      vfloat32m4_t v = __riscv_vle32_v_f32m4(x, vl);
      vfloat32m4_t s = __riscv_vluxei32_v_f32m4(slope, off, vl);
      __riscv_vse32_v_f32m4(x, prelu_vv(v, s, vl), vl);
    }
    return;
  }

  for (size_t q = 0; q < nc; q++) {
    const float s = slope[q];
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
      __riscv_vse32_v_f32m4(x, prelu_vf(v0, s, vlmax), vlmax);
#if UNROLL >= 2
      __riscv_vse32_v_f32m4(x + vlmax, prelu_vf(v1, s, vlmax), vlmax);
#endif
#if UNROLL == 4
      __riscv_vse32_v_f32m4(x + 2 * vlmax, prelu_vf(v2, s, vlmax), vlmax);
      __riscv_vse32_v_f32m4(x + 3 * vlmax, prelu_vf(v3, s, vlmax), vlmax);
#endif
    }
    for (size_t vl; m > 0; m -= vl, x += vl) {
      vl = __riscv_vsetvl_e32m4(m);
      __riscv_vse32_v_f32m4(x, prelu_vf(__riscv_vle32_v_f32m4(x, vl), s, vl), vl);
    }
  }
}
