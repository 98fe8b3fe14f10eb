// Deconvolution (transposed conv2d), fp32, planar [c][h][w], NCNN semantics: out_full[oc][iy*s + ky*d]
// [ix*s + kx*d] += in[ic][iy][ix] * W[oc][ic][ky][kx], then pad cut from each border.
// Shape: per output phase (sub-pixel) gather. Output row oy takes input row iy through kernel row ky iff
// oy + pad - ky*d = iy*s; likewise the outputs of column phase px (ox = px + s*j) take input column c + j
// through kernel column kx iff px + pad - kx*d = c*s. So for one (oy, px), each valid (ky, kx, ic) adds a
// contiguous input strip in[ic][iy][c + j ...] times a scalar weight to a contiguous run of j: a small
// GEMM. A register tile holds MR = 8 output channels x one LMUL-2 strip of j (16 outputs, a stride-2 phase
// of a 32-wide row; 16 vector registers), initialised with the bias; each strip load feeds MR vfmacc.vf,
// the next input channel's strip is loaded before the current FMAs, and the tile is stored once (a strided
// store when stride > 1: a phase's outputs lie s apart). The weights are first repacked (stack scratch,
// outc*inc*k*k floats) so the MR scalars of one (ic, ky, kx) are adjacent: the inner loop over input
// channels needs one pointer step for the weights and one for the input. Lanes whose input column falls
// outside [0, w) (the first and last strips of a phase) take a masked load; all loads of one kernel column
// share the mask and load into the same registers, so the masked-off lanes stay 0 with no copy per load.
#include <riscv_vector.h>
#include <stddef.h>

// Tuning knobs (kernels/README.md): the LMUL of the j strip, and the output channels of a full register
// tile (4-, 2- and 1-channel tiles cover what is left below MR).
// eok-knob: LMUL = 2 in {1, 2, 4, 8}
// eok-knob: MR = 8 in {1, 2, 4, 8}
#ifndef MR
#define MR 8
#endif
#if MR < 1 || MR > 8
#error "MR must be 1 to 8: tile() has eight accumulators"
#endif

// acc_r += wk[r] * v for the channels of the tile.
#define TILE_FMA(v, wk)                                                     \
  do {                                                                      \
    c0 = __riscv_vfmacc_vf_f32m2(c0, (wk)[0], (v), vl);                     \
    if (mr > 1) c1 = __riscv_vfmacc_vf_f32m2(c1, (wk)[1], (v), vl);         \
    if (mr > 2) c2 = __riscv_vfmacc_vf_f32m2(c2, (wk)[2], (v), vl);         \
    if (mr > 3) c3 = __riscv_vfmacc_vf_f32m2(c3, (wk)[3], (v), vl);         \
    if (mr > 4) c4 = __riscv_vfmacc_vf_f32m2(c4, (wk)[4], (v), vl);         \
    if (mr > 5) c5 = __riscv_vfmacc_vf_f32m2(c5, (wk)[5], (v), vl);         \
    if (mr > 6) c6 = __riscv_vfmacc_vf_f32m2(c6, (wk)[6], (v), vl);         \
    if (mr > 7) c7 = __riscv_vfmacc_vf_f32m2(c7, (wk)[7], (v), vl);         \
  } while (0)

// Store accumulator c of channel r: unit stride when stride == 1, else s elements apart.
#define TILE_STORE(c, r)                                                    \
  do {                                                                      \
    if (P->s == 1)                                                          \
      __riscv_vse32_v_f32m2(o + (r) * ohw, (c), vl);                        \
    else                                                                    \
      __riscv_vsse32_v_f32m2(o + (r) * ohw, bs, (c), vl);                   \
  } while (0)

// The loop over input channels for one (kernel row, kernel column): the strip of channel ic + 1 is loaded
// before the FMAs of channel ic, so the in-order core never waits on a load (two registers alternate).
#define IC_LOOP(LOAD)                                                       \
  do {                                                                      \
    const int inc_ = P->inc;                                                \
    const size_t hw_ = P->hw;                                               \
    if (inc_ <= 0) break;                                                   \
    LOAD(v0, ip);                                                           \
    int ic = 0;                                                             \
    for (; ic + 2 < inc_; ic += 2, ip += 2 * hw_, wk += 2 * wstep) {        \
      LOAD(v1, ip + hw_);                                                   \
      TILE_FMA(v0, wk);                                                     \
      LOAD(v0, ip + 2 * hw_);                                               \
      TILE_FMA(v1, wk + wstep);                                             \
    }                                                                       \
    if (ic + 1 < inc_) {                                                    \
      LOAD(v1, ip + hw_);                                                   \
      TILE_FMA(v0, wk);                                                     \
      TILE_FMA(v1, wk + wstep);                                             \
    } else {                                                                \
      TILE_FMA(v0, wk);                                                     \
    }                                                                       \
  } while (0)

