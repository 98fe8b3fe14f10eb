// Segmented stable sort of int32 key/value pairs (every segment [offsets[s], offsets[s+1]) sorted on its
// own), moderngpu-style: block sort, then merge passes that never cross a segment, all on RVV.
// 1. Block sort: each segment is cut into columns of <= 16 elements; C = 4 columns (e64m1 lanes) form a
//    16-row register tile, gathered row by row (rows past a column's end become all-ones composites,
//    which sort last). Keys become 64-bit composites (key biased to unsigned << 32 | position), all
//    distinct, so Batcher's 63-comparator network (vminu/vmaxu between registers, no permutes) sorts every
//    column stably; values are gathered through the position in the low half.
// 2. Merge passes w = 16, 32, ...: every segment longer than w contributes its pairs of runs; a queue
//    cuts them into pieces of PIECE outputs (full pieces and the shorter last ones go to separate queues,
//    so full groups need no lane masks), and L = vlmax queued pieces (consecutive, so the lanes' streams
//    stay in distinct L1 sets) are merged in lock step: a vectorised merge-path search places each piece,
//    then one output per lane per step (compare, vmin the key, one gather of the value through the chosen
//    index, scatter key and value, next keys gathered one step ahead so the loop-carried chain is
//    compare -> vmerge). A second vectorised binary search finds where each lane's merge first runs out of
//    one run; every lane can step without bound checks until the first of those.
// Ping-pong between keys_out/vals_out and keys/vals; a segment stops moving once it is sorted, so the
// last step copies every segment from the pair that holds it to the other one.
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

// Tuning knob (kernels/README.md): the outputs per lane per piece. (No LMUL knob: the e64m1 block sort
// cannot go below m1, and m4 merge lanes would not fit the registers.)
// eok-knob: PIECE = 64 in {32, 64, 128}
#ifndef PIECE
#define PIECE 64
#endif

#define BIAS 0x80000000u
#define MAXL 64  // lanes used at most (the queue lives on the stack)

static void copy_pairs(const int32_t *sk, const int32_t *sv, int32_t *dk, int32_t *dv, size_t n) {
  for (size_t i = 0, vl; i < n; i += vl) {
    vl = __riscv_vsetvl_e32m8(n - i);
    __riscv_vse32_v_i32m8(dk + i, __riscv_vle32_v_i32m8(sk + i, vl), vl);
    __riscv_vse32_v_i32m8(dv + i, __riscv_vle32_v_i32m8(sv + i, vl), vl);
  }
}

// ---- block sort ---------------------------------------------------------------------------------------

#define CE(x, y)                                           \
  do {                                                     \
    vuint64m1_t lo_ = __riscv_vminu_vv_u64m1(x, y, C);     \
    y = __riscv_vmaxu_vv_u64m1(x, y, C);                   \
    x = lo_;                                               \
  } while (0)

