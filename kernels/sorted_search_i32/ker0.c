// Sorted search, int32: the lower bound of every needle of a sorted list in a sorted haystack.
// Both inputs are sorted, so the answers of a strip of needles all lie in one haystack window [lo, hi]:
// lo is the previous strip's last answer, hi the lower bound of the strip's last needle (a scalar gallop
// from lo, so the walk over the haystack stays linear overall). Inside the window every lane runs a
// branchless binary search with indexed loads (vluxei32), log2(window) steps for the whole strip; with as
// many needles as haystack elements the window is about one strip long. (Counting the window instead,
// one compare of all needles per haystack element, measured slower on the X60 model even for windows of
// one strip.) LMUL 4: 32 needles per strip at VLEN 256.
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

// Tuning knob (kernels/README.md): the LMUL of the strips.
// eok-knob: LMUL = 4 in {1, 2, 4, 8}

// First index in [lo, nh) with h[i] >= x, galloping from lo (cheap when the answer is near lo).
static inline int gallop_lower_bound(const int32_t *h, int lo, int nh, int32_t x) {
  if (lo >= nh || h[lo] >= x) return lo;
  int step = 1, prev = lo;  // h[prev] < x
  while (prev + step < nh && h[prev + step] < x) {
    prev += step;
    step <<= 1;
  }
  int a = prev + 1, b = prev + step < nh ? prev + step : nh;  // the answer is in [a, b]
  while (a < b) {
    int mid = a + ((b - a) >> 1);
    if (h[mid] < x) a = mid + 1;
    else b = mid;
  }
  return a;
}

void sorted_search_i32(const int32_t *needles, int nn, const int32_t *haystack, int nh, int32_t *out) {
  int lo = 0;
  for (int i = 0; i < nn;) {
    const size_t vl = __riscv_vsetvl_e32m4((size_t)(nn - i));
    const vint32m4_t x = __riscv_vle32_v_i32m4(needles + i, vl);
    const int hi = gallop_lower_bound(haystack, lo, nh, needles[i + (int)vl - 1]);
    // Branchless lower bound in [lo, hi) per lane: base moves up by half while h[base + half] < x.
    vuint32m4_t base = __riscv_vmv_v_x_u32m4((uint32_t)lo, vl);
    int n = hi - lo;
    while (n > 1) {
      const int half = n >> 1;
      const vuint32m4_t probe = __riscv_vadd_vx_u32m4(base, (uint32_t)half, vl);
      const vint32m4_t v = __riscv_vluxei32_v_i32m4(haystack, __riscv_vsll_vx_u32m4(probe, 2, vl), vl);
      const vbool8_t less = __riscv_vmslt_vv_i32m4_b8(v, x, vl);
      base = __riscv_vmerge_vvm_u32m4(base, probe, less, vl);
      n -= half;
    }
    if (n == 1) {  // one candidate left at base (n == 0: the window is empty and lo is every answer)
      const vint32m4_t v = __riscv_vluxei32_v_i32m4(haystack, __riscv_vsll_vx_u32m4(base, 2, vl), vl);
      const vbool8_t less = __riscv_vmslt_vv_i32m4_b8(v, x, vl);
      base = __riscv_vadd_vx_u32m4_mu(less, base, base, 1, vl);
    }
    const vint32m4_t result = __riscv_vreinterpret_v_u32m4_i32m4(base);
    __riscv_vse32_v_i32m4(out + i, result, vl);
    lo = hi;
    i += (int)vl;
  }
}
