/*
 * memset_impls.S: eok's own RVV memset loops for calibrating the X60 memory model against the measured
 * rvv-bench results (../shared/data/x60/rvv-bench-x60-kernels.json next to the eok checkout, "memset" benchmark).
 *
 * Written from a prose description of the loops that rvv-bench (camel-cdr/rvv-bench @ e1b462f) timed on
 * the X60; no rvv-bench code was copied. Every function has the memset signature
 *     void *f(void *dst, int c, size_t n)                 a0 = dst, a1 = c, a2 = n (n >= 1)
 * and, like the measured loops, advances a0 in place: the returned value is NOT dst and is never used.
 * All vector ops are e8 with ta, ma. "VLMAX" is vsetvli with AVL = x0 (vlenb * LMUL bytes: 32/64/128/256
 * on the X60). The macro MEMSET_FAMILY instantiates one LMUL (1, 2, 4, 8) of every family.
 */

#include "impl_macros.inc" /* FUNC, ENDF */

        .text

.macro MEMSET_FAMILY L

/* rvv_mL: splat c over the whole register group at VLMAX, then strip-mine with vsetvli at the loop top. */
FUNC cal_memset_rvv_m\L
        vsetvli t0, zero, e8, m\L, ta, ma
        vmv.v.x v8, a1
1:      vsetvli t0, a2, e8, m\L, ta, ma
        vse8.v  v8, (a0)
        sub     a2, a2, t0
        add     a0, a0, t0
        bnez    a2, 1b
        ret
ENDF cal_memset_rvv_m\L

/* rvv_align_mL: splat at VLMAX (then a second, redundant VLMAX vsetvli); if n >= VLMAX a first pass of
 * vl = (-dst) & (VLMAX-1) bytes (vl = 0 when dst is already aligned) aligns dst; later passes strip-mine
 * with vsetvli at the loop bottom. n < VLMAX enters the loop at that bottom vsetvli. */
FUNC cal_memset_rvv_align_m\L
        vsetvli t0, zero, e8, m\L, ta, ma
        vmv.v.x v8, a1
        vsetvli t0, zero, e8, m\L, ta, ma
        bltu    a2, t0, 2f
        neg     t1, a0
        addi    t0, t0, -1
        and     t1, t1, t0
        vsetvli t0, t1, e8, m\L, ta, ma
1:      vse8.v  v8, (a0)
        sub     a2, a2, t0
        add     a0, a0, t0
2:      vsetvli t0, a2, e8, m\L, ta, ma
        bnez    a2, 1b
        ret
ENDF cal_memset_rvv_align_m\L

/* rvv_vlmax_mL: splat at VLMAX; the first pass stores n & (VLMAX-1) bytes (vl = 0 when n is a multiple
 * of VLMAX), every later pass exactly VLMAX bytes (vsetvli with AVL = x0 at the loop bottom). */
FUNC cal_memset_rvv_vlmax_m\L
        vsetvli t0, zero, e8, m\L, ta, ma
        vmv.v.x v8, a1
        addi    t1, t0, -1
        and     t1, a2, t1
        vsetvli t0, t1, e8, m\L, ta, ma
1:      vse8.v  v8, (a0)
        sub     a2, a2, t0
        add     a0, a0, t0
        vsetvli t0, zero, e8, m\L, ta, ma
        bnez    a2, 1b
        ret
ENDF cal_memset_rvv_vlmax_m\L

/* rvv_tail_mL: vl = min(n, VLMAX), splat with that vl; tail = n remu vl; a do-while loop without vsetvli
 * stores vl bytes per pass up to dst + n - tail; then one vsetvli + store of the tail (vl = 0 if none). */
FUNC cal_memset_rvv_tail_m\L
        vsetvli t0, a2, e8, m\L, ta, ma
        vmv.v.x v8, a1
        remu    t1, a2, t0
        sub     t2, a2, t1
        add     t2, a0, t2
1:      vse8.v  v8, (a0)
        add     a0, a0, t0
        bltu    a0, t2, 1b
        vsetvli zero, t1, e8, m\L, ta, ma
        vse8.v  v8, (a0)
        ret
ENDF cal_memset_rvv_tail_m\L

/* rvv_tail_4x_mL: vl = min(n, VLMAX), splat; if n >= 4*vl, a 4x-unrolled loop without vsetvli stores
 * 4*vl bytes per pass up to dst + n - (n remu 4*vl); the remainder (all of n when n < 4*vl) goes through
 * a strip-mining loop that runs at least once (one vl = 0 store when the remainder is 0). */
FUNC cal_memset_rvv_tail_4x_m\L
        vsetvli t0, a2, e8, m\L, ta, ma
        vmv.v.x v8, a1
        slli    t3, t0, 2
        mv      t1, a2
        bltu    a2, t3, 2f
        remu    t1, a2, t3
        add     t2, a0, a2
        sub     t2, t2, t1
1:      vse8.v  v8, (a0)
        add     a0, a0, t0
        vse8.v  v8, (a0)
        add     a0, a0, t0
        vse8.v  v8, (a0)
        add     a0, a0, t0
        vse8.v  v8, (a0)
        add     a0, a0, t0
        bltu    a0, t2, 1b
2:      vsetvli t0, t1, e8, m\L, ta, ma
        vse8.v  v8, (a0)
        sub     t1, t1, t0
        add     a0, a0, t0
        bnez    t1, 2b
        ret
ENDF cal_memset_rvv_tail_4x_m\L

.endm

MEMSET_FAMILY 1
MEMSET_FAMILY 2
MEMSET_FAMILY 4
MEMSET_FAMILY 8

        .section .note.GNU-stack, "", @progbits
