// Convolution (NCNN Convolution), fp32, planar [inc][h][w] -> [outc][outh][outw], square kernel k,
// stride s, dilation d, zero padding p on all sides, bias.
//
// Shape: an implicit GEMM (outc x pixels x inc*k*k) on a padded, stride-phase-split copy of the input,
// so that every (ic, ky, kx) tap is one contiguous vector load and no im2col matrix is built.
// - The input rows of a block of output rows are copied once into s*s phase planes per channel, zero
//   border included: plane (pr, pc) holds padded pixel (row*s + pr, col*s + pc) in rows wq = (output
//   columns + (k-1)d/s) wide. Output pixel (oy, ox) at flat index q = oy*wq + ox reads tap (ky, kx) at
//   q + off(ky, kx) for any stride, dilation and padding. The (k-1)d/s columns past outw in each plane
//   row are computed and dropped (2 of 26 in a 3x3 pad-1 24-wide layer), so vectors run across row ends
//   instead of leaving their tail idle on every output row. The copy costs ~3% of a 16->32 3x3 layer.
// - Stride 1 without padding reads the input itself (no copy; 1x1 convolutions are a plain GEMM).
// - Register tile: MR output channels x one LMUL-4 vector of flat pixels (32 at VLEN 256); each tap
//   loads one vector and does MR vfmacc.vf with weight scalars (weights [oc][ic][ky][kx] are the GEMM's
//   row-major A already). Taps are unrolled by 3 with three vectors in flight, each reloaded three taps
//   ahead right after its FMAs. Accumulators start from the bias broadcast by vmv.v.x (integer unit,
//   beside the FMA pipe). A tile that crosses output rows is stored row segment by row segment
//   (vslidedown on the permute unit + a short vse).
// - Blocks: all input channels and as many output rows as fit the 64 KiB plane buffer; deep layers
//   block the input channels too (partial sums go through the output), very wide ones the columns.
// - target("tune=spacemit-x60"): the X60 scheduling model places the vector loads between the FMAs
//   (with the generic model clang bunches them at the loop end and the in-order core stalls on them).
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

// Tuning knobs (kernels/README.md): the LMUL of the pixel vector and the output channels per tile
// (the 4-, 2- and 1-channel remainder tiles cover whatever is left).
// eok-knob: LMUL = 4 in {1, 2, 4, 8}
// eok-knob: MR = 4 in {1, 2, 4, 8}
#ifndef MR
#define MR 4
#endif
#if MR != 1 && MR != 2 && MR != 4 && MR != 8
#error "MR must be 1, 2, 4 or 8"
#endif

// Schedule with the X60 model (see the header).
#define X60_TUNED __attribute__((target("tune=spacemit-x60")))

#define SCRATCH 16384  // floats in the phase-plane buffer (64 KiB of stack)
#define QMAX 256       // widest pixel vector used (the vl cap; VLEN 1024 at m8)

