// Depthwise convolution (NCNN ConvolutionDepthWise, group = channels), fp32, planar [c][h][w] ->
// [c][outh][outw], weights [c][k][k], bias [c], square kernel k, stride s, dilation d, zero padding p.
//
// Shape: vectors run along the output row (LMUL 2: 16 outputs at VLEN 256), every tap is a vfmacc.vf
// with the weight scalar. A depthwise tap does one FMA per input vector while a vector load costs the
// X60 twice an FMA, so the common 3x3 stride-1 case (pad 0 or 1) works on ROWS output rows at once:
// each of their ROWS+2 input rows is read once per strip and feeds up to three output rows, and of its
// three column shifts only two are loaded: the left shift is the centre one slid up a lane (vslide1up
// with the element left of the strip, or the zero padding, shifted in; integer slides run on the
// permute unit, beside loads and FMAs). At the right image edge the right shift is the centre one slid
// down with a zero. So the padding is never copied and no strip needs a mask. Output rows whose taps
// reach above or below the image, leftover rows and all other shapes (any k, stride, dilation, pad) go
// through a one-row path: kernel rows outside the image are skipped, taps that leave the row on either
// side load under a lane mask (zeros elsewhere), stride > 1 uses strided loads. Accumulators start
// from the bias broadcast by vmv.v.x. target("tune=spacemit-x60") lets clang schedule with the X60
// model. A cold 56x56x32 layer is close to DRAM-bound on the K1 (8 bytes moved per 9 MACs).
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

// Tuning knobs (kernels/README.md): the LMUL of the output-row vector, the output rows in flight in
// the 3x3 stride-1 path.
// eok-knob: LMUL = 2 in {1, 2, 4}
// eok-knob: ROWS = 6 in {2, 4, 6}
#ifndef ROWS
#define ROWS 6
#endif
#if ROWS < 1 || ROWS > 6
#error "ROWS must be 1 to 6"
#endif

#define X60_TUNED __attribute__((target("tune=spacemit-x60")))

// The bias broadcast by the integer unit (vmv.v.x), off the FMA pipe.
static inline vfloat32m2_t bias_vec(float b, size_t vl) {
  union {
    float f;
    int32_t i;
  } u = {b};
  return __riscv_vreinterpret_v_i32m2_f32m2(__riscv_vmv_v_x_i32m2(u.i, vl));
}

// Lanes [lo, hi) of the vector (lane ids in id).
static inline vbool16_t lanes(vuint32m2_t id, size_t lo, size_t hi, size_t vl) {
  return __riscv_vmand_mm_b16(__riscv_vmsgeu_vx_u32m2_b16(id, lo, vl), __riscv_vmsltu_vx_u32m2_b16(id, hi, vl), vl);
}

// One output row oy of one channel (any k, stride, dilation, padding). Kernel rows outside the image
// are skipped; a tap whose columns leave the image on either side loads under a mask of the lanes
// inside (the others are not read and stay zero).
X60_TUNED static void dw_row(const float *src, const float *wk, float b, float *orow, int oy, int h, int w, int k,
                             int s, int d, int p, int outw) {
  const ptrdiff_t bs = (ptrdiff_t)s * (ptrdiff_t)sizeof(float);
  const vfloat32m2_t zero = __riscv_vfmv_v_f_f32m2(0.0f, __riscv_vsetvlmax_e32m2());
  for (size_t x0 = 0, vl; x0 < (size_t)outw; x0 += vl) {
    vl = __riscv_vsetvl_e32m2((size_t)outw - x0);
    const vuint32m2_t id = __riscv_vid_v_u32m2(vl);
    vfloat32m2_t acc = bias_vec(b, vl);
    for (int ky = 0; ky < k; ky++) {
      const int iy = oy * s - p + ky * d;
      if (iy < 0 || iy >= h) continue;
      const float *row = src + (size_t)iy * w;
      for (int kx = 0; kx < k; kx++) {
        const int ix0 = (int)x0 * s - p + kx * d;  // lane 0's input column
        const float *ptr = row + ix0;              // outside the row only where masked off
        // lanes [lo, hi) have columns inside [0, w)
        const size_t lo = ix0 < 0 ? (size_t)((-ix0 + s - 1) / s) : 0;
        const size_t hi = ix0 < w ? (size_t)((w - ix0 + s - 1) / s) : 0;
        vfloat32m2_t v;
        if (lo == 0 && hi >= vl) {
          v = s == 1 ? __riscv_vle32_v_f32m2(ptr, vl) : __riscv_vlse32_v_f32m2(ptr, bs, vl);
        } else if (lo < hi && lo < vl) {
          const vbool16_t m = lanes(id, lo, hi, vl);
          v = s == 1 ? __riscv_vle32_v_f32m2_mu(m, zero, ptr, vl) : __riscv_vlse32_v_f32m2_mu(m, zero, ptr, bs, vl);
        } else {
          continue;
        }
        acc = __riscv_vfmacc_vf_f32m2(acc, wk[ky * k + kx], v, vl);
      }
    }
    __riscv_vse32_v_f32m2(orow + x0, acc, vl);
  }
}

