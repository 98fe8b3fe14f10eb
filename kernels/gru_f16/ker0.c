// GRU, fp16 storage and arithmetic, one layer, forward, h0 = 0, NCNN semantics (gate rows R, U, N; bias
// rows R, U, WN, BN; N = tanh(WN + Wx_N x + R (BN + Wh_N h)), h = (1 - U) N + U h).
// Shape: the per-step GEMVs are vectorised across output units, not along the dot products: the weights
// are first repacked (once per call, strided loads into half-precision stack scratch) so that for a chunk
// of VL output units, row i of the packed block holds W_R[q..q+VL)[i], W_U[..][i], W_N[..][i] contiguously
// (x rows, then h rows). A step is then, per chunk, four half accumulators (R, U, the input part of N and
// the hidden part of N, bias-initialised) updated with one vfmacc.vf per input / hidden element (the half
// scalar x_i or h_j times a contiguous half weight strip): no reductions at all. A gate sums I + H terms
// of modest size, so half accumulation stays well inside the f16_accum budget (measured: < 5e-3 at the
// check sizes). This is NCNN's own arrangement (it packs the GRU weights at load time); here the packing is
// part of the call and amortised over the T steps. The four pre-activations are then widened once per
// chunk and the gates evaluated in fp32 (a few ops per output, beside 3 (I + H) FMAs): sigmoid by a
// range-reduced exp (Cody-Waite + degree-6 polynomial, 2^n from the exponent bits) and vfrec7 + two
// Newton steps, tanh(z) = 2 sigmoid(2z) - 1; the new h is rounded to half as it is stored. The hidden
// state of step t - 1 is out[t - 1]; step 0 skips the hidden half (h = 0).
#include <riscv_vector.h>
#include <stddef.h>

// Tuning knob (kernels/README.md): the LMUL of the fp32 gate evaluation (the half accumulators and weight
// strips use half of it).
// eok-knob: LMUL = 4 in {1, 2, 4, 8}

// 1 / (1 + e^-a), a clamped to [-88, 88] (beyond, the result is 0 or 1 in float anyway).
static inline vfloat32m4_t sigmoid_v(vfloat32m4_t a, size_t vl) {
  const float shifter = 0x1.8p23f + 127.0f;  // z*log2(e) + shifter rounds to n; low bits hold n + 127
  vfloat32m4_t z = __riscv_vfmax_vf_f32m4(__riscv_vfmin_vf_f32m4(__riscv_vfneg_v_f32m4(a, vl), 88.0f, vl), -88.0f, vl);
  vfloat32m4_t fn = __riscv_vfmacc_vf_f32m4(__riscv_vfmv_v_f_f32m4(shifter, vl), 1.44269504f, z, vl);
  vfloat32m4_t nf = __riscv_vfsub_vf_f32m4(fn, shifter, vl);
  vfloat32m4_t r = __riscv_vfnmsac_vf_f32m4(z, 0.693359375f, nf, vl);  // ln2 split: n * hi is exact
  r = __riscv_vfnmsac_vf_f32m4(r, -2.12194440e-4f, nf, vl);
  // e^r ~ (1 + r) + r^2 ((c2 + c3 r) + r^2 (c4 + c5 r + c6 r^2)) on [-ln2/2, ln2/2]
  vfloat32m4_t r2 = __riscv_vfmul_vv_f32m4(r, r, vl);
  vfloat32m4_t lo = __riscv_vfadd_vf_f32m4(r, 1.0f, vl);
  vfloat32m4_t mid = __riscv_vfadd_vf_f32m4(__riscv_vfmul_vf_f32m4(r, 1.6666573286e-1f, vl), 0.5f, vl);
  vfloat32m4_t hi = __riscv_vfadd_vf_f32m4(__riscv_vfmul_vf_f32m4(r, 8.3637740463e-3f, vl), 4.1666548699e-2f, vl);
  hi = __riscv_vfmacc_vf_f32m4(hi, 1.3926926767e-3f, r2, vl);
  vfloat32m4_t y = __riscv_vfmadd_vv_f32m4(hi, r2, mid, vl);
  y = __riscv_vfmadd_vv_f32m4(y, r2, lo, vl);
  vint32m4_t bits = __riscv_vsll_vx_i32m4(__riscv_vreinterpret_v_f32m4_i32m4(fn), 23, vl);
  vfloat32m4_t e = __riscv_vfmul_vv_f32m4(y, __riscv_vreinterpret_v_i32m4_f32m4(bits), vl);
  // 1 / (1 + e): 7-bit estimate, two Newton steps q = q (2 - d q)
  vfloat32m4_t d = __riscv_vfadd_vf_f32m4(e, 1.0f, vl);
  vfloat32m4_t q = __riscv_vfrec7_v_f32m4(d, vl);
  q = __riscv_vfmul_vv_f32m4(q, __riscv_vfrsub_vf_f32m4(__riscv_vfmul_vv_f32m4(d, q, vl), 2.0f, vl), vl);
  q = __riscv_vfmul_vv_f32m4(q, __riscv_vfrsub_vf_f32m4(__riscv_vfmul_vv_f32m4(d, q, vl), 2.0f, vl), vl);
  return q;
}

