// HardSigmoid, fp16, in place: y = min(max(alpha*x + beta, 0), 1). Three vector ops per element: one
// vfmadd.vf (x is dead afterwards, so the fused multiply-add overwrites it: alpha in a scalar register,
// beta in a splat hoisted out of the loop), then vfmax.vf 0 and vfmin.vf 1 (NaN becomes 0, as in the
// reference). Half arithmetic; alpha and beta are converted to half once (0.2 becomes 0.19995, an error of
// at most 1.2e-4 over the unclamped range |x| <= 2.5, well inside f16_simple). Pure stream: LMUL 4 (64
// halves per register group), two independent strips per iteration so that loads overlap on the in-order
// X60, strip-mined tail.
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

static inline vfloat16m4_t hardsigmoid(vfloat16m4_t v, _Float16 a, vfloat16m4_t vb, size_t vl) {
  vfloat16m4_t t = __riscv_vfmadd_vf_f16m4(v, a, vb, vl);
  return __riscv_vfmin_vf_f16m4(__riscv_vfmax_vf_f16m4(t, (_Float16)0.0f, vl), (_Float16)1.0f, vl);
}

void hardsigmoid_f16(_Float16 *x, size_t n, float alpha, float beta) {
  const _Float16 a = (_Float16)alpha, b = (_Float16)beta;
  const vfloat16m4_t vb = __riscv_vfmv_v_f_f16m4(b, __riscv_vsetvlmax_e16m4());
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
    __riscv_vse16_v_f16m4(x, hardsigmoid(v0, a, vb, vlmax), vlmax);
#if UNROLL >= 2
    __riscv_vse16_v_f16m4(x + vlmax, hardsigmoid(v1, a, vb, vlmax), vlmax);
#endif
#if UNROLL == 4
    __riscv_vse16_v_f16m4(x + 2 * vlmax, hardsigmoid(v2, a, vb, vlmax), vlmax);
    __riscv_vse16_v_f16m4(x + 3 * vlmax, hardsigmoid(v3, a, vb, vlmax), vlmax);
#endif
  }
  for (size_t vl; n > 0; n -= vl, x += vl) {
    vl = __riscv_vsetvl_e16m4(n);
    __riscv_vse16_v_f16m4(x, hardsigmoid(__riscv_vle16_v_f16m4(x, vl), a, vb, vl), vl);
  }
}
