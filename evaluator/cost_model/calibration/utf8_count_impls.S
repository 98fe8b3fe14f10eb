/*
 * utf8_count_impls.S: eok's own RVV loops for utf8_count_bench.c (a held-out check of the X60 memory
 * model). Written from a description of the loops rvv-bench timed on the X60; no rvv-bench code was
 * copied. Every function is  size_t f(const char *s, size_t n)  (a0 = s, a1 = n >= 1), returns in a0 the
 * bytes that are not UTF-8 continuation bytes: as signed bytes, those greater than -65.
 * The macro COUNT_FAMILY instantiates one LMUL (1, 2, 4, 8) of every family.
 */

#include "impl_macros.inc" /* FUNC, ENDF */

        .text

.macro COUNT_FAMILY L

/* rvv_mL: vsetvli at the top of every strip */
FUNC cal_utf8_count_rvv_m\L
        li      a2, 0
        li      a3, -65
1:      vsetvli a4, a1, e8, m\L, ta, ma
        vle8.v  v8, (a0)
        vmsgt.vx v16, v8, a3
        vcpop.m a5, v16
        add     a2, a2, a5
        sub     a1, a1, a4
        add     a0, a0, a4
        bnez    a1, 1b
        mv      a0, a2
        ret
ENDF cal_utf8_count_rvv_m\L

/* rvv_vlmax_mL: a first strip of n mod VLMAX bytes (possibly none), then VLMAX strips; vsetvli at the
 * bottom */
FUNC cal_utf8_count_rvv_vlmax_m\L
        vsetvli t0, zero, e8, m\L, ta, ma
        addi    t0, t0, -1
        and     t0, a1, t0
        vsetvli t0, t0, e8, m\L, ta, ma
        li      a2, 0
        li      a3, -65
1:      vle8.v  v8, (a0)
        vmsgt.vx v16, v8, a3
        vcpop.m a5, v16
        sub     a1, a1, t0
        add     a0, a0, t0
        vsetvli t0, zero, e8, m\L, ta, ma
        add     a2, a2, a5
        bnez    a1, 1b
        mv      a0, a2
        ret
ENDF cal_utf8_count_rvv_vlmax_m\L

/* rvv_4x_mL: four strips per iteration, each with its own vsetvli (a strip past the end has vl = 0) */
FUNC cal_utf8_count_rvv_4x_m\L
        mv      a2, a0
        li      a0, 0
        li      a6, -65
1:      vsetvli a4, a1, e8, m\L, ta, ma
        vle8.v  v8, (a2)
        vmsgt.vx v16, v8, a6
        vcpop.m a7, v16
        sub     a1, a1, a4
        add     a2, a2, a4
        vsetvli a4, a1, e8, m\L, ta, ma
        vle8.v  v8, (a2)
        vmsgt.vx v16, v8, a6
        vcpop.m a3, v16
        sub     a1, a1, a4
        add     a2, a2, a4
        vsetvli a4, a1, e8, m\L, ta, ma
        vle8.v  v8, (a2)
        vmsgt.vx v16, v8, a6
        vcpop.m a5, v16
        sub     a1, a1, a4
        add     a2, a2, a4
        vsetvli a4, a1, e8, m\L, ta, ma
        vle8.v  v8, (a2)
        add     a0, a0, a7
        add     a0, a0, a3
        add     a0, a0, a5
        vmsgt.vx v16, v8, a6
        vcpop.m a3, v16
        add     a0, a0, a3
        sub     a1, a1, a4
        add     a2, a2, a4
        bnez    a1, 1b
        ret
ENDF cal_utf8_count_rvv_4x_m\L

.endm

COUNT_FAMILY 1
COUNT_FAMILY 2
COUNT_FAMILY 4
COUNT_FAMILY 8
