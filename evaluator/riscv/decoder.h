// RISC-V instruction decoder for RV64GC + Zfh + V (RVV 1.0) + Zvfh + Zba/Zbb/Zbs, plus Zicsr, Zifencei and
// the privileged returns/fences (mret, sret, dret, wfi, sfence.vma) the static checker must recognise.
//
// Contract: decode() reads one instruction from raw little-endian bytes and never throws; bytes that do
// not form a known instruction come back with cls == InsnClass::unknown and a length that lets a linear
// sweep continue (2 for a 16-bit parcel, 4 otherwise). The decoder does not know the runtime vtype:
// vector register operands carry a shape from which the cost model derives group sizes once vtype is known.
// Used by the static checker (forbidden instructions in candidate objects) and the cost model (per-block
// instruction costs); format() produces assembler text that llvm-mc/llvm-mca accept for cross-checks.
//
// Which encodings are instructions follows LLVM 22's disassembler, which the tests use as the oracle:
// reserved fields must be zero (ecall with rd != 0, fence.i with an immediate, lr with rs2 != 0 are
// unknown), and reserved rounding modes 5/6, misaligned vmv<n>r/vl<n>r register groups and vadc with vm=1
// are unknown. vsetvli/vsetivli with a reserved vtype immediate decode (the hart executes them and sets
// vill; decode_vtype() reports it). HINT encodings (c.nop 5, c.li zero, 3) decode as the instruction they
// are written as. One choice differs from LLVM: the all-zero parcel (c.unimp, the defined illegal
// instruction) is unknown, so the checker rejects it like any other unknown encoding. Decoding allocates
// nothing (about 20 ns an instruction on a current x86 core); mnemonic and base view static strings.
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
  int_alu,  // add, shifts, logic, lui, auipc, compares, Zba/Zbb/Zbs
  int_mul,
  int_div,  // div, rem and their variants
  load,     // scalar integer loads
  store,    // scalar integer stores
  branch,   // conditional branches
  jump,     // jal, jalr, c.j, c.jr ...
  fp_alu,   // fadd, fsub, fmin/fmax, fsgnj, compares, fclass
  fp_mul,   // fmul and fused multiply-add
  fp_div,
  fp_sqrt,
  fp_cvt,  // conversions and moves between x and f registers
  fp_load,
  fp_store,
  atomic,    // lr/sc and AMOs
  csr,       // csrr*/csrw* (incl. frm/fflags/vxrm accesses)
  fence,     // fence, fence.tso, fence.i
  system,    // ecall, ebreak, c.ebreak, wfi, mret, sret, dret, sfence.vma
  vset,      // vsetvli, vsetivli, vsetvl
  vec_int,   // integer arithmetic/logic/shift/compare/merge
  vec_mul,   // integer multiply and multiply-add
  vec_div,   // vdiv/vrem
  vec_fp,    // fp add/sub/min/max/sgnj/compare/convert/move/classify
  vec_fmul,  // vfmul, vfmacc family, widening fp multiply
  vec_fdiv,  // vfdiv, vfrdiv, vfsqrt
  vec_fest,  // vfrec7, vfrsqrt7
  vec_red,   // reductions (vredsum, vfredusum, vfredosum, vwredsum ...)
  vec_perm,  // vrgather, vslide*, vcompress, vmv.x.s/vmv.s.x, vfmv.f.s/vfmv.s.f, vmv<n>r
  vec_mask,  // mask-register logic, vcpop, vfirst, vmsbf/vmsif/vmsof, viota, vid
  vec_load,
  vec_store,
};

std::string_view class_name(InsnClass cls);

// Vector memory addressing mode.
enum class VMemMode : uint8_t { none, unit, strided, indexed_unordered, indexed_ordered, whole, mask, fault_first };

// Operand conventions:
//  * Registers appear as the assembler writes them, so an x0 operand (jal zero, ...) is listed; x0 is
//    never a dependency. A compressed instruction carries the operands of its 32-bit equivalent `base`,
//    implicit ones included: c.li a0, 5 reads zero (addi a0, zero, 5), c.lwsp reads sp, c.jalr writes ra.
//  * An accumulating vd (dst_is_src) is not repeated in src. v0 as vadc/vmadc carry-in or vmerge
//    selector is the last source with shape mask while masked stays false.
//  * imm: I/S/B/J immediates and offsets sign-extended (branch and jump offsets relative to the
//    instruction); lui/auipc/c.lui the value added, imm20 << 12; shift amounts; csrr*i the 5-bit uimm;
//    fence the fm/pred/succ field (raw[31:20]); vsetivli the AVL; OPIVI the 5-bit immediate, signed or
//    unsigned as the instruction reads it (vadd.vi -3, vsll.vi 31).
struct Insn {
  uint32_t raw = 0;
  uint8_t length = 0;         // 2 or 4 bytes
  std::string_view mnemonic;  // canonical name as the assembler spells it ("vfmacc.vf", "c.addi", "addi")
  std::string_view base;      // the 32-bit equivalent for compressed forms ("c.bnez" -> "bne"), else = mnemonic
  InsnClass cls = InsnClass::unknown;