// Sorts the columns [start[c], start[c] + len[c]) (len <= 16; len 0 = no column) of sk/sv into dk/dv:
// 16 rows of C lanes (e64m1), Batcher's 63-comparator odd-even merge sort network.
static void block_tile(const int32_t *sk, const int32_t *sv, int32_t *dk, int32_t *dv, const uint32_t *start,
                       const uint32_t *len, size_t C) {
  const vuint32mf2_t st = __riscv_vle32_v_u32mf2(start, C);
  const vuint32mf2_t ln = __riscv_vle32_v_u32mf2(len, C);
  vuint64m1_t r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15;
#define LOAD_ROW(i, R)                                                                                   \
  do {                                                                                                   \
    vbool64_t ok_ = __riscv_vmsgtu_vx_u32mf2_b64(ln, i, C);                                              \
    vuint32mf2_t p_ = __riscv_vadd_vx_u32mf2(st, i, C);                                                  \
    vuint32mf2_t k_ = __riscv_vluxei32_v_u32mf2_m(ok_, (const uint32_t *)sk, __riscv_vsll_vx_u32mf2(p_, 2, C), C); \
    vuint64m1_t h_ = __riscv_vsll_vx_u64m1(__riscv_vzext_vf2_u64m1(__riscv_vxor_vx_u32mf2(k_, BIAS, C), C), 32, C); \
    h_ = __riscv_vor_vv_u64m1(h_, __riscv_vzext_vf2_u64m1(p_, C), C);                                    \
    R = __riscv_vmerge_vxm_u64m1(h_, UINT64_MAX, __riscv_vmnot_m_b64(ok_, C), C);                        \
  } while (0)
  LOAD_ROW(0, r0); LOAD_ROW(1, r1); LOAD_ROW(2, r2); LOAD_ROW(3, r3);
  LOAD_ROW(4, r4); LOAD_ROW(5, r5); LOAD_ROW(6, r6); LOAD_ROW(7, r7);
  LOAD_ROW(8, r8); LOAD_ROW(9, r9); LOAD_ROW(10, r10); LOAD_ROW(11, r11);
  LOAD_ROW(12, r12); LOAD_ROW(13, r13); LOAD_ROW(14, r14); LOAD_ROW(15, r15);
  CE(r0, r1); CE(r2, r3); CE(r0, r2); CE(r1, r3); CE(r1, r2); CE(r4, r5);
  CE(r6, r7); CE(r4, r6); CE(r5, r7); CE(r5, r6); CE(r0, r4); CE(r2, r6);
  CE(r2, r4); CE(r1, r5); CE(r3, r7); CE(r3, r5); CE(r1, r2); CE(r3, r4);
  CE(r5, r6); CE(r8, r9); CE(r10, r11); CE(r8, r10); CE(r9, r11); CE(r9, r10);
  CE(r12, r13); CE(r14, r15); CE(r12, r14); CE(r13, r15); CE(r13, r14); CE(r8, r12);
  CE(r10, r14); CE(r10, r12); CE(r9, r13); CE(r11, r15); CE(r11, r13); CE(r9, r10);
  CE(r11, r12); CE(r13, r14); CE(r0, r8); CE(r4, r12); CE(r4, r8); CE(r2, r10);
  CE(r6, r14); CE(r6, r10); CE(r2, r4); CE(r6, r8); CE(r10, r12); CE(r1, r9);
  CE(r5, r13); CE(r5, r9); CE(r3, r11); CE(r7, r15); CE(r7, r11); CE(r3, r5);
  CE(r7, r9); CE(r11, r13); CE(r1, r2); CE(r3, r4); CE(r5, r6); CE(r7, r8);
  CE(r9, r10); CE(r11, r12); CE(r13, r14);
  // Rows past a column's end hold all-ones composites (no real one is: its position is < 2^32 - 1),
  // so validity comes from the composite itself, and the offsets from st4: nothing computed for the
  // loads stays live across the network.
  const vuint32mf2_t st4 = __riscv_vsll_vx_u32mf2(st, 2, C);
#define STORE_ROW(i, R)                                                                                  \
  do {                                                                                                   \
    vbool64_t ok_ = __riscv_vmsne_vx_u64m1_b64(R, UINT64_MAX, C);                                        \
    vuint32mf2_t key_ = __riscv_vxor_vx_u32mf2(__riscv_vnsrl_wx_u32mf2(R, 32, C), BIAS, C);              \
    vuint32mf2_t src_ = __riscv_vsll_vx_u32mf2(__riscv_vnsrl_wx_u32mf2(R, 0, C), 2, C);                  \
    vuint32mf2_t dst_ = __riscv_vadd_vx_u32mf2(st4, 4 * i, C);                                           \
    vint32mf2_t val_ = __riscv_vluxei32_v_i32mf2_m(ok_, sv, src_, C);                                    \
    __riscv_vsuxei32_v_u32mf2_m(ok_, (uint32_t *)dk, dst_, key_, C);                                     \
    __riscv_vsuxei32_v_i32mf2_m(ok_, dv, dst_, val_, C);                                                 \
  } while (0)
  STORE_ROW(0, r0); STORE_ROW(1, r1); STORE_ROW(2, r2); STORE_ROW(3, r3);
  STORE_ROW(4, r4); STORE_ROW(5, r5); STORE_ROW(6, r6); STORE_ROW(7, r7);
  STORE_ROW(8, r8); STORE_ROW(9, r9); STORE_ROW(10, r10); STORE_ROW(11, r11);
  STORE_ROW(12, r12); STORE_ROW(13, r13); STORE_ROW(14, r14); STORE_ROW(15, r15);
}

// ---- lock-step merging of queued pieces -----------------------------------------------------------------

