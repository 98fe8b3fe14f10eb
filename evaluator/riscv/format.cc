// Assembler text for decoded instructions, in the spelling of `llvm-objdump -M no-aliases` so that the
// text can be compared with LLVM's and fed back to llvm-mc.
#include <cstdio>
#include <string>

#include "evaluator/riscv/decoder.h"
#include "evaluator/riscv/decoder_internal.h"

#include "src/common/text.h"

namespace eok::riscv {
namespace {

using detail::Syntax;

constexpr std::string_view kXNames[32] = {"zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
                                          "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
                                          "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
constexpr std::string_view kFNames[32] = {
    "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0",  "fa1",  "fa2", "fa3", "fa4",  "fa5",
    "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};
constexpr std::string_view kVNames[32] = {"v0",  "v1",  "v2",  "v3",  "v4",  "v5",  "v6",  "v7",  "v8",  "v9",  "v10",
                                          "v11", "v12", "v13", "v14", "v15", "v16", "v17", "v18", "v19", "v20", "v21",
                                          "v22", "v23", "v24", "v25", "v26", "v27", "v28", "v29", "v30", "v31"};

std::string_view reg_name(const Operand& op) {
  switch (op.file) {
    case RegFile::x:
      return kXNames[op.reg & 31];
    case RegFile::f:
      return kFNames[op.reg & 31];
    case RegFile::v:
      return kVNames[op.reg & 31];
    case RegFile::none:
      break;
  }
  return "?";
}

// CSRs that LLVM prints by name; any other number is printed in hex, which the assembler also accepts.
struct CsrName {
  uint16_t number;
  std::string_view name;
};
constexpr CsrName kCsrNames[] = {
    {0x001, "fflags"},  {0x002, "frm"},        {0x003, "fcsr"},       {0x008, "vstart"},   {0x009, "vxsat"},
    {0x00a, "vxrm"},    {0x00f, "vcsr"},       {0x015, "seed"},       {0xc00, "cycle"},    {0xc01, "time"},
    {0xc02, "instret"}, {0xc20, "vl"},         {0xc21, "vtype"},      {0xc22, "vlenb"},    {0x100, "sstatus"},
    {0x104, "sie"},     {0x105, "stvec"},      {0x106, "scounteren"}, {0x10a, "senvcfg"},  {0x140, "sscratch"},
    {0x141, "sepc"},    {0x142, "scause"},     {0x143, "stval"},      {0x144, "sip"},      {0x180, "satp"},
    {0x300, "mstatus"}, {0x301, "misa"},       {0x302, "medeleg"},    {0x303, "mideleg"},  {0x304, "mie"},
    {0x305, "mtvec"},   {0x306, "mcounteren"}, {0x340, "mscratch"},   {0x341, "mepc"},     {0x342, "mcause"},
    {0x343, "mtval"},   {0x344, "mip"},        {0xb00, "mcycle"},     {0xb02, "minstret"}, {0xf11, "mvendorid"},
    {0xf12, "marchid"}, {0xf13, "mimpid"},     {0xf14, "mhartid"},
};

std::string csr_name(uint16_t number) {
  for (const CsrName& csr : kCsrNames)
    if (csr.number == number) return std::string(csr.name);
  if (number >= 0xc03 && number <= 0xc1f) return "hpmcounter" + std::to_string(number - 0xc00);
  return hex_address(number);
}

std::string_view rounding_mode(uint32_t rm) {
  static constexpr std::string_view kNames[8] = {"rne", "rtz", "rdn", "rup", "rmm", "5", "6", "dyn"};
  return kNames[rm & 7];
}

// FENCE predecessor/successor set: "iorw", "rw", or "0" when empty.
std::string fence_set(uint32_t set) {
  std::string out;
  if (set & 8) out += 'i';
  if (set & 4) out += 'o';
  if (set & 2) out += 'r';
  if (set & 1) out += 'w';
  return out.empty() ? "0" : out;
}

// "e32, m4, ta, ma"; reserved settings print as the raw immediate, as LLVM does.
std::string vtype_text(int32_t vtype_imm) {
  const VType vt = decode_vtype(static_cast<uint32_t>(vtype_imm));
  if (vt.vill) return hex_address(static_cast<uint32_t>(vtype_imm));
  std::string out = "e" + std::to_string(vt.sew) + ", ";
  out += vt.lmul_log2 >= 0 ? "m" + std::to_string(1 << vt.lmul_log2) : "mf" + std::to_string(1 << -vt.lmul_log2);
  out += vt.ta ? ", ta" : ", tu";
  out += vt.ma ? ", ma" : ", mu";
  return out;
}

// Accumulates "mnemonic op, op, op".
class Line {
 public:
  explicit Line(std::string_view mnemonic) : text_(mnemonic) {}
  void add(std::string_view operand) {
    text_ += first_ ? " " : ", ";
    text_ += operand;
    first_ = false;
  }
  void add(const Operand& op) { add(reg_name(op)); }
  void add_number(int64_t value) { add(std::to_string(value)); }
  void add_address(int64_t offset, const Operand& base) {
    add(std::to_string(offset) + "(" + std::string(reg_name(base)) + ")");
  }
  void add_base(const Operand& base) { add("(" + std::string(reg_name(base)) + ")"); }
  std::string take() { return std::move(text_); }

 private:
  std::string text_;
  bool first_ = true;
};

// The data-less `.byte`-style directive that reproduces an unknown encoding.
std::string raw_directive(const Insn& insn) {
  switch (insn.length) {
    case 2:
      return ".2byte " + hex_address(insn.raw & 0xffff);
    case 4:
      return ".4byte " + hex_address(insn.raw);
    default:
      break;
  }
  std::string out = ".byte";
  for (unsigned i = 0; i < insn.length; ++i) out += (i == 0 ? " " : ", ") + hex_address((insn.raw >> (8 * i)) & 0xff);
  return out;
}

// True when the last source is v0 in a mask shape: the v0.t mask, or the carry/merge selector printed "v0".
// Other mask operands that happen to be v0 print the same text; only the immediate's position differs.
bool has_trailing_v0(const Insn& insn) {
  if (insn.nsrc == 0) return false;
  const Operand& last = insn.src[insn.nsrc - 1];
  return last.file == RegFile::v && last.shape == VShape::mask && last.reg == 0;
}

}  // namespace

std::string format(const Insn& insn) {
  if (insn.cls == InsnClass::unknown) return raw_directive(insn);

  // The operand layout is not stored in Insn; decoding the raw bits again recovers it.
  const uint8_t bytes[4] = {static_cast<uint8_t>(insn.raw), static_cast<uint8_t>(insn.raw >> 8),
                            static_cast<uint8_t>(insn.raw >> 16), static_cast<uint8_t>(insn.raw >> 24)};
  Syntax syntax = Syntax::none;
  detail::decode_with_syntax(std::span<const uint8_t>(bytes, insn.length), syntax);

  Line line(insn.mnemonic);
  const auto& src = insn.src;
  const uint32_t rm = detail::bits(insn.raw, 14, 12);
  switch (syntax) {
    case Syntax::none:
      break;
    case Syntax::regs:
    case Syntax::regs_imm:
    case Syntax::regs_rm:
    case Syntax::regs_rm_rne:
      if (insn.dst.file != RegFile::none) line.add(insn.dst);
      for (unsigned i = 0; i < insn.nsrc; ++i) line.add(src[i]);
      if (syntax == Syntax::regs_imm) line.add_number(insn.imm);
      if (syntax == Syntax::regs_rm || (syntax == Syntax::regs_rm_rne && rm != 0)) line.add(rounding_mode(rm));
      break;
    case Syntax::upper:
      line.add(insn.dst);
      line.add(hex_address(static_cast<uint64_t>(insn.imm >> 12) & 0xfffff));
      break;
    case Syntax::load:
      line.add(insn.dst);
      line.add_address(insn.imm, src[0]);
      break;
    case Syntax::store:
      line.add(src[0]);
      line.add_address(insn.imm, src[1]);
      break;
    case Syntax::branch:
      line.add(src[0]);
      line.add(src[1]);
      line.add_number(insn.imm);
      break;
    case Syntax::jal:
      line.add(insn.dst);
      line.add_number(insn.imm);
      break;
    case Syntax::jalr:
      line.add(insn.dst);
      line.add_address(insn.imm, src[0]);
      break;
    case Syntax::fence:
      line.add(fence_set((insn.imm >> 4) & 0xf));
      line.add(fence_set(insn.imm & 0xf));
      break;
    case Syntax::csr:
      line.add(insn.dst);
      line.add(csr_name(insn.csr));
      line.add(src[0]);
      break;
    case Syntax::csr_imm:
      line.add(insn.dst);
      line.add(csr_name(insn.csr));
      line.add_number(insn.imm);
      break;
    case Syntax::amo:
      line.add(insn.dst);
      line.add(src[0]);
      line.add_base(src[1]);
      break;
    case Syntax::lr:
      line.add(insn.dst);
      line.add_base(src[0]);
      break;
    case Syntax::c_rd_imm:
      line.add(insn.dst);
      line.add_number(insn.imm);
      break;
    case Syntax::c_rd_rs2:
      line.add(insn.dst);
      line.add(src[1]);
      break;
    case Syntax::c_rs1:
      line.add(src[0]);
      break;
    case Syntax::c_branch:
      line.add(src[0]);
      line.add_number(insn.imm);
      break;
    case Syntax::c_jump:
      line.add_number(insn.imm);
      break;
    case Syntax::c_nop:
      if (insn.imm != 0) line.add_number(insn.imm);
      break;
    case Syntax::vset:
      line.add(insn.dst);
      line.add(src[0]);
      line.add(vtype_text(insn.vtype_imm));
      break;
    case Syntax::vseti:
      line.add(insn.dst);
      line.add_number(insn.imm);
      line.add(vtype_text(insn.vtype_imm));
      break;
    case Syntax::vec:
    case Syntax::vec_imm:
    case Syntax::vec_load:
    case Syntax::vec_store: {
      const bool trailing_v0 = has_trailing_v0(insn);
      const unsigned plain = insn.nsrc - (trailing_v0 ? 1 : 0);
      unsigned i = 0;
      if (syntax == Syntax::vec_store) line.add(src[i++]);
      if (insn.dst.file != RegFile::none) line.add(insn.dst);
      if (syntax == Syntax::vec_load || syntax == Syntax::vec_store) line.add_base(src[i++]);
      for (; i < plain; ++i) line.add(src[i]);
      if (syntax == Syntax::vec_imm) line.add_number(insn.imm);
      if (trailing_v0) line.add(insn.masked ? "v0.t" : "v0");
      break;
    }
  }
  return line.take();
}

}  // namespace eok::riscv
