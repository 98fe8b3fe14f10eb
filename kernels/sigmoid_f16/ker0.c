// Sigmoid, fp16 storage and arithmetic, in place, LMUL 4 (64 halves per op): 1 / (1 + e^-x).
// exp: Cody-Waite reduction by ln2, degree-4 minimax polynomial (relative error 1e-5, far below half's
// 4.9e-4 ulp), 2^n from the bits of a rounding shifter. 1/(1 + e): vfrec7 plus one Newton step (7 -> 14
// bits, more than half's 11); vfdiv would cost ~120 cycles at m4. The negation of x is folded into the
// reduction constants (one op less on the dependent chain); the NaN test and select (the clamp turns NaN
// into a number) run on the integer unit, beside the FP pipe.
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

// Tuning knob (kernels/README.md): the LMUL every vector op runs at.
// eok-knob: LMUL = 4 in {1, 2, 4, 8}

void sigmoid_f16(_Float16 *x, size_t n) {
  // 1.5*2^10 + 15: -x*log2(e) + shifter rounds to an integer n, and the low bits then hold n + 15.
  const _Float16 shifter = (_Float16)1551.0f;
  for (size_t vl; n > 0; n -= vl, x += vl) {
    vl = __riscv_vsetvl_e16m4(n);
    vuint16m4_t vb = __riscv_vle16_v_u16m4((const uint16_t *)x, vl);
    // NaN: |x| bits above those of inf
    vbool4_t nan = __riscv_vmsgtu_vx_u16m4_b4(__riscv_vand_vx_u16m4(vb, 0x7fff, vl), 0x7c00, vl);
    // x clamped to [-10.5, 10.5]; e^-x is evaluated with the negation folded into the constants. At
    // x = 10.5, n = -15 and 2^n below becomes +0 (sigmoid = 1); at -10.5, e^-x = 36316 stays finite and
    // sigmoid = 2.8e-5, within the tolerance of 0.
    vfloat16m4_t xc = __riscv_vreinterpret_v_u16m4_f16m4(vb);
    xc = __riscv_vfmax_vf_f16m4(__riscv_vfmin_vf_f16m4(xc, (_Float16)10.5f, vl), (_Float16)-10.5f, vl);

    // n = round(-x / ln2); r = x + n ln2 = -(reduced argument), with ln2 split so the reduction stays exact
    vfloat16m4_t fn = __riscv_vfadd_vf_f16m4(__riscv_vfmul_vf_f16m4(xc, (_Float16)-1.442695f, vl), shifter, vl);
    vfloat16m4_t nf = __riscv_vfsub_vf_f16m4(fn, shifter, vl);
    vfloat16m4_t r = __riscv_vfmacc_vf_f16m4(xc, (_Float16)0.693359375f, nf, vl);
    r = __riscv_vfmacc_vf_f16m4(r, (_Float16)-2.12194440e-4f, nf, vl);

    // e^-r ~ (1 - r) + r^2 (c2 - c3 r + c4 r^2), minimax on [-ln2/2, ln2/2]
    vfloat16m4_t r2 = __riscv_vfmul_vv_f16m4(r, r, vl);
    vfloat16m4_t lo = __riscv_vfrsub_vf_f16m4(r, (_Float16)1.0f, vl);
    vfloat16m4_t hi = __riscv_vfmacc_vf_f16m4(__riscv_vfmv_v_f_f16m4((_Float16)0.4999949634f, vl), (_Float16)-0.1674191356f, r, vl);
    hi = __riscv_vfmacc_vf_f16m4(hi, (_Float16)0.04187569022f, r2, vl);
    vfloat16m4_t y = __riscv_vfmadd_vv_f16m4(hi, r2, lo, vl);

    // 2^n: shifting the shifter's bits left by 10 leaves exactly (n + 15) << 10
    vint16m4_t bits = __riscv_vsll_vx_i16m4(__riscv_vreinterpret_v_f16m4_i16m4(fn), 10, vl);
    vfloat16m4_t e = __riscv_vfmul_vv_f16m4(y, __riscv_vreinterpret_v_i16m4_f16m4(bits), vl);

    // 1/d, d = 1 + e: q (2 - d q) with q the 7-bit estimate
    vfloat16m4_t d = __riscv_vfadd_vf_f16m4(e, (_Float16)1.0f, vl);
    vfloat16m4_t q = __riscv_vfrec7_v_f16m4(d, vl);
    vfloat16m4_t s = __riscv_vfmul_vv_f16m4(q, __riscv_vfrsub_vf_f16m4(__riscv_vfmul_vv_f16m4(d, q, vl), (_Float16)2.0f, vl), vl);

    // NaN in, NaN out
    vuint16m4_t sb = __riscv_vmerge_vvm_u16m4(__riscv_vreinterpret_v_f16m4_u16m4(s), vb, nan, vl);
    __riscv_vse16_v_u16m4((uint16_t *)x, sb, vl);
  }
}