static inline int floordiv(int a, int b) {  // b > 0
  int q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

static inline void zero_f32(float *d, size_t n) {
  if (n == 0) return;
  if (n <= __riscv_vsetvlmax_e32m2()) {  // padding columns: a short store at m2 costs half of one at m4
    __riscv_vse32_v_f32m2(d, __riscv_vfmv_v_f_f32m2(0.0f, n), n);
    return;
  }
  for (size_t vl; n > 0; n -= vl, d += vl) {
    vl = __riscv_vsetvl_e32m4(n);
    __riscv_vse32_v_f32m4(d, __riscv_vfmv_v_f_f32m4(0.0f, vl), vl);
  }
}

static inline void copy_f32(float *d, const float *s, ptrdiff_t stride, size_t n) {
  if (stride == 1) {
    for (size_t vl; n > 0; n -= vl, d += vl, s += vl) {
      vl = __riscv_vsetvl_e32m4(n);
      __riscv_vse32_v_f32m4(d, __riscv_vle32_v_f32m4(s, vl), vl);
    }
  } else {
    for (size_t vl; n > 0; n -= vl, d += vl, s += vl * stride) {
      vl = __riscv_vsetvl_e32m4(n);
      __riscv_vse32_v_f32m4(d, __riscv_vlse32_v_f32m4(s, stride * (ptrdiff_t)sizeof(float), vl), vl);
    }
  }
}

// Phase planes of channels [ic0, ic0 + icb) for plane rows [0, nrq) (padded row (oy0 + r)*s + pr) and
// plane columns [0, wq) (padded column (ox0 + j)*s + pc). Layout [icl][pr][pc][r][j].
static void fill_planes(float *dst, const float *in, int ic0, int icb, int h, int w, int s, int p, int oy0, int nrq,
                        int ox0, int wq) {
  const size_t plane = (size_t)nrq * wq;
  for (int icl = 0; icl < icb; icl++) {
    const float *src = in + (size_t)(ic0 + icl) * h * w;
    for (int pr = 0; pr < s; pr++) {
      for (int pc = 0; pc < s; pc++) {
        float *d = dst + ((size_t)(icl * s + pr) * s + pc) * plane;
        int jlo = floordiv(p - pc + s - 1, s) - ox0;  // first j with an in-image column
        int jhi = floordiv(w - 1 - pc + p, s) - ox0 + 1;
        if (jlo < 0) jlo = 0;
        if (jhi > wq) jhi = wq;
        for (int r = 0; r < nrq; r++, d += wq) {
          const int iy = (oy0 + r) * s + pr - p;
          if (iy < 0 || iy >= h || jlo >= jhi) {
            zero_f32(d, (size_t)wq);
            continue;
          }
          zero_f32(d, (size_t)jlo);
          copy_f32(d + jlo, src + (size_t)iy * w + (ptrdiff_t)(ox0 + jlo) * s + pc - p, s, (size_t)(jhi - jlo));
          zero_f32(d + jhi, (size_t)(wq - jhi));
        }
      }
    }
  }
}

// Where the lanes of one pixel tile go in the output: nseg row segments (lane, output offset, length).
typedef struct {
  int nseg;
  int lane[QMAX + 2];
  size_t off[QMAX + 2];
  int len[QMAX + 2];
} segs_t;

#define TAP(kk_, bv)                                                     \
  do {                                                                   \
    const float *w_ = wt + (kk_);                                        \
    c0 = __riscv_vfmacc_vf_f32m4(c0, w_[0], (bv), vl);                   \
    if (mr > 1) c1 = __riscv_vfmacc_vf_f32m4(c1, w_[ldw], (bv), vl);     \
    if (mr > 2) c2 = __riscv_vfmacc_vf_f32m4(c2, w_[2 * ldw], (bv), vl); \
    if (mr > 3) c3 = __riscv_vfmacc_vf_f32m4(c3, w_[3 * ldw], (bv), vl); \
    if (mr > 4) c4 = __riscv_vfmacc_vf_f32m4(c4, w_[4 * ldw], (bv), vl); \
    if (mr > 5) c5 = __riscv_vfmacc_vf_f32m4(c5, w_[5 * ldw], (bv), vl); \
    if (mr > 6) c6 = __riscv_vfmacc_vf_f32m4(c6, w_[6 * ldw], (bv), vl); \
    if (mr > 7) c7 = __riscv_vfmacc_vf_f32m4(c7, w_[7 * ldw], (bv), vl); \
  } while (0)

// Initial accumulator of one output channel: the bias (first input-channel block), broadcast by the
// integer unit (vmv.v.x) so that it overlaps the FMAs of the previous tile instead of taking the FMA
// pipe as vfmv.v.f would; or the partial sums already in the output (later blocks), gathered back into
// lanes through obuf.
static inline __attribute__((always_inline)) vfloat32m4_t acc_init(const float *b, float *o, const segs_t *sg,
                                                                   int first, int direct, float *obuf, size_t vl) {
  if (first) {
    union {
      float f;
      int32_t i;
    } u = {*b};  // the bias bits
    return __riscv_vreinterpret_v_i32m4_f32m4(__riscv_vmv_v_x_i32m4(u.i, vl));
  }
  if (direct) return __riscv_vle32_v_f32m4(o, vl);
  for (int i = 0; i < sg->nseg; i++) {
    size_t n = (size_t)sg->len[i];
    __riscv_vse32_v_f32m4(obuf + sg->lane[i], __riscv_vle32_v_f32m4(o + sg->off[i], n), n);
  }
  return __riscv_vle32_v_f32m4(obuf, vl);
}

// Row segment i of the tile goes to o + off[i]: lanes after the first segment are slid down to lane 0
// (on the permute unit, beside the stores).
static inline __attribute__((always_inline)) void acc_store(vfloat32m4_t c, float *o, const segs_t *sg, int direct,
                                                            size_t vl) {
  if (direct) {
    __riscv_vse32_v_f32m4(o, c, vl);
    return;
  }
  size_t n = (size_t)sg->len[0];
  __riscv_vse32_v_f32m4(o + sg->off[0], sg->lane[0] ? __riscv_vslidedown_vx_f32m4(c, (size_t)sg->lane[0], n) : c, n);
  for (int i = 1; i < sg->nseg; i++) {  // later segments never start at lane 0
    n = (size_t)sg->len[i];
    __riscv_vse32_v_f32m4(o + sg->off[i], __riscv_vslidedown_vx_f32m4(c, (size_t)sg->lane[i], n), n);
  }
}

// mr output channels (weights wt, row stride ldw) x one pixel vector at bq: kb taps at bq + offs[t].
// o points at the tile's first output of channel 0 (direct) or at the channel's output plane.
static inline __attribute__((always_inline)) void tile(const float *bq, const int *offs, size_t kb, const float *wt,
                                                       size_t ldw, const float *bias, float *o, size_t ohw,
                                                       const segs_t *sg, int first, int direct, float *obuf, size_t vl,
                                                       int mr) {
  vfloat32m4_t c0, c1, c2, c3, c4, c5, c6, c7;
  c0 = acc_init(bias + 0, o, sg, first, direct, obuf, vl);
  c1 = mr > 1 ? acc_init(bias + 1, o + ohw, sg, first, direct, obuf, vl) : c0;
  c2 = mr > 2 ? acc_init(bias + 2, o + 2 * ohw, sg, first, direct, obuf, vl) : c0;
  c3 = mr > 3 ? acc_init(bias + 3, o + 3 * ohw, sg, first, direct, obuf, vl) : c0;
  c4 = mr > 4 ? acc_init(bias + 4, o + 4 * ohw, sg, first, direct, obuf, vl) : c0;
  c5 = mr > 5 ? acc_init(bias + 5, o + 5 * ohw, sg, first, direct, obuf, vl) : c0;
  c6 = mr > 6 ? acc_init(bias + 6, o + 6 * ohw, sg, first, direct, obuf, vl) : c0;
  c7 = mr > 7 ? acc_init(bias + 7, o + 7 * ohw, sg, first, direct, obuf, vl) : c0;
  // b0, b1, b2 hold taps t, t + 1, t + 2; each is reloaded three taps ahead right after its FMAs, so a
  // load has two taps of FMAs to hide behind.
  vfloat32m4_t b0 = __riscv_vle32_v_f32m4(bq + offs[0], vl);
  vfloat32m4_t b1 = kb > 1 ? __riscv_vle32_v_f32m4(bq + offs[1], vl) : b0;
  vfloat32m4_t b2 = kb > 2 ? __riscv_vle32_v_f32m4(bq + offs[2], vl) : b0;
  size_t t = 0;
  for (; t + 6 <= kb; t += 3) {
    TAP(t, b0);
    b0 = __riscv_vle32_v_f32m4(bq + offs[t + 3], vl);
    TAP(t + 1, b1);
    b1 = __riscv_vle32_v_f32m4(bq + offs[t + 4], vl);
    TAP(t + 2, b2);
    b2 = __riscv_vle32_v_f32m4(bq + offs[t + 5], vl);
  }
  if (kb - t >= 3) {
    TAP(t, b0);
    TAP(t + 1, b1);
    TAP(t + 2, b2);
    for (t += 3; t < kb; t++) {
      vfloat32m4_t b = __riscv_vle32_v_f32m4(bq + offs[t], vl);
      TAP(t, b);
    }
  } else {
    TAP(t, b0);
    if (kb - t > 1) TAP(t + 1, b1);
  }
  acc_store(c0, o, sg, direct, vl);
  if (mr > 1) acc_store(c1, o + ohw, sg, direct, vl);
  if (mr > 2) acc_store(c2, o + 2 * ohw, sg, direct, vl);
  if (mr > 3) acc_store(c3, o + 3 * ohw, sg, direct, vl);
  if (mr > 4) acc_store(c4, o + 4 * ohw, sg, direct, vl);
  if (mr > 5) acc_store(c5, o + 5 * ohw, sg, direct, vl);
  if (mr > 6) acc_store(c6, o + 6 * ohw, sg, direct, vl);
  if (mr > 7) acc_store(c7, o + 7 * ohw, sg, direct, vl);
}

// One block: phase planes at B (plane rows wq wide), output rows [oy0, oy0 + rn),
// columns [ox0, ox0 + cw), input channels [ic0, ic0 + cb), tap offsets offs[cb*k*k].
X60_TUNED static void block(const float *B, const int *offs, const float *weight, const float *bias, float *out,
                            int inc, int outc, int kk, int outw, size_t ohw, int oy0, int rn, int ox0, int cw, int wq,
                            int ic0, int cb, float *obuf) {
  const size_t nq = (size_t)(rn - 1) * wq + cw;  // the last row's dropped columns are never computed
  const size_t qmax0 = __riscv_vsetvlmax_e32m4();
  const size_t qmax = qmax0 < QMAX ? qmax0 : QMAX;
  const size_t kb = (size_t)cb * kk, ldw = (size_t)inc * kk;
  const float *wt0 = weight + (size_t)ic0 * kk;
  const int first = ic0 == 0;
  const int direct = wq == cw && cw == outw;  // flat tile index = output index
  segs_t sg;
  for (size_t q0 = 0, vl; q0 < nq; q0 += vl) {
    vl = __riscv_vsetvl_e32m4(nq - q0 < qmax ? nq - q0 : qmax);
    float *o0;  // the tile's output pointer for channel 0
    if (direct) {
      o0 = out + (size_t)oy0 * outw + q0;
    } else {
      o0 = out;
      sg.nseg = 0;
      size_t r = q0 / wq, c = q0 % wq, lane = 0;
      while (lane < vl) {
        size_t len = wq - c < vl - lane ? wq - c : vl - lane;
        if (c < (size_t)cw) {
          size_t n = (size_t)cw - c < len ? (size_t)cw - c : len;
          sg.lane[sg.nseg] = (int)lane;
          sg.off[sg.nseg] = (oy0 + r) * (size_t)outw + ox0 + c;
          sg.len[sg.nseg] = (int)n;
          sg.nseg++;
        }
        lane += len;
        r++;
        c = 0;
      }
    }
    const float *bq = B + q0;
    int oc = 0;
    for (; oc + MR <= outc; oc += MR)
      tile(bq, offs, kb, wt0 + (size_t)oc * ldw, ldw, bias + oc, o0 + oc * ohw, ohw, &sg, first, direct, obuf, vl, MR);
    if (MR > 4 && outc - oc >= 4) {
      tile(bq, offs, kb, wt0 + (size_t)oc * ldw, ldw, bias + oc, o0 + oc * ohw, ohw, &sg, first, direct, obuf, vl, 4);
      oc += 4;
    }
    if (MR > 2 && outc - oc >= 2) {
      tile(bq, offs, kb, wt0 + (size_t)oc * ldw, ldw, bias + oc, o0 + oc * ohw, ohw, &sg, first, direct, obuf, vl, 2);
      oc += 2;
    }
    for (; oc < outc; oc++)
      tile(bq, offs, kb, wt0 + (size_t)oc * ldw, ldw, bias + oc, o0 + oc * ohw, ohw, &sg, first, direct, obuf, vl, 1);
  }
}

X60_TUNED void conv_f32(const float *in, const float *weight, const float *bias, float *out, int inc, int h, int w,
                        int outc, int kernel, int stride, int dilation, int pad) {
  const int k = kernel;
  const int s = stride, d = dilation, p = pad, kk = k * k;
  const int outh = (h + 2 * p - d * (k - 1) - 1) / s + 1;
  const int outw = (w + 2 * p - d * (k - 1) - 1) / s + 1;
  if (outc <= 0 || outh <= 0 || outw <= 0) return;
  const size_t ohw = (size_t)outh * outw;
  float obuf[QMAX];
  for (int i = 0; i < QMAX; i++) obuf[i] = 0.0f;

  if (inc <= 0) {  // empty sum: bias only
    for (int oc = 0; oc < outc; oc++)
      for (size_t i = 0, vl; i < ohw; i += vl) {
        vl = __riscv_vsetvl_e32m4(ohw - i);
        __riscv_vse32_v_f32m4(out + oc * ohw + i, __riscv_vfmv_v_f_f32m4(bias[oc], vl), vl);
      }
    return;
  }

  if (s == 1 && p == 0) {  // the input itself is the (single, unpadded) phase plane
    int offs[inc * kk];
    for (int ic = 0; ic < inc; ic++)
      for (int ky = 0; ky < k; ky++)
        for (int kx = 0; kx < k; kx++) offs[(ic * k + ky) * k + kx] = (ic * h + ky * d) * w + kx * d;
    block(in, offs, weight, bias, out, inc, outc, kk, outw, ohw, 0, outh, 0, outw, w, 0, inc, obuf);
    return;
  }

  const int amax = (k - 1) * d / s, bmax = (k - 1) * d / s;
  // Block sizes: all channels and as many rows as fit; else fewer channels; else fewer columns.
  int ncw = outw, icb = inc, nr;
  size_t rowf = (size_t)s * s * (outw + bmax);  // floats of one plane row, all phases, one channel
  const int nrmin = outh < 4 ? outh : 4;
  if ((size_t)icb * (nrmin + amax) * rowf > SCRATCH) {
    icb = (int)(SCRATCH / ((nrmin + amax) * rowf));
    if (icb < 1) {
      icb = 1;
      ncw = (int)(SCRATCH / ((size_t)s * s * (1 + amax))) - bmax;
      if (ncw < 1) {  // a kernel footprint beyond the plane buffer: plain loops
        for (int oc = 0; oc < outc; oc++)
          for (int oy = 0; oy < outh; oy++)
            for (int ox = 0; ox < outw; ox++) {
              float acc = bias[oc];
              for (int ic = 0; ic < inc; ic++)
                for (int ky = 0; ky < k; ky++) {
                  const int iy = oy * s - p + ky * d;
                  if (iy < 0 || iy >= h) continue;
                  for (int kx = 0; kx < k; kx++) {
                    const int ix = ox * s - p + kx * d;
                    if (ix >= 0 && ix < w)
                      acc += in[((size_t)ic * h + iy) * w + ix] * weight[(((size_t)oc * inc + ic) * k + ky) * k + kx];
                  }
                }
              out[oc * ohw + (size_t)oy * outw + ox] = acc;
            }
        return;
      }
      if (ncw > outw) ncw = outw;
      rowf = (size_t)s * s * (ncw + bmax);
    }
  }
  nr = (int)(SCRATCH / ((size_t)icb * rowf)) - amax;
  if (nr > outh) nr = outh;
  if (nr < 1) nr = 1;

  float planes[SCRATCH];
  int offs[icb * kk], rowoff[k], coloff[k];
  for (int ox0 = 0; ox0 < outw; ox0 += ncw) {
    const int cw = outw - ox0 < ncw ? outw - ox0 : ncw;
    const int wq = cw + bmax;
    for (int oy0 = 0; oy0 < outh; oy0 += nr) {
      const int rn = outh - oy0 < nr ? outh - oy0 : nr;
      const int nrq = rn + amax;
      const int plane = nrq * wq;
      for (int ic0 = 0; ic0 < inc; ic0 += icb) {
        const int cb = inc - ic0 < icb ? inc - ic0 : icb;
        fill_planes(planes, in, ic0, cb, h, w, s, p, oy0, nrq, ox0, wq);
        for (int ky = 0; ky < k; ky++) rowoff[ky] = (ky * d % s) * s * plane + ky * d / s * wq;
        for (int kx = 0; kx < k; kx++) coloff[kx] = (kx * d % s) * plane + kx * d / s;
        for (int icl = 0, t = 0; icl < cb; icl++)
          for (int ky = 0; ky < k; ky++)
            for (int kx = 0; kx < k; kx++) offs[t++] = icl * s * s * plane + rowoff[ky] + coloff[kx];
        block(planes, offs, weight, bias, out, inc, outc, kk, outw, ohw, oy0, rn, ox0, cw, wq, ic0, cb, obuf);
      }
    }
  }
}
