// DeconvolutionDepthWise (group = channels), fp32, planar [c][h][w], NCNN semantics: out_full[c][iy*s +
// ky*d][ix*s + kx*d] += in[c][iy][ix] * W[c][ky][kx], then pad cut from each border.
// Shape: per output phase (sub-pixel) gather, as for Deconvolution: the outputs of row phase py and column
// phase px (oy = py + s*r, ox = px + s*j) take input row cy + r through kernel row ky iff
// py + pad - ky*d = cy*s, and input column c + j through kernel column kx iff px + pad - kx*d = c*s, so
// every tap of a phase is one contiguous input strip times a scalar weight, vectorised over j (LMUL 4,
// a stride-2 phase of a 64-wide row). Per (channel, phase) the taps become a flat list of (offset,
// weight) pairs. A tile holds RB output rows of one row phase with one accumulator each (independent FMA
// chains; all RB strips of a tap are loaded before its FMAs). Each channel is first copied into a
// zero-bordered stack buffer (borders zeroed once per call), so strips running past the input edges need
// no masks or clipping. Stores are the other big cost of a depthwise layer (4 FMAs per output at k=4,
// s=2): for stride 2 a tile computes both column phases and writes them interleaved with one segment
// store (vsseg2, ~0.4 cycle per output) instead of two strided stores (1 cycle per output); other strides
// use unit-stride (s = 1) or strided stores. The channel loop is outermost so a channel's output rows are
// still in L1 when the other row phase fills them in.
#include <riscv_vector.h>
#include <stddef.h>

// Tuning knobs (kernels/README.md): the LMUL of the j strip (not 8: the segment store's register group
// would exceed 8), and the output rows of a full tile (2- and 1-row tiles cover what is left below RB).
// eok-knob: LMUL = 4 in {1, 2, 4}
// eok-knob: RB = 2 in {1, 2, 4}
#ifndef RB
#define RB 2
#endif
#if RB < 1 || RB > 4
#error "RB must be 1 to 4: tile() has four accumulators"
#endif

// One tile: rb output rows x the vl outputs j0.. of np column phases (np = 2: both phases of stride 2)
// of one row phase of one channel. b: the zero-bordered channel at the first tile row's window origin and
// column j0, row pitch wp. Phase p has ntap[p] taps (buffer offset toff[p][i], weight tw[p][i]). Output
// row q at o + q*ostep. Each (row, phase) has its own accumulator, so the FMA chains are independent,
// and all rb strips of a tap are loaded before its FMAs. np = 2 stores the two phases interleaved with
// one segment store (vl1 pairs; a last unpaired phase-0 output goes alone).
#define PHASE_TAPS(ntap, toff, tw, A0, A1, A2, A3)                           \
  for (int i = 0; i < (ntap); i++) {                                         \
    const float *ip = b + (toff)[i];                                         \
    const float wt = (tw)[i];                                                \
    vfloat32m4_t v0 = __riscv_vle32_v_f32m4(ip, vl), v1 = v0, v2 = v0, v3 = v0; \
    if (rb > 1) v1 = __riscv_vle32_v_f32m4(ip + wp, vl);                     \
    if (rb > 2) v2 = __riscv_vle32_v_f32m4(ip + 2 * wp, vl);                 \
    if (rb > 3) v3 = __riscv_vle32_v_f32m4(ip + 3 * wp, vl);                 \
    A0 = __riscv_vfmacc_vf_f32m4(A0, wt, v0, vl);                            \
    if (rb > 1) A1 = __riscv_vfmacc_vf_f32m4(A1, wt, v1, vl);                \
    if (rb > 2) A2 = __riscv_vfmacc_vf_f32m4(A2, wt, v2, vl);                \
    if (rb > 3) A3 = __riscv_vfmacc_vf_f32m4(A3, wt, v3, vl);                \
  }

