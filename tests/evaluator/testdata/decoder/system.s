# What the static checker must find: environment calls, breakpoints, CSR accesses, fences, atomics.
.option norvc
.text
system:
ecall
ebreak
wfi
mret
sret
sfence.vma zero, zero
sfence.vma a0, a1

# CSR accesses, by name and by number
csrrs a0, vl, zero
csrrs a0, vtype, zero
csrrs a0, vlenb, zero
csrrw zero, vstart, a0
csrrs a1, vxrm, zero
csrrwi zero, vxrm, 2
csrrs a1, vxsat, zero
csrrci zero, vxsat, 1
csrrs t0, vcsr, zero
csrrs a0, fflags, zero
csrrw a1, frm, a2
csrrsi zero, frm, 3
csrrc a0, fcsr, a1
csrrs a0, cycle, zero
csrrs a0, time, zero
csrrs a0, instret, zero
csrrs a0, hpmcounter3, zero
csrrs a0, hpmcounter31, zero
csrrw a0, mstatus, a1
csrrs a0, mhartid, zero
csrrw a0, sscratch, a1
csrrw a0, 0x7c0, a1
csrrwi a0, 0x800, 31
csrrsi a0, 0xcc0, 0
csrrci a0, 0x5c0, 17

# fences
fence
fence iorw, iorw
fence rw, rw
fence r, w
fence w, 0
fence i, o
fence.tso
fence.i

# load-reserved / store-conditional and AMOs, every ordering
lr.w a0, (a1)
lr.w.aq a0, (a1)
lr.w.rl a0, (a1)
lr.w.aqrl a0, (a1)
lr.d a0, (a1)
lr.d.aqrl t0, (sp)
sc.w a0, a1, (a2)
sc.w.aq a0, a1, (a2)
sc.d.rl a0, a1, (a2)
sc.d.aqrl a0, a1, (a2)
amoswap.w a0, a1, (a2)
amoadd.w.aq a0, a1, (a2)
amoxor.w.rl a0, a1, (a2)
amoand.w.aqrl a0, a1, (a2)
amoor.w a0, a1, (a2)
amomin.w a0, a1, (a2)
amomax.w a0, a1, (a2)
amominu.w a0, a1, (a2)
amomaxu.w a0, a1, (a2)
amoswap.d.aqrl a0, a1, (a2)
amoadd.d zero, a1, (a2)
amoxor.d a0, a1, (a2)
amoand.d a0, a1, (a2)
amoor.d.aq a0, a1, (a2)
amomin.d a0, a1, (a2)
amomax.d.rl a0, a1, (a2)
amominu.d a0, a1, (a2)
amomaxu.d a0, a1, (a2)
