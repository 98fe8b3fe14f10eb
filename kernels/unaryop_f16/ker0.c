// NCNN UnaryOp, fp16 storage and arithmetic, in place over x[n]; op_type picks one of NCNN's 20
// operations (0..19). One strip-mined LMUL-4 loop per operation (64 halves per op), the switch outside
// the loops; every operation vectorised in half precision, with polynomials sized for half's 11 bits:
// - floor/ceil/round/trunc: vfcvt to int16 with the rounding mode in the instruction (RDN/RUP/RNE; trunc as
//   floor(|x|) because QEMU 7.2 aborts on vfcvt.rtz), back to half, sign copied from x (keeps -0);
//   |x| >= 1024, inf and NaN are already integral and kept.
// - sqrt/rsqrt/reciprocal: vfrsqrt7/vfrec7 plus one Newton step (7 -> 14 bits). sqrt = x rsqrt(x') with
//   x' nudged off 0 and inf; rsqrt and reciprocal turn NaN at 0/inf/subnormal, repaired in a rarely taken
//   branch (the rsqrt estimate is exact there, the reciprocal uses vfrdiv).
// - exp: Cody-Waite by ln2 (fused, so the reduction stays exact), degree-4 polynomial, 2^(n-1) from the
//   bits of a rounding shifter, times 2 (overflow to inf above ~11.09 as in the reference).
// - log/log10: integer exponent/mantissa split (mantissa in [sqrt(1/2), sqrt(2))), log1p polynomial;
//   zero, negative, subnormal, inf and NaN inputs caught by one unsigned compare, handled in a rare branch.
// - sin/cos/tan: reduction by pi/2 in two fused parts, both polynomials on [-pi/4, pi/4], quadrant select;
//   tan as a quotient by vfrec7 + Newton. Accurate for |x| < ~800 (sin, cos) and ~100 (tan). asin/acos: polynomial on [0, 1/2], sqrt((1-a)/2) above.
// - atan: 1/|x| above 1, odd polynomial on [0, 1]. tanh: odd polynomial below 0.625, (1-E)/(1+E) above.
// Polynomial coefficients are minimax fits of relative error.
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

// Tuning knob (kernels/README.md): the LMUL every vector op runs at.
// eok-knob: LMUL = 4 in {1, 2, 4, 8}

#define VF vfloat16m4_t
#define VI vint16m4_t
#define VU vuint16m4_t
#define VB vbool4_t
#define H(c) ((_Float16)(c))

// p * t + c, one Horner step with a scalar coefficient
static inline VF hstep(VF p, VF t, float c, size_t vl) {
  return __riscv_vfadd_vf_f16m4(__riscv_vfmul_vv_f16m4(p, t, vl), H(c), vl);
}

// e^a for a already clamped to [-9.3, 12] (results below 2^-14 are not produced: the reference's are
// < 1e-4 there, inside the absolute tolerance)
static inline VF exp_core(VF a, size_t vl) {
  // 1.5*2^10 + 14: a*log2(e) + shifter rounds to an integer n, and the low bits then hold n + 14.
  const _Float16 shifter = H(1550.0f);
  VF fn = __riscv_vfmacc_vf_f16m4(__riscv_vfmv_v_f_f16m4(shifter, vl), H(1.442695f), a, vl);
  VF nf = __riscv_vfsub_vf_f16m4(fn, shifter, vl);
  VF r = __riscv_vfnmsac_vf_f16m4(a, H(0.693359375f), nf, vl);
  r = __riscv_vfnmsac_vf_f16m4(r, H(-2.12194440e-4f), nf, vl);
  // e^r = 1 + r + r^2 P(r) on [-ln2/2, ln2/2]
  VF p = __riscv_vfadd_vf_f16m4(__riscv_vfmul_vf_f16m4(r, H(4.12776985e-2f), vl), H(1.67535157e-1f), vl);
  p = hstep(p, r, 5.00051166e-1f, vl);
  VF y = __riscv_vfmadd_vv_f16m4(p, __riscv_vfmul_vv_f16m4(r, r, vl), __riscv_vfadd_vf_f16m4(r, H(1.0f), vl), vl);
  // 2^(n-1): shifting the shifter's bits left by 10 leaves exactly (n - 1 + 15) << 10
  VI bits = __riscv_vsll_vx_i16m4(__riscv_vreinterpret_v_f16m4_i16m4(fn), 10, vl);
  y = __riscv_vfadd_vv_f16m4(y, y, vl);
  return __riscv_vfmul_vv_f16m4(y, __riscv_vreinterpret_v_i16m4_f16m4(bits), vl);
}