  Operand dst;                   // destination register (file none if there is none)
  std::array<Operand, 4> src{};  // sources in assembler order; unused slots have file none
  uint8_t nsrc = 0;
  bool masked = false;      // vector op executed under v0.t (v0 is then also listed in src)
  bool dst_is_src = false;  // vd is also read as an input (vfmacc/vmacc/vwmacc families, vslideup)

  int64_t imm = 0;   // immediate / branch offset / load-store offset, sign-extended
  uint16_t csr = 0;  // for InsnClass::csr

  // Memory: scalar access size in bytes (loads, stores, fp loads/stores, atomics); for vector loads/stores
  // the data EEW in bits (mem_eew) and mode. Indexed accesses have mem_eew = 0: their data elements are
  // SEW wide and the encoded width is the index EEW, carried by the index operand (eew_group).
  uint8_t mem_bytes = 0;
  uint8_t mem_eew = 0;
  VMemMode vmem = VMemMode::none;

  // vsetvli / vsetivli: the vtype immediate; vsetvl (register form): vtype_imm = -1.
  int32_t vtype_imm = -1;
};

// Decodes the instruction at bytes[0..]. bytes.size() may exceed the instruction; a 32-bit instruction
// cut short returns unknown with length = bytes.size() (at least 1).
Insn decode(std::span<const uint8_t> bytes);

// Assembler text, e.g. "vfmacc.vf v8, fa0, v16" or "addi a0, a0, 16", spelled as `llvm-objdump -M
// no-aliases` prints it (no pseudo-instructions). Branch/jump targets are printed as relative offsets.
// Register names use ABI names (a0, ft0); vector registers v0..v31; masked ops end in ", v0.t".
// Compressed instructions are printed in their compressed syntax ("c.addi a0, -1", "c.ldsp ra, 8(sp)").
// Immediates are decimal except lui/auipc/c.lui (the 20-bit field, hex) and CSRs without a name (hex);
// common CSRs print by name (vl, frm, cycle, mstatus, ...). FP rounding modes are always printed ("dyn"
// included) except rne on exact conversions (fcvt.d.w, fcvt.d.s), as LLVM does; a reserved vtype prints
// as its raw immediate. Unknown encodings print as data: ".4byte 0xffffffff", ".2byte 0x0".
// llvm-mc-22 -triple=riscv64 assembles the text back to the same bytes given
// -mattr=+v,+zfh,+zvfh,+zba,+zbb,+zbs,+m,+a (M and A are not implied by +v) and, for compressed
// instructions, +c; add +c only for those, since with it llvm-mc compresses eligible 32-bit forms.
// llvm-mc also refuses reserved register overlaps (masked vd = v0, widening vd overlapping vs2) that
// decode() accepts, as objdump does.
std::string format(const Insn& insn);

// vtype as set by vsetvli's immediate. vill marks encodings the spec reserves (vlmul 100, vsew 1xx, bits
// above vma); settings an implementation may refuse (e64 with mf2 on ELEN=64) are not flagged.
struct VType {
  unsigned sew = 0;   // 8, 16, 32, 64
  int lmul_log2 = 0;  // -3 (mf8) .. 3 (m8)
  bool ta = false;
  bool ma = false;
  bool vill = false;  // reserved encodings
};
VType decode_vtype(uint32_t vtype_imm);
std::string vtype_key(const VType& vt);  // "e32m4", "e16mf2": the measured table's column names; "vill"

// Element width in bits of a vector operand under SEW `sew` (1 for mask operands).
unsigned operand_eew(const Operand& op, unsigned sew);
// Vector registers an operand occupies under `vt` (all fields of a segment access; a fractional EMUL
// still takes one register); 1 for scalar registers, 0 for none or when vt is vill.
unsigned register_count(const Operand& op, const VType& vt);

}  // namespace eok::riscv