// Geometry shared by all tiles of one output row and column phase.
typedef struct {
  const float *in;
  size_t hw, kk;       // input channel size, k*k
  int inc, w, s;
  int nrow, ncol;      // kernel rows / columns that reach this output row / column phase
  const int *roff;     // per kernel row: input row offset iy*w
  const int *rk;       // per kernel row: ky*k
  const int *cc;       // per kernel column: input column c of j = 0
  const int *ck;       // per kernel column: kx
} Phase;

// One tile: mr output channels (packed weights wp[ic][ky*k + kx][mr], bias b) x the vl outputs j0.. of one
// output row and column phase, stored at o (channel stride ohw, element stride s).
static inline __attribute__((always_inline)) void tile(const Phase *P, const float *wp, const float *b, float *o,
                                                       size_t ohw, int j0, size_t vl, int mr) {
  vfloat32m2_t c0 = __riscv_vfmv_v_f_f32m2(b[0], vl);
  vfloat32m2_t c1 = mr > 1 ? __riscv_vfmv_v_f_f32m2(b[1], vl) : c0;
  vfloat32m2_t c2 = mr > 2 ? __riscv_vfmv_v_f_f32m2(b[2], vl) : c0;
  vfloat32m2_t c3 = mr > 3 ? __riscv_vfmv_v_f_f32m2(b[3], vl) : c0;
  vfloat32m2_t c4 = mr > 4 ? __riscv_vfmv_v_f_f32m2(b[4], vl) : c0;
  vfloat32m2_t c5 = mr > 5 ? __riscv_vfmv_v_f_f32m2(b[5], vl) : c0;
  vfloat32m2_t c6 = mr > 6 ? __riscv_vfmv_v_f_f32m2(b[6], vl) : c0;
  vfloat32m2_t c7 = mr > 7 ? __riscv_vfmv_v_f_f32m2(b[7], vl) : c0;
  const size_t wstep = P->kk * (size_t)mr;  // packed weights of the next input channel
  for (int q = 0; q < P->ncol; q++) {
    const int x0 = P->cc[q] + j0;                                 // input column of lane 0
    const int lo = x0 < 0 ? -x0 : 0;                              // first lane with a column >= 0
    const int hi = P->w - x0 < (int)vl ? P->w - x0 : (int)vl;     // one past the last lane inside the row
    if (hi <= lo) continue;
    if (lo == 0 && hi == (int)vl) {  // the whole strip lies inside the input row
#define LOAD_FULL(dst, p) dst = __riscv_vle32_v_f32m2((p), vl)
      vfloat32m2_t v0, v1;
      for (int r = 0; r < P->nrow; r++) {
        const float *ip = P->in + P->roff[r] + x0;
        const float *wk = wp + (size_t)(P->rk[r] + P->ck[q]) * mr;
        IC_LOOP(LOAD_FULL);
      }
    } else {  // edge strip: lanes outside [lo, hi) load nothing and stay 0
      const vuint32m2_t id = __riscv_vid_v_u32m2(vl);
      const vbool16_t m = __riscv_vmand_mm_b16(__riscv_vmsgeu_vx_u32m2_b16(id, (unsigned)lo, vl),
                                             __riscv_vmsltu_vx_u32m2_b16(id, (unsigned)hi, vl), vl);
#define LOAD_EDGE(dst, p) dst = __riscv_vle32_v_f32m2_mu(m, dst, (p), vl)
      vfloat32m2_t v0 = __riscv_vfmv_v_f_f32m2(0.0f, vl), v1 = v0;
      for (int r = 0; r < P->nrow; r++) {
        const float *ip = P->in + P->roff[r] + x0;  // lane 0 may lie before the row: it is masked off
        const float *wk = wp + (size_t)(P->rk[r] + P->ck[q]) * mr;
        IC_LOOP(LOAD_EDGE);
      }
    }
  }
  const ptrdiff_t bs = (ptrdiff_t)P->s * (ptrdiff_t)sizeof(float);
  TILE_STORE(c0, 0);
  if (mr > 1) TILE_STORE(c1, 1);
  if (mr > 2) TILE_STORE(c2, 2);
  if (mr > 3) TILE_STORE(c3, 3);
  if (mr > 4) TILE_STORE(c4, 4);
  if (mr > 5) TILE_STORE(c5, 5);
  if (mr > 6) TILE_STORE(c6, 6);
  if (mr > 7) TILE_STORE(c7, 7);
}

