// TanH, fp16 storage and arithmetic, in place, LMUL 8 (128 halves per op): tanh|x| = -m / (m + 2) with
// m = expm1(-2|x|) in (-1, 0], then the sign of x. One formula for the whole range, accurate for small |x|
// too: expm1 is Cody-Waite reduction by ln2, a degree-4 polynomial written without its leading 1
// (p = e^r - 1 = r + r^2 P(r)), and 2^n = s from the bits of a rounding shifter, combined as
// m = s p + (s - 1), which is p itself (no cancellation) when n = 0. m + 2 lies in [1, 2]: vfrec7 plus
// one Newton step (7 -> 14 bits, more than half's 11) folded into the final product; vfdiv would cost
// ~240 cycles at m8. Sign handling and the select of NaN and +-0 run on the integer unit, beside the FP pipe.
// LMUL 8: the few live values fit in m8 groups without spills, and an m8 op issues for as long as its
// latency, so the one dependent chain per strip leaves no bubbles (the tuner had m4 at 0.98x).
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

// Tuning knob (kernels/README.md): the LMUL every vector op runs at.
// eok-knob: LMUL = 8 in {1, 2, 4, 8}

void tanh_f16(_Float16 *x, size_t n) {
  // 1.5*2^10 + 15: z*log2(e) + shifter rounds to an integer n, and the low bits then hold n + 15.
  const _Float16 shifter = (_Float16)1551.0f;
  for (size_t vl; n > 0; n -= vl, x += vl) {
    vl = __riscv_vsetvl_e16m8(n);
    vuint16m8_t vb = __riscv_vle16_v_u16m8((const uint16_t *)x, vl);
    // -|x| by setting the sign bit. Lanes that keep x: NaN (-|x| bits above those of -inf) and +-0 (bits
    // 0x8000, which wrap to the top when 0x8001 is subtracted); tanh would give them +-1 and -0.
    vuint16m8_t nb = __riscv_vor_vx_u16m8(vb, 0x8000, vl);
    vbool2_t keep = __riscv_vmsgtu_vx_u16m8_b2(__riscv_vsub_vx_u16m8(nb, 0x8001, vl), 0x7bff, vl);
    // z = -2|x| clamped at -10.5: n = -15 there, s = +0 and m = -1 (tanh 5.25 rounds to 1 in half)
    vfloat16m8_t z = __riscv_vreinterpret_v_u16m8_f16m8(nb);
    z = __riscv_vfmax_vf_f16m8(__riscv_vfadd_vv_f16m8(z, z, vl), (_Float16)-10.5f, vl);

    // n = round(z / ln2); r = z - n ln2, with ln2 split so that the reduction stays exact
    vfloat16m8_t fn = __riscv_vfadd_vf_f16m8(__riscv_vfmul_vf_f16m8(z, (_Float16)1.442695f, vl), shifter, vl);
    vfloat16m8_t nf = __riscv_vfsub_vf_f16m8(fn, shifter, vl);
    vfloat16m8_t r = __riscv_vfnmsac_vf_f16m8(z, (_Float16)0.693359375f, nf, vl);
    r = __riscv_vfnmsac_vf_f16m8(r, (_Float16)-2.12194440e-4f, nf, vl);

    // p = e^r - 1 ~ r + r^2 (c2 + c3 r + c4 r^2), minimax on [-ln2/2, ln2/2]
    vfloat16m8_t r2 = __riscv_vfmul_vv_f16m8(r, r, vl);
    vfloat16m8_t hi = __riscv_vfmacc_vf_f16m8(__riscv_vfmv_v_f_f16m8((_Float16)0.4999949634f, vl), (_Float16)0.1674191356f, r, vl);
    hi = __riscv_vfmacc_vf_f16m8(hi, (_Float16)0.04187569022f, r2, vl);
    vfloat16m8_t p = __riscv_vfmadd_vv_f16m8(hi, r2, r, vl);

    // s = 2^n: shifting the shifter's bits left by 10 leaves exactly (n + 15) << 10; m = s p + (s - 1)
    vfloat16m8_t s = __riscv_vreinterpret_v_i16m8_f16m8(
        __riscv_vsll_vx_i16m8(__riscv_vreinterpret_v_f16m8_i16m8(fn), 10, vl));
    vfloat16m8_t m = __riscv_vfmadd_vv_f16m8(p, s, __riscv_vfsub_vf_f16m8(s, (_Float16)1.0f, vl), vl);

    // 1/d, d = m + 2 in [1, 2]: with q the 7-bit estimate, tanh|x| = (m q) (d q - 2) > 0
    vfloat16m8_t d = __riscv_vfadd_vf_f16m8(m, (_Float16)2.0f, vl);
    vfloat16m8_t q = __riscv_vfrec7_v_f16m8(d, vl);
    vfloat16m8_t corr = __riscv_vfsub_vf_f16m8(__riscv_vfmul_vv_f16m8(d, q, vl), (_Float16)2.0f, vl);
    vfloat16m8_t t = __riscv_vfmul_vv_f16m8(__riscv_vfmul_vv_f16m8(m, q, vl), corr, vl);

    // the sign of x onto tanh|x|; NaN and +-0 lanes keep x
    vuint16m8_t yb = __riscv_vor_vv_u16m8(__riscv_vreinterpret_v_f16m8_u16m8(t),
                                          __riscv_vand_vx_u16m8(vb, 0x8000, vl), vl);
    __riscv_vse16_v_u16m8((uint16_t *)x, __riscv_vmerge_vvm_u16m8(yb, vb, keep, vl), vl);
  }
}
