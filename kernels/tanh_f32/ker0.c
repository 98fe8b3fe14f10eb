// TanH, fp32, in place, LMUL 4: tanh|x| = -m / (m + 2) with m = expm1(-2|x|) in (-1, 0], then the sign of x.
// One formula for the whole range, accurate for small |x| too: expm1 is Cody-Waite reduction by ln2, a
// degree-6 polynomial written without its leading 1 (p = e^r - 1 = r + r^2 P(r)), and 2^n = s from the
// bits of a rounding shifter, combined as m = s p + (s - 1), which is p itself (no cancellation) when
// n = 0. m + 2 lies in [1, 2]: vfrec7 plus two Newton steps (vfdiv costs ~150 cycles at m4 on the X60),
// the second folded into the final product. Sign handling and the NaN select run on the integer unit,
// beside the FP pipe (the clamp of the argument would otherwise turn NaN into +-1).
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

// Tuning knob (kernels/README.md): the LMUL every vector op runs at.
// eok-knob: LMUL = 4 in {1, 2, 4, 8}

void tanh_f32(float *x, size_t n) {
  // 1.5*2^23 + 127: z*log2(e) + shifter rounds to an integer n, and the low bits then hold n + 127.
  const float shifter = 0x1.8p23f + 127.0f;
  for (size_t vl; n > 0; n -= vl, x += vl) {
    vl = __riscv_vsetvl_e32m4(n);
    vuint32m4_t vb = __riscv_vreinterpret_v_f32m4_u32m4(__riscv_vle32_v_f32m4(x, vl));
    // -|x| by setting the sign bit. Lanes that keep x: NaN (-|x| bits above those of -inf) and +-0 (bits
    // 0x80000000, which wrap to the top when 0x80000001 is subtracted); tanh would give them +-1 and -0.
    vuint32m4_t nb = __riscv_vor_vx_u32m4(vb, 0x80000000u, vl);
    vbool8_t keep = __riscv_vmsgtu_vx_u32m4_b8(__riscv_vsub_vx_u32m4(nb, 0x80000001u, vl), 0x7f7fffffu, vl);
    // z = -2|x| clamped at -20 (tanh 10 rounds to 1 in float; m is then -1 to float precision)
    vfloat32m4_t z = __riscv_vreinterpret_v_u32m4_f32m4(nb);
    z = __riscv_vfmax_vf_f32m4(__riscv_vfadd_vv_f32m4(z, z, vl), -20.0f, vl);

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

    // s = 2^n: shifting the shifter's bits left by 23 leaves exactly (n + 127) << 23; m = s p + (s - 1)
    vfloat32m4_t s = __riscv_vreinterpret_v_i32m4_f32m4(
        __riscv_vsll_vx_i32m4(__riscv_vreinterpret_v_f32m4_i32m4(fn), 23, vl));
    vfloat32m4_t m = __riscv_vfmadd_vv_f32m4(p, s, __riscv_vfsub_vf_f32m4(s, 1.0f, vl), vl);

    // q = 1/d, d = m + 2 in [1, 2]: 7-bit estimate and one Newton step; the second step is folded into
    // the product with the sign flipped: tanh|x| = (m q) (d q - 2) >= 0
    vfloat32m4_t d = __riscv_vfadd_vf_f32m4(m, 2.0f, vl);
    vfloat32m4_t q = __riscv_vfrec7_v_f32m4(d, vl);
    q = __riscv_vfmul_vv_f32m4(q, __riscv_vfrsub_vf_f32m4(__riscv_vfmul_vv_f32m4(d, q, vl), 2.0f, vl), vl);
    vfloat32m4_t corr = __riscv_vfsub_vf_f32m4(__riscv_vfmul_vv_f32m4(d, q, vl), 2.0f, vl);
    vfloat32m4_t t = __riscv_vfmul_vv_f32m4(__riscv_vfmul_vv_f32m4(m, q, vl), corr, vl);

    // the sign of x onto tanh|x| > 0; NaN and +-0 lanes keep x
    vuint32m4_t yb = __riscv_vor_vv_u32m4(__riscv_vreinterpret_v_f32m4_u32m4(t),
                                          __riscv_vand_vx_u32m4(vb, 0x80000000u, vl), vl);
    __riscv_vse32_v_u32m4((uint32_t *)x, __riscv_vmerge_vvm_u32m4(yb, vb, keep, vl), vl);
  }
}
