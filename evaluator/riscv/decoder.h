// RISC-V instruction decoder for RV64GC + Zfh + V (RVV 1.0) + Zvfh + Zba/Zbb/Zbs.
//
// Contract: decode() reads one instruction from raw little-endian bytes and never throws; bytes that do
// not form a known instruction come back with cls == InsnClass::unknown and a length that lets a linear
// sweep continue (2 for a 16-bit parcel, 4 otherwise). The decoder does not know the runtime vtype:
// vector register operands carry a shape from which the cost model derives group sizes once vtype is known.
// Used by the static checker (forbidden instructions in candidate objects) and the cost model (per-block
// instruction costs); format() produces assembler text that llvm-mc/llvm-mca accept for cross-checks.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace eok::riscv {

enum class RegFile : uint8_t { none, x, f, v };

// How many vector registers an operand spans, relative to the vtype the instruction runs under.
enum class VShape : uint8_t {
  group,       // LMUL registers (EEW = SEW)
  wide_group,  // 2*LMUL registers (EEW = 2*SEW): widening destinations, narrowing sources, vfwmacc vd
  eew_group,   // EMUL = eew / SEW * LMUL registers (loads/stores, indexed-load indices, vzext/vsext sources)
  mask,        // one register holding a mask (v0.t, mask-producing compares, vmand.mm ...)
  single,      // one register, element 0 (reduction scalar operand/result, vmv.s.x)
  whole,       // `nregs` whole registers (vl<n>r, vs<n>r, vmv<n>r)
};

struct Operand {
  RegFile file = RegFile::none;
  uint8_t reg = 0;
  VShape shape = VShape::group;  // meaningful for RegFile::v only
  uint8_t eew = 0;               // bits, for VShape::eew_group; 0 when the EEW is relative to SEW (eew_div)
  uint8_t nregs = 0;             // for VShape::whole
  uint8_t nfields = 1;           // segment loads/stores: fields (each spans the group shape)
  uint8_t eew_div = 0;           // eew_group with EEW = SEW / eew_div: vzext/vsext.vf2/vf4/vf8 sources
};

// Coarse kind of work: the cost model's fallback key and the profile's grouping.
enum class InsnClass : uint8_t {
  unknown,
  int_alu,    // add, shifts, logic, lui, auipc, compares, Zba/Zbb/Zbs
  int_mul,
  int_div,    // div, rem and their variants
  load,       // scalar integer loads
  store,      // scalar integer stores
  branch,     // conditional branches
  jump,       // jal, jalr, c.j, c.jr ...
  fp_alu,     // fadd, fsub, fmin/fmax, fsgnj, compares, fclass
  fp_mul,     // fmul and fused multiply-add
  fp_div,
  fp_sqrt,
  fp_cvt,     // conversions and moves between x and f registers
  fp_load,
  fp_store,
  atomic,     // lr/sc and AMOs
  csr,        // csrr*/csrw* (incl. frm/fflags/vxrm accesses)
  fence,      // fence, fence.i
  system,     // ecall, ebreak, wfi, mret ...
  vset,       // vsetvli, vsetivli, vsetvl
  vec_int,    // integer arithmetic/logic/shift/compare/merge
  vec_mul,    // integer multiply and multiply-add
  vec_div,    // vdiv/vrem
  vec_fp,     // fp add/sub/min/max/sgnj/compare/convert/move/classify
  vec_fmul,   // vfmul, vfmacc family, widening fp multiply
  vec_fdiv,   // vfdiv, vfrdiv, vfsqrt
  vec_fest,   // vfrec7, vfrsqrt7
  vec_red,    // reductions (vredsum, vfredusum, vfredosum, vwredsum ...)
  vec_perm,   // vrgather, vslide*, vcompress, vmv.x.s/vmv.s.x, vfmv.f.s/vfmv.s.f, vmv<n>r
  vec_mask,   // mask-register logic, vcpop, vfirst, vmsbf/vmsif/vmsof, viota, vid
  vec_load,
  vec_store,
};

std::string_view class_name(InsnClass cls);

// Vector memory addressing mode.
enum class VMemMode : uint8_t { none, unit, strided, indexed_unordered, indexed_ordered, whole, mask, fault_first };

struct Insn {
  uint32_t raw = 0;
  uint8_t length = 0;              // 2 or 4 bytes
  std::string_view mnemonic;       // canonical name as the assembler spells it ("vfmacc.vf", "c.addi", "addi")
  std::string_view base;           // the 32-bit equivalent for compressed forms ("c.bnez" -> "bne"), else = mnemonic
  InsnClass cls = InsnClass::unknown;

  Operand dst;                     // destination register (file none if there is none)
  std::array<Operand, 4> src{};    // sources in assembler order; unused slots have file none
  uint8_t nsrc = 0;
  bool masked = false;             // vector op executed under v0.t (v0 is then also listed in src)
  bool dst_is_src = false;         // vd is also read as an input (vfmacc/vmacc families, vslideup)

  int64_t imm = 0;                 // immediate / branch offset / load-store offset, sign-extended
  uint16_t csr = 0;                // for InsnClass::csr

  // Memory: scalar access size in bytes; for vector loads/stores the data EEW in bits (mem_eew) and mode.
  uint8_t mem_bytes = 0;
  uint8_t mem_eew = 0;
  VMemMode vmem = VMemMode::none;

  // vsetvli / vsetivli: the vtype immediate; vsetvl (register form): vtype_imm = -1.
  int32_t vtype_imm = -1;
};

// Decodes the instruction at bytes[0..]. bytes.size() may exceed the instruction; a 32-bit instruction
// cut short returns unknown with length = bytes.size() (at least 1).
Insn decode(std::span<const uint8_t> bytes);

// Assembler text, e.g. "vfmacc.vf v8, fa0, v16" or "addi a0, a0, 16". Branch/jump targets are printed as
// relative offsets. Register names use ABI names (a0, ft0); vector registers v0..v31; masked ops end in
// ", v0.t".
std::string format(const Insn& insn);

// vtype as set by vsetvli's immediate.
struct VType {
  unsigned sew = 0;        // 8, 16, 32, 64
  int lmul_log2 = 0;       // -3 (mf8) .. 3 (m8)
  bool ta = false;
  bool ma = false;
  bool vill = false;       // reserved encodings
};
VType decode_vtype(uint32_t vtype_imm);
std::string vtype_key(const VType& vt);  // "e32m4", "e16mf2": the measured table's column names; "vill"

// Element width in bits of a vector operand under SEW `sew` (1 for mask operands).
unsigned operand_eew(const Operand& op, unsigned sew);
// Vector registers an operand occupies under `vt` (all fields of a segment access; a fractional EMUL
// still takes one register); 1 for scalar registers, 0 for none or when vt is vill.
unsigned register_count(const Operand& op, const VType& vt);

}  // namespace eok::riscv
