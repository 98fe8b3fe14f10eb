// SELU, fp32, in place, LMUL 4: y = lambda x for x >= 0, lambda alpha (e^x - 1) for x < 0 (NCNN).
// expm1: Cody-Waite reduction by ln2, a degree-6 polynomial written without its leading 1
// (p = e^r - 1 = r + r^2 P(r), so small |x| keeps full relative precision instead of cancelling in
// e^x - 1), 2^n = s from the bits of a rounding shifter, then la (e^x - 1) = (la s) p + (la s - la) with
// la = lambda alpha. Both branches are computed; the select runs on the integer unit beside the FP pipe.
#include <riscv_vector.h>
#include <stddef.h>

// Tuning knob (kernels/README.md): the LMUL every vector op runs at.
// eok-knob: LMUL = 4 in {1, 2, 4, 8}

void selu_f32(float *x, size_t n, float alpha, float lambda) {
  // 1.5*2^23 + 127: x*log2(e) + shifter rounds to an integer n, and the low bits then hold n + 127.
  const float shifter = 0x1.8p23f + 127.0f;
  const float la = lambda * alpha;
  for (size_t vl; n > 0; n -= vl, x += vl) {
    vl = __riscv_vsetvl_e32m4(n);
    vfloat32m4_t v = __riscv_vle32_v_f32m4(x, vl);
    // z = x clamped below at -88 (n = -127 there, so s = +0 and the result is exactly -la). Lanes with
    // x >= 0 or NaN are computed too but take lambda x at the end, so no upper clamp.
    vfloat32m4_t z = __riscv_vfmax_vf_f32m4(v, -88.0f, vl);

    // n = round(z / ln2); r = z - n ln2, with ln2 split so that n * hi is exact
    vfloat32m4_t fn = __riscv_vfadd_vf_f32m4(__riscv_vfmul_vf_f32m4(z, 1.44269504f, vl), shifter, vl);
    vfloat32m4_t nf = __riscv_vfsub_vf_f32m4(fn, shifter, vl);
    vfloat32m4_t r = __riscv_vfnmsac_vf_f32m4(z, 0.693359375f, nf, vl);
    r = __riscv_vfnmsac_vf_f32m4(r, -2.12194440e-4f, nf, vl);

    // p = e^r - 1 ~ r + r^2 ((c2 + c3 r) + r^2 (c4 + c5 r + c6 r^2)), minimax on [-ln2/2, ln2/2]
    vfloat32m4_t r2 = __riscv_vfmul_vv_f32m4(r, r, vl);
    vfloat32m4_t mid = __riscv_vfadd_vf_f32m4(__riscv_vfmul_vf_f32m4(r, 1.666657627e-1f, vl), 0.5f, vl);
    vfloat32m4_t hi = __riscv_vfmacc_vf_f32m4(__riscv_vfmv_v_f_f32m4(4.166637361e-2f, vl), 8.363175206e-3f, r, vl);
    hi = __riscv_vfmacc_vf_f32m4(hi, 1.394111314e-3f, r2, vl);
    vfloat32m4_t p = __riscv_vfmadd_vv_f32m4(hi, r2, mid, vl);
    p = __riscv_vfmadd_vv_f32m4(p, r2, r, vl);

    // s = 2^n: shifting the shifter's bits left by 23 leaves exactly (n + 127) << 23
    vfloat32m4_t s = __riscv_vreinterpret_v_i32m4_f32m4(
        __riscv_vsll_vx_i32m4(__riscv_vreinterpret_v_f32m4_i32m4(fn), 23, vl));

    // la (s (1 + p) - 1) = (la s) p + (la s - la)
    vfloat32m4_t as = __riscv_vfmul_vf_f32m4(s, la, vl);
    vfloat32m4_t em = __riscv_vfmadd_vv_f32m4(p, as, __riscv_vfsub_vf_f32m4(as, la, vl), vl);

    // x < 0 takes the exponential branch; x >= 0 and NaN take lambda x
    vbool8_t neg = __riscv_vmflt_vf_f32m4_b8(v, 0.0f, vl);
    __riscv_vse32_v_f32m4(x, __riscv_vmerge_vvm_f32m4(__riscv_vfmul_vf_f32m4(v, lambda, vl), em, neg, vl), vl);
  }
}
