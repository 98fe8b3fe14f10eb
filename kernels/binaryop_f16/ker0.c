// NCNN BinaryOp, fp16 storage and arithmetic, same-shape arrays: c[i] = op(a[i], b[i]); op_type in NCNN's
// numbering (0 add, 1 sub, 2 mul, 3 div, 4 max, 5 min, 6 pow, 7 rsub, 8 rdiv). One strip-mined loop per
// operation (the switch is outside the loops), LMUL 4 (64 halves per op).
// - div/rdiv: vfrec7 and one Newton step in fma form (7 -> 14 bits, more than half's 11), then the
//   product; vfdiv would cost ~120 cycles at m4. The Newton step yields NaN where the divisor is 0, inf or
//   subnormal; a rarely taken branch recomputes those lanes with vfdiv.
// - pow: e^(b log a) needs more than half precision (b log a reaches ~9 and its half rounding alone would
//   be ~0.4% of the result), so this op widens: half LMUL 2 -> fp32 LMUL 4, log by integer exponent split +
//   log1p polynomial, exp by Cody-Waite + polynomial + shifter-built 2^(n-1), one narrowing at the end
//   (which also rounds overflow to inf and underflow to 0 as the reference does). a > 0 by the task.
// - max/min: vfmax/vfmin (a NaN operand is ignored, as in the reference).
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

// Tuning knob (kernels/README.md): the LMUL of the half-precision loops (the widened pow loop runs at
// half of it in half precision, i.e. at it in fp32).
// eok-knob: LMUL = 4 in {1, 2, 4, 8}

#define VH vfloat16m4_t
#define VF vfloat32m4_t
#define VI vint32m4_t
#define VU vuint32m4_t
#define VB vbool8_t

static inline VF hstep(VF p, VF t, float c, size_t vl) {
  return __riscv_vfadd_vf_f32m4(__riscv_vfmul_vv_f32m4(p, t, vl), c, vl);
}

// fp32 e^t, clamped to [-86.5, 88.8] (overflows to inf through the scale); polynomial degree 4. NaN t
// gives a number here, vpow puts NaN back
static inline VF vexp(VF t, size_t vl) {
  const float shifter = 0x1.8p23f + 126.0f;  // low bits of t*log2(e) + shifter hold n + 126
  VF a = __riscv_vfmax_vf_f32m4(__riscv_vfmin_vf_f32m4(t, 88.8f, vl), -86.5f, vl);
  VF fn = __riscv_vfmacc_vf_f32m4(__riscv_vfmv_v_f_f32m4(shifter, vl), 1.44269504f, a, vl);
  VF nf = __riscv_vfsub_vf_f32m4(fn, shifter, vl);
  VF r = __riscv_vfnmsac_vf_f32m4(a, 0.693359375f, nf, vl);
  r = __riscv_vfnmsac_vf_f32m4(r, -2.12194442e-4f, nf, vl);
  VF p = __riscv_vfadd_vf_f32m4(__riscv_vfmul_vf_f32m4(r, 4.12776985e-2f, vl), 1.67535157e-1f, vl);
  p = hstep(p, r, 5.00051166e-1f, vl);
  VF y = __riscv_vfmadd_vv_f32m4(p, __riscv_vfmul_vv_f32m4(r, r, vl), __riscv_vfadd_vf_f32m4(r, 1.0f, vl), vl);
  VI bits = __riscv_vsll_vx_i32m4(__riscv_vreinterpret_v_f32m4_i32m4(fn), 23, vl);  // 2^(n-1)
  y = __riscv_vfmul_vv_f32m4(__riscv_vfadd_vv_f32m4(y, y, vl), __riscv_vreinterpret_v_i32m4_f32m4(bits), vl);
  return y;
}

// fp32 natural log of a widened half (always normal in fp32, so only 0, negatives, inf and NaN are
// special): x = 2^e m, m in [sqrt(1/2), sqrt(2)), log1p polynomial of degree 6
static inline VF vlog(VF v, size_t vl) {
  VU ix = __riscv_vreinterpret_v_f32m4_u32m4(v);
  VB bad = __riscv_vmsgtu_vx_u32m4_b8(__riscv_vsub_vx_u32m4(ix, 0x00800000u, vl), 0x7effffffu, vl);
  VI e = __riscv_vsra_vx_i32m4(__riscv_vreinterpret_v_u32m4_i32m4(__riscv_vsub_vx_u32m4(ix, 0x3f3504f3u, vl)), 23, vl);
  VU mb = __riscv_vsub_vv_u32m4(ix, __riscv_vreinterpret_v_i32m4_u32m4(__riscv_vsll_vx_i32m4(e, 23, vl)), vl);
  VF f = __riscv_vfsub_vf_f32m4(__riscv_vreinterpret_v_u32m4_f32m4(mb), 1.0f, vl);
  VF ef = __riscv_vfcvt_f_x_v_f32m4(e, vl);
  VF p = __riscv_vfadd_vf_f32m4(__riscv_vfmul_vf_f32m4(f, -1.45921485e-1f, vl), 2.17764533e-1f, vl);
  p = hstep(p, f, -2.52450354e-1f, vl);
  p = hstep(p, f, 3.32854728e-1f, vl);
  VF f2 = __riscv_vfmul_vv_f32m4(f, f, vl);
  p = __riscv_vfsub_vf_f32m4(__riscv_vfmul_vv_f32m4(p, f, vl), 0.5f, vl);
  VF y = __riscv_vfmadd_vv_f32m4(p, f2, f, vl);
  y = __riscv_vfmacc_vf_f32m4(y, 0.693147182f, ef, vl);
  if (__riscv_vcpop_m_b8(bad, vl)) {
    // +-0 -> -inf, x < 0 -> NaN, +inf and NaN -> x
    VF sp = __riscv_vfmerge_vfm_f32m4(v, -__builtin_inff(), __riscv_vmfeq_vf_f32m4_b8(v, 0.0f, vl), vl);
    sp = __riscv_vfmerge_vfm_f32m4(sp, __builtin_nanf(""), __riscv_vmflt_vf_f32m4_b8(v, 0.0f, vl), vl);
    y = __riscv_vmerge_vvm_f32m4(y, sp, bad, vl);
  }
  return y;
}

