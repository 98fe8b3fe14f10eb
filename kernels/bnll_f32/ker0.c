// BNLL (softplus), fp32, in place, LMUL 4: y = max(x, 0) + log1p(e^-|x|), the stable form of NCNN's
// x > 0 ? x + log(1 + e^-x) : log(1 + e^x). e^-|x|: Cody-Waite reduction by ln2, degree-6 polynomial,
// 2^n from the bits of a rounding shifter. log1p(t): t = e^-|x| lies in (0, 1], so no range reduction
// is needed: one degree-9 minimax polynomial t Q(t) (relative error 2.5e-8, evaluated Estrin-style for a
// short dependent chain on the in-order X60) replaces the exponent split, log polynomial and division of
// a general log. Work is balanced between the two vector pipes: the sign bit, the 2^n shift, the select
// and the splats of Q's constant terms run on the integer unit, beside the FP pipe (the exp's constant
// terms use mul + add on the FP pipe; splatting them too would overload the integer unit). NaN: the clamp
// turns it into a number, but the final select gives x + log1p to every lane that is not x <= 0.
#include <riscv_vector.h>
#include <stddef.h>

// Tuning knob (kernels/README.md): the LMUL every vector op runs at.
// eok-knob: LMUL = 4 in {1, 2, 4, 8}

void bnll_f32(float *x, size_t n) {
  // 1.5*2^23 + 127: a*log2(e) + shifter rounds to an integer n, and the low bits then hold n + 127.
  const float shifter = 0x1.8p23f + 127.0f;
  for (size_t vl; n > 0; n -= vl, x += vl) {
    vl = __riscv_vsetvl_e32m4(n);
    vfloat32m4_t v = __riscv_vle32_v_f32m4(x, vl);
    // a = -|x| (sign bit set by an integer or), clamped at -88: there n = -127 and 2^n below becomes +0.
    vfloat32m4_t a = __riscv_vreinterpret_v_u32m4_f32m4(
        __riscv_vor_vx_u32m4(__riscv_vreinterpret_v_f32m4_u32m4(v), 0x80000000u, vl));
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
    vfloat32m4_t hi = __riscv_vfadd_vf_f32m4(__riscv_vfmul_vf_f32m4(r, 8.363175206e-3f, vl), 4.166637361e-2f, vl);
    hi = __riscv_vfmacc_vf_f32m4(hi, 1.394111314e-3f, r2, vl);
    vfloat32m4_t y = __riscv_vfmadd_vv_f32m4(hi, r2, mid, vl);
    y = __riscv_vfmadd_vv_f32m4(y, r2, lo, vl);

    // t = e^a = y 2^n: shifting the shifter's bits left by 23 leaves exactly (n + 127) << 23
    vint32m4_t bits = __riscv_vsll_vx_i32m4(__riscv_vreinterpret_v_f32m4_i32m4(fn), 23, vl);
    vfloat32m4_t t = __riscv_vfmul_vv_f32m4(y, __riscv_vreinterpret_v_i32m4_f32m4(bits), vl);

    // log1p(t) = t Q(t) on [0, 1], Q of degree 8, Estrin: (q0 + q1 t) + t^2 (q2 + q3 t) + t^4 (...)
    vfloat32m4_t t2 = __riscv_vfmul_vv_f32m4(t, t, vl);
    vfloat32m4_t t4 = __riscv_vfmul_vv_f32m4(t2, t2, vl);
    vfloat32m4_t p01 = __riscv_vfmacc_vf_f32m4(__riscv_vfmv_v_f_f32m4(1.0f, vl), -0.49999553f, t, vl);
    vfloat32m4_t p23 = __riscv_vfmacc_vf_f32m4(__riscv_vfmv_v_f_f32m4(0.333203435f, vl), -0.248529449f, t, vl);
    vfloat32m4_t p45 = __riscv_vfmacc_vf_f32m4(__riscv_vfmv_v_f_f32m4(0.191451147f, vl), -0.137466207f, t, vl);
    vfloat32m4_t p67 = __riscv_vfmacc_vf_f32m4(__riscv_vfmv_v_f_f32m4(0.0792107135f, vl), -0.0301109515f, t, vl);
    vfloat32m4_t p03 = __riscv_vfmacc_vv_f32m4(p01, t2, p23, vl);
    vfloat32m4_t p48 = __riscv_vfmacc_vv_f32m4(p45, t2, p67, vl);
    p48 = __riscv_vfmacc_vf_f32m4(p48, 0.00538405869f, t4, vl);
    vfloat32m4_t q = __riscv_vfmacc_vv_f32m4(p03, t4, p48, vl);
    vfloat32m4_t l = __riscv_vfmul_vv_f32m4(t, q, vl);

    // y = x + log1p(t) unless x <= 0 (then log1p(t) alone); NaN fails x <= 0 and yields x + l = NaN
    vbool8_t neg = __riscv_vmfle_vf_f32m4_b8(v, 0.0f, vl);
    vfloat32m4_t res = __riscv_vmerge_vvm_f32m4(__riscv_vfadd_vv_f32m4(v, l, vl), l, neg, vl);
    __riscv_vse32_v_f32m4(x, res, vl);
  }
}
