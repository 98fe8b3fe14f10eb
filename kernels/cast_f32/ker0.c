// NCNN Cast fp32 -> fp16: one vfncvt.f.f.w per strip (round to nearest even under the default rounding
// mode, overflow to inf, NaN kept, subnormal results), fp32 side at LMUL 8 (64 floats in, 64 halves out
// per strip). The op moves 6 bytes per element against one conversion, so it is memory-bound; the loop is
// load, convert, store, strip-mined.
#include <riscv_vector.h>
#include <stddef.h>

// Tuning knob (kernels/README.md): the LMUL of the fp32 side (the fp16 side runs at half of it).
// eok-knob: LMUL = 8 in {1, 2, 4, 8}

void cast_f32(const float *x, _Float16 *y, size_t n) {
  for (size_t vl; n > 0; n -= vl, x += vl, y += vl) {
    vl = __riscv_vsetvl_e32m8(n);
    __riscv_vse16_v_f16m4(y, __riscv_vfncvt_f_f_w_f16m4(__riscv_vle32_v_f32m8(x, vl), vl), vl);
  }
}
