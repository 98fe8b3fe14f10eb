# Vector configuration: vsetvli / vsetivli / vsetvl.
.option norvc
.text
vector_config:
# every SEW x LMUL
vsetvli a0, a1, e8, mf8, ta, ma
vsetvli a0, a1, e8, mf4, ta, ma
vsetvli a0, a1, e8, mf2, ta, ma
vsetvli a0, a1, e8, m1, ta, ma
vsetvli a0, a1, e8, m2, ta, ma
vsetvli a0, a1, e8, m4, ta, ma
vsetvli a0, a1, e8, m8, ta, ma
vsetvli a0, a1, e16, mf8, ta, ma
vsetvli a0, a1, e16, mf4, ta, ma
vsetvli a0, a1, e16, mf2, ta, ma
vsetvli a0, a1, e16, m1, ta, ma
vsetvli a0, a1, e16, m2, ta, ma
vsetvli a0, a1, e16, m4, ta, ma
vsetvli a0, a1, e16, m8, ta, ma
vsetvli a0, a1, e32, mf8, ta, ma
vsetvli a0, a1, e32, mf4, ta, ma
vsetvli a0, a1, e32, mf2, ta, ma
vsetvli a0, a1, e32, m1, ta, ma
vsetvli a0, a1, e32, m2, ta, ma
vsetvli a0, a1, e32, m4, ta, ma
vsetvli a0, a1, e32, m8, ta, ma
vsetvli a0, a1, e64, mf8, ta, ma
vsetvli a0, a1, e64, mf4, ta, ma
vsetvli a0, a1, e64, mf2, ta, ma
vsetvli a0, a1, e64, m1, ta, ma
vsetvli a0, a1, e64, m2, ta, ma
vsetvli a0, a1, e64, m4, ta, ma
vsetvli a0, a1, e64, m8, ta, ma

# tail/mask policies, x0 forms (keep vl; vlmax)
vsetvli t0, a2, e32, m2, tu, mu
vsetvli t0, a2, e32, m2, tu, ma
vsetvli t0, a2, e32, m2, ta, mu
vsetvli t0, a2, e32, m2, ta, ma
vsetvli zero, zero, e16, m1, ta, ma
vsetvli a0, zero, e64, m8, ta, mu
vsetvli zero, a0, e8, mf2, tu, ma

# immediate AVL
vsetivli a0, 0, e8, m1, ta, ma
vsetivli a0, 1, e16, mf4, ta, ma
vsetivli a0, 16, e32, m4, ta, ma
vsetivli a0, 31, e64, m8, ta, ma
vsetivli a0, 7, e16, mf2, ta, ma
vsetivli zero, 4, e32, m1, tu, mu

# register vtype
vsetvl a0, a1, a2
vsetvl zero, t0, t1
vsetvl t2, zero, a5

# reserved vtype settings: still vsetvli (the hart sets vill), printed as the raw immediate
vsetvli a0, a1, 0x400
vsetvli a0, a1, 0x24
vsetivli a0, 3, 0x3c
