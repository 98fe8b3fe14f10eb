// Constant padding (NCNN Padding type 0), fp32: x[c][h][w] into out[c][top+h+bottom][left+w+right] with
// the border set to value. Seen in memory, out is a chain of alternating segments: a source row (w
// floats) and the gap up to the next row's data, which is left+right within a channel and
// right + (bottom+top) whole rows + left between channels (the first gap is top rows + left, the last is
// right + bottom rows). So out is written once, front to back, with one copy and one fill per source row
// and no per-channel border loops. Copies are vle32/vse32 and fills are stores of a splat made once:
// LMUL-8 strips, then the remainder at the smallest LMUL that holds it. On the X60 a load or store costs
// by its LMUL, not by vl (m8 ~17-20 cycles, m1 ~2.5), so a 2-float gap costs one m1 store. Pure data
// movement: DRAM traffic bounds it, the aim is a small per-row cost.
#include <riscv_vector.h>
#include <stddef.h>

// n elements from src to dst: LMUL-8 strips, then one strip at the smallest LMUL that holds the rest.
static inline void copy_f32(float *dst, const float *src, size_t n) {
  const size_t vl8 = __riscv_vsetvlmax_e32m8();
  for (; n >= vl8; n -= vl8, src += vl8, dst += vl8)
    __riscv_vse32_v_f32m8(dst, __riscv_vle32_v_f32m8(src, vl8), vl8);
  if (n == 0) return;
  if (n > vl8 / 4) {
    if (n > vl8 / 2) {
      size_t vl = __riscv_vsetvl_e32m8(n);
      __riscv_vse32_v_f32m8(dst, __riscv_vle32_v_f32m8(src, vl), vl);
    } else {
      size_t vl = __riscv_vsetvl_e32m4(n);
      __riscv_vse32_v_f32m4(dst, __riscv_vle32_v_f32m4(src, vl), vl);
    }
  } else if (n > vl8 / 8) {
    size_t vl = __riscv_vsetvl_e32m2(n);
    __riscv_vse32_v_f32m2(dst, __riscv_vle32_v_f32m2(src, vl), vl);
  } else {
    size_t vl = __riscv_vsetvl_e32m1(n);
    __riscv_vse32_v_f32m1(dst, __riscv_vle32_v_f32m1(src, vl), vl);
  }
}

// n copies of the splat v8 to dst (same strip plan as copy_f32; the smaller groups are v8's low part).
static inline void fill_f32(float *dst, vfloat32m8_t v8, size_t n) {
  const size_t vl8 = __riscv_vsetvlmax_e32m8();
  for (; n >= vl8; n -= vl8, dst += vl8) __riscv_vse32_v_f32m8(dst, v8, vl8);
  if (n == 0) return;
  if (n > vl8 / 4) {
    if (n > vl8 / 2) {
      __riscv_vse32_v_f32m8(dst, v8, __riscv_vsetvl_e32m8(n));
    } else {
      __riscv_vse32_v_f32m4(dst, __riscv_vlmul_trunc_v_f32m8_f32m4(v8), __riscv_vsetvl_e32m4(n));
    }
  } else if (n > vl8 / 8) {
    __riscv_vse32_v_f32m2(dst, __riscv_vlmul_trunc_v_f32m8_f32m2(v8), __riscv_vsetvl_e32m2(n));
  } else {
    __riscv_vse32_v_f32m1(dst, __riscv_vlmul_trunc_v_f32m8_f32m1(v8), __riscv_vsetvl_e32m1(n));
  }
}

void padding_f32(const float *x, float *out, int c, int h, int w, int top, int bottom, int left, int right,
                 float value) {
  if (c <= 0) return;
  const size_t C = (size_t)c, H = (size_t)h, W = (size_t)w, L = (size_t)left, R = (size_t)right;
  const size_t OW = W + L + R, OH = H + (size_t)top + (size_t)bottom;
  const vfloat32m8_t v = __riscv_vfmv_v_f_f32m8(value, __riscv_vsetvlmax_e32m8());
  if (H == 0 || W == 0) {  // no data at all: out is all border
    fill_f32(out, v, C * OH * OW);
    return;
  }
  const size_t row_gap = L + R;                                      // between rows of a channel
  const size_t chan_gap = R + ((size_t)bottom + (size_t)top) * OW + L;  // last row of q to first of q+1
  float *o = out;
  size_t gap = (size_t)top * OW + L;                                 // before the first row
  for (size_t q = 0; q < C; q++) {
    for (size_t y = 0; y < H; y++) {
      fill_f32(o, v, gap);
      o += gap;
      copy_f32(o, x, W);
      o += W;
      x += W;
      gap = y + 1 < H ? row_gap : chan_gap;
    }
  }
  fill_f32(o, v, R + (size_t)bottom * OW);                           // after the last row
}