// acc_g += s * (packed half weight strip g of this row) for the three gates of one packed row.
#define ROW3(s, A0, A1, A2)                                                          \
  do {                                                                               \
    const vfloat16m2_t w0_ = __riscv_vle16_v_f16m2(w, vl);                           \
    const vfloat16m2_t w1_ = __riscv_vle16_v_f16m2(w + vl, vl);                      \
    const vfloat16m2_t w2_ = __riscv_vle16_v_f16m2(w + 2 * vl, vl);                  \
    A0 = __riscv_vfmacc_vf_f16m2(A0, (s), w0_, vl);                                 \
    A1 = __riscv_vfmacc_vf_f16m2(A1, (s), w1_, vl);                                 \
    A2 = __riscv_vfmacc_vf_f16m2(A2, (s), w2_, vl);                                 \
    w += 3 * vl;                                                                     \
  } while (0)

// Half vector at p, widened to fp32.
static inline vfloat32m4_t load_widen(const _Float16 *p, size_t vl) {
  return __riscv_vfwcvt_f_f_v_f32m4(__riscv_vle16_v_f16m2(p, vl), vl);
}

void gru_f16(const _Float16 *x, const _Float16 *weight_xc, const _Float16 *weight_hc, const _Float16 *bias_c,
             _Float16 *out, int T, int I, int H) {
  if (T <= 0 || H <= 0) return;
  const size_t ni = I > 0 ? (size_t)I : 0, nh = (size_t)H, nrow = ni + nh;

  // Packed weights: the chunk of output units [q0, q0 + vl) owns 3 * vl * nrow halves at wp + 3*q0*nrow,
  // row i (x rows, then h rows) = gate R, U, N strips of vl units each.
  _Float16 wp[3 * nh * nrow];
  for (size_t vl, q0 = 0; q0 < nh; q0 += vl) {
    vl = __riscv_vsetvl_e16m2(nh - q0);
    _Float16 *blk = wp + 3 * q0 * nrow;
    for (size_t i = 0; i < ni; i++)
      for (size_t g = 0; g < 3; g++, blk += vl)
        __riscv_vse16_v_f16m2(blk, __riscv_vlse16_v_f16m2(weight_xc + (g * nh + q0) * ni + i,
                                                           (ptrdiff_t)(ni * sizeof(_Float16)), vl), vl);
    for (size_t j = 0; j < nh; j++)
      for (size_t g = 0; g < 3; g++, blk += vl)
        __riscv_vse16_v_f16m2(blk, __riscv_vlse16_v_f16m2(weight_hc + (g * nh + q0) * nh + j,
                                                           (ptrdiff_t)(nh * sizeof(_Float16)), vl), vl);
  }

  for (size_t t = 0; t < (size_t)T; t++) {
    const _Float16 *xt = x + t * ni;
    const _Float16 *hp = t > 0 ? out + (t - 1) * nh : NULL;  // previous hidden state
    _Float16 *ot = out + t * nh;
    for (size_t vl, q0 = 0; q0 < nh; q0 += vl) {
      vl = __riscv_vsetvl_e16m2(nh - q0);
      vfloat16m2_t hR = __riscv_vle16_v_f16m2(bias_c + q0, vl);
      vfloat16m2_t hU = __riscv_vle16_v_f16m2(bias_c + nh + q0, vl);
      vfloat16m2_t hNx = __riscv_vle16_v_f16m2(bias_c + 2 * nh + q0, vl);
      vfloat16m2_t hNh = __riscv_vle16_v_f16m2(bias_c + 3 * nh + q0, vl);
      const _Float16 *w = wp + 3 * q0 * nrow;
      for (size_t i = 0; i < ni; i++) ROW3(xt[i], hR, hU, hNx);
      vfloat32m4_t hq = __riscv_vfmv_v_f_f32m4(0.0f, vl);
      if (hp) {
        for (size_t j = 0; j < nh; j++) ROW3(hp[j], hR, hU, hNh);
        hq = load_widen(hp + q0, vl);
      }
      vfloat32m4_t aR = __riscv_vfwcvt_f_f_v_f32m4(hR, vl), aU = __riscv_vfwcvt_f_f_v_f32m4(hU, vl);
      vfloat32m4_t aNx = __riscv_vfwcvt_f_f_v_f32m4(hNx, vl), aNh = __riscv_vfwcvt_f_f_v_f32m4(hNh, vl);
      const vfloat32m4_t r = sigmoid_v(aR, vl);
      const vfloat32m4_t u = sigmoid_v(aU, vl);
      // n = tanh(aNx + r aNh) = 2 sigmoid(2 (aNx + r aNh)) - 1
      const vfloat32m4_t z = __riscv_vfmacc_vv_f32m4(aNx, r, aNh, vl);
      const vfloat32m4_t s2 = sigmoid_v(__riscv_vfadd_vv_f32m4(z, z, vl), vl);
      const vfloat32m4_t n = __riscv_vfsub_vf_f32m4(__riscv_vfadd_vv_f32m4(s2, s2, vl), 1.0f, vl);
      // h = (1 - u) n + u h = n + u (h - n), rounded to half
      const vfloat32m4_t hn = __riscv_vfmacc_vv_f32m4(n, u, __riscv_vfsub_vv_f32m4(hq, n, vl), vl);
      __riscv_vse16_v_f16m2(ot + q0, __riscv_vfncvt_f_f_w_f16m2(hn, vl), vl);
    }
  }
}
