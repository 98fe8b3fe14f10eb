// HardSigmoid, fp32, in place: y = min(max(alpha*x + beta, 0), 1). Three vector ops per element: one
// vfmadd.vf (x is dead afterwards, so the fused multiply-add overwrites it: alpha in a scalar register,
// beta in a splat hoisted out of the loop), then vfmax.vf 0 and vfmin.vf 1 (NaN becomes 0, as in the
// reference). Pure stream: LMUL 4 (32 floats per register group),
// two independent strips per iteration so that loads overlap on the in-order X60, strip-mined tail.
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

static inline vfloat32m4_t hardsigmoid(vfloat32m4_t v, float a, vfloat32m4_t vb, size_t vl) {
  vfloat32m4_t t = __riscv_vfmadd_vf_f32m4(v, a, vb, vl);
  return __riscv_vfmin_vf_f32m4(__riscv_vfmax_vf_f32m4(t, 0.0f, vl), 1.0f, vl);
}

void hardsigmoid_f32(float *x, size_t n, float alpha, float beta) {
  const float a = alpha, b = beta;
  const vfloat32m4_t vb = __riscv_vfmv_v_f_f32m4(b, __riscv_vsetvlmax_e32m4());
  const size_t vlmax = __riscv_vsetvlmax_e32m4();
  for (; n >= UNROLL * vlmax; n -= UNROLL * vlmax, x += UNROLL * vlmax) {
    vfloat32m4_t v0 = __riscv_vle32_v_f32m4(x, vlmax);
#if UNROLL >= 2
    vfloat32m4_t v1 = __riscv_vle32_v_f32m4(x + vlmax, vlmax);
#endif
#if UNROLL == 4
    vfloat32m4_t v2 = __riscv_vle32_v_f32m4(x + 2 * vlmax, vlmax);
    vfloat32m4_t v3 = __riscv_vle32_v_f32m4(x + 3 * vlmax, vlmax);
#endif
    __riscv_vse32_v_f32m4(x, hardsigmoid(v0, a, vb, vlmax), vlmax);
#if UNROLL >= 2
    __riscv_vse32_v_f32m4(x + vlmax, hardsigmoid(v1, a, vb, vlmax), vlmax);
#endif
#if UNROLL == 4
    __riscv_vse32_v_f32m4(x + 2 * vlmax, hardsigmoid(v2, a, vb, vlmax), vlmax);
    __riscv_vse32_v_f32m4(x + 3 * vlmax, hardsigmoid(v3, a, vb, vlmax), vlmax);
#endif
  }
  for (size_t vl; n > 0; n -= vl, x += vl) {
    vl = __riscv_vsetvl_e32m4(n);
    __riscv_vse32_v_f32m4(x, hardsigmoid(__riscv_vle32_v_f32m4(x, vl), a, vb, vl), vl);
  }
}
