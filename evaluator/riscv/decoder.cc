// Entry point: instruction length, dispatch to the per-format decoders, and the small vtype/class helpers.
#include "evaluator/riscv/decoder.h"

#include <bit>
#include <string>

#include "evaluator/riscv/decoder_internal.h"

namespace eok::riscv {

namespace detail {
namespace {
// Every decode starts from a copy of this blank Insn. It is deliberately not const: for a constant the
// compiler re-materialises the value with `rep stos` plus stores, which made up a third of decode time;
// copying a plain object compiles to a few vector moves. Never written.
Insn kBlank{};
}  // namespace

Insn decode_with_syntax(std::span<const uint8_t> bytes, Syntax& syntax) {
  syntax = Syntax::none;
  Insn insn = kBlank;
  if (bytes.size() < 2) {
    insn.length = 1;  // keeps a sweep moving over a trailing odd byte
    if (!bytes.empty()) insn.raw = bytes[0];
    return insn;
  }
  const uint32_t low = uint32_t{bytes[0]} | uint32_t{bytes[1]} << 8;
  if ((low & 3) != 3) {
    insn.raw = low;
    insn.length = 2;
    if (!decode_compressed(low, insn, syntax)) {
      insn = kBlank;
      insn.raw = low;
      insn.length = 2;
      syntax = Syntax::none;
    }
    return insn;
  }
  if (bytes.size() < 4) {
    insn.raw = low;
    insn.length = static_cast<uint8_t>(bytes.size());
    return insn;
  }
  const uint32_t raw = low | uint32_t{bytes[2]} << 16 | uint32_t{bytes[3]} << 24;
  insn.raw = raw;
  insn.length = 4;
  // Encodings longer than 32 bits (raw[4:2] == 111) are not used by RV64GCV; they stay unknown with
  // length 4, which is as far as the sweep can trust the stream.
  bool known = false;
  switch (raw & 0x7f) {
    case opcode::kOpV:
      known = decode_op_v(raw, insn, syntax);
      break;
    case opcode::kLoadFp:
    case opcode::kStoreFp:
      // Widths 1..4 are the scalar flh/flw/fld/flq; 0 and 5..7 select vector element widths.
      known = (bits(raw, 14, 12) >= 1 && bits(raw, 14, 12) <= 4) ? decode_scalar(raw, insn, syntax)
                                                                 : decode_vector_memory(raw, insn, syntax);
      break;
    default:
      known = decode_scalar(raw, insn, syntax);
      break;
  }
  if (!known) {
    insn = kBlank;
    insn.raw = raw;
    insn.length = 4;
    syntax = Syntax::none;
  }
  return insn;
}

}  // namespace detail

Insn decode(std::span<const uint8_t> bytes) {
  detail::Syntax unused;
  return detail::decode_with_syntax(bytes, unused);
}

std::string_view class_name(InsnClass cls) {
  switch (cls) {
    case InsnClass::unknown:
      return "unknown";
    case InsnClass::int_alu:
      return "int_alu";
    case InsnClass::int_mul:
      return "int_mul";
    case InsnClass::int_div:
      return "int_div";
    case InsnClass::load:
      return "load";
    case InsnClass::store:
      return "store";
    case InsnClass::branch:
      return "branch";
    case InsnClass::jump:
      return "jump";
    case InsnClass::fp_alu:
      return "fp_alu";
    case InsnClass::fp_mul:
      return "fp_mul";
    case InsnClass::fp_div:
      return "fp_div";
    case InsnClass::fp_sqrt:
      return "fp_sqrt";
    case InsnClass::fp_cvt:
      return "fp_cvt";
    case InsnClass::fp_load:
      return "fp_load";
    case InsnClass::fp_store:
      return "fp_store";
    case InsnClass::atomic:
      return "atomic";
    case InsnClass::csr:
      return "csr";
    case InsnClass::fence:
      return "fence";
    case InsnClass::system:
      return "system";
    case InsnClass::vset:
      return "vset";
    case InsnClass::vec_int:
      return "vec_int";
    case InsnClass::vec_mul:
      return "vec_mul";
    case InsnClass::vec_div:
      return "vec_div";
    case InsnClass::vec_fp:
      return "vec_fp";
    case InsnClass::vec_fmul:
      return "vec_fmul";
    case InsnClass::vec_fdiv:
      return "vec_fdiv";
    case InsnClass::vec_fest:
      return "vec_fest";
    case InsnClass::vec_red:
      return "vec_red";
    case InsnClass::vec_perm:
      return "vec_perm";
    case InsnClass::vec_mask:
      return "vec_mask";
    case InsnClass::vec_load:
      return "vec_load";
    case InsnClass::vec_store:
      return "vec_store";
  }
  return "unknown";
}

VType decode_vtype(uint32_t vtype_imm) {
  VType vt;
  const uint32_t vlmul = vtype_imm & 7;
  const uint32_t vsew = (vtype_imm >> 3) & 7;
  vt.ta = (vtype_imm >> 6) & 1;
  vt.ma = (vtype_imm >> 7) & 1;
  // vlmul 100 and vsew 1xx are reserved; so is any bit above vma in an immediate.
  vt.vill = vlmul == 4 || vsew > 3 || (vtype_imm >> 8) != 0;
  if (vt.vill) return vt;
  vt.sew = 8u << vsew;
  vt.lmul_log2 = vlmul < 4 ? static_cast<int>(vlmul) : static_cast<int>(vlmul) - 8;
  return vt;
}

std::string vtype_key(const VType& vt) {
  if (vt.vill) return "vill";
  std::string key = "e" + std::to_string(vt.sew);
  key += vt.lmul_log2 >= 0 ? "m" + std::to_string(1 << vt.lmul_log2) : "mf" + std::to_string(1 << -vt.lmul_log2);
  return key;
}

unsigned operand_eew(const Operand& op, unsigned sew) {
  switch (op.shape) {
    case VShape::wide_group:
      return 2 * sew;
    case VShape::eew_group:
      return op.eew != 0 ? op.eew : sew / (op.eew_div != 0 ? op.eew_div : 1);
    case VShape::mask:
      return 1;
    default:
      return sew;
  }
}

unsigned register_count(const Operand& op, const VType& vt) {
  if (op.file != RegFile::v) return op.file == RegFile::none ? 0 : 1;
  switch (op.shape) {
    case VShape::mask:
    case VShape::single:
      return 1;
    case VShape::whole:
      return op.nregs;
    default:
      break;
  }
  if (vt.vill || vt.sew == 0) return 0;
  // EMUL = EEW / SEW * LMUL; fractional groups still occupy one register per field.
  const int emul_log2 = vt.lmul_log2 + std::countr_zero(operand_eew(op, vt.sew)) - std::countr_zero(vt.sew);
  const unsigned per_field = emul_log2 > 0 ? 1u << emul_log2 : 1u;
  return per_field * (op.nfields != 0 ? op.nfields : 1);
}

}  // namespace eok::riscv