// A piece: outputs [p, p + len) of the merge of the runs src[js, mid) and src[mid, end) into
// dst[js, end) (both runs non-empty), p - js a multiple of the piece size.
typedef struct {
  const int32_t *sk, *sv;
  int32_t *dk, *dv;
  uint32_t last;   // byte offset of the array's last element: look-ahead reads are clamped to it
  size_t L, S;     // lanes, piece size
  size_t cnt;      // pieces queued
  uint32_t maxlen, minlen, win;  // longest and shortest piece, widest merge-path window
  uint32_t maxrun, safe;         // longest run (search bound); steps every lane can run unchecked
  uint32_t js[MAXL], mid[MAXL], end[MAXL], p[MAXL], len[MAXL];
} queue_t;

// One merge step of every lane; see mergesort_pairs_i32 for the scheme. ia/ib/o: byte offsets of the
// current A and B element and of the output; om = ia + ib; ka/kb: current keys; na/nb: the keys after
// them (gathered a step ahead). CHECKED: lanes may reach the end of a run; MASKED: lanes outside act idle.
#define MERGE_STEP(CHECKED, MASKED)                                                                  \
  do {                                                                                               \
    vbool16_t ta;                                                                                    \
    vint32m2_t key;                                                                                  \
    if (CHECKED) {                                                                                   \
      vbool16_t ahas = __riscv_vmsltu_vv_u32m2_b16(ia, aend, L);                                     \
      vbool16_t bdone = __riscv_vmsgeu_vv_u32m2_b16(ib, bend, L);                                    \
      if (MASKED) ahas = __riscv_vmand_mm_b16(ahas, act, L);                                         \
      vbool16_t cmp = __riscv_vmandn_mm_b16(ahas, bdone, L);                                         \
      vbool16_t onlya = __riscv_vmand_mm_b16(ahas, bdone, L);                                        \
      ta = __riscv_vmsle_vv_i32m2_b16_mu(cmp, onlya, ka, kb, L);                                     \
      key = __riscv_vmerge_vvm_i32m2(kb, ka, ta, L);                                                 \
    } else {                                                                                         \
      ta = __riscv_vmsle_vv_i32m2_b16(ka, kb, L);                                                    \
      key = __riscv_vmin_vv_i32m2(ka, kb, L);                                                        \
    }                                                                                                \
    vuint32m2_t from = __riscv_vmerge_vvm_u32m2(ib, ia, ta, L);                                      \
    ka = __riscv_vmerge_vvm_i32m2(ka, na, ta, L);                                                    \
    kb = __riscv_vmerge_vvm_i32m2(nb, kb, ta, L);                                                    \
    ia = __riscv_vadd_vx_u32m2_mu(ta, ia, ia, 4, L);                                                 \
    if (MASKED) {                                                                                    \
      vint32m2_t val = __riscv_vluxei32_v_i32m2_mu(act, key, sv, from, L);                           \
      __riscv_vsuxei32_v_i32m2_m(act, dk, o, key, L);                                                \
      __riscv_vsuxei32_v_i32m2_m(act, dv, o, val, L);                                                \
      ib = __riscv_vadd_vx_u32m2_mu(__riscv_vmandn_mm_b16(act, ta, L), ib, ib, 4, L);                \
    } else {                                                                                         \
      vint32m2_t val = __riscv_vluxei32_v_i32m2(sv, from, L);                                        \
      __riscv_vsuxei32_v_i32m2(dk, o, key, L);                                                       \
      __riscv_vsuxei32_v_i32m2(dv, o, val, L);                                                       \
      om = __riscv_vadd_vx_u32m2(om, 4, L);                                                          \
      ib = __riscv_vsub_vv_u32m2(om, ia, L);                                                         \
    }                                                                                                \
    /* look-ahead past the array's end (never used): clamped */                                     \
    na = __riscv_vluxei32_v_i32m2(sk + 1, __riscv_vminu_vx_u32m2(ia, last - 4, L), L);               \
    nb = __riscv_vluxei32_v_i32m2(sk + 1, __riscv_vminu_vx_u32m2(ib, last - 4, L), L);               \
    o = __riscv_vadd_vx_u32m2(o, 4, L);                                                              \
  } while (0)