static inline int32_t bits(const float *p) {
  int32_t i;
  __builtin_memcpy(&i, p, sizeof i);
  return i;
}

// Input row m (0 .. R+1) of R output rows in flight: the vector loads give column shifts 1 and 2, and
// shift 0 is shift 1 slid up one lane with the element left of it (or the zero padding) shifted in; at
// the right image edge shift 2 is shift 1 slid down with a zero. The integer slides run on the permute
// unit, beside the loads and the FMAs. c0, c1, c2 feed output row j with kernel row m - j.
#define DW3_FMA(m, j)                                                        \
  do {                                                                       \
    if (R > (j) && (m) >= (j) && (m) - (j) <= 2) {                           \
      a##j = __riscv_vfmacc_vf_f32m2(a##j, wk[((m) - (j)) * 3 + 0], c0, vl); \
      a##j = __riscv_vfmacc_vf_f32m2(a##j, wk[((m) - (j)) * 3 + 1], c1, vl); \
      a##j = __riscv_vfmacc_vf_f32m2(a##j, wk[((m) - (j)) * 3 + 2], c2, vl); \
    }                                                                        \
  } while (0)
#define DW3_ROW(m)                                                                                                 \
  do {                                                                                                             \
    if ((m) < R + 2) {                                                                                             \
      const float *r_ = r0 + (ptrdiff_t)(m)*w + base;                                                              \
      const vint32m2_t i1 = __riscv_vle32_v_i32m2((const int32_t *)(r_ + 1), vl);                                  \
      const vfloat32m2_t c1 = __riscv_vreinterpret_v_i32m2_f32m2(i1);                                              \
      const vfloat32m2_t c0 =                                                                                      \
          __riscv_vreinterpret_v_i32m2_f32m2(__riscv_vslide1up_vx_i32m2(i1, has_l ? bits(r_) : 0, vl));            \
      const vfloat32m2_t c2 = has_r ? __riscv_vle32_v_f32m2(r_ + 2, vl)                                            \
                                    : __riscv_vreinterpret_v_i32m2_f32m2(__riscv_vslide1down_vx_i32m2(i1, 0, vl)); \
      DW3_FMA(m, 0);                                                                                               \
      DW3_FMA(m, 1);                                                                                               \
      DW3_FMA(m, 2);                                                                                               \
      DW3_FMA(m, 3);                                                                                               \
      DW3_FMA(m, 4);                                                                                               \
      DW3_FMA(m, 5);                                                                                               \
    }                                                                                                              \
  } while (0)

// One strip [x0, x0 + vl) of R (1..6) output rows (3x3, stride 1, dilation 1, pad 0 or 1) whose input
// rows r0 .. r0 + (R+1)w lie inside the image; has_l / has_r: the input element left of column shift 0
// / right of shift 2 exists (else it is the zero padding).
static inline __attribute__((always_inline)) void dw3_strip(const float *r0, int w, const float *wk, float b, float *o,
                                                            size_t ostride, int base, size_t vl, int R, int has_l,
                                                            int has_r) {
  const vfloat32m2_t bv = bias_vec(b, vl);
  vfloat32m2_t a0 = bv, a1 = bv, a2 = bv, a3 = bv, a4 = bv, a5 = bv;
  DW3_ROW(0);
  DW3_ROW(1);
  DW3_ROW(2);
  DW3_ROW(3);
  DW3_ROW(4);
  DW3_ROW(5);
  DW3_ROW(6);
  DW3_ROW(7);
  __riscv_vse32_v_f32m2(o, a0, vl);
  if (R > 1) __riscv_vse32_v_f32m2(o + ostride, a1, vl);
  if (R > 2) __riscv_vse32_v_f32m2(o + 2 * ostride, a2, vl);
  if (R > 3) __riscv_vse32_v_f32m2(o + 3 * ostride, a3, vl);
  if (R > 4) __riscv_vse32_v_f32m2(o + 4 * ostride, a4, vl);
  if (R > 5) __riscv_vse32_v_f32m2(o + 5 * ostride, a5, vl);
}

