// 1-D convolution (NCNN Convolution1D), fp16 storage and arithmetic, input [inh][w] -> [outh][outw],
// weights [outh][inh][k], bias [outh], kernel k, stride s, dilation d, zero padding p at both ends.
//
// The fp32 kernel's shape (conv1d_f32/ker0.c) at half precision: products and sums in fp16 (vfmacc.vf
// at e16, twice the lanes per instruction of fp32), as NCNN's fp16-arithmetic path does; sequential
// fp16 accumulation stays well inside f16_accum for the inh*k <= ~300 used here (far deeper layers
// would need fp32 partial sums, vfwmacc).
// - Implicit GEMM (outh x outw x inh*k), every (ic, kx) tap one contiguous vector load. Stride 1
//   without padding reads the input rows themselves; otherwise each input row is copied once into s
//   zero-padded phase rows (phase pc holds padded element j*s + pc), so tap kx of output ox is element
//   ox + (kx*d)/s of phase (kx*d) % s for any stride, dilation and padding.
// - Register tile: MR output channels x one LMUL-4 vector of outputs (64 halves at VLEN 256), MR
//   vfmacc.vf with weight scalars per loaded vector; taps unrolled by 3 with three vectors in flight,
//   each reloaded three taps ahead. Accumulators start from the bias broadcast by vmv.v.x.
// - Blocks: all input channels if their phase rows fit the 32 KiB buffer, else channel blocks (partial
//   sums go through the output), and column blocks for very long rows.
// - target("tune=spacemit-x60"): the X60 scheduling model places the vector loads between the FMAs.
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

// Tuning knobs (kernels/README.md): the LMUL of the output vector and the output channels per tile
// (the 4-, 2- and 1-channel remainder tiles cover whatever is left).
// eok-knob: LMUL = 4 in {1, 2, 4, 8}
// eok-knob: MR = 4 in {1, 2, 4, 8}
#ifndef MR
#define MR 4
#endif
#if MR != 1 && MR != 2 && MR != 4 && MR != 8
#error "MR must be 1, 2, 4 or 8"
#endif

#define X60_TUNED __attribute__((target("tune=spacemit-x60")))

#define SCRATCH 16384  // halves in the phase-row buffer (32 KiB of stack)

