// NCNN UnaryOp, fp32, in place over x[n]; op_type picks one of NCNN's 20 operations (0..19).
// One strip-mined LMUL-4 loop per operation (the switch is outside the loop), every operation vectorised:
// - floor/ceil/round/trunc: vfcvt to int32 with the rounding mode in the instruction (RDN/RUP/RNE; trunc
//   as floor(|x|) because QEMU 7.2 aborts on vfcvt.rtz), back to float, sign copied from x (keeps -0);
//   |x| >= 2^23, inf and NaN are already integral and kept.
// - sqrt/rsqrt/reciprocal: vfrsqrt7/vfrec7 estimates plus two Newton steps (vfsqrt and vfdiv cost
//   ~140-150 cycles at m4 on the X60). sqrt = x rsqrt(x') with x' nudged off 0 and inf, so no fix-up;
//   rsqrt and reciprocal turn NaN at 0/inf/subnormal, and a rarely taken branch repairs those lanes
//   (the rsqrt estimate is already exact there, the reciprocal uses vfrdiv).
// - exp: Cody-Waite by ln2, degree-6 polynomial, 2^(n-1) from the bits of a rounding shifter (times 2, so
//   that n = 128 still scales to a finite result and larger x overflow to inf as in the reference).
// - log/log10: exponent and mantissa split by integer arithmetic (mantissa in [sqrt(1/2), sqrt(2))),
//   log1p polynomial; zero, negative, subnormal, inf and NaN inputs are caught by one unsigned compare and
//   handled in a rarely taken branch.
// - sin/cos/tan: reduction by pi/2 (three-part Cody-Waite), sine and cosine polynomials on [-pi/4, pi/4],
//   quadrant from the shifter's low bits; tan = +-sin/cos or cos/sin with a vfrec7 + Newton quotient.
//   Accurate for |x| < ~1e5, like NCNN's (no Payne-Hanek reduction).
// - asin/acos: polynomial on [0, 1/2]; above, asin(a) = pi/2 - 2 asin(sqrt((1-a)/2)) (sqrt by vfrsqrt7).
// - atan: 1/|x| for |x| > 1 (vfrec7 + Newton), odd polynomial on [0, 1]. tanh: odd polynomial below 0.625,
//   (1 - e^-2|x|) / (1 + e^-2|x|) above. Polynomial coefficients are minimax fits of relative error.
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

// Tuning knob (kernels/README.md): the LMUL every vector op runs at.
// eok-knob: LMUL = 4 in {1, 2, 4, 8}

#define VF vfloat32m4_t
#define VI vint32m4_t
#define VU vuint32m4_t
#define VB vbool8_t

// p * t + c, one Horner step with a scalar coefficient
static inline VF hstep(VF p, VF t, float c, size_t vl) {
  return __riscv_vfadd_vf_f32m4(__riscv_vfmul_vv_f32m4(p, t, vl), c, vl);
}

// e^a for a already clamped to [-86.5, 88.8]; results below FLT_MIN are not produced (the reference's
// are < 3e-38 there, far inside the absolute tolerance).
static inline VF exp_core(VF a, size_t vl) {
  // 1.5*2^23 + 126: a*log2(e) + shifter rounds to an integer n, and the low bits then hold n + 126.
  const float shifter = 0x1.8p23f + 126.0f;
  VF fn = __riscv_vfmacc_vf_f32m4(__riscv_vfmv_v_f_f32m4(shifter, vl), 1.44269504f, a, vl);
  VF nf = __riscv_vfsub_vf_f32m4(fn, shifter, vl);
  VF r = __riscv_vfnmsac_vf_f32m4(a, 0.693359375f, nf, vl);
  r = __riscv_vfnmsac_vf_f32m4(r, -2.12194442e-4f, nf, vl);
  // e^r = 1 + r + r^2 P(r) on [-ln2/2, ln2/2]
  VF p = __riscv_vfadd_vf_f32m4(__riscv_vfmul_vf_f32m4(r, 1.38146045e-3f, vl), 8.36871065e-3f, vl);
  p = hstep(p, r, 4.16683875e-2f, vl);
  p = hstep(p, r, 1.66665207e-1f, vl);
  p = hstep(p, r, 4.99999935e-1f, vl);
  VF y = __riscv_vfmadd_vv_f32m4(p, __riscv_vfmul_vv_f32m4(r, r, vl), __riscv_vfadd_vf_f32m4(r, 1.0f, vl), vl);
  // 2^(n-1): shifting the shifter's bits left by 23 leaves exactly (n - 1 + 127) << 23
  VI bits = __riscv_vsll_vx_i32m4(__riscv_vreinterpret_v_f32m4_i32m4(fn), 23, vl);
  y = __riscv_vfadd_vv_f32m4(y, y, vl);
  return __riscv_vfmul_vv_f32m4(y, __riscv_vreinterpret_v_i32m4_f32m4(bits), vl);
}