// 3x3, stride 1, dilation 1, pad 0 or 1: output rows oy .. oy + R - 1, whose input rows oy - p ..
// oy - p + R + 1 all lie inside the image. Strips of LMUL-2 vectors (16 outputs at VLEN 256): R
// accumulators and three column shifts stay in registers.
static inline __attribute__((always_inline)) void dw3_rows(const float *src, const float *wk, float b, float *orow,
                                                           int oy, int w, int p, int outw, int R) {
  const float *r0 = src + (ptrdiff_t)(oy - p) * w;
  for (int x0 = 0, vl; x0 < outw; x0 += vl) {
    vl = (int)__riscv_vsetvl_e32m2((size_t)(outw - x0));
    const int base = x0 - p;              // input column of tap kx = 0 at lane 0
    const int has_l = base >= 0;          // else: the zero padding left of the image
    const int has_r = base + 1 + vl < w;  // else: the zero padding right of it
    float *o = orow + x0;
    if (has_l && has_r)
      dw3_strip(r0, w, wk, b, o, (size_t)outw, base, (size_t)vl, R, 1, 1);
    else if (has_r)
      dw3_strip(r0, w, wk, b, o, (size_t)outw, base, (size_t)vl, R, 0, 1);
    else if (has_l)
      dw3_strip(r0, w, wk, b, o, (size_t)outw, base, (size_t)vl, R, 1, 0);
    else
      dw3_strip(r0, w, wk, b, o, (size_t)outw, base, (size_t)vl, R, 0, 0);
  }
}

X60_TUNED static void dw3_rows_main(const float *src, const float *wk, float b, float *orow, int oy, int w, int p,
                                    int outw) {
  dw3_rows(src, wk, b, orow, oy, w, p, outw, ROWS);
}
X60_TUNED static void dw3_rows_2(const float *src, const float *wk, float b, float *orow, int oy, int w, int p,
                                 int outw) {
  dw3_rows(src, wk, b, orow, oy, w, p, outw, 2);
}

X60_TUNED void convdw_f32(const float *in, const float *weight, const float *bias, float *out, int channels, int h,
                          int w, int kernel, int stride, int dilation, int pad) {
  const int c = channels, k = kernel;
  const int s = stride, d = dilation, p = pad;
  const int outh = (h + 2 * p - d * (k - 1) - 1) / s + 1;
  const int outw = (w + 2 * p - d * (k - 1) - 1) / s + 1;
  if (c <= 0 || outh <= 0 || outw <= 0) return;
  const int fast = k == 3 && s == 1 && d == 1 && p <= 1;
  // Output rows whose three input rows all lie inside the image (3x3 stride 1): [y_lo, y_hi).
  int y_lo = p, y_hi = h - 2 + p;
  if (y_hi > outh) y_hi = outh;
  if (y_lo > y_hi) y_lo = y_hi;
  for (int ch = 0; ch < c; ch++) {
    const float *src = in + (size_t)ch * h * w;
    const float *wk = weight + (size_t)ch * k * k;
    float *dst = out + (size_t)ch * outh * outw;
    if (!fast) {
      for (int oy = 0; oy < outh; oy++) dw_row(src, wk, bias[ch], dst + (size_t)oy * outw, oy, h, w, k, s, d, p, outw);
      continue;
    }
    int oy = 0;
    for (; oy < y_lo; oy++) dw_row(src, wk, bias[ch], dst + (size_t)oy * outw, oy, h, w, k, s, d, p, outw);
    for (; oy + ROWS <= y_hi; oy += ROWS) dw3_rows_main(src, wk, bias[ch], dst + (size_t)oy * outw, oy, w, p, outw);
    for (; oy + 2 <= y_hi; oy += 2) dw3_rows_2(src, wk, bias[ch], dst + (size_t)oy * outw, oy, w, p, outw);
    for (; oy < outh; oy++) dw_row(src, wk, bias[ch], dst + (size_t)oy * outw, oy, h, w, k, s, d, p, outw);
  }
}
