// AbsVal, fp16, in place: one vfabs (vfsgnjx, clears the sign bit; NaN stays NaN) per element. The op is a
// pure stream (load, one op, store), so the kernel is shaped for the load/store unit: LMUL 4 (64 halves per
// register group; m4 loads/stores cost less per element than m8 on the X60), two independent strips per
// iteration so that the second load overlaps the first one's latency on the in-order core, and a
// strip-mined tail (one vsetvl per strip).
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

static inline vfloat16m4_t absval(vfloat16m4_t v, size_t vl) { return __riscv_vfabs_v_f16m4(v, vl); }

void absval_f16(_Float16 *x, size_t n) {
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
    __riscv_vse16_v_f16m4(x, absval(v0, vlmax), vlmax);
#if UNROLL >= 2
    __riscv_vse16_v_f16m4(x + vlmax, absval(v1, vlmax), vlmax);
#endif
#if UNROLL == 4
    __riscv_vse16_v_f16m4(x + 2 * vlmax, absval(v2, vlmax), vlmax);
    __riscv_vse16_v_f16m4(x + 3 * vlmax, absval(v3, vlmax), vlmax);
#endif
  }
  for (size_t vl; n > 0; n -= vl, x += vl) {
    vl = __riscv_vsetvl_e16m4(n);
    __riscv_vse16_v_f16m4(x, absval(__riscv_vle16_v_f16m4(x, vl), vl), vl);
  }
}