static inline VF op_exp(VF v, size_t vl) {
  VF a = __riscv_vfmax_vf_f32m4(__riscv_vfmin_vf_f32m4(v, 88.8f, vl), -86.5f, vl);
  VF y = exp_core(a, vl);
  // the clamp turned NaN into a number: NaN lanes keep x
  return __riscv_vmerge_vvm_f32m4(y, v, __riscv_vmfne_vv_f32m4_b8(v, v, vl), vl);
}

// natural log; scale = 1 for log, log10(e) for log10
static inline VF op_log(VF v, float scale, size_t vl) {
  VU ix = __riscv_vreinterpret_v_f32m4_u32m4(v);
  // not a positive normal number (zero, subnormal, negative, inf, NaN): one unsigned compare
  VB bad = __riscv_vmsgtu_vx_u32m4_b8(__riscv_vsub_vx_u32m4(ix, 0x00800000u, vl), 0x7effffffu, vl);
  const long nbad = __riscv_vcpop_m_b8(bad, vl);
  VB sub = bad;
  if (nbad) {
    // positive subnormals: scale by 2^23, the exponent is corrected below
    sub = __riscv_vmand_mm_b8(__riscv_vmfgt_vf_f32m4_b8(v, 0.0f, vl), __riscv_vmflt_vf_f32m4_b8(v, 0x1p-126f, vl), vl);
    ix = __riscv_vreinterpret_v_f32m4_u32m4(__riscv_vfmul_vf_f32m4_mu(sub, v, v, 0x1p23f, vl));
  }
  // x = 2^e m with m in [sqrt(1/2), sqrt(2)): e from the bits of x relative to sqrt(1/2)
  VI t = __riscv_vreinterpret_v_u32m4_i32m4(__riscv_vsub_vx_u32m4(ix, 0x3f3504f3u, vl));
  VI e = __riscv_vsra_vx_i32m4(t, 23, vl);
  VU mb = __riscv_vsub_vv_u32m4(ix, __riscv_vreinterpret_v_i32m4_u32m4(__riscv_vsll_vx_i32m4(e, 23, vl)), vl);
  VF f = __riscv_vfsub_vf_f32m4(__riscv_vreinterpret_v_u32m4_f32m4(mb), 1.0f, vl);
  VF ef = __riscv_vfcvt_f_x_v_f32m4(e, vl);
  if (nbad) ef = __riscv_vfsub_vf_f32m4_mu(sub, ef, ef, 23.0f, vl);
  // log(1+f) = f - f^2/2 + f^3 P(f)
  VF p = __riscv_vfadd_vf_f32m4(__riscv_vfmul_vf_f32m4(f, 8.70011069e-2f, vl), -1.42674372e-1f, vl);
  p = hstep(p, f, 1.49148491e-1f, vl);
  p = hstep(p, f, -1.65775912e-1f, vl);
  p = hstep(p, f, 1.99630574e-1f, vl);
  p = hstep(p, f, -2.50013369e-1f, vl);
  p = hstep(p, f, 3.33339109e-1f, vl);
  VF f2 = __riscv_vfmul_vv_f32m4(f, f, vl);
  p = __riscv_vfsub_vf_f32m4(__riscv_vfmul_vv_f32m4(p, f, vl), 0.5f, vl);
  VF y = __riscv_vfmadd_vv_f32m4(p, f2, f, vl);
  // + e ln2, ln2 in two parts
  y = __riscv_vfmacc_vf_f32m4(y, -2.12194442e-4f, ef, vl);
  y = __riscv_vfmacc_vf_f32m4(y, 0.693359375f, ef, vl);
  if (scale != 1.0f) y = __riscv_vfmul_vf_f32m4(y, scale, vl);
  if (nbad) {
    // +-0 -> -inf, x < 0 -> NaN, +inf and NaN -> x
    VF sp = __riscv_vfmerge_vfm_f32m4(v, -__builtin_inff(), __riscv_vmfeq_vf_f32m4_b8(v, 0.0f, vl), vl);
    sp = __riscv_vfmerge_vfm_f32m4(sp, __builtin_nanf(""), __riscv_vmflt_vf_f32m4_b8(v, 0.0f, vl), vl);
    y = __riscv_vmerge_vvm_f32m4(y, sp, __riscv_vmandn_mm_b8(bad, sub, vl), vl);
  }
  return y;
}

