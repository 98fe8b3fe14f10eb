// Packing elempack 1 -> 4, fp32: planar x[c][hw] to out[c/4][hw][4], the four channels of each group
// interleaved element by element. Per group: four unit-stride vle32 of the channel rows and one vsseg4e32
// segment store, which writes field k of every segment from row k, i.e. exactly the interleave. On the X60
// a segment store of 4 x m2 costs ~24 cycles for 64 floats, against ~64 for the same data as four strided
// vsse32 (which go element by element), and the loads stay unit-stride. LMUL 2 is the largest legal group
// (4 fields x 2 registers = 8). The tail of each group is strip-mined with vsetvl.
#include <riscv_vector.h>
#include <stddef.h>

// Tuning knob (kernels/README.md): the LMUL of each field (4 fields x LMUL <= 8 registers).
// eok-knob: LMUL = 2 in {1, 2}

void packing_f32(const float *x, float *out, int c, int hw) {
  if (c <= 0 || hw <= 0) return;
  const size_t n = (size_t)hw;
  for (size_t q = 0; q < (size_t)c / 4; q++) {
    const float *r0 = x + 4 * q * n, *r1 = r0 + n, *r2 = r1 + n, *r3 = r2 + n;
    float *o = out + 4 * q * n;
    for (size_t vl, i = 0; i < n; i += vl) {
      vl = __riscv_vsetvl_e32m2(n - i);
      vfloat32m2x4_t t = __riscv_vcreate_v_f32m2x4(__riscv_vle32_v_f32m2(r0 + i, vl), __riscv_vle32_v_f32m2(r1 + i, vl),
                                                   __riscv_vle32_v_f32m2(r2 + i, vl), __riscv_vle32_v_f32m2(r3 + i, vl));
      __riscv_vsseg4e32_v_f32m2x4(o + 4 * i, t, vl);
    }
  }
}
