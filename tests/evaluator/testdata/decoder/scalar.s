# RV64I, M, F, D, Zfh, Zba, Zbb and Zbs in their 32-bit encodings.
.option norvc
.text
scalar:
# RV64I
lui a0, 0x12345
lui t0, 0xfffff
auipc a0, 0
auipc ra, 0x80000
jal ra, scalar
jal zero, 2044
jalr ra, 0(a0)
jalr zero, -4(t1)
beq a0, a1, scalar
bne a0, zero, 16
blt a0, a1, -4096
bge t0, t1, 4094
bltu a0, a1, 8
bgeu a0, a1, 8
lb a0, 0(a1)
lh a0, -2(a1)
lw a0, 4(sp)
ld a0, 2040(a1)
lbu a0, -2048(a1)
lhu a0, 2(a1)
lwu a0, 4(a1)
sb a0, 0(a1)
sh a0, 2(a1)
sw a0, -4(sp)
sd ra, 8(sp)
addi a0, a1, -2048
addi zero, zero, 0
slti a0, a1, 5
sltiu a0, a1, 1
xori a0, a1, -1
ori a0, a1, 255
andi a0, a1, 2047
slli a0, a1, 63
srli a0, a1, 1
srai a0, a1, 32
add a0, a1, a2
sub a0, a1, a2
sll a0, a1, a2
slt a0, a1, a2
sltu a0, a1, a2
xor a0, a1, a2
srl a0, a1, a2
sra a0, a1, a2
or a0, a1, a2
and a0, a1, a2
addiw a0, a1, -1
slliw a0, a1, 31
srliw a0, a1, 5
sraiw a0, a1, 7
addw a0, a1, a2
subw a0, a1, a2
sllw a0, a1, a2
srlw a0, a1, a2
sraw a0, a1, a2
# M
mul a0, a1, a2
mulh a0, a1, a2
mulhsu a0, a1, a2
mulhu a0, a1, a2
div a0, a1, a2
divu a0, a1, a2
rem a0, a1, a2
remu a0, a1, a2
mulw a0, a1, a2
divw a0, a1, a2
divuw a0, a1, a2
remw a0, a1, a2
remuw a0, a1, a2
# F, D, Zfh: loads/stores, arithmetic with each rounding mode, conversions, moves
flw fa0, 4(a0)
fld fa0, -8(sp)
flh fa0, 2(a0)
fsw fa0, 4(a0)
fsd fs0, 8(sp)
fsh ft11, -2(a0)
fadd.s fa0, fa1, fa2, rne
fsub.s fa0, fa1, fa2, rtz
fmul.s fa0, fa1, fa2, rdn
fdiv.s fa0, fa1, fa2, rup
fsqrt.s fa0, fa1, rmm
fadd.d fa0, fa1, fa2, dyn
fsub.d fa0, fa1, fa2
fmul.d fa0, fa1, fa2
fdiv.d fa0, fa1, fa2
fsqrt.d fa0, fa1
fadd.h fa0, fa1, fa2
fsub.h fa0, fa1, fa2
fmul.h fa0, fa1, fa2
fdiv.h fa0, fa1, fa2
fsqrt.h fa0, fa1
fmadd.s fa0, fa1, fa2, fa3
fmsub.s fa0, fa1, fa2, fa3, rtz
fnmsub.s fa0, fa1, fa2, fa3
fnmadd.s fa0, fa1, fa2, fa3
fmadd.d ft0, ft1, ft2, ft3
fmsub.d fa0, fa1, fa2, fa3
fnmsub.d fa0, fa1, fa2, fa3
fnmadd.d fa0, fa1, fa2, fa3
fmadd.h fa0, fa1, fa2, fa3
fmsub.h fa0, fa1, fa2, fa3
fnmsub.h fa0, fa1, fa2, fa3
fnmadd.h fa0, fa1, fa2, fa3
fsgnj.s fa0, fa1, fa2
fsgnjn.s fa0, fa1, fa2
fsgnjx.s fa0, fa1, fa2
fsgnj.d fa0, fa1, fa2
fsgnjn.d fa0, fa1, fa2
fsgnjx.d fa0, fa1, fa2
fsgnj.h fa0, fa1, fa2
fsgnjn.h fa0, fa1, fa2
fsgnjx.h fa0, fa1, fa2
fmin.s fa0, fa1, fa2
fmax.s fa0, fa1, fa2
fmin.d fa0, fa1, fa2
fmax.d fa0, fa1, fa2
fmin.h fa0, fa1, fa2
fmax.h fa0, fa1, fa2
feq.s a0, fa1, fa2
flt.s a0, fa1, fa2
fle.s a0, fa1, fa2
feq.d a0, fa1, fa2
flt.d a0, fa1, fa2
fle.d a0, fa1, fa2
feq.h a0, fa1, fa2
flt.h a0, fa1, fa2
fle.h a0, fa1, fa2
fclass.s a0, fa0
fclass.d a0, fa0
fclass.h a0, fa0
fcvt.w.s a0, fa0, rtz
fcvt.wu.s a0, fa0
fcvt.l.s a0, fa0
fcvt.lu.s a0, fa0
fcvt.s.w fa0, a0
fcvt.s.wu fa0, a0
fcvt.s.l fa0, a0
fcvt.s.lu fa0, a0
fcvt.w.d a0, fa0, rtz
fcvt.wu.d a0, fa0
fcvt.l.d a0, fa0
fcvt.lu.d a0, fa0
fcvt.d.w fa0, a0
fcvt.d.wu fa0, a0
fcvt.d.l fa0, a0
fcvt.d.lu fa0, a0
fcvt.w.h a0, fa0
fcvt.wu.h a0, fa0
fcvt.l.h a0, fa0
fcvt.lu.h a0, fa0
fcvt.h.w fa0, a0
fcvt.h.wu fa0, a0
fcvt.h.l fa0, a0
fcvt.h.lu fa0, a0
fcvt.s.d fa0, fa1
fcvt.d.s fa0, fa1
fcvt.h.s fa0, fa1
fcvt.s.h fa0, fa1
fcvt.h.d fa0, fa1
fcvt.d.h fa0, fa1
fmv.x.w a0, fa0
fmv.w.x fa0, a0
fmv.x.d a0, fa0
fmv.d.x fa0, a0
fmv.x.h a0, fa0
fmv.h.x fa0, a0
# Zba
add.uw a0, a1, a2
add.uw a0, a1, zero
sh1add a0, a1, a2
sh2add a0, a1, a2
sh3add a0, a1, a2
sh1add.uw a0, a1, a2
sh2add.uw a0, a1, a2
sh3add.uw a0, a1, a2
slli.uw a0, a1, 3
# Zbb
andn a0, a1, a2
orn a0, a1, a2
xnor a0, a1, a2
clz a0, a1
clzw a0, a1
ctz a0, a1
ctzw a0, a1
cpop a0, a1
cpopw a0, a1
max a0, a1, a2
maxu a0, a1, a2
min a0, a1, a2
minu a0, a1, a2
sext.b a0, a1
sext.h a0, a1
zext.h a0, a1
rol a0, a1, a2
rolw a0, a1, a2
ror a0, a1, a2
rori a0, a1, 63
roriw a0, a1, 31
rorw a0, a1, a2
orc.b a0, a1
rev8 a0, a1
# Zbs
bclr a0, a1, a2
bclri a0, a1, 63
bext a0, a1, a2
bexti a0, a1, 0
binv a0, a1, a2
binvi a0, a1, 31
bset a0, a1, a2
bseti a0, a1, 40
