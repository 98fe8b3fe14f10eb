// BNLL (softplus), fp16 storage and arithmetic, in place, LMUL 8 (128 halves per op):
// y = max(x, 0) + log1p(e^-|x|), the stable form of NCNN's x > 0 ? x + log(1 + e^-x) : log(1 + e^x).
// e^-|x|: Cody-Waite reduction by ln2, degree-4 polynomial (relative error 1e-5, far below half's 4.9e-4
// ulp), 2^n from the bits of a rounding shifter. log1p(t): t = e^-|x| lies in (0, 1], so no range
// reduction is needed: one degree-4 minimax polynomial t Q(t) (relative error 3.3e-4, below half's ulp),
// Horner with its constant terms splatted on the integer unit. NaN: the clamp turns it into a number,
// but the final select gives x + log1p to every lane that is not x <= 0, NaN included. LMUL 8: the few
// live values fit in m8 groups without spills, and an m8 op issues for as long as its latency, so the
// one dependent chain per strip leaves no bubbles (the tuner had m4 at 0.92x).
#include <riscv_vector.h>
#include <stddef.h>

// Tuning knob (kernels/README.md): the LMUL every vector op runs at.
// eok-knob: LMUL = 8 in {1, 2, 4, 8}

void bnll_f16(_Float16 *x, size_t n) {
  // 1.5*2^10 + 15: a*log2(e) + shifter rounds to an integer n, and the low bits then hold n + 15.
  const _Float16 shifter = (_Float16)1551.0f;
  for (size_t vl; n > 0; n -= vl, x += vl) {
    vl = __riscv_vsetvl_e16m8(n);
    vfloat16m8_t v = __riscv_vle16_v_f16m8(x, vl);
    // a = -|x| (sign bit set by an integer or), clamped at -10.5: there n = -15 and 2^n below becomes
    // +0, so log1p(e^a) = 0 instead of 2.8e-5.
    vfloat16m8_t a = __riscv_vreinterpret_v_u16m8_f16m8(
        __riscv_vor_vx_u16m8(__riscv_vreinterpret_v_f16m8_u16m8(v), 0x8000, vl));
    a = __riscv_vfmax_vf_f16m8(a, (_Float16)-10.5f, vl);

    // n = round(a / ln2); r = a - n ln2, with ln2 split so that the reduction stays exact
    vfloat16m8_t fn = __riscv_vfadd_vf_f16m8(__riscv_vfmul_vf_f16m8(a, (_Float16)1.442695f, vl), shifter, vl);
    vfloat16m8_t nf = __riscv_vfsub_vf_f16m8(fn, shifter, vl);
    vfloat16m8_t r = __riscv_vfnmsac_vf_f16m8(a, (_Float16)0.693359375f, nf, vl);
    r = __riscv_vfnmsac_vf_f16m8(r, (_Float16)-2.12194440e-4f, nf, vl);

    // e^r ~ (1 + r) + r^2 (c2 + c3 r + c4 r^2), minimax on [-ln2/2, ln2/2]
    vfloat16m8_t r2 = __riscv_vfmul_vv_f16m8(r, r, vl);
    vfloat16m8_t lo = __riscv_vfadd_vf_f16m8(r, (_Float16)1.0f, vl);
    vfloat16m8_t hi = __riscv_vfmacc_vf_f16m8(__riscv_vfmv_v_f_f16m8((_Float16)0.4999949634f, vl), (_Float16)0.1674191356f, r, vl);
    hi = __riscv_vfmacc_vf_f16m8(hi, (_Float16)0.04187569022f, r2, vl);
    vfloat16m8_t y = __riscv_vfmadd_vv_f16m8(hi, r2, lo, vl);

    // t = e^a = y 2^n: shifting the shifter's bits left by 10 leaves exactly (n + 15) << 10
    vint16m8_t bits = __riscv_vsll_vx_i16m8(__riscv_vreinterpret_v_f16m8_i16m8(fn), 10, vl);
    vfloat16m8_t t = __riscv_vfmul_vv_f16m8(y, __riscv_vreinterpret_v_i16m8_f16m8(bits), vl);

    // log1p(t) = t Q(t) on [0, 1], Q = q0 + q1 t + q2 t^2 + q3 t^3 by Horner
    vfloat16m8_t q = __riscv_vfmacc_vf_f16m8(__riscv_vfmv_v_f_f16m8((_Float16)0.256922f, vl), (_Float16)-0.0762685f, t, vl);
    q = __riscv_vfmadd_vv_f16m8(q, t, __riscv_vfmv_v_f_f16m8((_Float16)-0.487507f, vl), vl);
    q = __riscv_vfmadd_vv_f16m8(q, t, __riscv_vfmv_v_f_f16m8((_Float16)0.999668f, vl), vl);
    vfloat16m8_t l = __riscv_vfmul_vv_f16m8(t, q, vl);

    // y = x + log1p(t) unless x <= 0 (then log1p(t) alone); NaN fails x <= 0 and yields x + l = NaN
    vbool2_t neg = __riscv_vmfle_vf_f16m8_b2(v, (_Float16)0.0f, vl);
    vfloat16m8_t res = __riscv_vmerge_vvm_f16m8(__riscv_vfadd_vv_f16m8(v, l, vl), l, neg, vl);
    __riscv_vse16_v_f16m8(x, res, vl);
  }
}
