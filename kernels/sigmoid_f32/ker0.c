// Sigmoid, fp32, in place, LMUL 4: 1 / (1 + e^-x).
// exp: Cody-Waite reduction by ln2, degree-6 polynomial (Estrin-style, to shorten the dependent chain on
// the in-order X60), 2^n taken from the bits of a rounding shifter. 1/(1 + e): vfrec7 plus two Newton
// steps, because vfdiv costs ~150 cycles at m4 on the X60. The clamp of the exp argument would turn NaN
// into a number (vfmin/vfmax return the other operand), so NaN lanes are put back with a mask at the end.
#include <riscv_vector.h>
#include <stddef.h>

// Tuning knob (kernels/README.md): the LMUL every vector op runs at.
// eok-knob: LMUL = 4 in {1, 2, 4, 8}

void sigmoid_f32(float *x, size_t n) {
  // 1.5*2^23 + 127: a*log2(e) + shifter rounds to an integer n, and the low bits then hold n + 127.
  const float shifter = 0x1.8p23f + 127.0f;
  for (size_t vl; n > 0; n -= vl, x += vl) {
    vl = __riscv_vsetvl_e32m4(n);
    vfloat32m4_t v = __riscv_vle32_v_f32m4(x, vl);
    // a = -x clamped to [-88, 88]: e^88 is still finite, and at -88 the result is 1 in float anyway.
    vfloat32m4_t a = __riscv_vfmax_vf_f32m4(__riscv_vfmin_vf_f32m4(__riscv_vfneg_v_f32m4(v, vl), 88.0f, vl), -88.0f, vl);

    // n = round(a / ln2); r = a - n ln2, with ln2 split so that n * hi is exact
    vfloat32m4_t fn = __riscv_vfmacc_vf_f32m4(__riscv_vfmv_v_f_f32m4(shifter, vl), 1.44269504f, a, vl);
    vfloat32m4_t nf = __riscv_vfsub_vf_f32m4(fn, shifter, vl);
    vfloat32m4_t r = __riscv_vfnmsac_vf_f32m4(a, 0.693359375f, nf, vl);
    r = __riscv_vfnmsac_vf_f32m4(r, -2.12194440e-4f, nf, vl);

    // e^r ~ (1 + r) + r^2 ((c2 + c3 r) + r^2 (c4 + c5 r + c6 r^2)) on [-ln2/2, ln2/2]
    vfloat32m4_t r2 = __riscv_vfmul_vv_f32m4(r, r, vl);
    vfloat32m4_t lo = __riscv_vfadd_vf_f32m4(r, 1.0f, vl);
    vfloat32m4_t mid = __riscv_vfadd_vf_f32m4(__riscv_vfmul_vf_f32m4(r, 1.6666573286e-1f, vl), 0.5f, vl);
    vfloat32m4_t hi = __riscv_vfadd_vf_f32m4(__riscv_vfmul_vf_f32m4(r, 8.3637740463e-3f, vl), 4.1666548699e-2f, vl);
    hi = __riscv_vfmacc_vf_f32m4(hi, 1.3926926767e-3f, r2, vl);
    vfloat32m4_t y = __riscv_vfmadd_vv_f32m4(hi, r2, mid, vl);
    y = __riscv_vfmadd_vv_f32m4(y, r2, lo, vl);

    // 2^n: shifting the shifter's bits left by 23 leaves exactly (n + 127) << 23
    vint32m4_t bits = __riscv_vsll_vx_i32m4(__riscv_vreinterpret_v_f32m4_i32m4(fn), 23, vl);
    vfloat32m4_t e = __riscv_vfmul_vv_f32m4(y, __riscv_vreinterpret_v_i32m4_f32m4(bits), vl);

    // q = 1/(1 + e): 7-bit estimate and two Newton steps q = q (2 - d q) (7 -> 14 -> 28 bits)
    vfloat32m4_t d = __riscv_vfadd_vf_f32m4(e, 1.0f, vl);
    vfloat32m4_t q = __riscv_vfrec7_v_f32m4(d, vl);
    q = __riscv_vfmul_vv_f32m4(q, __riscv_vfrsub_vf_f32m4(__riscv_vfmul_vv_f32m4(d, q, vl), 2.0f, vl), vl);
    q = __riscv_vfmul_vv_f32m4(q, __riscv_vfrsub_vf_f32m4(__riscv_vfmul_vv_f32m4(d, q, vl), 2.0f, vl), vl);

    // NaN in, NaN out: the lanes where x != x keep x.
    vbool8_t nan = __riscv_vmfne_vv_f32m4_b8(v, v, vl);
    __riscv_vse32_v_f32m4(x, __riscv_vmerge_vvm_f32m4(q, v, nan, vl), vl);
  }
}
