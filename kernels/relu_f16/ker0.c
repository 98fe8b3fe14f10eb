// ReLU, fp16, in place: vfmax with +0 (turns NaN and -0 into +0, as the reference does). LMUL 4 (64 halves
// per register group), two independent strips per iteration so that the second load overlaps the first
// one's latency on the in-order X60 (m4 loads/stores also cost less per element there than m8); the tail is
// strip-mined.
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

void relu_f16(_Float16 *x, size_t n) {
  const _Float16 zero = (_Float16)0.0f;
  const size_t vlmax = __riscv_vsetvlmax_e16m4();
  for (; n >= UNROLL * vlmax; n -= UNROLL * vlmax, x += UNROLL * vlmax) {
    vfloat16m4_t a = __riscv_vle16_v_f16m4(x, vlmax);
#if UNROLL >= 2
    vfloat16m4_t b = __riscv_vle16_v_f16m4(x + vlmax, vlmax);
#endif
#if UNROLL == 4
    vfloat16m4_t c = __riscv_vle16_v_f16m4(x + 2 * vlmax, vlmax);
    vfloat16m4_t d = __riscv_vle16_v_f16m4(x + 3 * vlmax, vlmax);
#endif
    __riscv_vse16_v_f16m4(x, __riscv_vfmax_vf_f16m4(a, zero, vlmax), vlmax);
#if UNROLL >= 2
    __riscv_vse16_v_f16m4(x + vlmax, __riscv_vfmax_vf_f16m4(b, zero, vlmax), vlmax);
#endif
#if UNROLL == 4
    __riscv_vse16_v_f16m4(x + 2 * vlmax, __riscv_vfmax_vf_f16m4(c, zero, vlmax), vlmax);
    __riscv_vse16_v_f16m4(x + 3 * vlmax, __riscv_vfmax_vf_f16m4(d, zero, vlmax), vlmax);
#endif
  }
  for (size_t vl; n > 0; n -= vl, x += vl) {
    vl = __riscv_vsetvl_e16m4(n);
    __riscv_vse16_v_f16m4(x, __riscv_vfmax_vf_f16m4(__riscv_vle16_v_f16m4(x, vl), zero, vl), vl);
  }
}