__attribute__((noinline)) static void run_group(queue_t *q) {
  const size_t L = q->L;
  const int32_t *sk = q->sk, *sv = q->sv;
  int32_t *dk = q->dk, *dv = q->dv;
  const uint32_t last = q->last;
  if (q->cnt < L) q->minlen = 0;
  for (size_t k = q->cnt; k < L; ++k) q->js[k] = q->mid[k] = q->end[k] = q->p[k] = q->len[k] = 0;
  const vuint32m2_t js = __riscv_vle32_v_u32m2(q->js, L);
  const vuint32m2_t mid = __riscv_vle32_v_u32m2(q->mid, L);
  const vuint32m2_t end = __riscv_vle32_v_u32m2(q->end, L);
  const vuint32m2_t p = __riscv_vle32_v_u32m2(q->p, L);
  const vuint32m2_t len = __riscv_vle32_v_u32m2(q->len, L);
  const vbool16_t live = __riscv_vmsne_vx_u32m2_b16(len, 0, L);
  const vuint32m2_t d = __riscv_vsub_vv_u32m2(p, js, L);
  vuint32m2_t lo = __riscv_vssubu_vv_u32m2(d, __riscv_vsub_vv_u32m2(end, mid, L), L);
  vuint32m2_t hi = __riscv_vminu_vv_u32m2(d, __riscv_vsub_vv_u32m2(mid, js, L), L);
  const vuint32m2_t bdiag = __riscv_vsub_vx_u32m2(__riscv_vadd_vv_u32m2(mid, d, L), 1, L);
  for (uint32_t x = q->win; x > 0; x >>= 1) {  // merge-path search: A count of the first d outputs
    vbool16_t act = __riscv_vmand_mm_b16(live, __riscv_vmsltu_vv_u32m2_b16(lo, hi, L), L);
    vuint32m2_t m = __riscv_vsrl_vx_u32m2(__riscv_vadd_vv_u32m2(lo, hi, L), 1, L);
    vuint32m2_t ai = __riscv_vsll_vx_u32m2(__riscv_vadd_vv_u32m2(js, m, L), 2, L);
    vuint32m2_t bi = __riscv_vsll_vx_u32m2(__riscv_vsub_vv_u32m2(bdiag, m, L), 2, L);
    vint32m2_t xa = __riscv_vluxei32_v_i32m2_m(act, sk, ai, L);
    vint32m2_t xb = __riscv_vluxei32_v_i32m2_m(act, sk, bi, L);
    vbool16_t le = __riscv_vmsle_vv_i32m2_b16(xa, xb, L);
    lo = __riscv_vadd_vx_u32m2_mu(__riscv_vmand_mm_b16(act, le, L), lo, m, 1, L);
    hi = __riscv_vmerge_vvm_u32m2(hi, m, __riscv_vmandn_mm_b16(act, le, L), L);
  }
  vuint32m2_t ia = __riscv_vsll_vx_u32m2(__riscv_vadd_vv_u32m2(js, lo, L), 2, L);
  vuint32m2_t ib = __riscv_vsll_vx_u32m2(__riscv_vsub_vv_u32m2(__riscv_vadd_vv_u32m2(mid, d, L), lo, L), 2, L);
  const vuint32m2_t aend = __riscv_vsll_vx_u32m2(mid, 2, L), bend = __riscv_vsll_vx_u32m2(end, 2, L);
  vuint32m2_t o = __riscv_vsll_vx_u32m2(p, 2, L);
  vuint32m2_t om = __riscv_vadd_vv_u32m2(ia, ib, L);
  vint32m2_t ka = __riscv_vluxei32_v_i32m2_m(live, sk, __riscv_vminu_vx_u32m2(ia, last, L), L);
  vint32m2_t kb = __riscv_vluxei32_v_i32m2_m(live, sk, __riscv_vminu_vx_u32m2(ib, last, L), L);
  vint32m2_t na = __riscv_vluxei32_v_i32m2_m(live, sk + 1, __riscv_vminu_vx_u32m2(ia, last - 4, L), L);
  vint32m2_t nb = __riscv_vluxei32_v_i32m2_m(live, sk + 1, __riscv_vminu_vx_u32m2(ib, last - 4, L), L);
  // Outputs before a lane's merge first runs out of A or B: with A's last key <= B's last, A runs out
  // first, after all of A and the B keys below A's last (a lower bound in B); otherwise B runs out
  // first, after all of B and the A keys up to B's last (an upper bound in A). One vectorised binary
  // search for all lanes; up to there (minus the piece's diagonal) a lane needs no bound checks.
  {
    const vint32m2_t alast = __riscv_vluxei32_v_i32m2_m(live, sk, __riscv_vsub_vx_u32m2(aend, 4, L), L);
    const vint32m2_t blast = __riscv_vluxei32_v_i32m2_m(live, sk, __riscv_vsub_vx_u32m2(bend, 4, L), L);
    const vbool16_t afirst = __riscv_vmsle_vv_i32m2_b16(alast, blast, L);
    const vint32m2_t key = __riscv_vmerge_vvm_i32m2(blast, alast, afirst, L);       // searched for
    const vuint32m2_t base = __riscv_vmerge_vvm_u32m2(js, mid, afirst, L);          // in B or in A
    const vuint32m2_t cnt = __riscv_vmerge_vvm_u32m2(__riscv_vsub_vv_u32m2(mid, js, L), __riscv_vsub_vv_u32m2(end, mid, L), afirst, L);
    vuint32m2_t blo = __riscv_vmv_v_x_u32m2(0, L), bhi = cnt;
    for (uint32_t x = q->maxrun; x > 0; x >>= 1) {
      vbool16_t act = __riscv_vmand_mm_b16(live, __riscv_vmsltu_vv_u32m2_b16(blo, bhi, L), L);
      vuint32m2_t m = __riscv_vsrl_vx_u32m2(__riscv_vadd_vv_u32m2(blo, bhi, L), 1, L);
      vint32m2_t xv = __riscv_vluxei32_v_i32m2_m(act, sk, __riscv_vsll_vx_u32m2(__riscv_vadd_vv_u32m2(base, m, L), 2, L), L);
      vbool16_t below = __riscv_vmsle_vv_i32m2_b16(xv, key, L);                 // upper bound: x <= key
      below = __riscv_vmslt_vv_i32m2_b16_mu(afirst, below, xv, key, L);         // lower bound: x < key
      blo = __riscv_vadd_vx_u32m2_mu(__riscv_vmand_mm_b16(act, below, L), blo, m, 1, L);
      bhi = __riscv_vmerge_vvm_u32m2(bhi, m, __riscv_vmandn_mm_b16(act, below, L), L);
    }
    // first exhaustion at diagonal blo + (the other run's length); safe steps = that - d, at most len
    const vuint32m2_t other = __riscv_vsub_vv_u32m2(__riscv_vsub_vv_u32m2(end, js, L), cnt, L);
    vuint32m2_t safe = __riscv_vssubu_vv_u32m2(__riscv_vadd_vv_u32m2(blo, other, L), d, L);
    safe = __riscv_vmerge_vxm_u32m2(safe, 0, __riscv_vmnot_m_b16(live, L), L);
    q->safe = __riscv_vmv_x_s_u32m1_u32(__riscv_vredminu_vs_u32m2_u32m1(safe, __riscv_vmv_s_x_u32m1(UINT32_MAX, 1), L));
  }
  const size_t maxlen = q->maxlen, minlen = q->minlen;
  const size_t unchecked = q->safe < minlen ? q->safe : minlen;
  {
    const vbool16_t act = live;  // unused by the unmasked steps
    (void)act;
    size_t t = 0;
    for (; t < unchecked; ++t) MERGE_STEP(0, 0);
    for (; t < minlen; ++t) MERGE_STEP(1, 0);
  }
  for (size_t t = minlen; t < maxlen; ++t) {  // some lanes are done: masked (om is not kept up)
    vbool16_t act = __riscv_vmsgtu_vx_u32m2_b16(len, (uint32_t)t, L);
    MERGE_STEP(1, 1);
  }
  q->cnt = 0;
  q->maxlen = q->win = q->maxrun = 0;
  q->minlen = UINT32_MAX;
}

