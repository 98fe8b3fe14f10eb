// Shared by the decoder's translation units (scalar, compressed, vector, format); not a public API.
//
// Each decoder fills an Insn and a Syntax. The Syntax says how format() lays the operands out; format()
// recovers it by decoding insn.raw again, so Insn itself needs no formatting fields.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "evaluator/riscv/decoder.h"

namespace eok::riscv::detail {

// Operand layout in assembler text. "src..." means the sources in order.
enum class Syntax : uint8_t {
  none,         // ecall, fence.i, c.ebreak
  regs,         // dst, src...                  add a0, a1, a2 / vsetvl a0, a1, a2
  regs_imm,     // dst, src..., imm             addi a0, a1, -3 / c.addi4spn a0, sp, 16
  regs_rm,      // dst, src..., rm              fadd.d fa0, fa1, fa2, dyn
  regs_rm_rne,  // as regs_rm, rm omitted when rne: exact conversions that older tools parse without rm
  upper,        // dst, imm >> 12 (hex)         lui, auipc, c.lui
  load,         // dst, imm(src0)
  store,        // src0, imm(src1)
  branch,       // src0, src1, offset
  jal,          // dst, offset
  jalr,         // dst, imm(src0)
  fence,        // pred, succ (from raw)
  csr,          // dst, csr, src0
  csr_imm,      // dst, csr, imm
  amo,          // dst, src0, (src1)
  lr,           // dst, (src0)
  c_rd_imm,     // dst, imm                     c.addi, c.li, c.slli, c.addi16sp
  c_rd_rs2,     // dst, src1                    c.mv, c.add, c.sub (src0 is the implied rd or zero)
  c_rs1,        // src0                         c.jr, c.jalr
  c_branch,     // src0, offset                 c.beqz, c.bnez
  c_jump,       // offset                       c.j
  c_nop,        // [imm]                        c.nop, with the HINT immediate when nonzero
  vset,         // dst, src0, vtype             vsetvli
  vseti,        // dst, imm, vtype              vsetivli
  vec,          // dst, src... ; a trailing v0 prints "v0.t" when masked
  vec_imm,      // dst, src..., imm, [v0 | v0.t]
  vec_load,     // dst, (src0), src1..., [v0.t]
  vec_store,    // src0, (src1), src2..., [v0.t]
};

// Bit field raw[hi:lo].
constexpr uint32_t bits(uint32_t raw, unsigned hi, unsigned lo) {
  return (raw >> lo) & ((1u << (hi - lo + 1)) - 1);
}
constexpr uint32_t bit(uint32_t raw, unsigned pos) {
  return (raw >> pos) & 1u;
}

// Sign-extends the low `width` bits of `value`.
constexpr int64_t sext(uint64_t value, unsigned width) {
  const uint64_t sign = uint64_t{1} << (width - 1);
  value &= (sign << 1) - 1;
  return static_cast<int64_t>(value ^ sign) - static_cast<int64_t>(sign);
}

constexpr Operand xreg(uint32_t r) {
  Operand op;
  op.file = RegFile::x;
  op.reg = static_cast<uint8_t>(r);
  return op;
}
constexpr Operand freg(uint32_t r) {
  Operand op;
  op.file = RegFile::f;
  op.reg = static_cast<uint8_t>(r);
  return op;
}
constexpr Operand vreg(uint32_t r, VShape shape = VShape::group) {
  Operand op;
  op.file = RegFile::v;
  op.reg = static_cast<uint8_t>(r);
  op.shape = shape;
  return op;
}
constexpr Operand v0_mask() {
  return vreg(0, VShape::mask);
}

// Starts an instruction: name, class and the 32-bit equivalent (defaults to the name itself).
inline void start(Insn& insn, std::string_view name, InsnClass cls, std::string_view base = {}) {
  insn.mnemonic = name;
  insn.base = base.empty() ? name : base;
  insn.cls = cls;
}
inline void add_src(Insn& insn, const Operand& op) {
  insn.src[insn.nsrc++] = op;
}

// A mnemonic assembled at compile time from pieces ("vl" "seg3" "e32" ".v"); tables of these give the
// decoder string_views with static storage for families too regular to spell out by hand.
struct StaticName {
  std::array<char, 24> text{};
  uint8_t size = 0;

  constexpr StaticName& append(std::string_view piece) {
    for (char c : piece) text[size++] = c;
    return *this;
  }
  constexpr StaticName& append_number(unsigned n) {
    char digits[4] = {};
    int count = 0;
    do {
      digits[count++] = static_cast<char>('0' + n % 10);
      n /= 10;
    } while (n != 0);
    while (count > 0) text[size++] = digits[--count];
    return *this;
  }
  constexpr std::string_view view() const { return {text.data(), size}; }
};

// Per-format decoders. Each returns false when the encoding is not a known instruction; `insn` may then
// hold partial results, which decode() discards.
bool decode_scalar(uint32_t raw, Insn& insn, Syntax& syntax);         // 32-bit non-vector opcodes
bool decode_compressed(uint32_t raw, Insn& insn, Syntax& syntax);     // 16-bit parcels
bool decode_op_v(uint32_t raw, Insn& insn, Syntax& syntax);           // OP-V: arithmetic and vset*
bool decode_vector_memory(uint32_t raw, Insn& insn, Syntax& syntax);  // LOAD-FP/STORE-FP vector widths

// decode() plus the operand layout that format() needs.
Insn decode_with_syntax(std::span<const uint8_t> bytes, Syntax& syntax);

// Major opcodes (raw[6:0]) of 32-bit instructions.
namespace opcode {
inline constexpr uint32_t kLoad = 0x03, kLoadFp = 0x07, kMiscMem = 0x0f, kOpImm = 0x13, kAuipc = 0x17, kOpImm32 = 0x1b,
                          kStore = 0x23, kStoreFp = 0x27, kAmo = 0x2f, kOp = 0x33, kLui = 0x37, kOp32 = 0x3b,
                          kMadd = 0x43, kMsub = 0x47, kNmsub = 0x4b, kNmadd = 0x4f, kOpFp = 0x53, kOpV = 0x57,
                          kBranch = 0x63, kJalr = 0x67, kJal = 0x6f, kSystem = 0x73;
}  // namespace opcode

}  // namespace eok::riscv::detail