// Store tile row q: both phases interleaved (np = 2), unit stride (s == 1), or s apart.
#define ROW_STORE(A, B, q)                                                   \
  do {                                                                       \
    float *o_ = o + (size_t)(q) * ostep;                                     \
    if (np == 2) {                                                           \
      if (vl1 == vl) {                                                       \
        __riscv_vsseg2e32_v_f32m4x2(o_, __riscv_vcreate_v_f32m4x2((A), (B)), vl); \
      } else { /* odd row end: vl1 = vl - 1 pairs, then the last phase-0 output */ \
        __riscv_vsseg2e32_v_f32m4x2(o_, __riscv_vcreate_v_f32m4x2((A), (B)), vl1); \
        o_[2 * vl1] = __riscv_vfmv_f_s_f32m4_f32(__riscv_vslidedown_vx_f32m4((A), vl1, vl)); \
      }                                                                      \
    } else if (s == 1) {                                                     \
      __riscv_vse32_v_f32m4(o_, (A), vl);                                    \
    } else {                                                                 \
      __riscv_vsse32_v_f32m4(o_, (ptrdiff_t)s * (ptrdiff_t)sizeof(float), (A), vl); \
    }                                                                        \
  } while (0)

static inline __attribute__((always_inline)) void tile(const float *b, size_t wp, const int *ntap,
                                                       const int *const *toff, const float *const *tw,
                                                       float bias, float *o, size_t ostep, int s, size_t vl,
                                                       size_t vl1, int rb, int np) {
  vfloat32m4_t a0 = __riscv_vfmv_v_f_f32m4(bias, vl);
  vfloat32m4_t a1 = a0, a2 = a0, a3 = a0, b0 = a0, b1 = a0, b2 = a0, b3 = a0;
  PHASE_TAPS(ntap[0], toff[0], tw[0], a0, a1, a2, a3);
  if (np == 2) PHASE_TAPS(ntap[1], toff[1], tw[1], b0, b1, b2, b3);
  ROW_STORE(a0, b0, 0);
  if (rb > 1) ROW_STORE(a1, b1, 1);
  if (rb > 2) ROW_STORE(a2, b2, 2);
  if (rb > 3) ROW_STORE(a3, b3, 3);
}

