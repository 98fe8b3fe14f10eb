// Softmax over the middle axis of x[outer][axis_len][inner], fp32, in place, three passes (max,
// exp-and-sum, scale), LMUL 4. inner == 1: each row is contiguous, so max and sum are kept as vector
// partials (tail-undisturbed) and reduced once per row. inner > 1: vectorise across inner, walking the
// axis with unit-stride loads at stride inner, so no reduction is needed at all. exp: Cody-Waite
// reduction, degree-6 polynomial, 2^n from the bits of a rounding shifter (argument is <= 0 here).
#include <riscv_vector.h>
#include <math.h>
#include <stddef.h>

// Tuning knob (kernels/README.md): the LMUL every vector op runs at.
// eok-knob: LMUL = 4 in {1, 2, 4, 8}

// e^x for x <= 0 (x = value - max). Below -88, n reaches -127 and the scale comes out as +0.
static inline vfloat32m4_t exp_nonpos(vfloat32m4_t x, size_t vl) {
  const float shifter = 0x1.8p23f + 127.0f;  // x*log2(e) + shifter rounds to n; low bits hold n + 127
  x = __riscv_vfmax_vf_f32m4(x, -88.0f, vl);
  vfloat32m4_t fn = __riscv_vfmacc_vf_f32m4(__riscv_vfmv_v_f_f32m4(shifter, vl), 1.44269504f, x, vl);
  vfloat32m4_t nf = __riscv_vfsub_vf_f32m4(fn, shifter, vl);
  vfloat32m4_t r = __riscv_vfnmsac_vf_f32m4(x, 0.693359375f, nf, vl);  // ln2 split: n * hi is exact
  r = __riscv_vfnmsac_vf_f32m4(r, -2.12194440e-4f, nf, vl);
  // e^r ~ (1 + r) + r^2 ((c2 + c3 r) + r^2 (c4 + c5 r + c6 r^2)), near-minimax, rel. error ~1e-8
  vfloat32m4_t r2 = __riscv_vfmul_vv_f32m4(r, r, vl);
  vfloat32m4_t lo = __riscv_vfadd_vf_f32m4(r, 1.0f, vl);
  vfloat32m4_t mid = __riscv_vfadd_vf_f32m4(__riscv_vfmul_vf_f32m4(r, 1.6666573286e-1f, vl), 0.5f, vl);
  vfloat32m4_t hi = __riscv_vfadd_vf_f32m4(__riscv_vfmul_vf_f32m4(r, 8.3637740463e-3f, vl), 4.1666548699e-2f, vl);
  hi = __riscv_vfmacc_vf_f32m4(hi, 1.3926926767e-3f, r2, vl);
  vfloat32m4_t y = __riscv_vfmadd_vv_f32m4(hi, r2, mid, vl);
  y = __riscv_vfmadd_vv_f32m4(y, r2, lo, vl);
  vint32m4_t bits = __riscv_vsll_vx_i32m4(__riscv_vreinterpret_v_f32m4_i32m4(fn), 23, vl);
  return __riscv_vfmul_vv_f32m4(y, __riscv_vreinterpret_v_i32m4_f32m4(bits), vl);
}

