// Mish, fp16 storage and arithmetic, in place, LMUL 4 (64 halves per op). One exp per element:
// tanh(log1p(e^x)) = t/(t+2) with t = e^x (e^x + 2). exp: Cody-Waite reduction by ln2, degree-4
// polynomial (enough for half precision), 2^n from the bits of a rounding shifter. 1/(t+2): vfrec7
// plus one Newton step (7 -> 14 bits, more than half's 11); vfdiv would cost ~120 cycles at m4.
#include <riscv_vector.h>
#include <stddef.h>

// Tuning knob (kernels/README.md): the LMUL every vector op runs at.
// eok-knob: LMUL = 4 in {1, 2, 4, 8}

void mish_f16(_Float16 *x, size_t n) {
  // 1.5*2^10 + 15: x*log2(e) + shifter rounds to an integer n, and the low bits then hold n + 15.
  const _Float16 shifter = (_Float16)1551.0f;
  for (size_t vl; n > 0; n -= vl, x += vl) {
    vl = __riscv_vsetvl_e16m4(n);
    vfloat16m4_t v = __riscv_vle16_v_f16m4(x, vl);
    // Clamp only the exp argument: at 5 the ratio already rounds to 1 in half and t stays far from
    // overflow (65504); at -10.5, n = -15 and the scale below becomes +0. The final product uses the
    // unclamped x, so NaN, +-inf and +-huge come out as in the reference.
    vfloat16m4_t xc = __riscv_vfmax_vf_f16m4(__riscv_vfmin_vf_f16m4(v, (_Float16)5.0f, vl), (_Float16)-10.5f, vl);

    // n = round(x / ln2); r = x - n ln2, with ln2 split so that the reduction stays exact
    vfloat16m4_t fn = __riscv_vfmacc_vf_f16m4(__riscv_vfmv_v_f_f16m4(shifter, vl), (_Float16)1.442695f, xc, vl);
    vfloat16m4_t nf = __riscv_vfsub_vf_f16m4(fn, shifter, vl);
    vfloat16m4_t r = __riscv_vfnmsac_vf_f16m4(xc, (_Float16)0.693359375f, nf, vl);
    r = __riscv_vfnmsac_vf_f16m4(r, (_Float16)-2.12194440e-4f, nf, vl);

    // e^r ~ (1 + r) + r^2 (1/2 + r/6 + r^2/24); the truncation error (< 5e-5) is far below half's ulp
    vfloat16m4_t r2 = __riscv_vfmul_vv_f16m4(r, r, vl);
    vfloat16m4_t lo = __riscv_vfadd_vf_f16m4(r, (_Float16)1.0f, vl);
    vfloat16m4_t hi = __riscv_vfadd_vf_f16m4(__riscv_vfmul_vf_f16m4(r, (_Float16)(1.0f / 6.0f), vl), (_Float16)0.5f, vl);
    hi = __riscv_vfmacc_vf_f16m4(hi, (_Float16)(1.0f / 24.0f), r2, vl);
    vfloat16m4_t y = __riscv_vfmadd_vv_f16m4(hi, r2, lo, vl);

    // 2^n: shifting the shifter's bits left by 10 leaves exactly (n + 15) << 10
    vint16m4_t bits = __riscv_vsll_vx_i16m4(__riscv_vreinterpret_v_f16m4_i16m4(fn), 10, vl);
    vfloat16m4_t e = __riscv_vfmul_vv_f16m4(y, __riscv_vreinterpret_v_i16m4_f16m4(bits), vl);

    // t = e (e + 2) <= ~22300, d = t + 2 >= 2
    vfloat16m4_t t = __riscv_vfmul_vv_f16m4(__riscv_vfadd_vf_f16m4(e, (_Float16)2.0f, vl), e, vl);
    vfloat16m4_t d = __riscv_vfadd_vf_f16m4(t, (_Float16)2.0f, vl);

    // ratio = t/d = (t q) (2 - d q) with q the 7-bit estimate: the Newton step folded into the product
    vfloat16m4_t q = __riscv_vfrec7_v_f16m4(d, vl);
    vfloat16m4_t corr = __riscv_vfrsub_vf_f16m4(__riscv_vfmul_vv_f16m4(d, q, vl), (_Float16)2.0f, vl);
    vfloat16m4_t ratio = __riscv_vfmul_vv_f16m4(__riscv_vfmul_vv_f16m4(t, q, vl), corr, vl);
    __riscv_vse16_v_f16m4(x, __riscv_vfmul_vv_f16m4(v, ratio, vl), vl);
  }
}