// 1/sqrt(d) for d > 0 finite (callers clamp): vfrsqrt7 and two Newton steps y (3 - d y^2) / 2
static inline VF rsqrt_nr(VF d, size_t vl) {
  VF y = __riscv_vfrsqrt7_v_f32m4(d, vl);
  for (int k = 0; k < 2; k++) {
    VF t = __riscv_vfmul_vv_f32m4(__riscv_vfmul_vv_f32m4(d, y, vl), y, vl);  // (d y) y: no overflow for tiny d
    y = __riscv_vfmul_vv_f32m4(y, __riscv_vfrsub_vf_f32m4(__riscv_vfmul_vf_f32m4(t, 0.5f, vl), 1.5f, vl), vl);
  }
  return y;
}

// sqrt(z) = z / sqrt(z'), z' = min(z + 2^-149, FLT_MAX): +-0 give +-0, +inf gives inf, z < 0 and NaN give NaN
static inline VF sqrt_nr(VF z, size_t vl) {
  VF zc = __riscv_vfmin_vf_f32m4(__riscv_vfadd_vf_f32m4(z, 0x1p-149f, vl), 3.40282347e38f, vl);
  return __riscv_vfmul_vv_f32m4(z, rsqrt_nr(zc, vl), vl);
}

// where the Newton result is NaN (x = +-0, +inf), the estimate q0 is already the answer
static inline VF recip_fix(VF q0, VF q, size_t vl) {
  VB m = __riscv_vmfne_vv_f32m4_b8(q, q, vl);
  if (__riscv_vcpop_m_b8(m, vl)) q = __riscv_vmerge_vvm_f32m4(q, q0, m, vl);
  return q;
}

static inline VF op_rsqrt(VF v, size_t vl) {
  VF y0 = __riscv_vfrsqrt7_v_f32m4(v, vl);
  VF y = y0;
  for (int k = 0; k < 2; k++) {
    VF t = __riscv_vfmul_vv_f32m4(__riscv_vfmul_vv_f32m4(v, y, vl), y, vl);
    y = __riscv_vfmul_vv_f32m4(y, __riscv_vfrsub_vf_f32m4(__riscv_vfmul_vf_f32m4(t, 0.5f, vl), 1.5f, vl), vl);
  }
  return recip_fix(y0, y, vl);  // 0 and inf gave 0 * inf = NaN above
}

static inline VF op_recip(VF v, size_t vl) {
  VF q = __riscv_vfrec7_v_f32m4(v, vl);
  VF one = __riscv_vfmv_v_f_f32m4(1.0f, vl);
  for (int k = 0; k < 2; k++) q = __riscv_vfmacc_vv_f32m4(q, q, __riscv_vfnmsub_vv_f32m4(v, q, one, vl), vl);
  // NaN where x is 0, inf or subnormal: those lanes (rare) by vfrdiv
  VB m = __riscv_vmfne_vv_f32m4_b8(q, q, vl);
  if (__riscv_vcpop_m_b8(m, vl)) q = __riscv_vfrdiv_vf_f32m4_mu(m, q, v, 1.0f, vl);
  return q;
}

// n / d for d in [0.7, 1] (no special values): 14-bit reciprocal, quotient, one residual correction
static inline VF div_nr(VF n, VF d, size_t vl) {
  VF q = __riscv_vfrec7_v_f32m4(d, vl);
  q = __riscv_vfmul_vv_f32m4(q, __riscv_vfrsub_vf_f32m4(__riscv_vfmul_vv_f32m4(d, q, vl), 2.0f, vl), vl);
  VF y = __riscv_vfmul_vv_f32m4(n, q, vl);
  VF r = __riscv_vfnmsac_vv_f32m4(n, d, y, vl);  // n - d y
  return __riscv_vfmacc_vv_f32m4(y, q, r, vl);
}

