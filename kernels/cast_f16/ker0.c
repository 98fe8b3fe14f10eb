// NCNN Cast fp16 -> fp32: one vfwcvt.f.f.v per strip (exact for every half, subnormals included), fp32
// side at LMUL 8 (64 halves in, 64 floats out per strip). The op moves 6 bytes per element against one
// conversion, so it is memory-bound; the loop is load, convert, store, strip-mined.
#include <riscv_vector.h>
#include <stddef.h>

// Tuning knob (kernels/README.md): the LMUL of the fp32 side (the fp16 side runs at half of it).
// eok-knob: LMUL = 8 in {1, 2, 4, 8}

void cast_f16(const _Float16 *x, float *y, size_t n) {
  for (size_t vl; n > 0; n -= vl, x += vl, y += vl) {
    vl = __riscv_vsetvl_e16m4(n);
    __riscv_vse32_v_f32m8(y, __riscv_vfwcvt_f_f_v_f32m8(__riscv_vle16_v_f16m4(x, vl), vl), vl);
  }
}