// Queues the merge of src[a0, a1) and src[a1, b1) into dst[a0, b1), cut into pieces of S outputs: full
// pieces to qf, the shorter last one to qp, so that qf's groups run without lane masks.
static void add_piece(queue_t *q, uint32_t a0, uint32_t a1, uint32_t b1, uint32_t d, uint32_t l, uint32_t w) {
  if (q->cnt == q->L) run_group(q);
  const size_t k = q->cnt++;
  q->js[k] = a0, q->mid[k] = a1, q->end[k] = b1, q->p[k] = a0 + d, q->len[k] = l;
  if (l > q->maxlen) q->maxlen = l;
  if (l < q->minlen) q->minlen = l;
  if (d > 0 && w > q->win) q->win = w;
  if (a1 - a0 > q->maxrun) q->maxrun = a1 - a0;
  if (b1 - a1 > q->maxrun) q->maxrun = b1 - a1;
}

static void add_job(queue_t *qf, queue_t *qp, uint32_t a0, uint32_t a1, uint32_t b1) {
  const uint32_t total = b1 - a0, na = a1 - a0, nb = b1 - a1, S = (uint32_t)qf->S;
  const uint32_t w = na < nb ? na : nb;  // bounds the merge-path window
  uint32_t d = 0;
  for (; d + S <= total; d += S) add_piece(qf, a0, a1, b1, d, S, w);
  if (d < total) add_piece(qp, a0, a1, b1, d, total - d, w);
}