// which = 0 sin, 1 cos, 2 tan
static inline VF op_trig(VF v, int which, size_t vl) {
  const float shifter = 0x1.8p23f;
  VF fn = __riscv_vfmacc_vf_f32m4(__riscv_vfmv_v_f_f32m4(shifter, vl), 0.636619747f, v, vl);
  VF nf = __riscv_vfsub_vf_f32m4(fn, shifter, vl);
  // r = x - k pi/2 in three parts (k C1 and k C2 exact); inf and NaN give NaN here
  VF r = __riscv_vfnmsac_vf_f32m4(v, 1.5703125f, nf, vl);
  r = __riscv_vfnmsac_vf_f32m4(r, 4.83870506e-4f, nf, vl);
  r = __riscv_vfnmsac_vf_f32m4(r, -4.37113883e-8f, nf, vl);
  VU q = __riscv_vreinterpret_v_f32m4_u32m4(fn);  // low bits: k mod 2^22
  if (which == 1) q = __riscv_vadd_vx_u32m4(q, 1, vl);  // cos(x) = sin(x + pi/2)
  VF r2 = __riscv_vfmul_vv_f32m4(r, r, vl);
  // sin r = r + r^3 S(r^2), cos r = 1 - r^2/2 + r^4 C(r^2)
  VF ps = __riscv_vfadd_vf_f32m4(__riscv_vfmul_vf_f32m4(r2, -1.95152789e-4f, vl), 8.33216072e-3f, vl);
  ps = hstep(ps, r2, -1.66666546e-1f, vl);
  VF s = __riscv_vfmacc_vv_f32m4(r, __riscv_vfmul_vv_f32m4(r, r2, vl), ps, vl);
  VF pc = __riscv_vfadd_vf_f32m4(__riscv_vfmul_vf_f32m4(r2, 2.44331496e-5f, vl), -1.38873162e-3f, vl);
  pc = hstep(pc, r2, 4.16666457e-2f, vl);
  VF c = __riscv_vfmadd_vv_f32m4(pc, __riscv_vfmul_vv_f32m4(r2, r2, vl),
                                 __riscv_vfrsub_vf_f32m4(__riscv_vfmul_vf_f32m4(r2, 0.5f, vl), 1.0f, vl), vl);
  VB odd = __riscv_vmsne_vx_u32m4_b8(__riscv_vand_vx_u32m4(q, 1, vl), 0, vl);
  if (which == 2) {
    // tan: k even s/c, k odd -c/s
    VF num = __riscv_vmerge_vvm_f32m4(s, c, odd, vl);
    VF den = __riscv_vmerge_vvm_f32m4(c, s, odd, vl);
    VF t = div_nr(num, den, vl);
    return __riscv_vfneg_v_f32m4_mu(odd, t, t, vl);
  }
  VF y = __riscv_vmerge_vvm_f32m4(s, c, odd, vl);
  // quadrants 2 and 3 negate: bit 1 of q moved to the sign bit
  VU sign = __riscv_vand_vx_u32m4(__riscv_vsll_vx_u32m4(q, 30, vl), 0x80000000u, vl);
  return __riscv_vreinterpret_v_u32m4_f32m4(__riscv_vxor_vv_u32m4(__riscv_vreinterpret_v_f32m4_u32m4(y), sign, vl));
}

