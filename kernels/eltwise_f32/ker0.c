// NCNN Eltwise, fp32, three same-shape inputs: op_type 0 = a*b*c, 1 = coeff0*a + coeff1*b + coeff2*c,
// 2 = max(a, b, c). One strip-mined LMUL-4 loop per operation (the switch is outside the loops). The sum
// is one vfmul.vf and two vfmacc.vf (fused, so two roundings fewer than mul + add); max is two vfmax
// (NaN operands are ignored, as in the reference). Every op streams 16 bytes per element against ~1.5
// cycles of arithmetic per 8 elements, so the kernel sits at the memory roof: the loop only has to keep
// the loads and the store back to back.
#include <riscv_vector.h>
#include <stddef.h>

// Tuning knob (kernels/README.md): the LMUL every vector op runs at.
// eok-knob: LMUL = 4 in {1, 2, 4, 8}

#define ELTWISE_LOOP(EXPR)                                                     \
  for (size_t vl; n > 0; n -= vl, a += vl, b += vl, c += vl, out += vl) {      \
    vl = __riscv_vsetvl_e32m4(n);                                              \
    vfloat32m4_t va = __riscv_vle32_v_f32m4(a, vl);                            \
    vfloat32m4_t vb = __riscv_vle32_v_f32m4(b, vl);                            \
    vfloat32m4_t vc = __riscv_vle32_v_f32m4(c, vl);                            \
    __riscv_vse32_v_f32m4(out, (EXPR), vl);                                    \
  }                                                                            \
  return

void eltwise_f32(const float *a, const float *b, const float *c, float *out, size_t n, int op_type, float coeff0,
                 float coeff1, float coeff2) {
  switch (op_type) {
    case 0: ELTWISE_LOOP(__riscv_vfmul_vv_f32m4(__riscv_vfmul_vv_f32m4(va, vb, vl), vc, vl));
    case 1:
      ELTWISE_LOOP(__riscv_vfmacc_vf_f32m4(
          __riscv_vfmacc_vf_f32m4(__riscv_vfmul_vf_f32m4(va, coeff0, vl), coeff1, vb, vl), coeff2, vc, vl));
    case 2: ELTWISE_LOOP(__riscv_vfmax_vv_f32m4(__riscv_vfmax_vv_f32m4(va, vb, vl), vc, vl));
    default: return;
  }
}