// ---- the sort ----------------------------------------------------------------------------------------

void segsort_pairs_i32(int32_t *keys, int32_t *vals, int32_t *keys_out, int32_t *vals_out, int n_,
                       const int32_t *offsets, int nseg_) {
  const size_t n = n_ > 0 ? (size_t)n_ : 0, nseg = nseg_ > 0 ? (size_t)nseg_ : 0;
  if (n == 0 || nseg == 0) return;
#define SEG_END(s) ((s) + 1 < nseg ? (uint32_t)offsets[(s) + 1] : (uint32_t)n)

  // 1. Columns of <= 8 elements, never crossing a segment, sorted C at a time: keys -> keys_out.
  const size_t C = __riscv_vsetvlmax_e64m1() < MAXL ? __riscv_vsetvlmax_e64m1() : MAXL;
  uint32_t cstart[MAXL], clen[MAXL];
  size_t nc = 0;
  uint32_t longest = 0;
  for (size_t s = 0; s < nseg; ++s) {
    const uint32_t s0 = (uint32_t)offsets[s], s1 = SEG_END(s);
    if (s1 - s0 > longest) longest = s1 - s0;
    for (uint32_t x = s0; x < s1; x += 16) {
      cstart[nc] = x;
      clen[nc] = s1 - x < 16 ? s1 - x : 16;
      if (++nc == C) {
        block_tile(keys, vals, keys_out, vals_out, cstart, clen, C);
        nc = 0;
      }
    }
  }
  if (nc > 0) {
    for (size_t c = nc; c < C; ++c) cstart[c] = 0, clen[c] = 0;
    block_tile(keys, vals, keys_out, vals_out, cstart, clen, C);
  }

  // 2. Merge passes; a segment takes part while it is longer than w.
  queue_t qf, qp;
  qf.L = __riscv_vsetvlmax_e32m2();
  if (qf.L > MAXL) qf.L = MAXL;
  qf.last = (uint32_t)(4 * n - 4);
  qf.cnt = 0;
  qf.maxlen = qf.win = qf.maxrun = 0;
  qf.minlen = UINT32_MAX;
  int32_t *sk = keys_out, *sv = vals_out, *dk = keys, *dv = vals;
  for (uint32_t w = 16; w < longest; w *= 2) {
    qf.S = 2 * w < PIECE ? 2 * w : PIECE;
    qf.sk = sk, qf.sv = sv, qf.dk = dk, qf.dv = dv;
    qp = qf;
    for (size_t s = 0; s < nseg; ++s) {
      const uint32_t s0 = (uint32_t)offsets[s], s1 = SEG_END(s);
      if (s1 - s0 <= w) continue;  // sorted already; stays where it is
      for (uint32_t js = s0; js < s1; js += 2 * w) {
        const uint32_t mid = s1 - js > w ? js + w : s1, end = s1 - js > 2 * w ? js + 2 * w : s1;
        if (mid == end) copy_pairs(sk + js, sv + js, dk + js, dv + js, end - js);  // a lone run
        else add_job(&qf, &qp, js, mid, end);
      }
    }
    if (qf.cnt > 0) run_group(&qf);
    if (qp.cnt > 0) run_group(&qp);
    int32_t *tk = sk, *tv = sv;
    sk = dk, sv = dv, dk = tk, dv = tv;
  }

  // 3. A segment that took part in an even number of passes ends in keys_out, else in keys: copy every
  // segment to the other pair, runs of segments with the same parity at once.
  size_t run0 = 0;
  int run_par = -1;
  for (size_t s = 0; s <= nseg; ++s) {
    int par = -1;
    uint32_t s0 = (uint32_t)n;
    if (s < nseg) {
      s0 = (uint32_t)offsets[s];
      const uint32_t len = SEG_END(s) - s0;
      if (len == 0) continue;
      par = 0;
      for (uint32_t w = 16; w < len; w *= 2) par ^= 1;
    }
    if (par != run_par) {
      if (run_par == 0) copy_pairs(keys_out + run0, vals_out + run0, keys + run0, vals + run0, s0 - run0);
      if (run_par == 1) copy_pairs(keys + run0, vals + run0, keys_out + run0, vals_out + run0, s0 - run0);
      run0 = s0, run_par = par;
    }
  }
}
