// InnerProduct (GEMV), fp32: out[o] = bias[o] + W[o][:] . x. Several weight rows per pass: each row has its
// own LMUL-4 vector accumulator (independent FMA chains, so the in-order X60 never waits on one), and each
// strip of x is loaded once and reused by every row of the pass. Full strips run at VLMAX with no vsetvl;
// the last partial strip accumulates tail-undisturbed so the other lanes keep their partial sums. Each row
// ends with one unordered reduction seeded with its bias. Rows left over below NR take 2- and 1-row passes.
// Every weight is read exactly once, so the kernel streams W at the memory rate.
#include <riscv_vector.h>
#include <stddef.h>

// Tuning knobs (kernels/README.md): the LMUL of the strips, and the rows of a full pass (the 2- and
// 1-row remainder passes cover whatever is left below any NR <= 4).
// eok-knob: LMUL = 4 in {1, 2, 4, 8}
// eok-knob: NR = 4 in {1, 2, 4}
#ifndef NR
#define NR 4
#endif
#if NR < 1 || NR > 4
#error "NR must be 1 to 4: rows() has four accumulators"
#endif

// acc_r += w_r[i..i+vl) * xv for the rows of the pass; TU: tail-undisturbed (the last, partial strip).
#define ROWS_STEP(i, vl, TU)                                                                        \
  do {                                                                                              \
    vfloat32m4_t xv_ = __riscv_vle32_v_f32m4(x + (i), (vl));                                        \
    a0 = __riscv_vfmacc_vv_f32m4##TU(a0, __riscv_vle32_v_f32m4(w + (i), (vl)), xv_, (vl));          \
    if (nr > 1) a1 = __riscv_vfmacc_vv_f32m4##TU(a1, __riscv_vle32_v_f32m4(w + n + (i), (vl)), xv_, (vl)); \
    if (nr > 2) a2 = __riscv_vfmacc_vv_f32m4##TU(a2, __riscv_vle32_v_f32m4(w + 2 * n + (i), (vl)), xv_, (vl)); \
    if (nr > 3) a3 = __riscv_vfmacc_vv_f32m4##TU(a3, __riscv_vle32_v_f32m4(w + 3 * n + (i), (vl)), xv_, (vl)); \
  } while (0)

// b + sum(acc), one unordered reduction seeded with the bias.
static inline float row_sum(vfloat32m4_t acc, float b, size_t vlmax) {
  return __riscv_vfmv_f_s_f32m1_f32(__riscv_vfredusum_vs_f32m4_f32m1(acc, __riscv_vfmv_s_f_f32m1(b, 1), vlmax));
}

// nr rows starting at w (row length n): a compile-time nr after inlining drops the unused accumulators.
static inline __attribute__((always_inline)) void rows(const float *x, const float *w, size_t n,
                                                       const float *b, float *y, int nr) {
  const size_t vlmax = __riscv_vsetvlmax_e32m4();
  vfloat32m4_t a0 = __riscv_vfmv_v_f_f32m4(0.0f, vlmax);
  vfloat32m4_t a1 = a0, a2 = a0, a3 = a0;
  size_t i = 0;
  for (; i + vlmax <= n; i += vlmax) ROWS_STEP(i, vlmax, );
  if (i < n) {
    const size_t vl = __riscv_vsetvl_e32m4(n - i);
    ROWS_STEP(i, vl, _tu);
  }
  y[0] = row_sum(a0, b[0], vlmax);
  if (nr > 1) y[1] = row_sum(a1, b[1], vlmax);
  if (nr > 2) y[2] = row_sum(a2, b[2], vlmax);
  if (nr > 3) y[3] = row_sum(a3, b[3], vlmax);
}

void innerproduct_f32(const float *x, const float *W, const float *bias, float *out, int num_input, int num_output) {
  if (num_output <= 0) return;
  const size_t n = num_input > 0 ? (size_t)num_input : 0, m = (size_t)num_output;
  size_t o = 0;
  for (; o + NR <= m; o += NR) rows(x, W + o * n, n, bias + o, out + o, NR);
  if (m - o >= 2) {
    rows(x, W + o * n, n, bias + o, out + o, 2);
    o += 2;
  }
  if (m - o >= 1) rows(x, W + o * n, n, bias + o, out + o, 1);
}