static inline VF op_exp(VF v, size_t vl) {
  VF a = __riscv_vfmax_vf_f16m4(__riscv_vfmin_vf_f16m4(v, H(12.0f), vl), H(-9.3f), vl);
  VF y = exp_core(a, vl);
  // the clamp turned NaN into a number: NaN lanes keep x
  return __riscv_vmerge_vvm_f16m4(y, v, __riscv_vmfne_vv_f16m4_b4(v, v, vl), vl);
}

// natural log; scale = 1 for log, log10(e) for log10
static inline VF op_log(VF v, float scale, size_t vl) {
  VU ix = __riscv_vreinterpret_v_f16m4_u16m4(v);
  // not a positive normal number (zero, subnormal, negative, inf, NaN): one unsigned compare
  VB bad = __riscv_vmsgtu_vx_u16m4_b4(__riscv_vsub_vx_u16m4(ix, 0x0400u, vl), 0x77ffu, vl);
  const long nbad = __riscv_vcpop_m_b4(bad, vl);
  VB sub = bad;
  if (nbad) {
    // positive subnormals: scale by 2^10, the exponent is corrected below
    sub = __riscv_vmand_mm_b4(__riscv_vmfgt_vf_f16m4_b4(v, H(0.0f), vl), __riscv_vmflt_vf_f16m4_b4(v, H(0x1p-14f), vl), vl);
    ix = __riscv_vreinterpret_v_f16m4_u16m4(__riscv_vfmul_vf_f16m4_mu(sub, v, v, H(1024.0f), vl));
  }
  // x = 2^e m with m in [sqrt(1/2), sqrt(2)): e from the bits of x relative to sqrt(1/2) (0x39a8)
  VI t = __riscv_vreinterpret_v_u16m4_i16m4(__riscv_vsub_vx_u16m4(ix, 0x39a8u, vl));
  VI e = __riscv_vsra_vx_i16m4(t, 10, vl);
  VU mb = __riscv_vsub_vv_u16m4(ix, __riscv_vreinterpret_v_i16m4_u16m4(__riscv_vsll_vx_i16m4(e, 10, vl)), vl);
  VF f = __riscv_vfsub_vf_f16m4(__riscv_vreinterpret_v_u16m4_f16m4(mb), H(1.0f), vl);
  VF ef = __riscv_vfcvt_f_x_v_f16m4(e, vl);
  if (nbad) ef = __riscv_vfsub_vf_f16m4_mu(sub, ef, ef, H(10.0f), vl);
  // log(1+f) = f - f^2/2 + f^3 P(f)
  VF p = __riscv_vfadd_vf_f16m4(__riscv_vfmul_vf_f16m4(f, H(1.73243876e-1f), vl), H(-2.64612128e-1f), vl);
  p = hstep(p, f, 3.35673945e-1f, vl);
  VF f2 = __riscv_vfmul_vv_f16m4(f, f, vl);
  p = __riscv_vfsub_vf_f16m4(__riscv_vfmul_vv_f16m4(p, f, vl), H(0.5f), vl);
  VF y = __riscv_vfmadd_vv_f16m4(p, f2, f, vl);
  // + e ln2, ln2 in two parts
  y = __riscv_vfmacc_vf_f16m4(y, H(-2.12194440e-4f), ef, vl);
  y = __riscv_vfmacc_vf_f16m4(y, H(0.693359375f), ef, vl);
  if (scale != 1.0f) y = __riscv_vfmul_vf_f16m4(y, H(scale), vl);
  if (nbad) {
    // +-0 -> -inf, x < 0 -> NaN, +inf and NaN -> x
    VF sp = __riscv_vfmerge_vfm_f16m4(v, (_Float16)-__builtin_inff(), __riscv_vmfeq_vf_f16m4_b4(v, H(0.0f), vl), vl);
    sp = __riscv_vfmerge_vfm_f16m4(sp, (_Float16)__builtin_nanf(""), __riscv_vmflt_vf_f16m4_b4(v, H(0.0f), vl), vl);
    y = __riscv_vmerge_vvm_f16m4(y, sp, __riscv_vmandn_mm_b4(bad, sub, vl), vl);
  }
  return y;
}

// 1/sqrt(d) for d > 0 finite (callers clamp): vfrsqrt7 and one Newton step y (3 - d y^2) / 2
static inline VF rsqrt_nr(VF d, size_t vl) {
  VF y = __riscv_vfrsqrt7_v_f16m4(d, vl);
  VF t = __riscv_vfmul_vv_f16m4(__riscv_vfmul_vv_f16m4(d, y, vl), y, vl);  // (d y) y: no overflow for tiny d
  return __riscv_vfmul_vv_f16m4(y, __riscv_vfrsub_vf_f16m4(__riscv_vfmul_vf_f16m4(t, H(0.5f), vl), H(1.5f), vl), vl);
}

