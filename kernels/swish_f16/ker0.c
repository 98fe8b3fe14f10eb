// Swish, fp16 storage and arithmetic, in place, LMUL 4 (64 halves per op): y = x / (1 + e^-x) =
// x sigmoid(x). Only e = e^-|x| in (0, 1] is computed, so nothing overflows (half's range ends at 65504):
// sigmoid(x) = 1/(1+e) for x >= 0 and e/(1+e) for x < 0. exp: Cody-Waite reduction by ln2, degree-4
// polynomial (relative error 1e-5, far below half's 4.9e-4 ulp), 2^n from the bits of a rounding shifter.
// 1/(1+e): 1+e lies in [1, 2], vfrec7 plus one Newton step (7 -> 14 bits, more than half's 11) folded
// into the final product; vfdiv would cost ~120 cycles at m4. The sign bit, the 2^n shift and the choice
// of the factor (e or 1) run on the integer unit, beside the FP pipe. Limits come out as in the
// reference: for x <= -10.5 the clamped exponent makes e exactly +0, so -60000 gives -0 and -inf gives
// -inf * 0 = NaN.
#include <riscv_vector.h>
#include <stddef.h>

// Tuning knob (kernels/README.md): the LMUL every vector op runs at.
// eok-knob: LMUL = 4 in {1, 2, 4, 8}

void swish_f16(_Float16 *x, size_t n) {
  // 1.5*2^10 + 15: a*log2(e) + shifter rounds to an integer n, and the low bits then hold n + 15.
  const _Float16 shifter = (_Float16)1551.0f;
  for (size_t vl; n > 0; n -= vl, x += vl) {
    vl = __riscv_vsetvl_e16m4(n);
    vfloat16m4_t v = __riscv_vle16_v_f16m4(x, vl);
    vuint16m4_t vb = __riscv_vreinterpret_v_f16m4_u16m4(v);
    // a = -|x| (sign bit set by an integer or), clamped at -10.5: there n = -15 and 2^n below becomes +0.
    vfloat16m4_t a = __riscv_vreinterpret_v_u16m4_f16m4(__riscv_vor_vx_u16m4(vb, 0x8000, vl));
    a = __riscv_vfmax_vf_f16m4(a, (_Float16)-10.5f, vl);

    // n = round(a / ln2); r = a - n ln2, with ln2 split so that the reduction stays exact
    vfloat16m4_t fn = __riscv_vfadd_vf_f16m4(__riscv_vfmul_vf_f16m4(a, (_Float16)1.442695f, vl), shifter, vl);
    vfloat16m4_t nf = __riscv_vfsub_vf_f16m4(fn, shifter, vl);
    vfloat16m4_t r = __riscv_vfnmsac_vf_f16m4(a, (_Float16)0.693359375f, nf, vl);
    r = __riscv_vfnmsac_vf_f16m4(r, (_Float16)-2.12194440e-4f, nf, vl);

    // e^r ~ (1 + r) + r^2 (c2 + c3 r + c4 r^2), minimax on [-ln2/2, ln2/2]
    vfloat16m4_t r2 = __riscv_vfmul_vv_f16m4(r, r, vl);
    vfloat16m4_t lo = __riscv_vfadd_vf_f16m4(r, (_Float16)1.0f, vl);
    vfloat16m4_t hi = __riscv_vfmacc_vf_f16m4(__riscv_vfmv_v_f_f16m4((_Float16)0.4999949634f, vl), (_Float16)0.1674191356f, r, vl);
    hi = __riscv_vfmacc_vf_f16m4(hi, (_Float16)0.04187569022f, r2, vl);
    vfloat16m4_t y = __riscv_vfmadd_vv_f16m4(hi, r2, lo, vl);

    // e = y 2^n: shifting the shifter's bits left by 10 leaves exactly (n + 15) << 10
    vint16m4_t bits = __riscv_vsll_vx_i16m4(__riscv_vreinterpret_v_f16m4_i16m4(fn), 10, vl);
    vfloat16m4_t e = __riscv_vfmul_vv_f16m4(y, __riscv_vreinterpret_v_i16m4_f16m4(bits), vl);

    // f = e where x < 0 (sign bit set), 1.0 elsewhere; xf = x f
    vbool4_t pos = __riscv_vmsgt_vx_i16m4_b4(__riscv_vreinterpret_v_u16m4_i16m4(vb), -1, vl);
    vfloat16m4_t f = __riscv_vreinterpret_v_u16m4_f16m4(
        __riscv_vmerge_vxm_u16m4(__riscv_vreinterpret_v_f16m4_u16m4(e), 0x3c00, pos, vl));
    vfloat16m4_t xf = __riscv_vfmul_vv_f16m4(v, f, vl);

    // 1/d, d = 1 + e in [1, 2]: y = (xf q) (2 - d q) with q the 7-bit estimate
    vfloat16m4_t d = __riscv_vfadd_vf_f16m4(e, (_Float16)1.0f, vl);
    vfloat16m4_t q = __riscv_vfrec7_v_f16m4(d, vl);
    vfloat16m4_t corr = __riscv_vfrsub_vf_f16m4(__riscv_vfmul_vv_f16m4(d, q, vl), (_Float16)2.0f, vl);
    __riscv_vse16_v_f16m4(x, __riscv_vfmul_vv_f16m4(__riscv_vfmul_vv_f16m4(xf, q, vl), corr, vl), vl);
  }
}