// Width of the channel tile that starts with rem channels left.
static inline int tile_width(int rem) { return rem >= MR ? MR : rem >= 4 ? 4 : rem >= 2 ? 2 : 1; }

// Repack the weights of channels oc..oc+mr-1 as wp[ic][kidx][mr]: channel r's weights are contiguous over
// (ic, kidx), so each goes out as one strided store (outc*inc*k*k elements in all: small beside the MACs).
static void pack(const float *weight, float *wp, int oc, int mr, size_t wsz) {
  for (int r = 0; r < mr; r++) {
    const float *src = weight + (size_t)(oc + r) * wsz;
    for (size_t vl, u = 0; u < wsz; u += vl) {
      vl = __riscv_vsetvl_e32m2(wsz - u);
      __riscv_vsse32_v_f32m2(wp + u * mr + r, (ptrdiff_t)(mr * sizeof(float)), __riscv_vle32_v_f32m2(src + u, vl),
                             vl);
    }
  }
}

void deconv_f32(const float *in, const float *weight, const float *bias, float *out, int inc, int h, int w,
                int outc, int kernel, int stride, int dilation, int pad) {
  const int k = kernel, s = stride, d = dilation;
  const int outh = (h - 1) * s + d * (k - 1) + 1 - 2 * pad;
  const int outw = (w - 1) * s + d * (k - 1) + 1 - 2 * pad;
  if (outc <= 0 || outh <= 0 || outw <= 0) return;
  if (inc < 0) inc = 0;
  const size_t ohw = (size_t)outh * outw, kk = (size_t)k * k, wsz = (size_t)inc * kk;

  // Channel tiles: MR wide while MR channels are left, then 4, 2 and 1 wide; weights packed per tile.
  float wp[(size_t)outc * wsz + 1];
  for (int oc = 0, mr; oc < outc; oc += mr) {
    mr = tile_width(outc - oc);
    pack(weight, wp + (size_t)oc * wsz, oc, mr, wsz);
  }

  int roff[k], rk[k], cc[k], ck[k];
  Phase P = {in, (size_t)h * w, kk, inc, w, s, 0, 0, roff, rk, cc, ck};
  for (int oy = 0; oy < outh; oy++) {
    P.nrow = 0;  // kernel rows that reach this output row, with their input rows
    for (int ky = 0; ky < k; ky++) {
      const int t = oy + pad - ky * d;
      if (t < 0 || t % s != 0 || t / s >= h) continue;
      roff[P.nrow] = (t / s) * w;
      rk[P.nrow++] = ky * k;
    }
    for (int px = 0; px < s && px < outw; px++) {
      P.ncol = 0;  // kernel columns of this phase: input column c + j feeds output px + s*j
      for (int kx = 0; kx < k; kx++) {
        const int t = px + pad - kx * d;
        if (t % s != 0) continue;
        cc[P.ncol] = t / s;
        ck[P.ncol++] = kx;
      }
      const int nj = (outw - px + s - 1) / s;
      for (size_t vl, j0 = 0; j0 < (size_t)nj; j0 += vl) {
        vl = __riscv_vsetvl_e32m2((size_t)nj - j0);
        float *o = out + (size_t)oy * outw + px + (size_t)s * j0;
        for (int oc = 0, mr; oc < outc; oc += mr) {
          mr = tile_width(outc - oc);
          const float *wt = wp + (size_t)oc * wsz;
          float *ot = o + oc * ohw;
          if (mr == MR)
            tile(&P, wt, bias + oc, ot, ohw, (int)j0, vl, MR);
          else if (mr == 4)
            tile(&P, wt, bias + oc, ot, ohw, (int)j0, vl, 4);
          else if (mr == 2)
            tile(&P, wt, bias + oc, ot, ohw, (int)j0, vl, 2);
          else
            tile(&P, wt, bias + oc, ot, ohw, (int)j0, vl, 1);
        }
      }
    }
  }
}
