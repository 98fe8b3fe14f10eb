/*
 * memcpy_impls.S: eok's own RVV memcpy loops for calibrating the X60 memory model against the measured
 * rvv-bench results (../shared/data/x60/rvv-bench-x60-kernels.json next to the eok checkout, "memcpy" benchmark).
 *
 * Written from a prose description of the loops that rvv-bench (camel-cdr/rvv-bench @ e1b462f) timed on
 * the X60; no rvv-bench code was copied. Every function has the memcpy signature
 *     void *f(void *dst, const void *src, size_t n)      a0 = dst, a1 = src, a2 = n (n >= 1)
 * and, like the measured loops, advances a0 in place: the returned value is NOT dst and is never used.
 * All vector ops are e8 with ta, ma. "VLMAX" is vsetvli with AVL = x0 (vlenb * LMUL bytes: 32/64/128/256
 * on the X60). The macro MEMCPY_FAMILY instantiates one LMUL (1, 2, 4, 8) of every family.
 * rvv_128 uses Zbb's minu: assemble with -march=rv64gcv_zba_zbb_zbs (as run_calibration.py does).
 */

#include "impl_macros.inc" /* FUNC, ENDF */

        .text

.macro MEMCPY_FAMILY L

/* rvv_mL: strip-mining with vsetvli at the loop top, the last pass simply has a short vl. */
FUNC cal_memcpy_rvv_m\L
1:      vsetvli t0, a2, e8, m\L, ta, ma
        vle8.v  v0, (a1)
        add     a1, a1, t0
        sub     a2, a2, t0
        vse8.v  v0, (a0)
        add     a0, a0, t0
        bnez    a2, 1b
        ret
ENDF cal_memcpy_rvv_m\L

/* rvv_align_dest_mL: if n >= VLMAX, a first pass of vl = (-dst) & (VLMAX-1) bytes (vl = 0 when dst is
 * already aligned) aligns dst to VLMAX bytes; later passes strip-mine with vsetvli at the loop bottom.
 * n < VLMAX enters the loop at that bottom vsetvli. */
FUNC cal_memcpy_rvv_align_dest_m\L
        vsetvli t0, zero, e8, m\L, ta, ma
        bltu    a2, t0, 2f
        neg     t1, a0
        addi    t0, t0, -1
        and     t1, t1, t0
        vsetvli t0, t1, e8, m\L, ta, ma
1:      vle8.v  v0, (a1)
        add     a1, a1, t0
        sub     a2, a2, t0
        vse8.v  v0, (a0)
        add     a0, a0, t0
2:      vsetvli t0, a2, e8, m\L, ta, ma
        bnez    a2, 1b
        ret
ENDF cal_memcpy_rvv_align_dest_m\L

/* rvv_align_src_mL: the same, aligning src. */
FUNC cal_memcpy_rvv_align_src_m\L
        vsetvli t0, zero, e8, m\L, ta, ma
        bltu    a2, t0, 2f
        neg     t1, a1
        addi    t0, t0, -1
        and     t1, t1, t0
        vsetvli t0, t1, e8, m\L, ta, ma
1:      vle8.v  v0, (a1)
        add     a1, a1, t0
        sub     a2, a2, t0
        vse8.v  v0, (a0)
        add     a0, a0, t0
2:      vsetvli t0, a2, e8, m\L, ta, ma
        bnez    a2, 1b
        ret
ENDF cal_memcpy_rvv_align_src_m\L

/* rvv_align_dest_hybrid_mL: align_dest, but the alignment pass is skipped below n < 256 * VLMAX. */
FUNC cal_memcpy_rvv_align_dest_hybrid_m\L
        vsetvli t0, zero, e8, m\L, ta, ma
        slli    t2, t0, 8
        bltu    a2, t2, 2f
        neg     t1, a0
        addi    t0, t0, -1
        and     t1, t1, t0
        vsetvli t0, t1, e8, m\L, ta, ma
1:      vle8.v  v0, (a1)
        add     a1, a1, t0
        sub     a2, a2, t0
        vse8.v  v0, (a0)
        add     a0, a0, t0
2:      vsetvli t0, a2, e8, m\L, ta, ma
        bnez    a2, 1b
        ret
ENDF cal_memcpy_rvv_align_dest_hybrid_m\L

/* rvv_vlmax_mL: the first pass copies n & (VLMAX-1) bytes (vl = 0 when n is a multiple of VLMAX), every
 * later pass exactly VLMAX bytes (vsetvli with AVL = x0 at the loop bottom). */
FUNC cal_memcpy_rvv_vlmax_m\L
        vsetvli t0, zero, e8, m\L, ta, ma
        addi    t1, t0, -1
        and     t1, a2, t1
        vsetvli t0, t1, e8, m\L, ta, ma
1:      vle8.v  v0, (a1)
        add     a1, a1, t0
        sub     a2, a2, t0
        vse8.v  v0, (a0)
        add     a0, a0, t0
        vsetvli t0, zero, e8, m\L, ta, ma
        bnez    a2, 1b
        ret
ENDF cal_memcpy_rvv_vlmax_m\L

/* rvv_tail_mL: vl = min(n, VLMAX); tail = n remu vl; a do-while loop without vsetvli copies vl bytes per
 * pass up to dst + n - tail; then one vsetvli + load/store of the tail (vl = 0 when tail = 0). */
FUNC cal_memcpy_rvv_tail_m\L
        vsetvli t0, a2, e8, m\L, ta, ma
        remu    t1, a2, t0
        sub     t2, a2, t1
        add     t2, a0, t2
1:      vle8.v  v8, (a1)
        add     a1, a1, t0
        vse8.v  v8, (a0)
        add     a0, a0, t0
        bltu    a0, t2, 1b
        vsetvli zero, t1, e8, m\L, ta, ma
        vle8.v  v8, (a1)
        vse8.v  v8, (a0)
        ret
ENDF cal_memcpy_rvv_tail_m\L

/* rvv_128_mL: rvv_tail with the first AVL = min(n, 16): 16 bytes per pass whatever the LMUL. */
FUNC cal_memcpy_rvv_128_m\L
        li      t3, 16
        minu    t3, a2, t3
        vsetvli t0, t3, e8, m\L, ta, ma
        remu    t1, a2, t0
        sub     t2, a2, t1
        add     t2, a0, t2
1:      vle8.v  v8, (a1)
        add     a1, a1, t0
        vse8.v  v8, (a0)
        add     a0, a0, t0
        bltu    a0, t2, 1b
        vsetvli zero, t1, e8, m\L, ta, ma
        vle8.v  v8, (a1)
        vse8.v  v8, (a0)
        ret
ENDF cal_memcpy_rvv_128_m\L

.endm

MEMCPY_FAMILY 1
MEMCPY_FAMILY 2
MEMCPY_FAMILY 4
MEMCPY_FAMILY 8

        .section .note.GNU-stack, "", @progbits
