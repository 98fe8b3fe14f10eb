/*
 * LUT4_impls.S: eok's own RVV loops for LUT4_bench.c (a held-out check of the X60 memory model). Written
 * from a description of the loops rvv-bench timed on the X60; no rvv-bench code was copied. Every function
 * is  void f(const uint8_t lut[16], uint8_t *p, size_t n)  (a0 = lut, a1 = p, a2 = n >= 1) and replaces
 * every byte b of p[0..n) by lut[b & 15], in place.
 */

#include "impl_macros.inc" /* FUNC, ENDF */

        .text

.macro LUT_FAMILY L

/* rvv_vrgather_mL: the table in v0 (m1), one vrgather.vv over the whole group per strip */
FUNC cal_lut4_rvv_vrgather_m\L
        li      t0, 16
        vsetvli zero, t0, e8, m1, ta, ma
        vle8.v  v0, (a0)
1:      vsetvli t1, a2, e8, m\L, ta, ma
        vle8.v  v8, (a1)
        vand.vi v8, v8, 15
        vrgather.vv v16, v0, v8
        vse8.v  v16, (a1)
        sub     a2, a2, t1
        add     a1, a1, t1
        bnez    a2, 1b
        ret
ENDF cal_lut4_rvv_vrgather_m\L

/* rvv_vluxei8_mL / rvv_vloxei8_mL: the lookup as an unordered / ordered indexed load from the table */
FUNC cal_lut4_rvv_vluxei8_m\L
1:      vsetvli t1, a2, e8, m\L, ta, ma
        vle8.v  v8, (a1)
        vand.vi v8, v8, 15
        vluxei8.v v8, (a0), v8
        vse8.v  v8, (a1)
        sub     a2, a2, t1
        add     a1, a1, t1
        bnez    a2, 1b
        ret
ENDF cal_lut4_rvv_vluxei8_m\L

FUNC cal_lut4_rvv_vloxei8_m\L
1:      vsetvli t1, a2, e8, m\L, ta, ma
        vle8.v  v8, (a1)
        vand.vi v8, v8, 15
        vloxei8.v v8, (a0), v8
        vse8.v  v8, (a1)
        sub     a2, a2, t1
        add     a1, a1, t1
        bnez    a2, 1b
        ret
ENDF cal_lut4_rvv_vloxei8_m\L

.endm

LUT_FAMILY 1
LUT_FAMILY 2
LUT_FAMILY 4
LUT_FAMILY 8

/* rvv_m1_vrgathers_mG: a group of G registers loaded and stored at once, one m1 vrgather.vv per register */
.macro LUT_M1_GATHERS G
FUNC cal_lut4_rvv_m1_vrgathers_m\G
        li      t0, 16
        vsetvli zero, t0, e8, m1, ta, ma
        vle8.v  v0, (a0)
1:      vsetvli t1, a2, e8, m\G, ta, ma
        vle8.v  v8, (a1)
        vand.vi v8, v8, 15
        vsetvli t2, zero, e8, m1, ta, ma
        vrgather.vv v16, v0, v8
        vrgather.vv v17, v0, v9
.if \G >= 4
        vrgather.vv v18, v0, v10
        vrgather.vv v19, v0, v11
.endif
.if \G >= 8
        vrgather.vv v20, v0, v12
        vrgather.vv v21, v0, v13
        vrgather.vv v22, v0, v14
        vrgather.vv v23, v0, v15
.endif
        vsetvli zero, t1, e8, m\G, ta, ma
        vse8.v  v16, (a1)
        sub     a2, a2, t1
        add     a1, a1, t1
        bnez    a2, 1b
        ret
ENDF cal_lut4_rvv_m1_vrgathers_m\G
.endm

LUT_M1_GATHERS 2
LUT_M1_GATHERS 4
LUT_M1_GATHERS 8
