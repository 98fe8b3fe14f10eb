// 16-bit RV64C instructions. Operands are those of the 32-bit equivalent named by Insn::base (c.li a0, 5
// reads zero as `addi a0, zero, 5` does; c.j writes zero like `jal zero, off`), so consumers treat both
// encodings alike. HINT encodings (c.nop 5, c.li zero, 3) decode as their instruction; reserved ones and
// the all-zero parcel (defined to be illegal) come back unknown.
#include "evaluator/riscv/decoder_internal.h"

namespace eok::riscv::detail {
namespace {

constexpr uint32_t kSp = 2;
constexpr uint32_t kRa = 1;

// Registers x8..x15 as named by the 3-bit fields rd'/rs1'/rs2'.
constexpr uint32_t creg(uint32_t field) {
  return 8 + field;
}

// Offsets and immediates, one per encoding layout.
constexpr int64_t imm6(uint32_t raw) {
  return sext(bit(raw, 12) << 5 | bits(raw, 6, 2), 6);
}
constexpr uint32_t uimm6(uint32_t raw) {
  return bit(raw, 12) << 5 | bits(raw, 6, 2);
}
constexpr uint32_t addi4spn_imm(uint32_t raw) {
  return bits(raw, 12, 11) << 4 | bits(raw, 10, 7) << 6 | bit(raw, 6) << 2 | bit(raw, 5) << 3;
}
constexpr int64_t addi16sp_imm(uint32_t raw) {
  return sext(bit(raw, 12) << 9 | bit(raw, 6) << 4 | bit(raw, 5) << 6 | bits(raw, 4, 3) << 7 | bit(raw, 2) << 5, 10);
}
constexpr uint32_t word_offset(uint32_t raw) {  // c.lw / c.sw
  return bits(raw, 12, 10) << 3 | bit(raw, 6) << 2 | bit(raw, 5) << 6;
}
constexpr uint32_t double_offset(uint32_t raw) {  // c.ld / c.sd / c.fld / c.fsd
  return bits(raw, 12, 10) << 3 | bits(raw, 6, 5) << 6;
}
constexpr uint32_t lwsp_offset(uint32_t raw) {
  return bit(raw, 12) << 5 | bits(raw, 6, 4) << 2 | bits(raw, 3, 2) << 6;
}
constexpr uint32_t ldsp_offset(uint32_t raw) {
  return bit(raw, 12) << 5 | bits(raw, 6, 5) << 3 | bits(raw, 4, 2) << 6;
}
constexpr uint32_t swsp_offset(uint32_t raw) {
  return bits(raw, 12, 9) << 2 | bits(raw, 8, 7) << 6;
}
constexpr uint32_t sdsp_offset(uint32_t raw) {
  return bits(raw, 12, 10) << 3 | bits(raw, 9, 7) << 6;
}
constexpr int64_t jump_offset(uint32_t raw) {
  return sext(bit(raw, 12) << 11 | bit(raw, 11) << 4 | bits(raw, 10, 9) << 8 | bit(raw, 8) << 10 | bit(raw, 7) << 6 |
                  bit(raw, 6) << 7 | bits(raw, 5, 3) << 1 | bit(raw, 2) << 5,
              12);
}
constexpr int64_t branch_offset(uint32_t raw) {
  return sext(
      bit(raw, 12) << 8 | bits(raw, 11, 10) << 3 | bits(raw, 6, 5) << 6 | bits(raw, 4, 3) << 1 | bit(raw, 2) << 5, 9);
}

// Integer or fp load: dst, imm(base).
bool load(Insn& insn, Syntax& syntax, std::string_view name, std::string_view base, Operand dst, uint32_t base_reg,
          uint32_t offset, uint8_t bytes) {
  const bool fp = dst.file == RegFile::f;
  start(insn, name, fp ? InsnClass::fp_load : InsnClass::load, base);
  insn.dst = dst;
  add_src(insn, xreg(base_reg));
  insn.imm = offset;
  insn.mem_bytes = bytes;
  syntax = Syntax::load;
  return true;
}

bool store(Insn& insn, Syntax& syntax, std::string_view name, std::string_view base, Operand data, uint32_t base_reg,
           uint32_t offset, uint8_t bytes) {
  const bool fp = data.file == RegFile::f;
  start(insn, name, fp ? InsnClass::fp_store : InsnClass::store, base);
  add_src(insn, data);
  add_src(insn, xreg(base_reg));
  insn.imm = offset;
  insn.mem_bytes = bytes;
  syntax = Syntax::store;
  return true;
}

// rd = rs1 op imm, printed "rd, imm".
bool reg_imm(Insn& insn, Syntax& syntax, std::string_view name, std::string_view base, uint32_t rd, uint32_t rs1,
             int64_t imm) {
  start(insn, name, InsnClass::int_alu, base);
  insn.dst = xreg(rd);
  add_src(insn, xreg(rs1));
  insn.imm = imm;
  syntax = Syntax::c_rd_imm;
  return true;
}

// rd = rs1 op rs2, printed "rd, rs2".
bool reg_reg(Insn& insn, Syntax& syntax, std::string_view name, std::string_view base, uint32_t rd, uint32_t rs1,
             uint32_t rs2) {
  start(insn, name, InsnClass::int_alu, base);
  insn.dst = xreg(rd);
  add_src(insn, xreg(rs1));
  add_src(insn, xreg(rs2));
  syntax = Syntax::c_rd_rs2;
  return true;
}

bool quadrant0(uint32_t raw, Insn& insn, Syntax& syntax) {
  const uint32_t rd = creg(bits(raw, 4, 2));  // also rs2' for stores
  const uint32_t rs1 = creg(bits(raw, 9, 7));
  switch (bits(raw, 15, 13)) {
    case 0: {
      const uint32_t imm = addi4spn_imm(raw);
      if (imm == 0) return false;  // reserved; includes the all-zero illegal parcel
      start(insn, "c.addi4spn", InsnClass::int_alu, "addi");
      insn.dst = xreg(rd);
      add_src(insn, xreg(kSp));
      insn.imm = imm;
      syntax = Syntax::regs_imm;
      return true;
    }
    case 1:
      return load(insn, syntax, "c.fld", "fld", freg(rd), rs1, double_offset(raw), 8);
    case 2:
      return load(insn, syntax, "c.lw", "lw", xreg(rd), rs1, word_offset(raw), 4);
    case 3:
      return load(insn, syntax, "c.ld", "ld", xreg(rd), rs1, double_offset(raw), 8);
    case 5:
      return store(insn, syntax, "c.fsd", "fsd", freg(rd), rs1, double_offset(raw), 8);
    case 6:
      return store(insn, syntax, "c.sw", "sw", xreg(rd), rs1, word_offset(raw), 4);
    case 7:
      return store(insn, syntax, "c.sd", "sd", xreg(rd), rs1, double_offset(raw), 8);
  }
  return false;  // funct3 4 belongs to Zcb
}

bool quadrant1(uint32_t raw, Insn& insn, Syntax& syntax) {
  const uint32_t rd = bits(raw, 11, 7);
  switch (bits(raw, 15, 13)) {
    case 0:
      if (rd == 0) {
        reg_imm(insn, syntax, "c.nop", "addi", 0, 0, imm6(raw));
        syntax = Syntax::c_nop;
        return true;
      }
      return reg_imm(insn, syntax, "c.addi", "addi", rd, rd, imm6(raw));
    case 1:
      return rd != 0 && reg_imm(insn, syntax, "c.addiw", "addiw", rd, rd, imm6(raw));
    case 2:
      return reg_imm(insn, syntax, "c.li", "addi", rd, 0, imm6(raw));
    case 3: {
      if (rd == kSp) {
        const int64_t imm = addi16sp_imm(raw);
        return imm != 0 && reg_imm(insn, syntax, "c.addi16sp", "addi", kSp, kSp, imm);
      }
      const int64_t imm = imm6(raw) * 4096;
      if (imm == 0) return false;
      start(insn, "c.lui", InsnClass::int_alu, "lui");
      insn.dst = xreg(rd);
      insn.imm = imm;
      syntax = Syntax::upper;
      return true;
    }
    case 4: {
      const uint32_t r = creg(bits(raw, 9, 7));
      switch (bits(raw, 11, 10)) {
        case 0:
          return reg_imm(insn, syntax, "c.srli", "srli", r, r, uimm6(raw));
        case 1:
          return reg_imm(insn, syntax, "c.srai", "srai", r, r, uimm6(raw));
        case 2:
          return reg_imm(insn, syntax, "c.andi", "andi", r, r, imm6(raw));
      }
      const uint32_t rs2 = creg(bits(raw, 4, 2));
      switch (bit(raw, 12) << 2 | bits(raw, 6, 5)) {
        case 0:
          return reg_reg(insn, syntax, "c.sub", "sub", r, r, rs2);
        case 1:
          return reg_reg(insn, syntax, "c.xor", "xor", r, r, rs2);
        case 2:
          return reg_reg(insn, syntax, "c.or", "or", r, r, rs2);
        case 3:
          return reg_reg(insn, syntax, "c.and", "and", r, r, rs2);
        case 4:
          return reg_reg(insn, syntax, "c.subw", "subw", r, r, rs2);
        case 5:
          return reg_reg(insn, syntax, "c.addw", "addw", r, r, rs2);
      }
      return false;  // the rest is Zcb
    }
    case 5:
      start(insn, "c.j", InsnClass::jump, "jal");
      insn.dst = xreg(0);
      insn.imm = jump_offset(raw);
      syntax = Syntax::c_jump;
      return true;
    case 6:
    case 7:
      start(insn, bit(raw, 13) ? "c.bnez" : "c.beqz", InsnClass::branch, bit(raw, 13) ? "bne" : "beq");
      add_src(insn, xreg(creg(bits(raw, 9, 7))));
      add_src(insn, xreg(0));
      insn.imm = branch_offset(raw);
      syntax = Syntax::c_branch;
      return true;
  }
  return false;
}

bool quadrant2(uint32_t raw, Insn& insn, Syntax& syntax) {
  const uint32_t rd = bits(raw, 11, 7);  // also rs1
  const uint32_t rs2 = bits(raw, 6, 2);
  switch (bits(raw, 15, 13)) {
    case 0:
      return reg_imm(insn, syntax, "c.slli", "slli", rd, rd, uimm6(raw));
    case 1:
      return load(insn, syntax, "c.fldsp", "fld", freg(rd), kSp, ldsp_offset(raw), 8);
    case 2:
      return rd != 0 && load(insn, syntax, "c.lwsp", "lw", xreg(rd), kSp, lwsp_offset(raw), 4);
    case 3:
      return rd != 0 && load(insn, syntax, "c.ldsp", "ld", xreg(rd), kSp, ldsp_offset(raw), 8);
    case 4:
      if (bit(raw, 12) == 0) {
        if (rs2 != 0) return reg_reg(insn, syntax, "c.mv", "add", rd, 0, rs2);
        if (rd == 0) return false;
        start(insn, "c.jr", InsnClass::jump, "jalr");
        insn.dst = xreg(0);
        add_src(insn, xreg(rd));
        syntax = Syntax::c_rs1;
        return true;
      }
      if (rs2 != 0) return reg_reg(insn, syntax, "c.add", "add", rd, rd, rs2);
      if (rd == 0) {
        start(insn, "c.ebreak", InsnClass::system, "ebreak");
        syntax = Syntax::none;
        return true;
      }
      start(insn, "c.jalr", InsnClass::jump, "jalr");
      insn.dst = xreg(kRa);
      add_src(insn, xreg(rd));
      syntax = Syntax::c_rs1;
      return true;
    case 5:
      return store(insn, syntax, "c.fsdsp", "fsd", freg(rs2), kSp, sdsp_offset(raw), 8);
    case 6:
      return store(insn, syntax, "c.swsp", "sw", xreg(rs2), kSp, swsp_offset(raw), 4);
    case 7:
      return store(insn, syntax, "c.sdsp", "sd", xreg(rs2), kSp, sdsp_offset(raw), 8);
  }
  return false;
}

}  // namespace

bool decode_compressed(uint32_t raw, Insn& insn, Syntax& syntax) {
  switch (raw & 3) {
    case 0:
      return quadrant0(raw, insn, syntax);
    case 1:
      return quadrant1(raw, insn, syntax);
    case 2:
      return quadrant2(raw, insn, syntax);
  }
  return false;
}

}  // namespace eok::riscv::detail
