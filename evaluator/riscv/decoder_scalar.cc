// 32-bit scalar instructions: RV64I, M, A, F, D, Zfh, Zicsr, Zifencei, Zba, Zbb, Zbs and the machine-mode
// returns the static checker must see. Reserved fields must be zero, as LLVM's disassembler requires.
#include "evaluator/riscv/decoder_internal.h"

namespace eok::riscv::detail {
namespace {

constexpr uint32_t rd_of(uint32_t raw) {
  return bits(raw, 11, 7);
}
constexpr uint32_t rs1_of(uint32_t raw) {
  return bits(raw, 19, 15);
}
constexpr uint32_t rs2_of(uint32_t raw) {
  return bits(raw, 24, 20);
}
constexpr uint32_t rs3_of(uint32_t raw) {
  return bits(raw, 31, 27);
}
constexpr uint32_t funct3_of(uint32_t raw) {
  return bits(raw, 14, 12);
}
constexpr uint32_t funct7_of(uint32_t raw) {
  return bits(raw, 31, 25);
}

constexpr int64_t imm_i(uint32_t raw) {
  return sext(raw >> 20, 12);
}
constexpr int64_t imm_s(uint32_t raw) {
  return sext(bits(raw, 31, 25) << 5 | bits(raw, 11, 7), 12);
}
constexpr int64_t imm_b(uint32_t raw) {
  return sext(bit(raw, 31) << 12 | bit(raw, 7) << 11 | bits(raw, 30, 25) << 5 | bits(raw, 11, 8) << 1, 13);
}
constexpr int64_t imm_u(uint32_t raw) {
  return sext(raw & 0xfffff000u, 32);
}
constexpr int64_t imm_j(uint32_t raw) {
  return sext(bit(raw, 31) << 20 | bits(raw, 19, 12) << 12 | bit(raw, 20) << 11 | bits(raw, 30, 21) << 1, 21);
}

// Rounding modes 5 and 6 are reserved; instructions carrying them are illegal.
constexpr bool valid_rm(uint32_t rm) {
  return rm != 5 && rm != 6;
}

// rd, rs1, rs2 all integer registers.
bool int_rrr(Insn& insn, Syntax& syntax, uint32_t raw, std::string_view name, InsnClass cls) {
  start(insn, name, cls);
  insn.dst = xreg(rd_of(raw));
  add_src(insn, xreg(rs1_of(raw)));
  add_src(insn, xreg(rs2_of(raw)));
  syntax = Syntax::regs;
  return true;
}
// rd, rs1, immediate.
bool int_rri(Insn& insn, Syntax& syntax, uint32_t raw, std::string_view name, int64_t imm) {
  start(insn, name, InsnClass::int_alu);
  insn.dst = xreg(rd_of(raw));
  add_src(insn, xreg(rs1_of(raw)));
  insn.imm = imm;
  syntax = Syntax::regs_imm;
  return true;
}
// rd, rs1 (Zbb unary operations).
bool int_rr(Insn& insn, Syntax& syntax, uint32_t raw, std::string_view name) {
  start(insn, name, InsnClass::int_alu);
  insn.dst = xreg(rd_of(raw));
  add_src(insn, xreg(rs1_of(raw)));
  syntax = Syntax::regs;
  return true;
}

bool decode_load(uint32_t raw, Insn& insn, Syntax& syntax) {
  static constexpr std::string_view kNames[8] = {"lb", "lh", "lw", "ld", "lbu", "lhu", "lwu", ""};
  static constexpr uint8_t kBytes[8] = {1, 2, 4, 8, 1, 2, 4, 0};
  const uint32_t f3 = funct3_of(raw);
  if (kNames[f3].empty()) return false;
  start(insn, kNames[f3], InsnClass::load);
  insn.dst = xreg(rd_of(raw));
  add_src(insn, xreg(rs1_of(raw)));
  insn.imm = imm_i(raw);
  insn.mem_bytes = kBytes[f3];
  syntax = Syntax::load;
  return true;
}

bool decode_store(uint32_t raw, Insn& insn, Syntax& syntax) {
  static constexpr std::string_view kNames[4] = {"sb", "sh", "sw", "sd"};
  const uint32_t f3 = funct3_of(raw);
  if (f3 > 3) return false;
  start(insn, kNames[f3], InsnClass::store);
  add_src(insn, xreg(rs2_of(raw)));
  add_src(insn, xreg(rs1_of(raw)));
  insn.imm = imm_s(raw);
  insn.mem_bytes = static_cast<uint8_t>(1u << f3);
  syntax = Syntax::store;
  return true;
}

bool decode_branch(uint32_t raw, Insn& insn, Syntax& syntax) {
  static constexpr std::string_view kNames[8] = {"beq", "bne", "", "", "blt", "bge", "bltu", "bgeu"};
  const uint32_t f3 = funct3_of(raw);
  if (kNames[f3].empty()) return false;
  start(insn, kNames[f3], InsnClass::branch);
  add_src(insn, xreg(rs1_of(raw)));
  add_src(insn, xreg(rs2_of(raw)));
  insn.imm = imm_b(raw);
  syntax = Syntax::branch;
  return true;
}

bool decode_op_imm(uint32_t raw, Insn& insn, Syntax& syntax) {
  const uint32_t shamt = bits(raw, 25, 20);
  const uint32_t top6 = bits(raw, 31, 26);
  switch (funct3_of(raw)) {
    case 0:
      return int_rri(insn, syntax, raw, "addi", imm_i(raw));
    case 2:
      return int_rri(insn, syntax, raw, "slti", imm_i(raw));
    case 3:
      return int_rri(insn, syntax, raw, "sltiu", imm_i(raw));
    case 4:
      return int_rri(insn, syntax, raw, "xori", imm_i(raw));
    case 6:
      return int_rri(insn, syntax, raw, "ori", imm_i(raw));
    case 7:
      return int_rri(insn, syntax, raw, "andi", imm_i(raw));
    case 1:
      switch (top6) {
        case 0x00:
          return int_rri(insn, syntax, raw, "slli", shamt);
        case 0x0a:
          return int_rri(insn, syntax, raw, "bseti", shamt);
        case 0x12:
          return int_rri(insn, syntax, raw, "bclri", shamt);
        case 0x1a:
          return int_rri(insn, syntax, raw, "binvi", shamt);
        case 0x18:  // Zbb unary ops live in the shamt field
          switch (shamt) {
            case 0:
              return int_rr(insn, syntax, raw, "clz");
            case 1:
              return int_rr(insn, syntax, raw, "ctz");
            case 2:
              return int_rr(insn, syntax, raw, "cpop");
            case 4:
              return int_rr(insn, syntax, raw, "sext.b");
            case 5:
              return int_rr(insn, syntax, raw, "sext.h");
          }
          return false;
      }
      return false;
    case 5:
      switch (top6) {
        case 0x00:
          return int_rri(insn, syntax, raw, "srli", shamt);
        case 0x10:
          return int_rri(insn, syntax, raw, "srai", shamt);
        case 0x18:
          return int_rri(insn, syntax, raw, "rori", shamt);
        case 0x12:
          return int_rri(insn, syntax, raw, "bexti", shamt);
        case 0x0a:
          return shamt == 0x07 && int_rr(insn, syntax, raw, "orc.b");
        case 0x1a:
          return shamt == 0x38 && int_rr(insn, syntax, raw, "rev8");
      }
      return false;
  }
  return false;
}

bool decode_op_imm32(uint32_t raw, Insn& insn, Syntax& syntax) {
  const uint32_t f7 = funct7_of(raw);
  const uint32_t shamt5 = rs2_of(raw);
  switch (funct3_of(raw)) {
    case 0:
      return int_rri(insn, syntax, raw, "addiw", imm_i(raw));
    case 1:
      if (f7 == 0x00) return int_rri(insn, syntax, raw, "slliw", shamt5);
      if (bits(raw, 31, 26) == 0x02) return int_rri(insn, syntax, raw, "slli.uw", bits(raw, 25, 20));
      if (f7 == 0x30) {
        switch (shamt5) {
          case 0:
            return int_rr(insn, syntax, raw, "clzw");
          case 1:
            return int_rr(insn, syntax, raw, "ctzw");
          case 2:
            return int_rr(insn, syntax, raw, "cpopw");
        }
      }
      return false;
    case 5:
      if (f7 == 0x00) return int_rri(insn, syntax, raw, "srliw", shamt5);
      if (f7 == 0x20) return int_rri(insn, syntax, raw, "sraiw", shamt5);
      if (f7 == 0x30) return int_rri(insn, syntax, raw, "roriw", shamt5);
      return false;
  }
  return false;
}

// Register-register ops, keyed by funct7 and funct3.
constexpr uint32_t op_key(uint32_t funct7, uint32_t funct3) {
  return funct7 << 3 | funct3;
}

bool decode_op(uint32_t raw, Insn& insn, Syntax& syntax) {
  constexpr auto alu = InsnClass::int_alu, mul = InsnClass::int_mul, div = InsnClass::int_div;
  switch (op_key(funct7_of(raw), funct3_of(raw))) {
    case op_key(0x00, 0):
      return int_rrr(insn, syntax, raw, "add", alu);
    case op_key(0x00, 1):
      return int_rrr(insn, syntax, raw, "sll", alu);
    case op_key(0x00, 2):
      return int_rrr(insn, syntax, raw, "slt", alu);
    case op_key(0x00, 3):
      return int_rrr(insn, syntax, raw, "sltu", alu);
    case op_key(0x00, 4):
      return int_rrr(insn, syntax, raw, "xor", alu);
    case op_key(0x00, 5):
      return int_rrr(insn, syntax, raw, "srl", alu);
    case op_key(0x00, 6):
      return int_rrr(insn, syntax, raw, "or", alu);
    case op_key(0x00, 7):
      return int_rrr(insn, syntax, raw, "and", alu);
    case op_key(0x20, 0):
      return int_rrr(insn, syntax, raw, "sub", alu);
    case op_key(0x20, 5):
      return int_rrr(insn, syntax, raw, "sra", alu);
    case op_key(0x20, 4):
      return int_rrr(insn, syntax, raw, "xnor", alu);
    case op_key(0x20, 6):
      return int_rrr(insn, syntax, raw, "orn", alu);
    case op_key(0x20, 7):
      return int_rrr(insn, syntax, raw, "andn", alu);
    case op_key(0x01, 0):
      return int_rrr(insn, syntax, raw, "mul", mul);
    case op_key(0x01, 1):
      return int_rrr(insn, syntax, raw, "mulh", mul);
    case op_key(0x01, 2):
      return int_rrr(insn, syntax, raw, "mulhsu", mul);
    case op_key(0x01, 3):
      return int_rrr(insn, syntax, raw, "mulhu", mul);
    case op_key(0x01, 4):
      return int_rrr(insn, syntax, raw, "div", div);
    case op_key(0x01, 5):
      return int_rrr(insn, syntax, raw, "divu", div);
    case op_key(0x01, 6):
      return int_rrr(insn, syntax, raw, "rem", div);
    case op_key(0x01, 7):
      return int_rrr(insn, syntax, raw, "remu", div);
    case op_key(0x10, 2):
      return int_rrr(insn, syntax, raw, "sh1add", alu);
    case op_key(0x10, 4):
      return int_rrr(insn, syntax, raw, "sh2add", alu);
    case op_key(0x10, 6):
      return int_rrr(insn, syntax, raw, "sh3add", alu);
    case op_key(0x05, 4):
      return int_rrr(insn, syntax, raw, "min", alu);
    case op_key(0x05, 5):
      return int_rrr(insn, syntax, raw, "minu", alu);
    case op_key(0x05, 6):
      return int_rrr(insn, syntax, raw, "max", alu);
    case op_key(0x05, 7):
      return int_rrr(insn, syntax, raw, "maxu", alu);
    case op_key(0x30, 1):
      return int_rrr(insn, syntax, raw, "rol", alu);
    case op_key(0x30, 5):
      return int_rrr(insn, syntax, raw, "ror", alu);
    case op_key(0x24, 1):
      return int_rrr(insn, syntax, raw, "bclr", alu);
    case op_key(0x24, 5):
      return int_rrr(insn, syntax, raw, "bext", alu);
    case op_key(0x14, 1):
      return int_rrr(insn, syntax, raw, "bset", alu);
    case op_key(0x34, 1):
      return int_rrr(insn, syntax, raw, "binv", alu);
  }
  return false;
}

bool decode_op32(uint32_t raw, Insn& insn, Syntax& syntax) {
  constexpr auto alu = InsnClass::int_alu, mul = InsnClass::int_mul, div = InsnClass::int_div;
  switch (op_key(funct7_of(raw), funct3_of(raw))) {
    case op_key(0x00, 0):
      return int_rrr(insn, syntax, raw, "addw", alu);
    case op_key(0x00, 1):
      return int_rrr(insn, syntax, raw, "sllw", alu);
    case op_key(0x00, 5):
      return int_rrr(insn, syntax, raw, "srlw", alu);
    case op_key(0x20, 0):
      return int_rrr(insn, syntax, raw, "subw", alu);
    case op_key(0x20, 5):
      return int_rrr(insn, syntax, raw, "sraw", alu);
    case op_key(0x01, 0):
      return int_rrr(insn, syntax, raw, "mulw", mul);
    case op_key(0x01, 4):
      return int_rrr(insn, syntax, raw, "divw", div);
    case op_key(0x01, 5):
      return int_rrr(insn, syntax, raw, "divuw", div);
    case op_key(0x01, 6):
      return int_rrr(insn, syntax, raw, "remw", div);
    case op_key(0x01, 7):
      return int_rrr(insn, syntax, raw, "remuw", div);
    case op_key(0x04, 0):
      return int_rrr(insn, syntax, raw, "add.uw", alu);
    case op_key(0x04, 4):
      return rs2_of(raw) == 0 && int_rr(insn, syntax, raw, "zext.h");
    case op_key(0x10, 2):
      return int_rrr(insn, syntax, raw, "sh1add.uw", alu);
    case op_key(0x10, 4):
      return int_rrr(insn, syntax, raw, "sh2add.uw", alu);
    case op_key(0x10, 6):
      return int_rrr(insn, syntax, raw, "sh3add.uw", alu);
    case op_key(0x30, 1):
      return int_rrr(insn, syntax, raw, "rolw", alu);
    case op_key(0x30, 5):
      return int_rrr(insn, syntax, raw, "rorw", alu);
  }
  return false;
}

bool decode_misc_mem(uint32_t raw, Insn& insn, Syntax& syntax) {
  if (rd_of(raw) != 0 || rs1_of(raw) != 0) return false;
  switch (funct3_of(raw)) {
    case 0: {
      const uint32_t fm = bits(raw, 31, 28);
      const uint32_t order = bits(raw, 27, 20);  // pred:succ
      if (fm == 0) {
        start(insn, "fence", InsnClass::fence);
        syntax = Syntax::fence;
      } else if (fm == 8 && order == 0x33) {
        start(insn, "fence.tso", InsnClass::fence);
        syntax = Syntax::none;
      } else {
        return false;
      }
      insn.imm = bits(raw, 31, 20);
      return true;
    }
    case 1:
      if (bits(raw, 31, 20) != 0) return false;
      start(insn, "fence.i", InsnClass::fence);
      syntax = Syntax::none;
      return true;
  }
  return false;
}

bool decode_system(uint32_t raw, Insn& insn, Syntax& syntax) {
  const uint32_t f3 = funct3_of(raw);
  if (f3 == 0) {
    syntax = Syntax::none;
    switch (raw) {
      case 0x00000073:
        start(insn, "ecall", InsnClass::system);
        return true;
      case 0x00100073:
        start(insn, "ebreak", InsnClass::system);
        return true;
      case 0x10200073:
        start(insn, "sret", InsnClass::system);
        return true;
      case 0x30200073:
        start(insn, "mret", InsnClass::system);
        return true;
      case 0x10500073:
        start(insn, "wfi", InsnClass::system);
        return true;
      case 0x7b200073:
        start(insn, "dret", InsnClass::system);
        return true;
    }
    if (funct7_of(raw) == 0x09 && rd_of(raw) == 0) {
      start(insn, "sfence.vma", InsnClass::system);
      add_src(insn, xreg(rs1_of(raw)));
      add_src(insn, xreg(rs2_of(raw)));
      syntax = Syntax::regs;
      return true;
    }
    return false;
  }
  static constexpr std::string_view kCsrNames[8] = {"", "csrrw", "csrrs", "csrrc", "", "csrrwi", "csrrsi", "csrrci"};
  if (kCsrNames[f3].empty()) return false;
  start(insn, kCsrNames[f3], InsnClass::csr);
  insn.dst = xreg(rd_of(raw));
  insn.csr = static_cast<uint16_t>(bits(raw, 31, 20));
  if (f3 < 4) {
    add_src(insn, xreg(rs1_of(raw)));
    syntax = Syntax::csr;
  } else {
    insn.imm = rs1_of(raw);
    syntax = Syntax::csr_imm;
  }
  return true;
}

// ---- A: names are stem + width + ordering, e.g. "amoadd.w.aqrl".

struct AmoOp {
  uint32_t funct5;
  std::string_view stem;
};
constexpr AmoOp kAmoOps[] = {
    {0x02, "lr"},    {0x03, "sc"},     {0x01, "amoswap"}, {0x00, "amoadd"},  {0x04, "amoxor"},  {0x0c, "amoand"},
    {0x08, "amoor"}, {0x10, "amomin"}, {0x14, "amomax"},  {0x18, "amominu"}, {0x1c, "amomaxu"},
};
constexpr size_t kAmoCount = sizeof(kAmoOps) / sizeof(kAmoOps[0]);

// [op][width: w, d][aq << 1 | rl]
constexpr auto kAmoNames = [] {
  std::array<std::array<std::array<StaticName, 4>, 2>, kAmoCount> names{};
  constexpr std::string_view kWidth[2] = {".w", ".d"};
  constexpr std::string_view kOrder[4] = {"", ".rl", ".aq", ".aqrl"};
  for (size_t op = 0; op < kAmoCount; ++op)
    for (int w = 0; w < 2; ++w)
      for (int order = 0; order < 4; ++order)
        names[op][w][order].append(kAmoOps[op].stem).append(kWidth[w]).append(kOrder[order]);
  return names;
}();

bool decode_amo(uint32_t raw, Insn& insn, Syntax& syntax) {
  const uint32_t f3 = funct3_of(raw);
  if (f3 != 2 && f3 != 3) return false;
  const uint32_t funct5 = bits(raw, 31, 27);
  size_t op = 0;
  while (op < kAmoCount && kAmoOps[op].funct5 != funct5) ++op;
  if (op == kAmoCount) return false;
  const bool is_lr = funct5 == 0x02;
  if (is_lr && rs2_of(raw) != 0) return false;
  start(insn, kAmoNames[op][f3 - 2][bits(raw, 26, 25)].view(), InsnClass::atomic);
  insn.dst = xreg(rd_of(raw));
  if (!is_lr) add_src(insn, xreg(rs2_of(raw)));
  add_src(insn, xreg(rs1_of(raw)));
  insn.mem_bytes = f3 == 2 ? 4 : 8;
  syntax = is_lr ? Syntax::lr : Syntax::amo;
  return true;
}

// ---- F, D, Zfh. The fmt field: 0 = S, 1 = D, 2 = H (3 = Q is not supported).

constexpr std::string_view kFmtSuffix[3] = {".s", ".d", ".h"};
constexpr int kFmtCount = 3;

// stem + ".s"/".d"/".h"
constexpr std::array<StaticName, kFmtCount> per_fmt(std::string_view stem) {
  std::array<StaticName, kFmtCount> names{};
  for (int fmt = 0; fmt < kFmtCount; ++fmt) names[fmt].append(stem).append(kFmtSuffix[fmt]);
  return names;
}

constexpr auto kFadd = per_fmt("fadd"), kFsub = per_fmt("fsub"), kFmul = per_fmt("fmul"), kFdiv = per_fmt("fdiv"),
               kFsqrt = per_fmt("fsqrt"), kFsgnj = per_fmt("fsgnj"), kFsgnjn = per_fmt("fsgnjn"),
               kFsgnjx = per_fmt("fsgnjx"), kFmin = per_fmt("fmin"), kFmax = per_fmt("fmax"), kFle = per_fmt("fle"),
               kFlt = per_fmt("flt"), kFeq = per_fmt("feq"), kFclass = per_fmt("fclass"), kFmadd = per_fmt("fmadd"),
               kFmsub = per_fmt("fmsub"), kFnmsub = per_fmt("fnmsub"), kFnmadd = per_fmt("fnmadd");

// Integer sides of conversions, indexed by rs2: w, wu, l, lu.
constexpr std::string_view kIntType[4] = {"w", "wu", "l", "lu"};
// fmv between x and f registers names the single-precision format "w".
constexpr std::string_view kMoveType[3] = {"w", "d", "h"};
constexpr std::string_view kFmtLetter[3] = {"s", "d", "h"};

// [fmt][int type]: "fcvt.w.s" (to integer) and "fcvt.s.w" (from integer)
constexpr auto kFcvtToInt = [] {
  std::array<std::array<StaticName, 4>, kFmtCount> names{};
  for (int fmt = 0; fmt < kFmtCount; ++fmt)
    for (int t = 0; t < 4; ++t) names[fmt][t].append("fcvt.").append(kIntType[t]).append(".").append(kFmtLetter[fmt]);
  return names;
}();
constexpr auto kFcvtFromInt = [] {
  std::array<std::array<StaticName, 4>, kFmtCount> names{};
  for (int fmt = 0; fmt < kFmtCount; ++fmt)
    for (int t = 0; t < 4; ++t) names[fmt][t].append("fcvt.").append(kFmtLetter[fmt]).append(".").append(kIntType[t]);
  return names;
}();
// [destination fmt][source fmt]: "fcvt.d.s"
constexpr auto kFcvtFp = [] {
  std::array<std::array<StaticName, kFmtCount>, kFmtCount> names{};
  for (int to = 0; to < kFmtCount; ++to)
    for (int from = 0; from < kFmtCount; ++from)
      names[to][from].append("fcvt.").append(kFmtLetter[to]).append(".").append(kFmtLetter[from]);
  return names;
}();
constexpr auto kFmvToInt = [] {
  std::array<StaticName, kFmtCount> names{};
  for (int fmt = 0; fmt < kFmtCount; ++fmt) names[fmt].append("fmv.x.").append(kMoveType[fmt]);
  return names;
}();
constexpr auto kFmvFromInt = [] {
  std::array<StaticName, kFmtCount> names{};
  for (int fmt = 0; fmt < kFmtCount; ++fmt) names[fmt].append("fmv.").append(kMoveType[fmt]).append(".x");
  return names;
}();

constexpr uint8_t kFmtBytes[3] = {4, 8, 2};

bool decode_fp_load_store(uint32_t raw, Insn& insn, Syntax& syntax, bool is_store) {
  // width 1 = H, 2 = S, 3 = D
  static constexpr std::string_view kLoads[4] = {"", "flh", "flw", "fld"};
  static constexpr std::string_view kStores[4] = {"", "fsh", "fsw", "fsd"};
  const uint32_t width = funct3_of(raw);
  if (width < 1 || width > 3) return false;
  if (is_store) {
    start(insn, kStores[width], InsnClass::fp_store);
    add_src(insn, freg(rs2_of(raw)));
    add_src(insn, xreg(rs1_of(raw)));
    insn.imm = imm_s(raw);
    syntax = Syntax::store;
  } else {
    start(insn, kLoads[width], InsnClass::fp_load);
    insn.dst = freg(rd_of(raw));
    add_src(insn, xreg(rs1_of(raw)));
    insn.imm = imm_i(raw);
    syntax = Syntax::load;
  }
  insn.mem_bytes = static_cast<uint8_t>(1u << width);
  return true;
}

bool decode_fused(uint32_t raw, Insn& insn, Syntax& syntax) {
  const uint32_t fmt = bits(raw, 26, 25);
  if (fmt >= kFmtCount || !valid_rm(funct3_of(raw))) return false;
  const std::array<StaticName, kFmtCount>* names = nullptr;
  switch (raw & 0x7f) {
    case opcode::kMadd:
      names = &kFmadd;
      break;
    case opcode::kMsub:
      names = &kFmsub;
      break;
    case opcode::kNmsub:
      names = &kFnmsub;
      break;
    default:
      names = &kFnmadd;
      break;
  }
  start(insn, (*names)[fmt].view(), InsnClass::fp_mul);
  insn.dst = freg(rd_of(raw));
  add_src(insn, freg(rs1_of(raw)));
  add_src(insn, freg(rs2_of(raw)));
  add_src(insn, freg(rs3_of(raw)));
  syntax = Syntax::regs_rm;
  return true;
}

bool decode_op_fp(uint32_t raw, Insn& insn, Syntax& syntax) {
  const uint32_t fmt = bits(raw, 26, 25);
  if (fmt >= kFmtCount) return false;
  const uint32_t funct5 = bits(raw, 31, 27);
  const uint32_t f3 = funct3_of(raw);  // rounding mode or sub-operation
  const uint32_t rs2 = rs2_of(raw);

  // fd/rd, fs1[, fs2] with the given register files.
  auto emit = [&](std::string_view name, InsnClass cls, RegFile dst, RegFile src, bool two_sources, Syntax layout) {
    start(insn, name, cls);
    insn.dst = dst == RegFile::x ? xreg(rd_of(raw)) : freg(rd_of(raw));
    add_src(insn, src == RegFile::x ? xreg(rs1_of(raw)) : freg(rs1_of(raw)));
    if (two_sources) add_src(insn, freg(rs2));
    syntax = layout;
    return true;
  };
  const bool rm_ok = valid_rm(f3);
  constexpr auto f = RegFile::f, x = RegFile::x;

  switch (funct5) {
    case 0x00:
      return rm_ok && emit(kFadd[fmt].view(), InsnClass::fp_alu, f, f, true, Syntax::regs_rm);
    case 0x01:
      return rm_ok && emit(kFsub[fmt].view(), InsnClass::fp_alu, f, f, true, Syntax::regs_rm);
    case 0x02:
      return rm_ok && emit(kFmul[fmt].view(), InsnClass::fp_mul, f, f, true, Syntax::regs_rm);
    case 0x03:
      return rm_ok && emit(kFdiv[fmt].view(), InsnClass::fp_div, f, f, true, Syntax::regs_rm);
    case 0x0b:
      return rs2 == 0 && rm_ok && emit(kFsqrt[fmt].view(), InsnClass::fp_sqrt, f, f, false, Syntax::regs_rm);
    case 0x04:
      if (f3 == 0) return emit(kFsgnj[fmt].view(), InsnClass::fp_alu, f, f, true, Syntax::regs);
      if (f3 == 1) return emit(kFsgnjn[fmt].view(), InsnClass::fp_alu, f, f, true, Syntax::regs);
      if (f3 == 2) return emit(kFsgnjx[fmt].view(), InsnClass::fp_alu, f, f, true, Syntax::regs);
      return false;
    case 0x05:
      if (f3 == 0) return emit(kFmin[fmt].view(), InsnClass::fp_alu, f, f, true, Syntax::regs);
      if (f3 == 1) return emit(kFmax[fmt].view(), InsnClass::fp_alu, f, f, true, Syntax::regs);
      return false;
    case 0x08: {  // between floating-point formats; the source format sits in rs2
      if (rs2 >= kFmtCount || rs2 == fmt || !rm_ok) return false;
      // Widening conversions are exact; LLVM omits their rm when it is the default rne.
      const bool widening = kFmtBytes[fmt] > kFmtBytes[rs2];
      return emit(kFcvtFp[fmt][rs2].view(), InsnClass::fp_cvt, f, f, false,
                  widening ? Syntax::regs_rm_rne : Syntax::regs_rm);
    }
    case 0x14:
      if (f3 == 0) return emit(kFle[fmt].view(), InsnClass::fp_alu, x, f, true, Syntax::regs);
      if (f3 == 1) return emit(kFlt[fmt].view(), InsnClass::fp_alu, x, f, true, Syntax::regs);
      if (f3 == 2) return emit(kFeq[fmt].view(), InsnClass::fp_alu, x, f, true, Syntax::regs);
      return false;
    case 0x18:
      return rs2 < 4 && rm_ok && emit(kFcvtToInt[fmt][rs2].view(), InsnClass::fp_cvt, x, f, false, Syntax::regs_rm);
    case 0x1a: {
      if (rs2 >= 4 || !rm_ok) return false;
      // 32-bit integers convert to double exactly.
      const bool exact = fmt == 1 && rs2 < 2;
      return emit(kFcvtFromInt[fmt][rs2].view(), InsnClass::fp_cvt, f, x, false,
                  exact ? Syntax::regs_rm_rne : Syntax::regs_rm);
    }
    case 0x1c:
      if (rs2 != 0) return false;
      if (f3 == 0) return emit(kFmvToInt[fmt].view(), InsnClass::fp_cvt, x, f, false, Syntax::regs);
      if (f3 == 1) return emit(kFclass[fmt].view(), InsnClass::fp_alu, x, f, false, Syntax::regs);
      return false;
    case 0x1e:
      if (rs2 != 0 || f3 != 0) return false;
      return emit(kFmvFromInt[fmt].view(), InsnClass::fp_cvt, f, x, false, Syntax::regs);
  }
  return false;
}

}  // namespace

bool decode_scalar(uint32_t raw, Insn& insn, Syntax& syntax) {
  switch (raw & 0x7f) {
    case opcode::kLui:
    case opcode::kAuipc:
      start(insn, (raw & 0x7f) == opcode::kLui ? "lui" : "auipc", InsnClass::int_alu);
      insn.dst = xreg(rd_of(raw));
      insn.imm = imm_u(raw);
      syntax = Syntax::upper;
      return true;
    case opcode::kJal:
      start(insn, "jal", InsnClass::jump);
      insn.dst = xreg(rd_of(raw));
      insn.imm = imm_j(raw);
      syntax = Syntax::jal;
      return true;
    case opcode::kJalr:
      if (funct3_of(raw) != 0) return false;
      start(insn, "jalr", InsnClass::jump);
      insn.dst = xreg(rd_of(raw));
      add_src(insn, xreg(rs1_of(raw)));
      insn.imm = imm_i(raw);
      syntax = Syntax::jalr;
      return true;
    case opcode::kBranch:
      return decode_branch(raw, insn, syntax);
    case opcode::kLoad:
      return decode_load(raw, insn, syntax);
    case opcode::kStore:
      return decode_store(raw, insn, syntax);
    case opcode::kOpImm:
      return decode_op_imm(raw, insn, syntax);
    case opcode::kOpImm32:
      return decode_op_imm32(raw, insn, syntax);
    case opcode::kOp:
      return decode_op(raw, insn, syntax);
    case opcode::kOp32:
      return decode_op32(raw, insn, syntax);
    case opcode::kMiscMem:
      return decode_misc_mem(raw, insn, syntax);
    case opcode::kSystem:
      return decode_system(raw, insn, syntax);
    case opcode::kAmo:
      return decode_amo(raw, insn, syntax);
    case opcode::kLoadFp:
      return decode_fp_load_store(raw, insn, syntax, false);
    case opcode::kStoreFp:
      return decode_fp_load_store(raw, insn, syntax, true);
    case opcode::kMadd:
    case opcode::kMsub:
    case opcode::kNmsub:
    case opcode::kNmadd:
      return decode_fused(raw, insn, syntax);
    case opcode::kOpFp:
      return decode_op_fp(raw, insn, syntax);
  }
  return false;
}

}  // namespace eok::riscv::detail
