// NCNN Pooling, fp32, planar [c][h][w], square kernel k, stride s, padding p, floor-mode output size;
// pooling_type 0 = max, 1 = average over the window's input elements (padding not counted).
// Separable, per output row: (1) a vertical pass reduces the valid input rows of the window (max or sum,
// unit-stride LMUL-8 loads) into a row buffer that carries p neutral elements (-inf / 0) on each side, so
// (2) the horizontal pass needs no border cases: out[j] = reduce over kw of row[j*s + kw].
// Horizontal pass, vectorised along the output row (LMUL 4):
// - s = 1: k unit-stride loads at offsets 0..k-1;
// - s = 2, k = 2 or 3: one unit-stride load of 2*vl floats, seen as vl 64-bit pairs and split by vnsrl
//   into the even and odd columns (a strided load costs one cycle per element on the X60, the split half
//   that); the third tap is the even columns slid down by one with the next even element appended;
// - otherwise: one strided load (vlse32) per tap.
// Average: the row sum times 1/(valid rows) times 1/(valid columns of window j) (precomputed once).
#include <riscv_vector.h>
#include <stddef.h>

// Tuning knob (kernels/README.md): the LMUL of the output vectors (the vertical pass and the 2*vl-float
// loads of the stride-2 split run at twice it).
// eok-knob: LMUL = 4 in {1, 2, 4}

// Horizontal modes: 0 unit-stride taps (s = 1), 1 even/odd split (s = 2, k = 2 or 3), 2 strided taps.
// Every (avg, mode) pair is its own always-inlined copy, so the row loops carry no per-strip dispatch.
static inline __attribute__((always_inline)) void pool_plane(const float *xc, float *yc, float *row,
                                                             const float *inv_cols, int h, int w, int outh,
                                                             int outw, int k, int s, int p, const int avg,
                                                             const int mode) {
  for (int i = 0; i < outh; i++, yc += outw) {
    const int y0 = i * s - p;
    const int r0 = y0 > 0 ? y0 : 0, r1 = y0 + k < h ? y0 + k : h;
    // (1) vertical reduction of rows r0..r1-1 into row[p .. p+w)
    const float *x0 = xc + (size_t)r0 * w;
    for (int j = 0; j < w;) {
      const size_t vl = __riscv_vsetvl_e32m8((size_t)(w - j));
      const float *xj = x0 + j;
      vfloat32m8_t v = __riscv_vle32_v_f32m8(xj, vl);
      for (int r = r0 + 1; r < r1; r++) {
        xj += w;
        vfloat32m8_t u = __riscv_vle32_v_f32m8(xj, vl);
        v = avg ? __riscv_vfadd_vv_f32m8(v, u, vl) : __riscv_vfmax_vv_f32m8(v, u, vl);
      }
      __riscv_vse32_v_f32m8(row + p + j, v, vl);
      j += (int)vl;
    }
    const float inv_rows = avg ? 1.0f / (float)(r1 - r0) : 1.0f;
    // (2) horizontal reduction along the output row
    for (int j = 0; j < outw;) {
      const size_t vl = __riscv_vsetvl_e32m4((size_t)(outw - j));
      const float *rj = row + (size_t)j * s;
      vfloat32m4_t acc;
      if (mode == 0) {
        acc = __riscv_vle32_v_f32m4(rj, vl);
        for (int t = 1; t < k; t++) {
          vfloat32m4_t u = __riscv_vle32_v_f32m4(rj + t, vl);
          acc = avg ? __riscv_vfadd_vv_f32m4(acc, u, vl) : __riscv_vfmax_vv_f32m4(acc, u, vl);
        }
      } else if (mode == 1) {
        // row[2j + 2vl - 1] may lie past the last window (k = 2 reads it, k = 3 the element after it)
        // but never past the buffer: 2(outw - 1) + k <= wp
        vfloat32m8_t pair = __riscv_vle32_v_f32m8(rj, 2 * vl);
        vuint64m8_t pair64 = __riscv_vreinterpret_v_u32m8_u64m8(__riscv_vreinterpret_v_f32m8_u32m8(pair));
        vfloat32m4_t even = __riscv_vreinterpret_v_u32m4_f32m4(__riscv_vnsrl_wx_u32m4(pair64, 0, vl));
        vfloat32m4_t odd = __riscv_vreinterpret_v_u32m4_f32m4(__riscv_vnsrl_wx_u32m4(pair64, 32, vl));
        acc = avg ? __riscv_vfadd_vv_f32m4(even, odd, vl) : __riscv_vfmax_vv_f32m4(even, odd, vl);
        if (k == 3) {
          vfloat32m4_t next = __riscv_vfslide1down_vf_f32m4(even, rj[2 * vl], vl);
          acc = avg ? __riscv_vfadd_vv_f32m4(acc, next, vl) : __riscv_vfmax_vv_f32m4(acc, next, vl);
        }
      } else {
        const ptrdiff_t stride = (ptrdiff_t)s * (ptrdiff_t)sizeof(float);
        acc = __riscv_vlse32_v_f32m4(rj, stride, vl);
        for (int t = 1; t < k; t++) {
          vfloat32m4_t u = __riscv_vlse32_v_f32m4(rj + t, stride, vl);
          acc = avg ? __riscv_vfadd_vv_f32m4(acc, u, vl) : __riscv_vfmax_vv_f32m4(acc, u, vl);
        }
      }
      if (avg) {
        acc = __riscv_vfmul_vf_f32m4(acc, inv_rows, vl);
        acc = __riscv_vfmul_vv_f32m4(acc, __riscv_vle32_v_f32m4(inv_cols + j, vl), vl);
      }
      __riscv_vse32_v_f32m4(yc + j, acc, vl);
      j += (int)vl;
    }
  }
}

void pooling_f32(const float *x, float *y, int c, int h, int w, int k, int s, int p, int pooling_type) {
  const int outh = (h + 2 * p - k) / s + 1, outw = (w + 2 * p - k) / s + 1;
  if (c <= 0 || outh <= 0 || outw <= 0) return;
  const int wp = w + 2 * p;
  const int avg = pooling_type != 0;
  const int mode = s == 1 ? 0 : (s == 2 && (k == 2 || k == 3)) ? 1 : 2;
  const float neutral = avg ? 0.0f : -__builtin_inff();
  float row[wp];
  float inv_cols[outw];
  for (int j = 0; j < p; j++) row[j] = row[p + w + j] = neutral;
  if (avg) {
    for (int j = 0; j < outw; j++) {
      const int x0 = j * s - p, x1 = x0 + k;
      inv_cols[j] = 1.0f / (float)((x1 < w ? x1 : w) - (x0 > 0 ? x0 : 0));
    }
  }
  for (int q = 0; q < c; q++) {
    const float *xc = x + (size_t)q * h * w;
    float *yc = y + (size_t)q * outh * outw;
#define POOL_PLANE(A, M) pool_plane(xc, yc, row, inv_cols, h, w, outh, outw, k, s, p, A, M)
    if (avg) {
      if (mode == 0) POOL_PLANE(1, 0);
      else if (mode == 1) POOL_PLANE(1, 1);
      else POOL_PLANE(1, 2);
    } else {
      if (mode == 0) POOL_PLANE(0, 0);
      else if (mode == 1) POOL_PLANE(0, 1);
      else POOL_PLANE(0, 2);
    }
#undef POOL_PLANE
  }
}
