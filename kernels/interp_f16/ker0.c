// Bilinear resize, half-pixel centres (NCNN Interp resize_type 2, align_corner 0), fp16 storage and
// arithmetic, planar x[c][h][w] -> out[c][oh][ow]. Separable, as NCNN's resize_bilinear_image: the
// per-column source byte offset and right-tap weight and the per-row source row and lower-row weight are
// computed once (coordinates in double like NCNN's linear_coeffs, which also pins the last tap: s = in-2
// with weight 1; only the weights are rounded to half). Per channel, two source rows are interpolated
// along w into stack buffers r0, r1: the taps are gathered with vluxei32 (u32 byte offsets, so any w) and
// combined in half as p0 + a*(p1-p0). Output rows that map to the same source pair reuse both buffers;
// when the pair advances by one row, r1 becomes r0 and only the new r1 is interpolated. The output rows
// are then r0 + b*(r1-r0) along w, written for the whole run of rows that share the source pair at once:
// per strip r0 and r1 - r0 are loaded and formed once, then one vfmacc and one store per row of the run.
// f16 data at LMUL 4 (64 halves per op) with u32 offsets at LMUL 8 (on the X60 a strip costs by LMUL, so
// the fewest strips win: the knob tuner measured LMUL 2 0.87x, 1 0.62x of it); strips end with a shorter vl.
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

// Tuning knob (kernels/README.md): the LMUL of the f16 data (the u32 gather offsets are at twice it).
// eok-knob: LMUL = 4 in {1, 2, 4}

// Taps along one axis for output index d: left/top tap s (s + 1 is the other) and the weight of s + 1.
static inline void taps(int in, int out, int d, int *s_out, _Float16 *a_out) {
  double f = (d + 0.5) * ((double)in / out) - 0.5;
  if (f < 0) f = 0;
  int s = (int)f;
  double a = f - s;
  if (s >= in - 1) {  // past the last centre: all weight on the last pixel
    s = in - 2;
    a = 1.0;
  }
  if (in == 1) {  // a single pixel: both taps are it
    s = 0;
    a = 0.0;
  }
  *s_out = s;
  *a_out = (_Float16)a;
}

// r[i] = S[xofs[i]] + xa[i] * (S[xofs[i] + t] - S[xofs[i]]), offsets in bytes, t = 1 half (0 if w == 1).
static inline void hinterp(_Float16 *r, const _Float16 *S, const uint32_t *xofs, const _Float16 *xa, size_t n,
                           size_t t) {
  for (size_t vl, i = 0; i < n; i += vl) {
    vl = __riscv_vsetvl_e16m4(n - i);
    vuint32m8_t idx = __riscv_vle32_v_u32m8(xofs + i, vl);
    vfloat16m4_t p0 = __riscv_vluxei32_v_f16m4(S, idx, vl);
    vfloat16m4_t p1 = __riscv_vluxei32_v_f16m4(S + t, idx, vl);
    vfloat16m4_t a = __riscv_vle16_v_f16m4(xa + i, vl);
    __riscv_vse16_v_f16m4(r + i, __riscv_vfmacc_vv_f16m4(p0, a, __riscv_vfsub_vv_f16m4(p1, p0, vl), vl), vl);
  }
}

void interp_f16(const _Float16 *x, _Float16 *out, int c, int h, int w, int oh, int ow) {
  if (c <= 0 || h <= 0 || w <= 0 || oh <= 0 || ow <= 0) return;
  const size_t OW = (size_t)ow, OH = (size_t)oh, W = (size_t)w, plane = (size_t)h * W;
  const size_t t = w > 1 ? 1 : 0, ty = h > 1 ? W : 0;  // step to the second tap along w and along h
  uint32_t xofs[OW];
  _Float16 xa[OW], ya[OH], rows[2 * OW];
  int yofs[OH];
  // Scalar on purpose: clang would vectorise these loops with vfncvt.rtz, which QEMU 7.2 cannot translate.
#pragma clang loop vectorize(disable)
  for (int d = 0; d < ow; d++) {
    int s;
    taps(w, ow, d, &s, &xa[d]);
    xofs[d] = (uint32_t)s * sizeof(_Float16);
  }
#pragma clang loop vectorize(disable)
  for (int d = 0; d < oh; d++) taps(h, oh, d, &yofs[d], &ya[d]);

  for (size_t q = 0; q < (size_t)c; q++) {
    const _Float16 *src = x + q * plane;
    _Float16 *r0 = rows, *r1 = rows + OW;
    int prev = -2;  // source row held in r0; -2: none
    for (size_t dy = 0; dy < OH;) {
      const int sy = yofs[dy];
      if (sy != prev) {
        if (sy == prev + 1) {  // slide the pair down by one row
          _Float16 *tmp = r0;
          r0 = r1;
          r1 = tmp;
        } else {
          hinterp(r0, src + (size_t)sy * W, xofs, xa, OW, t);
        }
        hinterp(r1, src + (size_t)sy * W + ty, xofs, xa, OW, t);
        prev = sy;
      }
      // the run of output rows [dy, dy + k) that share this source pair
      size_t k = 1;
      while (dy + k < OH && yofs[dy + k] == sy) k++;
      const _Float16 *b = ya + dy;
      for (size_t vl, i = 0; i < OW; i += vl) {
        vl = __riscv_vsetvl_e16m4(OW - i);
        vfloat16m4_t v0 = __riscv_vle16_v_f16m4(r0 + i, vl);
        vfloat16m4_t d = __riscv_vfsub_vv_f16m4(__riscv_vle16_v_f16m4(r1 + i, vl), v0, vl);
        _Float16 *o = out + i;
        for (size_t j = 0; j < k; j++, o += OW) __riscv_vse16_v_f16m4(o, __riscv_vfmacc_vf_f16m4(v0, b[j], d, vl), vl);
      }
      out += k * OW;
      dy += k;
    }
  }
}