// acos = 0: asin(x); 1: acos(x)
static inline VF op_asin(VF v, int acos, size_t vl) {
  VF a = __riscv_vfabs_v_f32m4(v, vl);
  VB big = __riscv_vmfgt_vf_f32m4_b8(a, 0.5f, vl);
  VF z = __riscv_vfrsub_vf_f32m4(__riscv_vfmul_vf_f32m4(a, 0.5f, vl), 0.5f, vl);  // (1 - a) / 2
  VF sq = sqrt_nr(z, vl);                                                        // NaN for |x| > 1
  VF t = __riscv_vmerge_vvm_f32m4(__riscv_vfmul_vv_f32m4(a, a, vl), z, big, vl);
  VF u = __riscv_vmerge_vvm_f32m4(a, sq, big, vl);
  // asin u = u + u^3 P(u^2), u in [0, 1/2]
  VF p = __riscv_vfadd_vf_f32m4(__riscv_vfmul_vf_f32m4(t, 4.21662191e-2f, vl), 2.41795619e-2f, vl);
  p = hstep(p, t, 4.54703683e-2f, vl);
  p = hstep(p, t, 7.49529768e-2f, vl);
  p = hstep(p, t, 1.66667525e-1f, vl);
  p = __riscv_vfmacc_vv_f32m4(u, __riscv_vfmul_vv_f32m4(u, t, vl), p, vl);
  if (!acos) {
    // big: pi/2 - 2p; then the sign of x
    VF y = __riscv_vmerge_vvm_f32m4(p, __riscv_vfrsub_vf_f32m4(__riscv_vfadd_vv_f32m4(p, p, vl), 1.57079637f, vl), big, vl);
    return __riscv_vfsgnj_vv_f32m4(y, v, vl);
  }
  // small: pi/2 - asin(x); big: 2p for x > 0, pi - 2p for x < 0
  VF ps = __riscv_vfsgnj_vv_f32m4(p, v, vl);
  VF small = __riscv_vfrsub_vf_f32m4(ps, 1.57079637f, vl);
  VF p2 = __riscv_vfadd_vv_f32m4(p, p, vl);
  VB neg = __riscv_vmflt_vf_f32m4_b8(v, 0.0f, vl);
  VF bigv = __riscv_vfrsub_vf_f32m4_mu(neg, p2, p2, 3.14159274f, vl);
  return __riscv_vmerge_vvm_f32m4(small, bigv, big, vl);
}

static inline VF op_atan(VF v, size_t vl) {
  VF a = __riscv_vfabs_v_f32m4(v, vl);
  VB big = __riscv_vmfgt_vf_f32m4_b8(a, 1.0f, vl);
  // 1/a for a > 1; clamped so that inf gives 2^-100 and not 0 * inf in the Newton steps
  VF ac = __riscv_vfmin_vf_f32m4(a, 0x1p100f, vl);
  VF q = __riscv_vfrec7_v_f32m4(ac, vl);
  for (int k = 0; k < 2; k++)
    q = __riscv_vfmul_vv_f32m4(q, __riscv_vfrsub_vf_f32m4(__riscv_vfmul_vv_f32m4(ac, q, vl), 2.0f, vl), vl);
  VF u = __riscv_vmerge_vvm_f32m4(a, q, big, vl);  // NaN stays in a
  VF t = __riscv_vfmul_vv_f32m4(u, u, vl);
  // atan u = u + u^3 P(u^2), u in [0, 1]
  VF p = __riscv_vfadd_vf_f32m4(__riscv_vfmul_vf_f32m4(t, 2.92050873e-3f, vl), -1.63671968e-2f, vl);
  p = hstep(p, t, 4.32106787e-2f, vl);
  p = hstep(p, t, -7.55211501e-2f, vl);
  p = hstep(p, t, 1.06659587e-1f, vl);
  p = hstep(p, t, -1.42110438e-1f, vl);
  p = hstep(p, t, 1.99937715e-1f, vl);
  p = hstep(p, t, -3.33331527e-1f, vl);
  p = __riscv_vfmacc_vv_f32m4(u, __riscv_vfmul_vv_f32m4(u, t, vl), p, vl);
  VF y = __riscv_vfrsub_vf_f32m4_mu(big, p, p, 1.57079637f, vl);
  return __riscv_vfsgnj_vv_f32m4(y, v, vl);
}

