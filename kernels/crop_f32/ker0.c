// Crop of planar x[c][h][w] to out[c][oh][ow] at (woff, hoff), fp32: a copy of oh rows of ow floats per
// channel. Each row is copied with unit-stride vle32/vse32: full LMUL-8 strips, then the remainder at the
// smallest LMUL that holds it. On the X60 a load or store costs by its LMUL, not by vl (m8 ~17-20 cycles,
// m1 ~2.5), so a 26-float row pays for one m4 load and store instead of m8 ones. When ow == w the crop of
// a channel is one contiguous block and is copied in one go. Pure data movement: DRAM traffic bounds it,
// the aim is a small per-row cost.
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

void crop_f32(const float *x, float *out, int c, int h, int w, int woff, int hoff, int ow, int oh) {
  if (c <= 0 || oh <= 0 || ow <= 0) return;
  const size_t W = (size_t)w, OW = (size_t)ow, OH = (size_t)oh, plane = (size_t)h * W;
  const float *src = x + (size_t)hoff * W + (size_t)woff;
  for (size_t q = 0; q < (size_t)c; q++, src += plane) {
    if (OW == W) {
      copy_f32(out, src, OH * OW);
      out += OH * OW;
      continue;
    }
    const float *s = src;
    for (size_t y = 0; y < OH; y++, s += W, out += OW) copy_f32(out, s, OW);
  }
}
