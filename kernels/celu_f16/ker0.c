// CELU, fp16 storage and arithmetic, in place, LMUL 4 (64 halves per op): y = x for x > 0,
// alpha (e^(x/alpha) - 1) for x <= 0 (NCNN's max(0,x) + min(0, alpha (e^(x/alpha) - 1)) for alpha > 0).
// expm1: Cody-Waite reduction by ln2, a degree-4 polynomial written without its leading 1
// (p = e^r - 1 = r + r^2 P(r), relative error 1e-5, so small |x| keeps full relative precision instead of
// cancelling in e^z - 1), 2^n = s from the bits of a rounding shifter, then
// alpha (e^z - 1) = (alpha s) p + (alpha s - alpha) with no cancellation when n = 0. One scalar division
// for 1/alpha outside the loop; the select runs on the integer unit beside the FP pipe.
#include <riscv_vector.h>
#include <stddef.h>

// Tuning knob (kernels/README.md): the LMUL every vector op runs at.
// eok-knob: LMUL = 4 in {1, 2, 4, 8}

void celu_f16(_Float16 *x, size_t n, float alpha) {
  // 1.5*2^10 + 15: z*log2(e) + shifter rounds to an integer n, and the low bits then hold n + 15.
  const _Float16 shifter = (_Float16)1551.0f;
  const _Float16 ah = (_Float16)alpha, inv_alpha = (_Float16)(1.0f / alpha);
  for (size_t vl; n > 0; n -= vl, x += vl) {
    vl = __riscv_vsetvl_e16m4(n);
    vfloat16m4_t v = __riscv_vle16_v_f16m4(x, vl);
    // z = x / alpha, clamped below at -10.5 (n = -15 there, so s = +0 and the result is exactly -alpha).
    // Lanes with x > 0 or NaN are computed too but replaced by x at the end, so no upper clamp.
    vfloat16m4_t z = __riscv_vfmax_vf_f16m4(__riscv_vfmul_vf_f16m4(v, inv_alpha, vl), (_Float16)-10.5f, vl);

    // n = round(z / ln2); r = z - n ln2, with ln2 split so that the reduction stays exact
    vfloat16m4_t fn = __riscv_vfadd_vf_f16m4(__riscv_vfmul_vf_f16m4(z, (_Float16)1.442695f, vl), shifter, vl);
    vfloat16m4_t nf = __riscv_vfsub_vf_f16m4(fn, shifter, vl);
    vfloat16m4_t r = __riscv_vfnmsac_vf_f16m4(z, (_Float16)0.693359375f, nf, vl);
    r = __riscv_vfnmsac_vf_f16m4(r, (_Float16)-2.12194440e-4f, nf, vl);

    // p = e^r - 1 ~ r + r^2 (c2 + c3 r + c4 r^2), minimax on [-ln2/2, ln2/2]
    vfloat16m4_t r2 = __riscv_vfmul_vv_f16m4(r, r, vl);
    vfloat16m4_t hi = __riscv_vfmacc_vf_f16m4(__riscv_vfmv_v_f_f16m4((_Float16)0.4999949634f, vl), (_Float16)0.1674191356f, r, vl);
    hi = __riscv_vfmacc_vf_f16m4(hi, (_Float16)0.04187569022f, r2, vl);
    vfloat16m4_t p = __riscv_vfmadd_vv_f16m4(hi, r2, r, vl);

    // s = 2^n: shifting the shifter's bits left by 10 leaves exactly (n + 15) << 10
    vfloat16m4_t s = __riscv_vreinterpret_v_i16m4_f16m4(
        __riscv_vsll_vx_i16m4(__riscv_vreinterpret_v_f16m4_i16m4(fn), 10, vl));

    // alpha (s (1 + p) - 1) = (alpha s) p + (alpha s - alpha)
    vfloat16m4_t as = __riscv_vfmul_vf_f16m4(s, ah, vl);
    vfloat16m4_t em = __riscv_vfmadd_vv_f16m4(p, as, __riscv_vfsub_vf_f16m4(as, ah, vl), vl);

    // x <= 0 takes the exponential branch; x > 0 and NaN keep x
    vbool4_t neg = __riscv_vmfle_vf_f16m4_b4(v, (_Float16)0.0f, vl);
    __riscv_vse16_v_f16m4(x, __riscv_vmerge_vvm_f16m4(v, em, neg, vl), vl);
  }
}