// a^b = e^(b log a). b log a is NaN for NaN operands and for 0 * inf (a = 1 with b = +-inf, a = inf with
// b = 0): a rarely taken branch makes those lanes NaN, except a = 1 or b = 0, which give 1 as in C's pow.
static inline VF vpow(VF a, VF b, size_t vl) {
  VF t = __riscv_vfmul_vv_f32m4(b, vlog(a, vl), vl);
  VF y = vexp(t, vl);
  VB nan = __riscv_vmfne_vv_f32m4_b8(t, t, vl);
  if (__riscv_vcpop_m_b8(nan, vl)) {
    y = __riscv_vfmerge_vfm_f32m4(y, __builtin_nanf(""), nan, vl);
    VB one = __riscv_vmor_mm_b8(__riscv_vmfeq_vf_f32m4_b8(a, 1.0f, vl), __riscv_vmfeq_vf_f32m4_b8(b, 0.0f, vl), vl);
    y = __riscv_vfmerge_vfm_f32m4(y, 1.0f, one, vl);
  }
  return y;
}

// n / d without vfdiv in the common case
static inline VH vdiv(VH n, VH d, size_t vl) {
  VH y0 = __riscv_vfrec7_v_f16m4(d, vl);
  VH e = __riscv_vfnmsub_vv_f16m4(d, y0, __riscv_vfmv_v_f_f16m4((_Float16)1.0f, vl), vl);  // 1 - d y0
  VH q = __riscv_vfmul_vv_f16m4(n, __riscv_vfmacc_vv_f16m4(y0, y0, e, vl), vl);
  vbool4_t bad = __riscv_vmfne_vv_f16m4_b4(q, q, vl);
  if (__riscv_vcpop_m_b4(bad, vl)) q = __riscv_vfdiv_vv_f16m4_mu(bad, q, n, d, vl);
  return q;
}

#define BINARY_LOOP(EXPR)                                      \
  for (size_t vl; n > 0; n -= vl, a += vl, b += vl, c += vl) { \
    vl = __riscv_vsetvl_e16m4(n);                              \
    VH va = __riscv_vle16_v_f16m4(a, vl);                      \
    VH vb = __riscv_vle16_v_f16m4(b, vl);                      \
    __riscv_vse16_v_f16m4(c, (EXPR), vl);                      \
  }                                                            \
  return

void binaryop_f16(const _Float16 *a, const _Float16 *b, _Float16 *c, size_t n, int op_type) {
  switch (op_type) {
    case 0: BINARY_LOOP(__riscv_vfadd_vv_f16m4(va, vb, vl));
    case 1: BINARY_LOOP(__riscv_vfsub_vv_f16m4(va, vb, vl));
    case 2: BINARY_LOOP(__riscv_vfmul_vv_f16m4(va, vb, vl));
    case 3: BINARY_LOOP(vdiv(va, vb, vl));
    case 4: BINARY_LOOP(__riscv_vfmax_vv_f16m4(va, vb, vl));
    case 5: BINARY_LOOP(__riscv_vfmin_vv_f16m4(va, vb, vl));
    case 6:
      for (size_t vl; n > 0; n -= vl, a += vl, b += vl, c += vl) {
        vl = __riscv_vsetvl_e16m2(n);
        VF wa = __riscv_vfwcvt_f_f_v_f32m4(__riscv_vle16_v_f16m2(a, vl), vl);
        VF wb = __riscv_vfwcvt_f_f_v_f32m4(__riscv_vle16_v_f16m2(b, vl), vl);
        VF y = vpow(wa, wb, vl);
        __riscv_vse16_v_f16m2(c, __riscv_vfncvt_f_f_w_f16m2(y, vl), vl);
      }
      return;
    case 7: BINARY_LOOP(__riscv_vfsub_vv_f16m4(vb, va, vl));
    case 8: BINARY_LOOP(vdiv(vb, va, vl));
    default: return;
  }
}
