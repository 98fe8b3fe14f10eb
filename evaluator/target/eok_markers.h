/*
 * Measurement markers shared by the harness (which executes them around the timed call), the QEMU plugin
 * (which starts and stops counting when it sees them execute) and the static checker (which rejects any
 * candidate object that contains them).
 *
 * A marker is `slti zero, zero, IMM`: a HINT encoding (writes to x0) that executes as a no-op on real
 * hardware and that compilers never emit.
 */
#ifndef EOK_MARKERS_H
#define EOK_MARKERS_H

#define EOK_MARK_BEGIN_IMM 1248 /* 0x4e0 */
#define EOK_MARK_END_IMM 1249   /* 0x4e1 */

/* slti: imm[11:0] | rs1=0 | funct3=010 | rd=0 | opcode=0010011 */
#define EOK_MARK_ENCODE(imm) ((((unsigned)(imm)) << 20) | (2u << 12) | 0x13u)
#define EOK_MARK_BEGIN_INSN EOK_MARK_ENCODE(EOK_MARK_BEGIN_IMM)
#define EOK_MARK_END_INSN EOK_MARK_ENCODE(EOK_MARK_END_IMM)

#endif
