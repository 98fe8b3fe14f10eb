// Clip, fp16, in place: x = min(max(x, lo), hi) as vfmax.vf then vfmin.vf with the bounds in scalar
// registers (vf forms: no splat registers, two ops per element; vfmax returns the number when x is NaN, so
// NaN becomes the lower bound, as in the reference). The float bounds are converted to half once: rounding
// is monotonic, so clamping to the rounded bounds gives exactly the rounded clamp. Pure stream: LMUL 4
// (64 halves per register group), two independent strips per iteration so that loads overlap on the
// in-order X60, strip-mined tail.
#include <riscv_vector.h>
#include <stddef.h>

// Tuning knobs (kernels/README.md): the LMUL, and the independent strips per main-loop iteration.
// eok-knob: LMUL = 4 in {1, 2, 4, 8}
// eok-knob: UNROLL = 2 in {1, 2, 4}
#ifndef UNROLL
#define UNROLL 2
#endif
#if UNROLL != 1 && UNROLL != 2 && UNROLL != 4
#error "UNROLL must be 1, 2 or 4"
#endif

static inline vfloat16m4_t clip(vfloat16m4_t v, _Float16 lo, _Float16 hi, size_t vl) {
  return __riscv_vfmin_vf_f16m4(__riscv_vfmax_vf_f16m4(v, lo, vl), hi, vl);
}

void clip_f16(_Float16 *x, size_t n, float min, float max) {
  const _Float16 lo = (_Float16)min, hi = (_Float16)max;
  const size_t vlmax = __riscv_vsetvlmax_e16m4();
  for (; n >= UNROLL * vlmax; n -= UNROLL * vlmax, x += UNROLL * vlmax) {
    vfloat16m4_t v0 = __riscv_vle16_v_f16m4(x, vlmax);
#if UNROLL >= 2
    vfloat16m4_t v1 = __riscv_vle16_v_f16m4(x + vlmax, vlmax);
#endif
#if UNROLL == 4
    vfloat16m4_t v2 = __riscv_vle16_v_f16m4(x + 2 * vlmax, vlmax);
    vfloat16m4_t v3 = __riscv_vle16_v_f16m4(x + 3 * vlmax, vlmax);
#endif
    __riscv_vse16_v_f16m4(x, clip(v0, lo, hi, vlmax), vlmax);
#if UNROLL >= 2
    __riscv_vse16_v_f16m4(x + vlmax, clip(v1, lo, hi, vlmax), vlmax);
#endif
#if UNROLL == 4
    __riscv_vse16_v_f16m4(x + 2 * vlmax, clip(v2, lo, hi, vlmax), vlmax);
    __riscv_vse16_v_f16m4(x + 3 * vlmax, clip(v3, lo, hi, vlmax), vlmax);
#endif
  }
  for (size_t vl; n > 0; n -= vl, x += vl) {
    vl = __riscv_vsetvl_e16m4(n);
    __riscv_vse16_v_f16m4(x, clip(__riscv_vle16_v_f16m4(x, vl), lo, hi, vl), vl);
  }
}