void deconvdw_f32(const float *in, const float *weight, const float *bias, float *out, int channels, int h, int w,
                  int kernel, int stride, int dilation, int pad) {
  const int k = kernel, s = stride, d = dilation;
  const int outh = (h - 1) * s + d * (k - 1) + 1 - 2 * pad;
  const int outw = (w - 1) * s + d * (k - 1) + 1 - 2 * pad;
  if (channels <= 0 || outh <= 0 || outw <= 0) return;
  const size_t hw = (size_t)h * w, ohw = (size_t)outh * outw, kk = (size_t)k * k;

  // Input rows / columns any tile reads: phase p of an output extent n reads c + j for its taps' c and
  // j < ceil((n - p) / s) (columns: ceil(n / s)); beyond the input they read the zero border.
  int ymin = 0, ymax = h - 1, xmin = 0, xmax = w - 1;
  for (int p = 0; p < s; p++) {
    for (int t = 0; t < k; t++) {
      const int e = p + pad - t * d;
      if (e % s != 0) continue;
      if (p < outh) {
        const int lo = e / s, hi = e / s + (outh - p + s - 1) / s - 1;
        ymin = lo < ymin ? lo : ymin;
        ymax = hi > ymax ? hi : ymax;
      }
      if (p < outw) {  // a two-phase tile runs phase 1 over phase 0's j range too
        const int lo = e / s, hi = e / s + (outw + s - 1) / s - 1;
        xmin = lo < xmin ? lo : xmin;
        xmax = hi > xmax ? hi : xmax;
      }
    }
  }
  const size_t wp = (size_t)(xmax - xmin + 1), hp = (size_t)(ymax - ymin + 1);
  float buf[hp * wp];
  for (size_t vl, i = 0; i < hp * wp; i += vl) {  // the border stays zero for every channel
    vl = __riscv_vsetvl_e32m4(hp * wp - i);
    __riscv_vse32_v_f32m4(buf + i, __riscv_vfmv_v_f_f32m4(0.0f, vl), vl);
  }
  float *interior = buf + (size_t)(-ymin) * wp + (size_t)(-xmin);

  int roff[k], rk[k], toffs[2][k * k], ntap[2];
  float tws[2][k * k];
  const int *toff[2] = {toffs[0], toffs[1]};
  const float *tw[2] = {tws[0], tws[1]};
  // Stride 2 with a row of two or more outputs: both column phases in one tile, stored interleaved.
  const int np = s == 2 && outw >= 2 ? 2 : 1;

  for (int ch = 0; ch < channels; ch++) {
    const float *src = in + ch * hw;
    for (int y = 0; y < h; y++)
      for (size_t vl, x = 0; x < (size_t)w; x += vl) {
        vl = __riscv_vsetvl_e32m4((size_t)w - x);
        __riscv_vse32_v_f32m4(interior + y * wp + x, __riscv_vle32_v_f32m4(src + (size_t)y * w + x, vl), vl);
      }
    const float *wc = weight + ch * kk;
    for (int py = 0; py < s && py < outh; py++) {
      // kernel rows of this row phase: output row py + s*r takes input row cy + r
      int nrow = 0;
      for (int ky = 0; ky < k; ky++) {
        const int t = py + pad - ky * d;
        if (t % s != 0) continue;
        roff[nrow] = (t / s - ymin) * (int)wp;
        rk[nrow++] = ky * k;
      }
      const int nr = (outh - py + s - 1) / s;
      for (int px = 0; px < s && px < outw; px += np) {
        // taps of phases px..px+np-1: kernel column kx with input column c + j for output px + s*j
        for (int p = 0; p < np; p++) {
          ntap[p] = 0;
          for (int kx = 0; kx < k; kx++) {
            const int t = px + p + pad - kx * d;
            if (t % s != 0) continue;
            for (int r = 0; r < nrow; r++) {
              toffs[p][ntap[p]] = roff[r] + (t / s - xmin);
              tws[p][ntap[p]++] = wc[rk[r] + kx];
            }
          }
        }
        const int nj = (outw - px + s - 1) / s, nj1 = (outw - px - 1 + s - 1) / s;  // phase px, px + 1
        float *oc = out + ch * ohw + (size_t)py * outw + px;
        const size_t ostep = (size_t)s * outw;
        for (int r0 = 0, rb; r0 < nr; r0 += rb) {
          rb = nr - r0 >= RB ? RB : nr - r0 >= 2 ? 2 : 1;
          const float *brow = buf + (size_t)r0 * wp;
          for (size_t vl, j0 = 0; j0 < (size_t)nj; j0 += vl) {
            vl = __riscv_vsetvl_e32m4((size_t)nj - j0);
            const size_t vl1 = (size_t)nj1 - j0 < vl ? (size_t)nj1 - j0 : vl;  // pairs (np = 2)
            float *o = oc + (size_t)r0 * ostep + (size_t)s * j0;
            if (np == 2) {
              if (rb == RB)
                tile(brow + j0, wp, ntap, toff, tw, bias[ch], o, ostep, s, vl, vl1, RB, 2);
              else if (rb == 2)
                tile(brow + j0, wp, ntap, toff, tw, bias[ch], o, ostep, s, vl, vl1, 2, 2);
              else
                tile(brow + j0, wp, ntap, toff, tw, bias[ch], o, ostep, s, vl, vl1, 1, 2);
            } else {
              if (rb == RB)
                tile(brow + j0, wp, ntap, toff, tw, bias[ch], o, ostep, s, vl, vl, RB, 1);
              else if (rb == 2)
                tile(brow + j0, wp, ntap, toff, tw, bias[ch], o, ostep, s, vl, vl, 2, 1);
              else
                tile(brow + j0, wp, ntap, toff, tw, bias[ch], o, ostep, s, vl, vl, 1, 1);
            }
          }
        }
      }
    }
  }
}
