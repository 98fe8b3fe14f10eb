// InnerProduct (GEMV), fp16 storage: out[o] = bias[o] + W[o][:] . x. The products are accumulated in fp32
// with vfwmacc (half LMUL-2 strips widened into LMUL-4 fp32 accumulators): a sum of hundreds of half
// products kept in half precision drifts past the f16_accum tolerance (a plain half-accumulating loop fails
// at the timed size, 512 terms), and the widening FMA costs the same per element as an fp32 FMA while the
// weights still stream at half the bytes. Several weight rows per pass, each with its own accumulator
// (independent FMA chains); each strip of x is loaded once and reused by all rows of the pass. Full strips
// run at VLMAX with no vsetvl, the last partial strip accumulates tail-undisturbed. Each row ends with one
// fp32 reduction seeded with its bias, rounded once to half.
#include <riscv_vector.h>
#include <stddef.h>

// Tuning knobs (kernels/README.md): the LMUL of the fp32 accumulators (the half strips use half of it),
// and the rows of a full pass (2- and 1-row remainder passes cover what is left below any NR <= 4).
// eok-knob: LMUL = 4 in {1, 2, 4, 8}
// eok-knob: NR = 4 in {1, 2, 4}
#ifndef NR
#define NR 4
#endif
#if NR < 1 || NR > 4
#error "NR must be 1 to 4: rows() has four accumulators"
#endif

// acc_r += widen(w_r[i..i+vl) * xv) for the rows of the pass; TU: tail-undisturbed (the last strip).
#define ROWS_STEP(i, vl, TU)                                                                              \
  do {                                                                                                    \
    vfloat16m2_t xv_ = __riscv_vle16_v_f16m2(x + (i), (vl));                                              \
    a0 = __riscv_vfwmacc_vv_f32m4##TU(a0, __riscv_vle16_v_f16m2(w + (i), (vl)), xv_, (vl));               \
    if (nr > 1) a1 = __riscv_vfwmacc_vv_f32m4##TU(a1, __riscv_vle16_v_f16m2(w + n + (i), (vl)), xv_, (vl)); \
    if (nr > 2) a2 = __riscv_vfwmacc_vv_f32m4##TU(a2, __riscv_vle16_v_f16m2(w + 2 * n + (i), (vl)), xv_, (vl)); \
    if (nr > 3) a3 = __riscv_vfwmacc_vv_f32m4##TU(a3, __riscv_vle16_v_f16m2(w + 3 * n + (i), (vl)), xv_, (vl)); \
  } while (0)

// half(b + sum(acc)), one unordered fp32 reduction seeded with the bias.
static inline _Float16 row_sum(vfloat32m4_t acc, _Float16 b, size_t vlmax) {
  return (_Float16)__riscv_vfmv_f_s_f32m1_f32(
      __riscv_vfredusum_vs_f32m4_f32m1(acc, __riscv_vfmv_s_f_f32m1((float)b, 1), vlmax));
}

// nr rows starting at w (row length n): a compile-time nr after inlining drops the unused accumulators.
static inline __attribute__((always_inline)) void rows(const _Float16 *x, const _Float16 *w, size_t n,
                                                       const _Float16 *b, _Float16 *y, int nr) {
  const size_t vlmax = __riscv_vsetvlmax_e32m4();  // = the half strip length at e16m2
  vfloat32m4_t a0 = __riscv_vfmv_v_f_f32m4(0.0f, vlmax);
  vfloat32m4_t a1 = a0, a2 = a0, a3 = a0;
  size_t i = 0;
  for (; i + vlmax <= n; i += vlmax) ROWS_STEP(i, vlmax, );
  if (i < n) {
    const size_t vl = __riscv_vsetvl_e16m2(n - i);
    ROWS_STEP(i, vl, _tu);
  }
  y[0] = row_sum(a0, b[0], vlmax);
  if (nr > 1) y[1] = row_sum(a1, b[1], vlmax);
  if (nr > 2) y[2] = row_sum(a2, b[2], vlmax);
  if (nr > 3) y[3] = row_sum(a3, b[3], vlmax);
}

void innerproduct_f16(const _Float16 *x, const _Float16 *W, const _Float16 *bias, _Float16 *out, int num_input,
                      int num_output) {
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