static inline int floordiv(int a, int b) {  // b > 0
  int q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

static inline void zero_f16(_Float16 *d, size_t n) {
  if (n == 0) return;
  if (n <= __riscv_vsetvlmax_e16m2()) {  // padding: a short store at m2 costs half of one at m4
    __riscv_vse16_v_f16m2(d, __riscv_vfmv_v_f_f16m2((_Float16)0.0f, n), n);
    return;
  }
  for (size_t vl; n > 0; n -= vl, d += vl) {
    vl = __riscv_vsetvl_e16m4(n);
    __riscv_vse16_v_f16m4(d, __riscv_vfmv_v_f_f16m4((_Float16)0.0f, vl), vl);
  }
}

static inline void copy_f16(_Float16 *d, const _Float16 *s, ptrdiff_t stride, size_t n) {
  if (stride == 1) {
    for (size_t vl; n > 0; n -= vl, d += vl, s += vl) {
      vl = __riscv_vsetvl_e16m4(n);
      __riscv_vse16_v_f16m4(d, __riscv_vle16_v_f16m4(s, vl), vl);
    }
  } else {
    for (size_t vl; n > 0; n -= vl, d += vl, s += vl * stride) {
      vl = __riscv_vsetvl_e16m4(n);
      __riscv_vse16_v_f16m4(d, __riscv_vlse16_v_f16m4(s, stride * (ptrdiff_t)sizeof(_Float16), vl), vl);
    }
  }
}

// Phase rows of channels [ic0, ic0 + icb): row (icl, pc) element j = padded element (ox0 + j)*s + pc,
// i.e. input element (ox0 + j)*s + pc - p, or zero outside [0, w). Layout [icl][pc][wq].
static void fill_rows(_Float16 *dst, const _Float16 *in, int ic0, int icb, int w, int s, int p, int ox0, int wq) {
  for (int icl = 0; icl < icb; icl++) {
    const _Float16 *src = in + (size_t)(ic0 + icl) * w;
    for (int pc = 0; pc < s; pc++) {
      _Float16 *d = dst + (size_t)(icl * s + pc) * wq;
      int jlo = floordiv(p - pc + s - 1, s) - ox0;  // first j inside the input
      int jhi = floordiv(w - 1 - pc + p, s) - ox0 + 1;
      if (jlo < 0) jlo = 0;
      if (jlo > wq) jlo = wq;
      if (jhi > wq) jhi = wq;
      if (jhi < jlo) jhi = jlo;
      zero_f16(d, (size_t)jlo);
      copy_f16(d + jlo, src + (ptrdiff_t)(ox0 + jlo) * s + pc - p, s, (size_t)(jhi - jlo));
      zero_f16(d + jhi, (size_t)(wq - jhi));
    }
  }
}

#define TAP(kk_, bv)                                                     \
  do {                                                                   \
    const _Float16 *w_ = wt + (kk_);                                     \
    c0 = __riscv_vfmacc_vf_f16m4(c0, w_[0], (bv), vl);                   \
    if (mr > 1) c1 = __riscv_vfmacc_vf_f16m4(c1, w_[ldw], (bv), vl);     \
    if (mr > 2) c2 = __riscv_vfmacc_vf_f16m4(c2, w_[2 * ldw], (bv), vl); \
    if (mr > 3) c3 = __riscv_vfmacc_vf_f16m4(c3, w_[3 * ldw], (bv), vl); \
    if (mr > 4) c4 = __riscv_vfmacc_vf_f16m4(c4, w_[4 * ldw], (bv), vl); \
    if (mr > 5) c5 = __riscv_vfmacc_vf_f16m4(c5, w_[5 * ldw], (bv), vl); \
    if (mr > 6) c6 = __riscv_vfmacc_vf_f16m4(c6, w_[6 * ldw], (bv), vl); \
    if (mr > 7) c7 = __riscv_vfmacc_vf_f16m4(c7, w_[7 * ldw], (bv), vl); \
  } while (0)

// Initial accumulator of one output channel: the bias broadcast by the integer unit (first channel
// block), or the partial sums already in the output (later blocks).
static inline __attribute__((always_inline)) vfloat16m4_t acc_init(const _Float16 *b, const _Float16 *o, int first,
                                                                   size_t vl) {
  if (!first) return __riscv_vle16_v_f16m4(o, vl);
  union {
    _Float16 f;
    int16_t i;
  } u = {*b};  // the bias bits
  return __riscv_vreinterpret_v_i16m4_f16m4(__riscv_vmv_v_x_i16m4(u.i, vl));
}

// mr output channels (weights wt, row stride ldw; outputs o, row stride ldo) x one vector of outputs:
// kb taps at bq + offs[t].
static inline __attribute__((always_inline)) void tile(const _Float16 *bq, const int *offs, size_t kb,
                                                       const _Float16 *wt, size_t ldw, const _Float16 *bias,
                                                       _Float16 *o, size_t ldo, int first, size_t vl, int mr) {
  vfloat16m4_t c0, c1, c2, c3, c4, c5, c6, c7;
  c0 = acc_init(bias + 0, o, first, vl);
  c1 = mr > 1 ? acc_init(bias + 1, o + ldo, first, vl) : c0;
  c2 = mr > 2 ? acc_init(bias + 2, o + 2 * ldo, first, vl) : c0;
  c3 = mr > 3 ? acc_init(bias + 3, o + 3 * ldo, first, vl) : c0;
  c4 = mr > 4 ? acc_init(bias + 4, o + 4 * ldo, first, vl) : c0;
  c5 = mr > 5 ? acc_init(bias + 5, o + 5 * ldo, first, vl) : c0;
  c6 = mr > 6 ? acc_init(bias + 6, o + 6 * ldo, first, vl) : c0;
  c7 = mr > 7 ? acc_init(bias + 7, o + 7 * ldo, first, vl) : c0;
  // b0, b1, b2 hold taps t, t + 1, t + 2; each is reloaded three taps ahead right after its FMAs.
  vfloat16m4_t b0 = __riscv_vle16_v_f16m4(bq + offs[0], vl);
  vfloat16m4_t b1 = kb > 1 ? __riscv_vle16_v_f16m4(bq + offs[1], vl) : b0;
  vfloat16m4_t b2 = kb > 2 ? __riscv_vle16_v_f16m4(bq + offs[2], vl) : b0;
  size_t t = 0;
  for (; t + 6 <= kb; t += 3) {
    TAP(t, b0);
    b0 = __riscv_vle16_v_f16m4(bq + offs[t + 3], vl);
    TAP(t + 1, b1);
    b1 = __riscv_vle16_v_f16m4(bq + offs[t + 4], vl);
    TAP(t + 2, b2);
    b2 = __riscv_vle16_v_f16m4(bq + offs[t + 5], vl);
  }
  if (kb - t >= 3) {
    TAP(t, b0);
    TAP(t + 1, b1);
    TAP(t + 2, b2);
    for (t += 3; t < kb; t++) {
      vfloat16m4_t b = __riscv_vle16_v_f16m4(bq + offs[t], vl);
      TAP(t, b);
    }
  } else {
    TAP(t, b0);
    if (kb - t > 1) TAP(t + 1, b1);
  }
  __riscv_vse16_v_f16m4(o, c0, vl);
  if (mr > 1) __riscv_vse16_v_f16m4(o + ldo, c1, vl);
  if (mr > 2) __riscv_vse16_v_f16m4(o + 2 * ldo, c2, vl);
  if (mr > 3) __riscv_vse16_v_f16m4(o + 3 * ldo, c3, vl);
  if (mr > 4) __riscv_vse16_v_f16m4(o + 4 * ldo, c4, vl);
  if (mr > 5) __riscv_vse16_v_f16m4(o + 5 * ldo, c5, vl);
  if (mr > 6) __riscv_vse16_v_f16m4(o + 6 * ldo, c6, vl);
  if (mr > 7) __riscv_vse16_v_f16m4(o + 7 * ldo, c7, vl);
}

// One block: phase rows at B, outputs [ox0, ox0 + cw) of all channels, input channels [ic0, ic0 + cb)
// (kb = cb*k taps at B + offs[t]).
X60_TUNED static void block(const _Float16 *B, const int *offs, size_t kb, const _Float16 *weight, const _Float16 *bias,
                            _Float16 *out, int outh, int outw, size_t ldw, int ox0, int cw, int first) {
  const size_t qmax = __riscv_vsetvlmax_e16m4();
  for (size_t q0 = 0, vl; q0 < (size_t)cw; q0 += vl) {
    vl = __riscv_vsetvl_e16m4((size_t)cw - q0 < qmax ? (size_t)cw - q0 : qmax);
    const _Float16 *bq = B + q0;
    _Float16 *o = out + ox0 + q0;
    int oc = 0;
    for (; oc + MR <= outh; oc += MR)
      tile(bq, offs, kb, weight + oc * ldw, ldw, bias + oc, o + (size_t)oc * outw, (size_t)outw, first, vl, MR);
    if (MR > 4 && outh - oc >= 4) {
      tile(bq, offs, kb, weight + oc * ldw, ldw, bias + oc, o + (size_t)oc * outw, (size_t)outw, first, vl, 4);
      oc += 4;
    }
    if (MR > 2 && outh - oc >= 2) {
      tile(bq, offs, kb, weight + oc * ldw, ldw, bias + oc, o + (size_t)oc * outw, (size_t)outw, first, vl, 2);
      oc += 2;
    }
    for (; oc < outh; oc++)
      tile(bq, offs, kb, weight + oc * ldw, ldw, bias + oc, o + (size_t)oc * outw, (size_t)outw, first, vl, 1);
  }
}

X60_TUNED void conv1d_f16(const _Float16 *in, const _Float16 *weight, const _Float16 *bias, _Float16 *out, int inh,
                          int w, int outh, int kernel, int stride, int dilation, int pad) {
  const int k = kernel;
  const int s = stride, d = dilation, p = pad;
  const int outw = (w + 2 * p - d * (k - 1) - 1) / s + 1;
  if (outh <= 0 || outw <= 0) return;
  const size_t ldw = (size_t)inh * k;

  if (inh <= 0) {  // empty sum: bias only
    for (int oc = 0; oc < outh; oc++)
      for (size_t i = 0, vl; i < (size_t)outw; i += vl) {
        vl = __riscv_vsetvl_e16m4((size_t)outw - i);
        __riscv_vse16_v_f16m4(out + (size_t)oc * outw + i, __riscv_vfmv_v_f_f16m4(bias[oc], vl), vl);
      }
    return;
  }

  if (s == 1 && p == 0) {  // the input rows are the phase rows
    int offs[inh * k];
    for (int ic = 0; ic < inh; ic++)
      for (int kx = 0; kx < k; kx++) offs[ic * k + kx] = ic * w + kx * d;
    block(in, offs, ldw, weight, bias, out, outh, outw, ldw, 0, outw, 1);
    return;
  }

  const int bmax = (k - 1) * d / s;
  // Block sizes: all channels with full rows if they fit; else fewer channels; else shorter rows.
  int ncw = outw, icb = inh;
  if ((size_t)inh * s * (outw + bmax) > SCRATCH) {
    icb = (int)(SCRATCH / ((size_t)s * (outw + bmax)));
    if (icb < 1) {
      icb = 1;
      ncw = SCRATCH / s - bmax;
      if (ncw < 1) {  // a kernel footprint beyond the buffer: plain loops
        for (int oc = 0; oc < outh; oc++)
          for (int ox = 0; ox < outw; ox++) {
            _Float16 acc = bias[oc];
            for (int ic = 0; ic < inh; ic++)
              for (int kx = 0; kx < k; kx++) {
                const int ix = ox * s - p + kx * d;
                if (ix >= 0 && ix < w) acc += in[(size_t)ic * w + ix] * weight[((size_t)oc * inh + ic) * k + kx];
              }
            out[(size_t)oc * outw + ox] = acc;
          }
        return;
      }
    }
  }

  _Float16 rows[SCRATCH];
  int offs[icb * k], coloff[k];
  for (int ox0 = 0; ox0 < outw; ox0 += ncw) {
    const int cw = outw - ox0 < ncw ? outw - ox0 : ncw;
    const int wq = cw + bmax;
    for (int ic0 = 0; ic0 < inh; ic0 += icb) {
      const int cb = inh - ic0 < icb ? inh - ic0 : icb;
      fill_rows(rows, in, ic0, cb, w, s, p, ox0, wq);
      for (int kx = 0; kx < k; kx++) coloff[kx] = (kx * d % s) * wq + kx * d / s;
      for (int icl = 0, t = 0; icl < cb; icl++)
        for (int kx = 0; kx < k; kx++) offs[t++] = icl * s * wq + coloff[kx];
      block(rows, offs, (size_t)cb * k, weight + (size_t)ic0 * k, bias, out, outh, outw, ldw, ox0, cw, ic0 == 0);
    }
  }
}
