// GELU (exact erf form, NCNN's default), fp32, in place, LMUL 4: y = x Phi(x) with Phi the normal CDF.
// With z = |x|/sqrt(2), Phi(-|x|) = erfc(z)/2, by Abramowitz-Stegun 7.1.26: erfc(z) ~ t P(t) e^(-z^2),
// t = 1/(1 + p z), P of degree 4 (absolute error 1.5e-7, far inside the composite tolerance), the 1/2
// folded into P. 1 + p z lies in [1, 4.1]: vfrec7 plus two Newton steps instead of vfdiv (~150 cycles at
// m4 on the X60). e^(-z^2): Cody-Waite reduction by ln2, degree-6 polynomial, 2^n from the bits of a
// rounding shifter. Phi(x) = 1 - Phi(-|x|) for x >= 0, chosen by the sign bit on the integer unit (as is
// |x|), beside the FP pipe. Clamping z at 9.375 makes 2^n exactly +0 (n = -127), so Phi(-inf) = 0 and
// y(-inf) = -inf * 0 = NaN and y(+inf) = inf as in the reference; NaN stays NaN through the last product.
#include <riscv_vector.h>
#include <stddef.h>

// Tuning knob (kernels/README.md): the LMUL every vector op runs at.
// eok-knob: LMUL = 4 in {1, 2, 4, 8}

void gelu_f32(float *x, size_t n) {
  // 1.5*2^23 + 127: w*log2(e) + shifter rounds to an integer n, and the low bits then hold n + 127.
  const float shifter = 0x1.8p23f + 127.0f;
  for (size_t vl; n > 0; n -= vl, x += vl) {
    vl = __riscv_vsetvl_e32m4(n);
    vfloat32m4_t v = __riscv_vle32_v_f32m4(x, vl);
    vint32m4_t vb = __riscv_vreinterpret_v_f32m4_i32m4(v);
    vbool8_t neg = __riscv_vmslt_vx_i32m4_b8(vb, 0, vl);
    // z = |x| / sqrt(2), clamped at 9.375 (z^2 = 87.9: n = -127 below, e^(-z^2) becomes exactly +0)
    vfloat32m4_t u = __riscv_vreinterpret_v_i32m4_f32m4(__riscv_vand_vx_i32m4(vb, 0x7fffffff, vl));
    vfloat32m4_t z = __riscv_vfmin_vf_f32m4(__riscv_vfmul_vf_f32m4(u, 0.707106781f, vl), 9.375f, vl);

    // t = 1/d, d = 1 + p z: 7-bit estimate and two Newton steps t = t (2 - d t) (7 -> 14 -> 28 bits)
    vfloat32m4_t d = __riscv_vfmacc_vf_f32m4(__riscv_vfmv_v_f_f32m4(1.0f, vl), 0.3275911f, z, vl);
    vfloat32m4_t t = __riscv_vfrec7_v_f32m4(d, vl);
    t = __riscv_vfmul_vv_f32m4(t, __riscv_vfrsub_vf_f32m4(__riscv_vfmul_vv_f32m4(d, t, vl), 2.0f, vl), vl);
    t = __riscv_vfmul_vv_f32m4(t, __riscv_vfrsub_vf_f32m4(__riscv_vfmul_vv_f32m4(d, t, vl), 2.0f, vl), vl);

    // e^(-w), w = z^2: n = round(-w / ln2); r = -w - n ln2, with ln2 split so that n * hi is exact
    vfloat32m4_t w = __riscv_vfmul_vv_f32m4(z, z, vl);
    vfloat32m4_t fn = __riscv_vfnmsac_vf_f32m4(__riscv_vfmv_v_f_f32m4(shifter, vl), 1.44269504f, w, vl);
    vfloat32m4_t nf = __riscv_vfsub_vf_f32m4(fn, shifter, vl);
    vfloat32m4_t r = __riscv_vfnmacc_vf_f32m4(w, 0.693359375f, nf, vl);
    r = __riscv_vfnmsac_vf_f32m4(r, -2.12194440e-4f, nf, vl);

    // e^r ~ (1 + r) + r^2 ((c2 + c3 r) + r^2 (c4 + c5 r + c6 r^2)), minimax on [-ln2/2, ln2/2]
    vfloat32m4_t r2 = __riscv_vfmul_vv_f32m4(r, r, vl);
    vfloat32m4_t lo = __riscv_vfadd_vf_f32m4(r, 1.0f, vl);
    vfloat32m4_t mid = __riscv_vfadd_vf_f32m4(__riscv_vfmul_vf_f32m4(r, 1.666657627e-1f, vl), 0.5f, vl);
    vfloat32m4_t hi = __riscv_vfadd_vf_f32m4(__riscv_vfmul_vf_f32m4(r, 8.363175206e-3f, vl), 4.166637361e-2f, vl);
    hi = __riscv_vfmacc_vf_f32m4(hi, 1.394111314e-3f, r2, vl);
    vfloat32m4_t y = __riscv_vfmadd_vv_f32m4(hi, r2, mid, vl);
    y = __riscv_vfmadd_vv_f32m4(y, r2, lo, vl);
    // 2^n: shifting the shifter's bits left by 23 leaves exactly (n + 127) << 23
    vint32m4_t bits = __riscv_vsll_vx_i32m4(__riscv_vreinterpret_v_f32m4_i32m4(fn), 23, vl);
    vfloat32m4_t e = __riscv_vfmul_vv_f32m4(y, __riscv_vreinterpret_v_i32m4_f32m4(bits), vl);

    // Phi(-|x|) = t P(t) e^(-w), P(t) = b1 + b2 t + b3 t^2 + b4 t^3 + b5 t^4 (A-S 7.1.26 halved), Estrin
    vfloat32m4_t t2 = __riscv_vfmul_vv_f32m4(t, t, vl);
    vfloat32m4_t p01 = __riscv_vfmacc_vf_f32m4(__riscv_vfmv_v_f_f32m4(0.127414796f, vl), -0.142248368f, t, vl);
    vfloat32m4_t p23 = __riscv_vfmacc_vf_f32m4(__riscv_vfmv_v_f_f32m4(0.7107068705f, vl), -0.7265760135f, t, vl);
    p23 = __riscv_vfmacc_vf_f32m4(p23, 0.5307027145f, t2, vl);
    vfloat32m4_t pt = __riscv_vfmul_vv_f32m4(__riscv_vfmacc_vv_f32m4(p01, t2, p23, vl), t, vl);
    vfloat32m4_t h = __riscv_vfmul_vv_f32m4(pt, e, vl);

    // Phi(x) = h for x < 0 (sign bit set), 1 - h otherwise; y = x Phi(x)
    vfloat32m4_t phi = __riscv_vmerge_vvm_f32m4(__riscv_vfrsub_vf_f32m4(h, 1.0f, vl), h, neg, vl);
    __riscv_vse32_v_f32m4(x, __riscv_vfmul_vv_f32m4(v, phi, vl), vl);
  }
}
