// GEMM, fp32, row-major C = A B. Register-tiled outer product: a tile is 4 rows x one LMUL-4 vector of
// columns (32 floats at VLEN 256), 4 accumulators = 16 vector registers; each k step loads one row strip
// of B and does 4 vfmacc.vf with scalars of A. The k loop is unrolled by 2 with the next B row loaded
// ahead of the current FMAs (the in-order X60 would otherwise wait on every load). Remainder rows use
// 2- and 1-row tiles, the column tail a shorter vl. K is blocked (KC) so the B block being reused by
// all row tiles of a column strip stays in L1.
#include <riscv_vector.h>
#include <stddef.h>

// Tuning knobs (kernels/README.md): the LMUL of the column strip, the rows of a full register tile (the
// 2- and 1-row remainder tiles cover whatever is left below any MR <= 4), and the K block.
// eok-knob: LMUL = 4 in {1, 2, 4, 8}
// eok-knob: MR = 4 in {1, 2, 3, 4}
// eok-knob: KC = 256 in {32, 64, 128, 256}
#ifndef MR
#define MR 4
#endif
#if MR < 1 || MR > 4
#error "MR must be 1 to 4: tile() has four accumulators"
#endif
#ifndef KC
#define KC 256
#endif

// One k step of the tile: acc[r] += a[r][k] * bk.
#define TILE_STEP(kk, bk)                                                            \
  do {                                                                               \
    const float *ak_ = a + (kk);                                                     \
    c0 = __riscv_vfmacc_vf_f32m4(c0, ak_[0], (bk), vl);                              \
    if (mr > 1) c1 = __riscv_vfmacc_vf_f32m4(c1, ak_[lda], (bk), vl);                \
    if (mr > 2) c2 = __riscv_vfmacc_vf_f32m4(c2, ak_[2 * lda], (bk), vl);            \
    if (mr > 3) c3 = __riscv_vfmacc_vf_f32m4(c3, ak_[3 * lda], (bk), vl);            \
  } while (0)

// C[0..mr)[0..vl) = (first ? 0 : C) + A[0..mr)[0..kc) * B[0..kc)[0..vl), kc >= 1. mr is a
// compile-time constant after inlining, so the unused accumulators disappear.
static inline __attribute__((always_inline)) void tile(const float *a, size_t lda, const float *b, size_t ldb,
                                                       float *c, size_t ldc, size_t kc, size_t vl, int mr,
                                                       int first) {
  vfloat32m4_t c0, c1, c2, c3;
  if (first) {
    c0 = c1 = c2 = c3 = __riscv_vfmv_v_f_f32m4(0.0f, vl);
  } else {
    c0 = __riscv_vle32_v_f32m4(c, vl);
    c1 = mr > 1 ? __riscv_vle32_v_f32m4(c + ldc, vl) : c0;
    c2 = mr > 2 ? __riscv_vle32_v_f32m4(c + 2 * ldc, vl) : c0;
    c3 = mr > 3 ? __riscv_vle32_v_f32m4(c + 3 * ldc, vl) : c0;
  }
  // b0 always holds row k, loaded one step early; rows past kc - 1 are never touched.
  vfloat32m4_t b0 = __riscv_vle32_v_f32m4(b, vl);
  size_t k = 0;
  for (; k + 2 < kc; k += 2) {
    vfloat32m4_t b1 = __riscv_vle32_v_f32m4(b + (k + 1) * ldb, vl);
    TILE_STEP(k, b0);
    b0 = __riscv_vle32_v_f32m4(b + (k + 2) * ldb, vl);
    TILE_STEP(k + 1, b1);
  }
  if (k + 1 < kc) {
    vfloat32m4_t b1 = __riscv_vle32_v_f32m4(b + (k + 1) * ldb, vl);
    TILE_STEP(k, b0);
    TILE_STEP(k + 1, b1);
  } else {
    TILE_STEP(k, b0);
  }
  __riscv_vse32_v_f32m4(c, c0, vl);
  if (mr > 1) __riscv_vse32_v_f32m4(c + ldc, c1, vl);
  if (mr > 2) __riscv_vse32_v_f32m4(c + 2 * ldc, c2, vl);
  if (mr > 3) __riscv_vse32_v_f32m4(c + 3 * ldc, c3, vl);
}

// All row tiles of the column strip [j, j + vl) for the K block [k0, k0 + kc).
static inline __attribute__((always_inline)) void strip(const float *A, const float *B, float *C, size_t M,
                                                        size_t N, size_t K, size_t k0, size_t kc, size_t j,
                                                        size_t vl, int first) {
  const float *b = B + k0 * N + j;
  size_t i = 0;
  for (; i + MR <= M; i += MR) tile(A + i * K + k0, K, b, N, C + i * N + j, N, kc, vl, MR, first);
  if (M - i >= 2) {
    tile(A + i * K + k0, K, b, N, C + i * N + j, N, kc, vl, 2, first);
    i += 2;
  }
  if (M - i >= 1) tile(A + i * K + k0, K, b, N, C + i * N + j, N, kc, vl, 1, first);
}

void gemm_f32(const float *A, const float *B, float *C, int M, int N, int K) {
  if (M <= 0 || N <= 0) return;
  const size_t m = (size_t)M, n = (size_t)N, kk = K > 0 ? (size_t)K : 0;
  for (size_t vl, j = 0; j < n; j += vl) {
    vl = __riscv_vsetvl_e32m4(n - j);
    if (kk == 0) {  // empty sum: C = 0
      for (size_t i = 0; i < m; i++) __riscv_vse32_v_f32m4(C + i * n + j, __riscv_vfmv_v_f_f32m4(0.0f, vl), vl);
      continue;
    }
    strip(A, B, C, m, n, kk, 0, kk < KC ? kk : KC, j, vl, 1);  // first K block overwrites C
    for (size_t k0 = KC; k0 < kk; k0 += KC) strip(A, B, C, m, n, kk, k0, kk - k0 < KC ? kk - k0 : KC, j, vl, 0);
  }
}
