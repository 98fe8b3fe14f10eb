// Flatten, fp32: x[c][h][w] with NCNN's channel stride (cstep = h*w rounded up to a multiple of 4 floats,
// so every channel starts 16-byte aligned) into the dense out[c*h*w]. When h*w is a multiple of 4 there
// are no gaps and the whole tensor is one copy. Otherwise each channel is a copy of h*w floats: full
// LMUL-8 strips, then the remainder at the smallest LMUL that holds it. On the X60 a load or store costs
// by its LMUL, not by vl (m8 ~17-20 cycles, m1 ~2.5): a 5x5 channel is one m4 load and store, a 3x3
// channel one m2 pair. Pure data movement: DRAM traffic bounds it, the aim is a small per-channel cost.
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

void flatten_f32(const float *x, float *out, int c, int h, int w) {
  if (c <= 0 || h <= 0 || w <= 0) return;
  const size_t hw = (size_t)h * (size_t)w, cstep = (hw + 3) / 4 * 4;
  if (hw == cstep) {
    copy_f32(out, x, (size_t)c * hw);
    return;
  }
  for (size_t q = 0; q < (size_t)c; q++, x += cstep, out += hw) copy_f32(out, x, hw);
}
