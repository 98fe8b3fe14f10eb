// NCNN Eltwise, fp16 storage and arithmetic, three same-shape inputs: op_type 0 = a*b*c, 1 = coeff0*a +
// coeff1*b + coeff2*c (fp32 coefficients), 2 = max(a, b, c). One strip-mined loop per operation (the
// switch is outside the loops). Product and max run in half precision at LMUL 4 (64 halves per op): the
// product's two roundings stay within half's relative precision. The weighted sum widens: its terms cancel
// (|terms| up to ~2, result near 0), and three half roundings plus half-rounded coefficients exceed the
// f16_simple tolerance for about 1 element in 1e5; so vfwcvt to fp32 (half LMUL 2 -> fp32 LMUL 4),
// vfmul.vf + two vfmacc.vf with the fp32 coefficients, one vfncvt back. Every op is memory-bound (8 bytes
// per element).
#include <riscv_vector.h>
#include <stddef.h>

// Tuning knob (kernels/README.md): the LMUL of the half-precision loops (the widened sum loop runs at
// half of it in half precision, i.e. at it in fp32).
// eok-knob: LMUL = 4 in {1, 2, 4, 8}

#define ELTWISE_LOOP(EXPR)                                                     \
  for (size_t vl; n > 0; n -= vl, a += vl, b += vl, c += vl, out += vl) {      \
    vl = __riscv_vsetvl_e16m4(n);                                              \
    vfloat16m4_t va = __riscv_vle16_v_f16m4(a, vl);                            \
    vfloat16m4_t vb = __riscv_vle16_v_f16m4(b, vl);                            \
    vfloat16m4_t vc = __riscv_vle16_v_f16m4(c, vl);                            \
    __riscv_vse16_v_f16m4(out, (EXPR), vl);                                    \
  }                                                                            \
  return

void eltwise_f16(const _Float16 *a, const _Float16 *b, const _Float16 *c, _Float16 *out, size_t n, int op_type,
                 float coeff0, float coeff1, float coeff2) {
  switch (op_type) {
    case 0: ELTWISE_LOOP(__riscv_vfmul_vv_f16m4(__riscv_vfmul_vv_f16m4(va, vb, vl), vc, vl));
    case 1:
      for (size_t vl; n > 0; n -= vl, a += vl, b += vl, c += vl, out += vl) {
        vl = __riscv_vsetvl_e16m2(n);
        vfloat32m4_t wa = __riscv_vfwcvt_f_f_v_f32m4(__riscv_vle16_v_f16m2(a, vl), vl);
        vfloat32m4_t wb = __riscv_vfwcvt_f_f_v_f32m4(__riscv_vle16_v_f16m2(b, vl), vl);
        vfloat32m4_t wc = __riscv_vfwcvt_f_f_v_f32m4(__riscv_vle16_v_f16m2(c, vl), vl);
        vfloat32m4_t acc = __riscv_vfmul_vf_f32m4(wa, coeff0, vl);
        acc = __riscv_vfmacc_vf_f32m4(acc, coeff1, wb, vl);
        acc = __riscv_vfmacc_vf_f32m4(acc, coeff2, wc, vl);
        __riscv_vse16_v_f16m2(out, __riscv_vfncvt_f_f_w_f16m2(acc, vl), vl);
      }
      return;
    case 2: ELTWISE_LOOP(__riscv_vfmax_vv_f16m4(__riscv_vfmax_vv_f16m4(va, vb, vl), vc, vl));
    default: return;
  }
}
