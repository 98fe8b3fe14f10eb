// RVV 1.0 loads and stores (LOAD-FP/STORE-FP with the vector width codes): unit-stride, strided,
// indexed (ordered and unordered), segment, whole-register, mask and fault-only-first forms.
#include "evaluator/riscv/decoder_internal.h"

namespace eok::riscv::detail {
namespace {

// Mnemonic families: prefix + ["seg" nf] + infix + eew + suffix, e.g. "vls" "seg3" "e" "32" ".v".
enum Family : uint8_t { unit, fault_first, strided, ux, ox, kFamilies };
constexpr int kWidths = 4;  // eew 8, 16, 32, 64

struct Spelling {
  std::string_view prefix, infix, suffix;
};
constexpr Spelling kLoadSpelling[kFamilies] = {
    {"vl", "e", ".v"}, {"vl", "e", "ff.v"}, {"vls", "e", ".v"}, {"vlux", "ei", ".v"}, {"vlox", "ei", ".v"}};
constexpr Spelling kStoreSpelling[kFamilies] = {
    {"vs", "e", ".v"}, {"", "", ""}, {"vss", "e", ".v"}, {"vsux", "ei", ".v"}, {"vsox", "ei", ".v"}};

using NameTable = std::array<std::array<std::array<StaticName, kWidths>, 8>, kFamilies>;  // [family][nf-1][width]

constexpr NameTable make_names(const Spelling (&spelling)[kFamilies]) {
  NameTable names{};
  for (int family = 0; family < kFamilies; ++family) {
    if (spelling[family].prefix.empty()) continue;
    for (unsigned nf = 1; nf <= 8; ++nf) {
      for (int w = 0; w < kWidths; ++w) {
        StaticName& name = names[family][nf - 1][w];
        name.append(spelling[family].prefix);
        if (nf > 1) name.append("seg").append_number(nf);
        name.append(spelling[family].infix).append_number(8u << w).append(spelling[family].suffix);
      }
    }
  }
  return names;
}
constexpr NameTable kLoadNames = make_names(kLoadSpelling);
constexpr NameTable kStoreNames = make_names(kStoreSpelling);

// Whole-register loads "vl<n>re<eew>.v" ([log2 n][width]) and stores "vs<n>r.v" ([log2 n]).
constexpr auto kWholeLoadNames = [] {
  std::array<std::array<StaticName, kWidths>, 4> names{};
  for (int n = 0; n < 4; ++n)
    for (int w = 0; w < kWidths; ++w)
      names[n][w].append("vl").append_number(1u << n).append("re").append_number(8u << w).append(".v");
  return names;
}();
constexpr auto kWholeStoreNames = [] {
  std::array<StaticName, 4> names{};
  for (int n = 0; n < 4; ++n) names[n].append("vs").append_number(1u << n).append("r.v");
  return names;
}();

// width field -> log2(eew / 8); -1 for the scalar widths.
constexpr int kWidthIndex[8] = {0, -1, -1, -1, -1, 1, 2, 3};

// lumop/sumop values of unit-stride accesses.
constexpr uint32_t kUnitPlain = 0x00, kUnitWhole = 0x08, kUnitMask = 0x0b, kUnitFaultFirst = 0x10;

}  // namespace

bool decode_vector_memory(uint32_t raw, Insn& insn, Syntax& syntax) {
  const bool is_store = (raw & 0x7f) == opcode::kStoreFp;
  const int w = kWidthIndex[bits(raw, 14, 12)];
  if (w < 0 || bit(raw, 28) != 0) return false;  // mew=1 (128-bit and wider elements) is reserved
  const uint32_t vd = bits(raw, 11, 7);          // vs3 for stores
  const uint32_t rs1 = bits(raw, 19, 15);
  const uint32_t field2 = bits(raw, 24, 20);  // rs2, vs2 or lumop/sumop
  const uint32_t nf = bits(raw, 31, 29) + 1;
  const uint32_t mop = bits(raw, 27, 26);
  const bool masked = bit(raw, 25) == 0;
  const uint8_t eew = static_cast<uint8_t>(8u << w);

  // The data register operand; a load's destination or a store's first source.
  Operand data = vreg(vd, VShape::eew_group);
  data.eew = eew;
  data.nfields = static_cast<uint8_t>(nf);
  std::string_view name;
  VMemMode mode = VMemMode::none;
  Operand index;   // vs2 of indexed accesses
  Operand stride;  // rs2 of strided accesses
  uint8_t mem_eew = eew;

  switch (mop) {
    case 0:  // unit-stride family, selected by lumop/sumop
      switch (field2) {
        case kUnitPlain:
          name = (is_store ? kStoreNames : kLoadNames)[unit][nf - 1][w].view();
          mode = VMemMode::unit;
          break;
        case kUnitFaultFirst:
          if (is_store) return false;
          name = kLoadNames[fault_first][nf - 1][w].view();
          mode = VMemMode::fault_first;
          break;
        case kUnitWhole: {
          // nf+1 registers, a power of two; stores exist only with the 8-bit width code
          if (masked || (nf & (nf - 1)) != 0 || (is_store && w != 0)) return false;
          if (vd % nf != 0) return false;  // misaligned register groups are reserved
          const int log2_n = nf == 1 ? 0 : nf == 2 ? 1 : nf == 4 ? 2 : 3;
          name = is_store ? kWholeStoreNames[log2_n].view() : kWholeLoadNames[log2_n][w].view();
          mode = VMemMode::whole;
          data = vreg(vd, VShape::whole);
          data.nregs = static_cast<uint8_t>(nf);
          break;
        }
        case kUnitMask:
          if (masked || nf != 1 || w != 0) return false;
          name = is_store ? "vsm.v" : "vlm.v";
          mode = VMemMode::mask;
          data = vreg(vd, VShape::mask);
          break;
        default:
          return false;
      }
      break;
    case 2:
      name = (is_store ? kStoreNames : kLoadNames)[strided][nf - 1][w].view();
      mode = VMemMode::strided;
      stride = xreg(field2);
      break;
    case 1:
    case 3:
      name = (is_store ? kStoreNames : kLoadNames)[mop == 1 ? ux : ox][nf - 1][w].view();
      mode = mop == 1 ? VMemMode::indexed_unordered : VMemMode::indexed_ordered;
      index = vreg(field2, VShape::eew_group);
      index.eew = eew;
      // The width code gives the index EEW; the data elements are SEW wide.
      data = vreg(vd, VShape::group);
      data.nfields = static_cast<uint8_t>(nf);
      mem_eew = 0;
      break;
  }

  start(insn, name, is_store ? InsnClass::vec_store : InsnClass::vec_load);
  if (is_store) {
    add_src(insn, data);
  } else {
    insn.dst = data;
  }
  add_src(insn, xreg(rs1));
  if (stride.file != RegFile::none) add_src(insn, stride);
  if (index.file != RegFile::none) add_src(insn, index);
  insn.masked = masked;
  if (masked) add_src(insn, v0_mask());
  insn.vmem = mode;
  insn.mem_eew = mem_eew;
  syntax = is_store ? Syntax::vec_store : Syntax::vec_load;
  return true;
}

}  // namespace eok::riscv::detail