// sqrt(z) = z / sqrt(z'), z' = min(z + 2^-24, 65504): +-0 give +-0, +inf gives inf, z < 0 and NaN give NaN
static inline VF sqrt_nr(VF z, size_t vl) {
  VF zc = __riscv_vfmin_vf_f16m4(__riscv_vfadd_vf_f16m4(z, H(0x1p-24f), vl), H(65504.0f), vl);
  return __riscv_vfmul_vv_f16m4(z, rsqrt_nr(zc, vl), vl);
}

// where the Newton result is NaN, the estimate q0 is already the answer
static inline VF recip_fix(VF q0, VF q, size_t vl) {
  VB m = __riscv_vmfne_vv_f16m4_b4(q, q, vl);
  if (__riscv_vcpop_m_b4(m, vl)) q = __riscv_vmerge_vvm_f16m4(q, q0, m, vl);
  return q;
}

static inline VF op_rsqrt(VF v, size_t vl) {
  VF y0 = __riscv_vfrsqrt7_v_f16m4(v, vl);
  VF t = __riscv_vfmul_vv_f16m4(__riscv_vfmul_vv_f16m4(v, y0, vl), y0, vl);
  VF y = __riscv_vfmul_vv_f16m4(y0, __riscv_vfrsub_vf_f16m4(__riscv_vfmul_vf_f16m4(t, H(0.5f), vl), H(1.5f), vl), vl);
  return recip_fix(y0, y, vl);  // 0 and inf gave 0 * inf = NaN above
}

static inline VF op_recip(VF v, size_t vl) {
  VF q0 = __riscv_vfrec7_v_f16m4(v, vl);
  VF one = __riscv_vfmv_v_f_f16m4(H(1.0f), vl);
  VF q = __riscv_vfmacc_vv_f16m4(q0, q0, __riscv_vfnmsub_vv_f16m4(v, q0, one, vl), vl);  // q0 + q0 (1 - v q0)
  // NaN where x is 0, inf or subnormal: those lanes (rare) by vfrdiv
  VB m = __riscv_vmfne_vv_f16m4_b4(q, q, vl);
  if (__riscv_vcpop_m_b4(m, vl)) q = __riscv_vfrdiv_vf_f16m4_mu(m, q, v, H(1.0f), vl);
  return q;
}

// n / d for d in [0.7, 1] (no special values): vfrec7, one Newton step, the product
static inline VF div_nr(VF n, VF d, size_t vl) {
  VF q = __riscv_vfrec7_v_f16m4(d, vl);
  q = __riscv_vfmul_vv_f16m4(q, __riscv_vfrsub_vf_f16m4(__riscv_vfmul_vv_f16m4(d, q, vl), H(2.0f), vl), vl);
  return __riscv_vfmul_vv_f16m4(n, q, vl);
}

