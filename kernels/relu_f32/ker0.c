// ReLU, fp32, in place: vfmax with +0 (turns NaN and -0 into +0, as the reference does). LMUL 4, two
// independent strips per iteration so that the second load overlaps the first one's latency on the
// in-order X60 (m4 loads/stores also cost less per element there than m8); the tail is strip-mined.
#include <riscv_vector.h>
#include <stddef.h>

void relu_f32(float *x, size_t n) {
  const size_t vlmax = __riscv_vsetvlmax_e32m4();
  for (; n >= 2 * vlmax; n -= 2 * vlmax, x += 2 * vlmax) {
    vfloat32m4_t a = __riscv_vle32_v_f32m4(x, vlmax);
    vfloat32m4_t b = __riscv_vle32_v_f32m4(x + vlmax, vlmax);
    __riscv_vse32_v_f32m4(x, __riscv_vfmax_vf_f32m4(a, 0.0f, vlmax), vlmax);
    __riscv_vse32_v_f32m4(x + vlmax, __riscv_vfmax_vf_f32m4(b, 0.0f, vlmax), vlmax);
  }
  for (size_t vl; n > 0; n -= vl, x += vl) {
    vl = __riscv_vsetvl_e32m4(n);
    __riscv_vse32_v_f32m4(x, __riscv_vfmax_vf_f32m4(__riscv_vle32_v_f32m4(x, vl), 0.0f, vl), vl);
  }
}