static inline VF op_tanh(VF v, size_t vl) {
  VF a = __riscv_vfabs_v_f32m4(v, vl);
  // a >= 0.625: (1 - E) / (1 + E), E = e^-2a in (0, 0.29]
  VF e = exp_core(__riscv_vfmax_vf_f32m4(__riscv_vfmul_vf_f32m4(a, -2.0f, vl), -86.5f, vl), vl);
  VF big = div_nr(__riscv_vfrsub_vf_f32m4(e, 1.0f, vl), __riscv_vfadd_vf_f32m4(e, 1.0f, vl), vl);
  // a < 0.625 (and NaN): a + a^3 P(a^2)
  VF t = __riscv_vfmul_vv_f32m4(a, a, vl);
  VF p = __riscv_vfadd_vf_f32m4(__riscv_vfmul_vf_f32m4(t, -5.70495282e-3f, vl), 2.06390536e-2f, vl);
  p = hstep(p, t, -5.37397035e-2f, vl);
  p = hstep(p, t, 1.33314420e-1f, vl);
  p = hstep(p, t, -3.33332819e-1f, vl);
  p = __riscv_vfmacc_vv_f32m4(a, __riscv_vfmul_vv_f32m4(a, t, vl), p, vl);
  VF y = __riscv_vmerge_vvm_f32m4(p, big, __riscv_vmfge_vf_f32m4_b8(a, 0.625f, vl), vl);
  return __riscv_vfsgnj_vv_f32m4(y, v, vl);
}

// floor/ceil/round/trunc: |x| < 2^23 converted through int32 with the rounding mode in the instruction,
// sign of x kept (so -0.3 gives -0). trunc is floor(|x|) with the sign of x: QEMU 7.2 (the virtual
// board) aborts on vfcvt.rtz.x.f.v, which clang would emit for a static RTZ mode.
static inline VF round_mode(VF v, int rm, size_t vl) {
  VF a = __riscv_vfabs_v_f32m4(v, vl);
  VI i;
  switch (rm) {
    case 0: i = __riscv_vfcvt_x_f_v_i32m4_rm(v, __RISCV_FRM_RDN, vl); break;
    case 1: i = __riscv_vfcvt_x_f_v_i32m4_rm(v, __RISCV_FRM_RUP, vl); break;
    case 2: i = __riscv_vfcvt_x_f_v_i32m4_rm(v, __RISCV_FRM_RNE, vl); break;
    default: i = __riscv_vfcvt_x_f_v_i32m4_rm(a, __RISCV_FRM_RDN, vl); break;
  }
  VF r = __riscv_vfsgnj_vv_f32m4(__riscv_vfcvt_f_x_v_f32m4(i, vl), v, vl);
  VB small = __riscv_vmflt_vf_f32m4_b8(a, 0x1p23f, vl);
  return __riscv_vmerge_vvm_f32m4(v, r, small, vl);
}

#define UNARY_LOOP(EXPR)                                \
  for (size_t vl; n > 0; n -= vl, x += vl) {            \
    vl = __riscv_vsetvl_e32m4(n);                       \
    VF v = __riscv_vle32_v_f32m4(x, vl);                \
    __riscv_vse32_v_f32m4(x, (EXPR), vl);               \
  }                                                     \
  return

void unaryop_f32(float *x, size_t n, int op_type) {
  switch (op_type) {
    case 0: UNARY_LOOP(__riscv_vfabs_v_f32m4(v, vl));
    case 1: UNARY_LOOP(__riscv_vfneg_v_f32m4(v, vl));
    case 2: UNARY_LOOP(round_mode(v, 0, vl));
    case 3: UNARY_LOOP(round_mode(v, 1, vl));
    case 4: UNARY_LOOP(__riscv_vfmul_vv_f32m4(v, v, vl));
    case 5: UNARY_LOOP(sqrt_nr(v, vl));
    case 6: UNARY_LOOP(op_rsqrt(v, vl));
    case 7: UNARY_LOOP(op_exp(v, vl));
    case 8: UNARY_LOOP(op_log(v, 1.0f, vl));
    case 9: UNARY_LOOP(op_trig(v, 0, vl));
    case 10: UNARY_LOOP(op_trig(v, 1, vl));
    case 11: UNARY_LOOP(op_trig(v, 2, vl));
    case 12: UNARY_LOOP(op_asin(v, 0, vl));
    case 13: UNARY_LOOP(op_asin(v, 1, vl));
    case 14: UNARY_LOOP(op_atan(v, vl));
    case 15: UNARY_LOOP(op_recip(v, vl));
    case 16: UNARY_LOOP(op_tanh(v, vl));
    case 17: UNARY_LOOP(op_log(v, 0.434294482f, vl));
    case 18: UNARY_LOOP(round_mode(v, 2, vl));
    case 19: UNARY_LOOP(round_mode(v, 3, vl));
    default: return;
  }
}