// which = 0 sin, 1 cos, 2 tan
static inline VF op_trig(VF v, int which, size_t vl) {
  const _Float16 shifter = H(1536.0f);  // 1.5*2^10: rounds x*2/pi to an integer k, |k| < 512
  VF fn = __riscv_vfmacc_vf_f16m4(__riscv_vfmv_v_f_f16m4(shifter, vl), H(0.636619747f), v, vl);
  VF nf = __riscv_vfsub_vf_f16m4(fn, shifter, vl);
  // r = x - k pi/2, two fused parts; inf and NaN give NaN here
  VF r = __riscv_vfnmsac_vf_f16m4(v, H(1.5703125f), nf, vl);
  r = __riscv_vfnmsac_vf_f16m4(r, H(4.83751297e-4f), nf, vl);
  VU q = __riscv_vreinterpret_v_f16m4_u16m4(fn);  // low bits: k mod 2^9
  if (which == 1) q = __riscv_vadd_vx_u16m4(q, 1, vl);  // cos(x) = sin(x + pi/2)
  VF r2 = __riscv_vfmul_vv_f16m4(r, r, vl);
  // sin r = r + r^3 S(r^2), cos r = 1 - r^2/2 + r^4 C(r^2)
  VF ps = __riscv_vfadd_vf_f16m4(__riscv_vfmul_vf_f16m4(r2, H(8.16327890e-3f), vl), H(-1.66633902e-1f), vl);
  VF s = __riscv_vfmacc_vv_f16m4(r, __riscv_vfmul_vv_f16m4(r, r2, vl), ps, vl);
  VF pc = __riscv_vfadd_vf_f16m4(__riscv_vfmul_vf_f16m4(r2, H(-1.36487089e-3f), vl), H(4.16610710e-2f), vl);
  VF c = __riscv_vfmadd_vv_f16m4(pc, __riscv_vfmul_vv_f16m4(r2, r2, vl),
                                 __riscv_vfrsub_vf_f16m4(__riscv_vfmul_vf_f16m4(r2, H(0.5f), vl), H(1.0f), vl), vl);
  VB odd = __riscv_vmsne_vx_u16m4_b4(__riscv_vand_vx_u16m4(q, 1, vl), 0, vl);
  if (which == 2) {
    // tan: k even s/c, k odd -c/s
    VF num = __riscv_vmerge_vvm_f16m4(s, c, odd, vl);
    VF den = __riscv_vmerge_vvm_f16m4(c, s, odd, vl);
    VF t = div_nr(num, den, vl);
    return __riscv_vfneg_v_f16m4_mu(odd, t, t, vl);
  }
  VF y = __riscv_vmerge_vvm_f16m4(s, c, odd, vl);
  // quadrants 2 and 3 negate: bit 1 of q moved to the sign bit
  VU sign = __riscv_vand_vx_u16m4(__riscv_vsll_vx_u16m4(q, 14, vl), 0x8000u, vl);
  return __riscv_vreinterpret_v_u16m4_f16m4(__riscv_vxor_vv_u16m4(__riscv_vreinterpret_v_f16m4_u16m4(y), sign, vl));
}

// acos = 0: asin(x); 1: acos(x)
static inline VF op_asin(VF v, int acos, size_t vl) {
  VF a = __riscv_vfabs_v_f16m4(v, vl);
  VB big = __riscv_vmfgt_vf_f16m4_b4(a, H(0.5f), vl);
  VF z = __riscv_vfrsub_vf_f16m4(__riscv_vfmul_vf_f16m4(a, H(0.5f), vl), H(0.5f), vl);  // (1 - a) / 2
  VF sq = sqrt_nr(z, vl);                                                              // NaN for |x| > 1
  VF t = __riscv_vmerge_vvm_f16m4(__riscv_vfmul_vv_f16m4(a, a, vl), z, big, vl);
  VF u = __riscv_vmerge_vvm_f16m4(a, sq, big, vl);
  // asin u = u + u^3 P(u^2), u in [0, 1/2]
  VF p = __riscv_vfadd_vf_f16m4(__riscv_vfmul_vf_f16m4(t, H(9.42987119e-2f), vl), H(1.65057748e-1f), vl);
  p = __riscv_vfmacc_vv_f16m4(u, __riscv_vfmul_vv_f16m4(u, t, vl), p, vl);
  if (!acos) {
    // big: pi/2 - 2p; then the sign of x
    VF y = __riscv_vmerge_vvm_f16m4(p, __riscv_vfrsub_vf_f16m4(__riscv_vfadd_vv_f16m4(p, p, vl), H(1.57079637f), vl), big, vl);
    return __riscv_vfsgnj_vv_f16m4(y, v, vl);
  }
  // small: pi/2 - asin(x); big: 2p for x > 0, pi - 2p for x < 0
  VF ps = __riscv_vfsgnj_vv_f16m4(p, v, vl);
  VF small = __riscv_vfrsub_vf_f16m4(ps, H(1.57079637f), vl);
  VF p2 = __riscv_vfadd_vv_f16m4(p, p, vl);
  VB neg = __riscv_vmflt_vf_f16m4_b4(v, H(0.0f), vl);
  VF bigv = __riscv_vfrsub_vf_f16m4_mu(neg, p2, p2, H(3.14159274f), vl);
  return __riscv_vmerge_vvm_f16m4(small, bigv, big, vl);
}

