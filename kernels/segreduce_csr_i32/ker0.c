// Segmented reduction over CSR rows (moderngpu's segreduce), int32, wrapping: out[r] = sum of row r.
// Rows are reduced eight at a time. Each row accumulates lane-wise partial sums over its whole LMUL-1
// strips plus one full-vl strip masked by the remaining length (vmsltu on vid; no vsetvl per row, and
// an empty row is one masked no-op), so a row costs about one load per 8 elements and a handful of
// vector ops. The eight accumulators are then reduced by eight independent vredsums and gathered into
// one register by a slideup tree (offsets 1, 2, 4) for a single vse32 of eight sums: per row this is
// far cheaper than a vredsum -> vmv.x.s -> sw chain (the X60 has a 7 + 6 cycle latency there and the
// core is in order), and the eight independent chains give the scheduler work to overlap. LMUL 1:
// vredsum and the slides cost 2 cycles at m1 and grow with LMUL. Rows near the end of values (where a
// full-vl load would run past it) and the last nrows % 8 rows take an exact vsetvl path.
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

// Lane-wise partial sums of p[0..len): whole LMUL-1 strips, then one full-vl strip masked by the
// remaining length (the caller guarantees p + len + vlmax stays inside values).
static inline __attribute__((always_inline)) vint32m1_t row_acc(const int32_t *p, size_t len, vint32m1_t zero,
                                                                vuint32m1_t vid, size_t vlmax) {
  vint32m1_t acc = zero;
  for (; len >= vlmax; len -= vlmax, p += vlmax) acc = __riscv_vadd_vv_i32m1(acc, __riscv_vle32_v_i32m1(p, vlmax), vlmax);
  return __riscv_vadd_vv_i32m1_mu(__riscv_vmsltu_vx_u32m1_b32(vid, (uint32_t)len, vlmax), acc, acc,
                                  __riscv_vle32_v_i32m1(p, vlmax), vlmax);
}

void segreduce_csr_i32(const int32_t *values, int n, const int32_t *rows, int nrows, int32_t *out) {
  const size_t N = n > 0 ? (size_t)n : 0, R = nrows > 0 ? (size_t)nrows : 0;
  const size_t vlmax = __riscv_vsetvlmax_e32m1();
  const vint32m1_t zero = __riscv_vmv_v_x_i32m1(0, vlmax);
  const vuint32m1_t vid = __riscv_vid_v_u32m1(vlmax);
  size_t r = 0;
  if (vlmax >= 8) {
    // Eight rows per iteration while the eighth row's end + vlmax stays inside values: each row's
    // partial sums, eight vredsums, and a slideup tree that gathers the eight sums into one vector
    // for a single store.
    for (; r + 9 <= R; r += 8) {
      const int32_t *rp = rows + r;
      const size_t s0 = (size_t)rp[0], s1 = (size_t)rp[1], s2 = (size_t)rp[2], s3 = (size_t)rp[3];
      const size_t s4 = (size_t)rp[4], s5 = (size_t)rp[5], s6 = (size_t)rp[6], s7 = (size_t)rp[7];
      const size_t s8 = (size_t)rp[8];
      if (s8 + vlmax > N) break;
      vint32m1_t a0 = row_acc(values + s0, s1 - s0, zero, vid, vlmax);
      vint32m1_t a1 = row_acc(values + s1, s2 - s1, zero, vid, vlmax);
      vint32m1_t a2 = row_acc(values + s2, s3 - s2, zero, vid, vlmax);
      vint32m1_t a3 = row_acc(values + s3, s4 - s3, zero, vid, vlmax);
      vint32m1_t a4 = row_acc(values + s4, s5 - s4, zero, vid, vlmax);
      vint32m1_t a5 = row_acc(values + s5, s6 - s5, zero, vid, vlmax);
      vint32m1_t a6 = row_acc(values + s6, s7 - s6, zero, vid, vlmax);
      vint32m1_t a7 = row_acc(values + s7, s8 - s7, zero, vid, vlmax);
      a0 = __riscv_vredsum_vs_i32m1_i32m1(a0, zero, vlmax);
      a1 = __riscv_vredsum_vs_i32m1_i32m1(a1, zero, vlmax);
      a2 = __riscv_vredsum_vs_i32m1_i32m1(a2, zero, vlmax);
      a3 = __riscv_vredsum_vs_i32m1_i32m1(a3, zero, vlmax);
      a4 = __riscv_vredsum_vs_i32m1_i32m1(a4, zero, vlmax);
      a5 = __riscv_vredsum_vs_i32m1_i32m1(a5, zero, vlmax);
      a6 = __riscv_vredsum_vs_i32m1_i32m1(a6, zero, vlmax);
      a7 = __riscv_vredsum_vs_i32m1_i32m1(a7, zero, vlmax);
      a0 = __riscv_vslideup_vx_i32m1(a0, a1, 1, vlmax);
      a2 = __riscv_vslideup_vx_i32m1(a2, a3, 1, vlmax);
      a4 = __riscv_vslideup_vx_i32m1(a4, a5, 1, vlmax);
      a6 = __riscv_vslideup_vx_i32m1(a6, a7, 1, vlmax);
      a0 = __riscv_vslideup_vx_i32m1(a0, a2, 2, vlmax);
      a4 = __riscv_vslideup_vx_i32m1(a4, a6, 2, vlmax);
      a0 = __riscv_vslideup_vx_i32m1(a0, a4, 4, vlmax);
      __riscv_vse32_v_i32m1(out + r, a0, 8);
    }
  }
  // The rest (and rows near the end of values): exact strips.
  for (; r < R; r++) {
    const size_t s = (size_t)rows[r], e = r + 1 < R ? (size_t)rows[r + 1] : N;
    vint32m1_t acc = zero;
    for (size_t i = s, vl; i < e; i += vl) {
      vl = __riscv_vsetvl_e32m1(e - i);
      acc = __riscv_vadd_vv_i32m1_tu(acc, acc, __riscv_vle32_v_i32m1(values + i, vl), vl);
    }
    __riscv_vse32_v_i32m1(out + r, __riscv_vredsum_vs_i32m1_i32m1(acc, zero, vlmax), 1);
  }
}
