// Exclusive prefix sum of int32, in place, returns the total. In-register log-step (Hillis-Steele) scan
// of each LMUL-1 vector with vslideup + vadd, then exclusive = inclusive - x + carry, where the carry
// (running total) is kept broadcast in a vector register so no vector-to-scalar move sits on the loop's
// dependence chain. Steps run with decreasing offsets so one scratch register, zeroed once per vector,
// serves all of them. At VLEN 256 (K1) the main loop moves 32 elements per LMUL-4 load/store and scans
// the four LMUL-1 parts independently (slides cost more per element at higher LMUL, and the four
// chains give the in-order core independent work); the tail and other VLENs use plain LMUL-1 strips.
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

// Tuning knob (kernels/README.md): the LMUL of one scan unit (the block path loads four units at once).
// At 2 the unit holds 16 lanes at VLEN 256, so the 8-lane block path is skipped there and every strip
// runs the generic scan. mf2 and 4 cannot apply: vget has no fractional parts, and four m4 units are m16.
// eok-knob: LMUL = 1 in {1, 2}

// Inclusive scan of v[0..vl), vl <= vlmax = 8 (unrolled for VLEN 256).
static inline vint32m1_t scan8(vint32m1_t v) {
  vint32m1_t z = __riscv_vmv_v_x_i32m1(0, 8);
  z = __riscv_vslideup_vx_i32m1(z, v, 4, 8);  // z[0..4) stays 0 for this step and the next two
  v = __riscv_vadd_vv_i32m1(v, z, 8);
  z = __riscv_vslideup_vx_i32m1(z, v, 2, 8);
  v = __riscv_vadd_vv_i32m1(v, z, 8);
  z = __riscv_vslideup_vx_i32m1(z, v, 1, 8);
  return __riscv_vadd_vv_i32m1(v, z, 8);
}

// Inclusive scan of v[0..vl) for any VLEN: offsets vlmax/2, ..., 1. An offset >= vl writes nothing,
// which is harmless because z starts at 0.
static inline vint32m1_t scan_any(vint32m1_t v, size_t vl, size_t vlmax) {
  vint32m1_t z = __riscv_vmv_v_x_i32m1(0, vl);
  for (size_t off = vlmax >> 1; off > 0; off >>= 1) {
    z = __riscv_vslideup_vx_i32m1(z, v, off, vl);
    v = __riscv_vadd_vv_i32m1(v, z, vl);
  }
  return v;
}

// One 8-element part of a 32-element block: out = carry + exclusive scan; carry += part total.
#define SCAN_PART(k)                                                                                \
  do {                                                                                              \
    vint32m1_t p_ = __riscv_vget_v_i32m4_i32m1(v, k);                                               \
    vint32m1_t s_ = scan8(p_);                                                                      \
    o = __riscv_vset_v_i32m1_i32m4(o, k, __riscv_vadd_vv_i32m1(__riscv_vsub_vv_i32m1(s_, p_, 8), carry, 8)); \
    carry = __riscv_vadd_vv_i32m1(carry, __riscv_vrgather_vx_i32m1(s_, 7, 8), 8);                  \
  } while (0)

int32_t reduce_scan_i32(int32_t *x, int n) {
  size_t left = n > 0 ? (size_t)n : 0;
  const size_t vlmax = __riscv_vsetvlmax_e32m1();
  vint32m1_t carry = __riscv_vmv_v_x_i32m1(0, vlmax);  // running total in every lane

  if (vlmax == 8) {
    for (; left >= 32; left -= 32, x += 32) {
      vint32m4_t v = __riscv_vle32_v_i32m4(x, 32);
      vint32m4_t o = v;
      SCAN_PART(0);
      SCAN_PART(1);
      SCAN_PART(2);
      SCAN_PART(3);
      __riscv_vse32_v_i32m4(x, o, 32);
    }
  }
  for (size_t vl; left > 0; left -= vl, x += vl) {
    vl = __riscv_vsetvl_e32m1(left);
    vint32m1_t v = __riscv_vle32_v_i32m1(x, vl);
    vint32m1_t s = scan_any(v, vl, vlmax);
    __riscv_vse32_v_i32m1(x, __riscv_vadd_vv_i32m1(__riscv_vsub_vv_i32m1(s, v, vl), carry, vl), vl);
    // at vlmax, so every lane stays valid even if a later strip were longer than this one
    carry = __riscv_vadd_vv_i32m1(carry, __riscv_vrgather_vx_i32m1(s, vl - 1, vlmax), vlmax);
  }
  return __riscv_vmv_x_s_i32m1_i32(carry);
}