static inline VF op_atan(VF v, size_t vl) {
  VF a = __riscv_vfabs_v_f16m4(v, vl);
  VB big = __riscv_vmfgt_vf_f16m4_b4(a, H(1.0f), vl);
  // 1/a for a > 1; clamped so that inf gives 2^-14 and not 0 * inf in the Newton step
  VF ac = __riscv_vfmin_vf_f16m4(a, H(16384.0f), vl);
  VF q = __riscv_vfrec7_v_f16m4(ac, vl);
  q = __riscv_vfmul_vv_f16m4(q, __riscv_vfrsub_vf_f16m4(__riscv_vfmul_vv_f16m4(ac, q, vl), H(2.0f), vl), vl);
  VF u = __riscv_vmerge_vvm_f16m4(a, q, big, vl);  // NaN stays in a
  VF t = __riscv_vfmul_vv_f16m4(u, u, vl);
  // atan u = u + u^3 P(u^2), u in [0, 1]
  VF p = __riscv_vfadd_vf_f16m4(__riscv_vfmul_vf_f16m4(t, H(2.48388909e-2f), vl), H(-9.40952358e-2f), vl);
  p = hstep(p, t, 1.86812578e-1f, vl);
  p = hstep(p, t, -3.32130447e-1f, vl);
  p = __riscv_vfmacc_vv_f16m4(u, __riscv_vfmul_vv_f16m4(u, t, vl), p, vl);
  VF y = __riscv_vfrsub_vf_f16m4_mu(big, p, p, H(1.57079637f), vl);
  return __riscv_vfsgnj_vv_f16m4(y, v, vl);
}

static inline VF op_tanh(VF v, size_t vl) {
  VF a = __riscv_vfabs_v_f16m4(v, vl);
  // a >= 0.625: (1 - E) / (1 + E), E = e^-2a in (0, 0.29]
  VF e = exp_core(__riscv_vfmax_vf_f16m4(__riscv_vfmul_vf_f16m4(a, H(-2.0f), vl), H(-9.3f), vl), vl);
  VF big = div_nr(__riscv_vfrsub_vf_f16m4(e, H(1.0f), vl), __riscv_vfadd_vf_f16m4(e, H(1.0f), vl), vl);
  // a < 0.625 (and NaN): a + a^3 P(a^2)
  VF t = __riscv_vfmul_vv_f16m4(a, a, vl);
  VF p = __riscv_vfadd_vf_f16m4(__riscv_vfmul_vf_f16m4(t, H(1.08370193e-1f), vl), H(-3.30466576e-1f), vl);
  p = __riscv_vfmacc_vv_f16m4(a, __riscv_vfmul_vv_f16m4(a, t, vl), p, vl);
  VF y = __riscv_vmerge_vvm_f16m4(p, big, __riscv_vmfge_vf_f16m4_b4(a, H(0.625f), vl), vl);
  return __riscv_vfsgnj_vv_f16m4(y, v, vl);
}

// floor/ceil/round/trunc: |x| < 1024 converted through int16 with the rounding mode in the instruction,
// sign of x kept. trunc is floor(|x|) with the sign of x: QEMU 7.2 (the virtual board) aborts on
// vfcvt.rtz.x.f.v, which clang would emit for a static RTZ mode.
static inline VF round_mode(VF v, int rm, size_t vl) {
  VF a = __riscv_vfabs_v_f16m4(v, vl);
  VI i;
  switch (rm) {
    case 0: i = __riscv_vfcvt_x_f_v_i16m4_rm(v, __RISCV_FRM_RDN, vl); break;
    case 1: i = __riscv_vfcvt_x_f_v_i16m4_rm(v, __RISCV_FRM_RUP, vl); break;
    case 2: i = __riscv_vfcvt_x_f_v_i16m4_rm(v, __RISCV_FRM_RNE, vl); break;
    default: i = __riscv_vfcvt_x_f_v_i16m4_rm(a, __RISCV_FRM_RDN, vl); break;
  }
  VF r = __riscv_vfsgnj_vv_f16m4(__riscv_vfcvt_f_x_v_f16m4(i, vl), v, vl);
  VB small = __riscv_vmflt_vf_f16m4_b4(a, H(1024.0f), vl);
  return __riscv_vmerge_vvm_f16m4(v, r, small, vl);
}

#define UNARY_LOOP(EXPR)                                \
  for (size_t vl; n > 0; n -= vl, x += vl) {            \
    vl = __riscv_vsetvl_e16m4(n);                       \
    VF v = __riscv_vle16_v_f16m4(x, vl);                \
    __riscv_vse16_v_f16m4(x, (EXPR), vl);               \
  }                                                     \
  return

void unaryop_f16(_Float16 *x, size_t n, int op_type) {
  switch (op_type) {
    case 0: UNARY_LOOP(__riscv_vfabs_v_f16m4(v, vl));
    case 1: UNARY_LOOP(__riscv_vfneg_v_f16m4(v, vl));
    case 2: UNARY_LOOP(round_mode(v, 0, vl));
    case 3: UNARY_LOOP(round_mode(v, 1, vl));
    case 4: UNARY_LOOP(__riscv_vfmul_vv_f16m4(v, v, vl));
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
