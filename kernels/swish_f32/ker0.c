// Swish, fp32, in place, LMUL 4: y = x / (1 + e^-x) = x sigmoid(x). Only e = e^-|x| in (0, 1] is
// computed, so nothing overflows: sigmoid(x) = 1/(1+e) for x >= 0 and e/(1+e) for x < 0. exp: Cody-Waite
// reduction by ln2, degree-6 polynomial (Estrin-style), 2^n from the bits of a rounding shifter. 1/(1+e):
// 1+e lies in [1, 2], vfrec7 plus two Newton steps (7 -> 14 -> 28 bits; vfdiv costs ~150 cycles at m4 on
// the X60), the second folded into the final product. The sign bit, the 2^n shift and the choice of the
// factor (e or 1) run on the integer unit, beside the FP pipe. Limits come out as in the reference: for
// x <= -88 the clamped exponent makes e exactly +0, so -huge gives -0 and -inf gives -inf * 0 = NaN.
#include <riscv_vector.h>
#include <stddef.h>

// Tuning knob (kernels/README.md): the LMUL every vector op runs at.
// eok-knob: LMUL = 4 in {1, 2, 4, 8}

void swish_f32(float *x, size_t n) {
  // 1.5*2^23 + 127: a*log2(e) + shifter rounds to an integer n, and the low bits then hold n + 127.
  const float shifter = 0x1.8p23f + 127.0f;
  for (size_t vl; n > 0; n -= vl, x += vl) {
    vl = __riscv_vsetvl_e32m4(n);
    vfloat32m4_t v = __riscv_vle32_v_f32m4(x, vl);
    vuint32m4_t vb = __riscv_vreinterpret_v_f32m4_u32m4(v);
    // a = -|x| (sign bit set by an integer or), clamped at -88: there n = -127 and 2^n below becomes +0.
    vfloat32m4_t a = __riscv_vreinterpret_v_u32m4_f32m4(__riscv_vor_vx_u32m4(vb, 0x80000000u, vl));
    a = __riscv_vfmax_vf_f32m4(a, -88.0f, vl);

    // n = round(a / ln2); r = a - n ln2, with ln2 split so that n * hi is exact
    vfloat32m4_t fn = __riscv_vfadd_vf_f32m4(__riscv_vfmul_vf_f32m4(a, 1.44269504f, vl), shifter, vl);
    vfloat32m4_t nf = __riscv_vfsub_vf_f32m4(fn, shifter, vl);
    vfloat32m4_t r = __riscv_vfnmsac_vf_f32m4(a, 0.693359375f, nf, vl);
    r = __riscv_vfnmsac_vf_f32m4(r, -2.12194440e-4f, nf, vl);

    // e^r ~ (1 + r) + r^2 ((c2 + c3 r) + r^2 (c4 + c5 r + c6 r^2)), minimax on [-ln2/2, ln2/2]
    vfloat32m4_t r2 = __riscv_vfmul_vv_f32m4(r, r, vl);
    vfloat32m4_t lo = __riscv_vfadd_vf_f32m4(r, 1.0f, vl);
    vfloat32m4_t mid = __riscv_vfadd_vf_f32m4(__riscv_vfmul_vf_f32m4(r, 1.666657627e-1f, vl), 0.5f, vl);
    vfloat32m4_t hi = __riscv_vfmacc_vf_f32m4(__riscv_vfmv_v_f_f32m4(4.166637361e-2f, vl), 8.363175206e-3f, r, vl);
    hi = __riscv_vfmacc_vf_f32m4(hi, 1.394111314e-3f, r2, vl);
    vfloat32m4_t y = __riscv_vfmadd_vv_f32m4(hi, r2, mid, vl);
    y = __riscv_vfmadd_vv_f32m4(y, r2, lo, vl);

    // e = y 2^n: shifting the shifter's bits left by 23 leaves exactly (n + 127) << 23
    vint32m4_t bits = __riscv_vsll_vx_i32m4(__riscv_vreinterpret_v_f32m4_i32m4(fn), 23, vl);
    vfloat32m4_t e = __riscv_vfmul_vv_f32m4(y, __riscv_vreinterpret_v_i32m4_f32m4(bits), vl);

    // f = e where x < 0 (sign bit set), 1.0 elsewhere; xf = x f
    vbool8_t pos = __riscv_vmsgt_vx_i32m4_b8(__riscv_vreinterpret_v_u32m4_i32m4(vb), -1, vl);
    vfloat32m4_t f = __riscv_vreinterpret_v_u32m4_f32m4(
        __riscv_vmerge_vxm_u32m4(__riscv_vreinterpret_v_f32m4_u32m4(e), 0x3f800000u, pos, vl));
    vfloat32m4_t xf = __riscv_vfmul_vv_f32m4(v, f, vl);

    // q = 1/d, d = 1 + e in [1, 2]: 7-bit estimate, one Newton step q = q (2 - d q), and the second step
    // folded into the product: y = (xf q) (2 - d q)
    vfloat32m4_t d = __riscv_vfadd_vf_f32m4(e, 1.0f, vl);
    vfloat32m4_t q = __riscv_vfrec7_v_f32m4(d, vl);
    q = __riscv_vfmul_vv_f32m4(q, __riscv_vfrsub_vf_f32m4(__riscv_vfmul_vv_f32m4(d, q, vl), 2.0f, vl), vl);
    vfloat32m4_t corr = __riscv_vfrsub_vf_f32m4(__riscv_vfmul_vv_f32m4(d, q, vl), 2.0f, vl);
    __riscv_vse32_v_f32m4(x, __riscv_vfmul_vv_f32m4(__riscv_vfmul_vv_f32m4(xf, q, vl), corr, vl), vl);
  }
}