// One contiguous row of length len >= 1.
static void softmax_row(float *p, size_t len) {
  const size_t vlmax = __riscv_vsetvlmax_e32m4();
  // max: two partial-max vectors so consecutive loads do not wait on one another
  vfloat32m4_t m0 = __riscv_vfmv_v_f_f32m4(-INFINITY, vlmax);
  vfloat32m4_t m1 = m0;
  size_t i = 0;
  for (; i + 2 * vlmax <= len; i += 2 * vlmax) {
    m0 = __riscv_vfmax_vv_f32m4(m0, __riscv_vle32_v_f32m4(p + i, vlmax), vlmax);
    m1 = __riscv_vfmax_vv_f32m4(m1, __riscv_vle32_v_f32m4(p + i + vlmax, vlmax), vlmax);
  }
  for (size_t vl; i < len; i += vl) {
    vl = __riscv_vsetvl_e32m4(len - i);
    m0 = __riscv_vfmax_vv_f32m4_tu(m0, m0, __riscv_vle32_v_f32m4(p + i, vl), vl);
  }
  m0 = __riscv_vfmax_vv_f32m4(m0, m1, vlmax);
  const float max = __riscv_vfmv_f_s_f32m1_f32(
      __riscv_vfredmax_vs_f32m4_f32m1(m0, __riscv_vfmv_s_f_f32m1(-INFINITY, 1), vlmax));

  // e = exp(x - max), stored back; per-lane partial sums. Full strips first so the loop needs no
  // vsetvli; the tail strip adds tail-undisturbed so the other lanes keep their partial sums.
  vfloat32m4_t s = __riscv_vfmv_v_f_f32m4(0.0f, vlmax);
  i = 0;
  for (; i + vlmax <= len; i += vlmax) {
    vfloat32m4_t e = exp_nonpos(__riscv_vfsub_vf_f32m4(__riscv_vle32_v_f32m4(p + i, vlmax), max, vlmax), vlmax);
    __riscv_vse32_v_f32m4(p + i, e, vlmax);
    s = __riscv_vfadd_vv_f32m4(s, e, vlmax);
  }
  if (i < len) {
    const size_t vl = __riscv_vsetvl_e32m4(len - i);
    vfloat32m4_t e = exp_nonpos(__riscv_vfsub_vf_f32m4(__riscv_vle32_v_f32m4(p + i, vl), max, vl), vl);
    __riscv_vse32_v_f32m4(p + i, e, vl);
    s = __riscv_vfadd_vv_f32m4_tu(s, s, e, vl);
  }
  const float sum = __riscv_vfmv_f_s_f32m1_f32(
      __riscv_vfredusum_vs_f32m4_f32m1(s, __riscv_vfmv_s_f_f32m1(0.0f, 1), vlmax));

  // scale by 1/sum: one scalar division per row; two strips per iteration as in the max pass
  const float inv = 1.0f / sum;
  i = 0;
  for (; i + 2 * vlmax <= len; i += 2 * vlmax) {
    vfloat32m4_t a = __riscv_vle32_v_f32m4(p + i, vlmax);
    vfloat32m4_t b = __riscv_vle32_v_f32m4(p + i + vlmax, vlmax);
    __riscv_vse32_v_f32m4(p + i, __riscv_vfmul_vf_f32m4(a, inv, vlmax), vlmax);
    __riscv_vse32_v_f32m4(p + i + vlmax, __riscv_vfmul_vf_f32m4(b, inv, vlmax), vlmax);
  }
  for (size_t vl; i < len; i += vl) {
    vl = __riscv_vsetvl_e32m4(len - i);
    __riscv_vse32_v_f32m4(p + i, __riscv_vfmul_vf_f32m4(__riscv_vle32_v_f32m4(p + i, vl), inv, vl), vl);
  }
}

// One [len][inner] slab, inner > 1: lanes are independent softmaxes along the axis.
static void softmax_cols(float *p, size_t len, size_t inner) {
  for (size_t vl, j = 0; j < inner; j += vl) {
    vl = __riscv_vsetvl_e32m4(inner - j);
    float *c = p + j;
    vfloat32m4_t m = __riscv_vle32_v_f32m4(c, vl);
    for (size_t a = 1; a < len; a++) m = __riscv_vfmax_vv_f32m4(m, __riscv_vle32_v_f32m4(c + a * inner, vl), vl);

    vfloat32m4_t s = __riscv_vfmv_v_f_f32m4(0.0f, vl);
    for (size_t a = 0; a < len; a++) {
      vfloat32m4_t e = exp_nonpos(__riscv_vfsub_vv_f32m4(__riscv_vle32_v_f32m4(c + a * inner, vl), m, vl), vl);
      __riscv_vse32_v_f32m4(c + a * inner, e, vl);
      s = __riscv_vfadd_vv_f32m4(s, e, vl);
    }

    // 1/s by vfrec7 and two Newton steps (s >= 1, since the max term contributes e^0)
    vfloat32m4_t q = __riscv_vfrec7_v_f32m4(s, vl);
    q = __riscv_vfmul_vv_f32m4(q, __riscv_vfrsub_vf_f32m4(__riscv_vfmul_vv_f32m4(s, q, vl), 2.0f, vl), vl);
    q = __riscv_vfmul_vv_f32m4(q, __riscv_vfrsub_vf_f32m4(__riscv_vfmul_vv_f32m4(s, q, vl), 2.0f, vl), vl);
    for (size_t a = 0; a < len; a++)
      __riscv_vse32_v_f32m4(c + a * inner, __riscv_vfmul_vv_f32m4(__riscv_vle32_v_f32m4(c + a * inner, vl), q, vl), vl);
  }
}

void softmax_f32(float *x, int outer, int axis_len, int inner) {
  if (outer <= 0 || axis_len <= 0 || inner <= 0) return;
  const size_t len = (size_t)axis_len, in = (size_t)inner, slab = len * in;
  for (size_t o = 0; o < (size_t)outer; o++) {
    if (in == 1)
      softmax_row(x + o * slab, len);
    else
      softmax_cols(x + o * slab, len, in);
  }
}
