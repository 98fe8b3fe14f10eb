// Concat of planar a[ca][h][wa] and b[cb][h][wb], fp32. Both axes are the same shape of work: out is a
// sequence of rows, each a piece of a followed by a piece of b. axis 0 (channels) is a single row of
// ca*h*wa then cb*h*wb elements; axis 2 (width) is ca*h rows of wa then wb. Each piece is copied with
// unit-stride vle32/vse32: full LMUL-8 strips, then the remainder at the smallest LMUL that holds it. On
// the X60 a load or store costs by its LMUL, not by vl (m8 ~17-20 cycles, m1 ~2.5), so a 20-float row at
// m8 would pay four times what it needs; with the dispatch a short row costs one vsetvl, one load and one
// store of the right size. Pure data movement: DRAM traffic bounds it, the aim is a small per-row cost.
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

void concat_f32(const float *a, const float *b, float *out, int ca, int cb, int h, int wa, int wb, int axis) {
  if (h <= 0) return;
  size_t rows, la, lb;
  if (axis == 0) {
    rows = 1;
    la = ca > 0 && wa > 0 ? (size_t)ca * h * wa : 0;
    lb = cb > 0 && wb > 0 ? (size_t)cb * h * wb : 0;
  } else {
    if (ca <= 0) return;
    rows = (size_t)ca * h;
    la = wa > 0 ? (size_t)wa : 0;
    lb = wb > 0 ? (size_t)wb : 0;
  }
  for (size_t r = 0; r < rows; r++) {
    copy_f32(out, a, la);
    copy_f32(out + la, b, lb);
    a += la;
    b += lb;
    out += la + lb;
  }
}
