# Every RV64C instruction, plus the HINT encodings that decode as their instruction.
.text
compressed:
c.addi4spn a0, sp, 4
c.addi4spn s1, sp, 1020
c.fld fa0, 0(a1)
c.fld fs1, 248(s0)
c.lw a0, 4(a1)
c.lw s0, 124(a5)
c.ld a0, 8(a1)
c.ld a5, 248(s1)
c.fsd fa0, 8(a1)
c.sw a0, 4(a1)
c.sd a0, 8(a1)
c.nop
c.addi a0, -1
c.addi sp, 31
c.addi t6, -32
c.addiw a0, 1
c.addiw s11, -32
c.li a0, -5
c.li ra, 31
c.addi16sp sp, -32
c.addi16sp sp, 496
c.addi16sp sp, -512
c.lui a0, 1
c.lui t0, 0xfffff
c.lui s11, 31
c.lui ra, 0xfffe0
c.srli a0, 3
c.srli s1, 63
c.srai a0, 1
c.srai a5, 32
c.andi a0, -1
c.andi s0, 31
c.sub a0, a1
c.xor a2, a3
c.or a4, a5
c.and s0, s1
c.subw a0, a1
c.addw s1, a5
c.j 0
c.j -2048
c.j 2046
c.beqz a0, 0
c.beqz s0, -256
c.bnez a5, 254
c.slli a0, 3
c.slli t6, 63
c.fldsp fa0, 8(sp)
c.fldsp ft11, 504(sp)
c.lwsp a0, 4(sp)
c.lwsp t6, 252(sp)
c.ldsp a0, 8(sp)
c.ldsp ra, 504(sp)
c.jr a0
c.jr ra
c.mv a0, a1
c.mv t6, s0
c.ebreak
c.jalr a0
c.jalr t0
c.add a0, a1
c.add sp, t6
c.fsdsp fa0, 8(sp)
c.fsdsp fs11, 504(sp)
c.swsp a0, 4(sp)
c.swsp t6, 252(sp)
c.sdsp a0, 8(sp)
c.sdsp ra, 504(sp)
# HINTs
c.nop 5
c.addi a0, 0
c.li zero, 3
c.mv zero, a0
c.add zero, a0
c.slli zero, 3
