// OP-V: RVV 1.0 configuration, integer, fixed-point, floating-point (Zvfh shares these encodings), reduction,
// mask and permutation instructions. One 64-row table per operand category (funct3) maps funct6 to the
// mnemonic and the operand layout; the few rows whose vs1/vs2 field selects the operation are decoded
// by hand in decode_unary().
#include "evaluator/riscv/decoder_internal.h"

namespace eok::riscv::detail {
namespace {

// Operand layout of a table row. "scalar" is the vs1/rs1/imm operand of the row's category.
enum class Form : uint8_t {
  none,        // not an instruction
  binary,      // vd, vs2, scalar: all SEW groups
  widen,       // vd is 2*SEW
  widen_w,     // vd and vs2 are 2*SEW (.wv/.wx/.wf)
  narrow,      // vs2 is 2*SEW (.wv/.wx/.wi narrowing shifts and clips)
  compare,     // vd is a mask
  carry_in,    // vadc/vsbc: vm must be 0, v0 is the carry input rather than a mask
  carry_out,   // vmadc/vmsbc: vd is a mask; vm=0 reads v0 as carry (name), vm=1 does not (alt)
  merge,       // vm=0: vmerge/vfmerge with v0 selecting (name); vm=1: vmv.v.*/vfmv.v.f with vs2=0 (alt)
  madd,        // vd, scalar, vs2 and vd is read (vmacc, vfmadd ...)
  wmadd,       // as madd with a 2*SEW vd (vwmacc, vfwmacc ...)
  reduce,      // vd[0] = reduce(vs1[0], vs2): vd and vs1 are single registers
  mask_logic,  // vd, vs2, vs1 are masks; vm must be 1
  slideup,     // binary, and vd is read: elements below the offset keep their values
  gather16,    // vrgatherei16: vs1 holds 16-bit indices
  compress,    // vcompress: vs1 is a mask; vm must be 1
  unary,       // the operation is selected by the vs1 (or vs2) field: decode_unary()
  move_whole,  // vmv<nr>r.v
};

struct Row {
  std::string_view name;
  Form form = Form::none;
  InsnClass cls = InsnClass::unknown;
  std::string_view alt{};  // vm=1 name for carry_out and merge rows
  bool uimm = false;       // OPIVI: the 5-bit immediate is unsigned (shift amounts, offsets, indices)
};
using Table = std::array<Row, 64>;

constexpr auto kInt = InsnClass::vec_int, kMul = InsnClass::vec_mul, kDiv = InsnClass::vec_div, kFp = InsnClass::vec_fp,
               kFmul = InsnClass::vec_fmul, kFdiv = InsnClass::vec_fdiv, kRed = InsnClass::vec_red,
               kPerm = InsnClass::vec_perm, kMask = InsnClass::vec_mask;

constexpr Table kOpivv = [] {
  Table t{};
  t[0x00] = {"vadd.vv", Form::binary, kInt};
  t[0x02] = {"vsub.vv", Form::binary, kInt};
  t[0x04] = {"vminu.vv", Form::binary, kInt};
  t[0x05] = {"vmin.vv", Form::binary, kInt};
  t[0x06] = {"vmaxu.vv", Form::binary, kInt};
  t[0x07] = {"vmax.vv", Form::binary, kInt};
  t[0x09] = {"vand.vv", Form::binary, kInt};
  t[0x0a] = {"vor.vv", Form::binary, kInt};
  t[0x0b] = {"vxor.vv", Form::binary, kInt};
  t[0x0c] = {"vrgather.vv", Form::binary, kPerm};
  t[0x0e] = {"vrgatherei16.vv", Form::gather16, kPerm};
  t[0x10] = {"vadc.vvm", Form::carry_in, kInt};
  t[0x11] = {"vmadc.vvm", Form::carry_out, kInt, "vmadc.vv"};
  t[0x12] = {"vsbc.vvm", Form::carry_in, kInt};
  t[0x13] = {"vmsbc.vvm", Form::carry_out, kInt, "vmsbc.vv"};
  t[0x17] = {"vmerge.vvm", Form::merge, kInt, "vmv.v.v"};
  t[0x18] = {"vmseq.vv", Form::compare, kInt};
  t[0x19] = {"vmsne.vv", Form::compare, kInt};
  t[0x1a] = {"vmsltu.vv", Form::compare, kInt};
  t[0x1b] = {"vmslt.vv", Form::compare, kInt};
  t[0x1c] = {"vmsleu.vv", Form::compare, kInt};
  t[0x1d] = {"vmsle.vv", Form::compare, kInt};
  t[0x20] = {"vsaddu.vv", Form::binary, kInt};
  t[0x21] = {"vsadd.vv", Form::binary, kInt};
  t[0x22] = {"vssubu.vv", Form::binary, kInt};
  t[0x23] = {"vssub.vv", Form::binary, kInt};
  t[0x25] = {"vsll.vv", Form::binary, kInt};
  t[0x27] = {"vsmul.vv", Form::binary, kMul};
  t[0x28] = {"vsrl.vv", Form::binary, kInt};
  t[0x29] = {"vsra.vv", Form::binary, kInt};
  t[0x2a] = {"vssrl.vv", Form::binary, kInt};
  t[0x2b] = {"vssra.vv", Form::binary, kInt};
  t[0x2c] = {"vnsrl.wv", Form::narrow, kInt};
  t[0x2d] = {"vnsra.wv", Form::narrow, kInt};
  t[0x2e] = {"vnclipu.wv", Form::narrow, kInt};
  t[0x2f] = {"vnclip.wv", Form::narrow, kInt};
  t[0x30] = {"vwredsumu.vs", Form::reduce, kRed};
  t[0x31] = {"vwredsum.vs", Form::reduce, kRed};
  return t;
}();

constexpr Table kOpivx = [] {
  Table t{};
  t[0x00] = {"vadd.vx", Form::binary, kInt};
  t[0x02] = {"vsub.vx", Form::binary, kInt};
  t[0x03] = {"vrsub.vx", Form::binary, kInt};
  t[0x04] = {"vminu.vx", Form::binary, kInt};
  t[0x05] = {"vmin.vx", Form::binary, kInt};
  t[0x06] = {"vmaxu.vx", Form::binary, kInt};
  t[0x07] = {"vmax.vx", Form::binary, kInt};
  t[0x09] = {"vand.vx", Form::binary, kInt};
  t[0x0a] = {"vor.vx", Form::binary, kInt};
  t[0x0b] = {"vxor.vx", Form::binary, kInt};
  t[0x0c] = {"vrgather.vx", Form::binary, kPerm};
  t[0x0e] = {"vslideup.vx", Form::slideup, kPerm};
  t[0x0f] = {"vslidedown.vx", Form::binary, kPerm};
  t[0x10] = {"vadc.vxm", Form::carry_in, kInt};
  t[0x11] = {"vmadc.vxm", Form::carry_out, kInt, "vmadc.vx"};
  t[0x12] = {"vsbc.vxm", Form::carry_in, kInt};
  t[0x13] = {"vmsbc.vxm", Form::carry_out, kInt, "vmsbc.vx"};
  t[0x17] = {"vmerge.vxm", Form::merge, kInt, "vmv.v.x"};
  t[0x18] = {"vmseq.vx", Form::compare, kInt};
  t[0x19] = {"vmsne.vx", Form::compare, kInt};
  t[0x1a] = {"vmsltu.vx", Form::compare, kInt};
  t[0x1b] = {"vmslt.vx", Form::compare, kInt};
  t[0x1c] = {"vmsleu.vx", Form::compare, kInt};
  t[0x1d] = {"vmsle.vx", Form::compare, kInt};
  t[0x1e] = {"vmsgtu.vx", Form::compare, kInt};
  t[0x1f] = {"vmsgt.vx", Form::compare, kInt};
  t[0x20] = {"vsaddu.vx", Form::binary, kInt};
  t[0x21] = {"vsadd.vx", Form::binary, kInt};
  t[0x22] = {"vssubu.vx", Form::binary, kInt};
  t[0x23] = {"vssub.vx", Form::binary, kInt};
  t[0x25] = {"vsll.vx", Form::binary, kInt};
  t[0x27] = {"vsmul.vx", Form::binary, kMul};
  t[0x28] = {"vsrl.vx", Form::binary, kInt};
  t[0x29] = {"vsra.vx", Form::binary, kInt};
  t[0x2a] = {"vssrl.vx", Form::binary, kInt};
  t[0x2b] = {"vssra.vx", Form::binary, kInt};
  t[0x2c] = {"vnsrl.wx", Form::narrow, kInt};
  t[0x2d] = {"vnsra.wx", Form::narrow, kInt};
  t[0x2e] = {"vnclipu.wx", Form::narrow, kInt};
  t[0x2f] = {"vnclip.wx", Form::narrow, kInt};
  return t;
}();

constexpr Table kOpivi = [] {
  Table t{};
  t[0x00] = {"vadd.vi", Form::binary, kInt};
  t[0x03] = {"vrsub.vi", Form::binary, kInt};
  t[0x09] = {"vand.vi", Form::binary, kInt};
  t[0x0a] = {"vor.vi", Form::binary, kInt};
  t[0x0b] = {"vxor.vi", Form::binary, kInt};
  t[0x0c] = {"vrgather.vi", Form::binary, kPerm, {}, true};
  t[0x0e] = {"vslideup.vi", Form::slideup, kPerm, {}, true};
  t[0x0f] = {"vslidedown.vi", Form::binary, kPerm, {}, true};
  t[0x10] = {"vadc.vim", Form::carry_in, kInt};
  t[0x11] = {"vmadc.vim", Form::carry_out, kInt, "vmadc.vi"};
  t[0x17] = {"vmerge.vim", Form::merge, kInt, "vmv.v.i"};
  t[0x18] = {"vmseq.vi", Form::compare, kInt};
  t[0x19] = {"vmsne.vi", Form::compare, kInt};
  t[0x1c] = {"vmsleu.vi", Form::compare, kInt};
  t[0x1d] = {"vmsle.vi", Form::compare, kInt};
  t[0x1e] = {"vmsgtu.vi", Form::compare, kInt};
  t[0x1f] = {"vmsgt.vi", Form::compare, kInt};
  t[0x20] = {"vsaddu.vi", Form::binary, kInt};
  t[0x21] = {"vsadd.vi", Form::binary, kInt};
  t[0x25] = {"vsll.vi", Form::binary, kInt, {}, true};
  t[0x27] = {"vmv<nr>r.v", Form::move_whole, kPerm, {}, true};
  t[0x28] = {"vsrl.vi", Form::binary, kInt, {}, true};
  t[0x29] = {"vsra.vi", Form::binary, kInt, {}, true};
  t[0x2a] = {"vssrl.vi", Form::binary, kInt, {}, true};
  t[0x2b] = {"vssra.vi", Form::binary, kInt, {}, true};
  t[0x2c] = {"vnsrl.wi", Form::narrow, kInt, {}, true};
  t[0x2d] = {"vnsra.wi", Form::narrow, kInt, {}, true};
  t[0x2e] = {"vnclipu.wi", Form::narrow, kInt, {}, true};
  t[0x2f] = {"vnclip.wi", Form::narrow, kInt, {}, true};
  return t;
}();

constexpr Table kOpmvv = [] {
  Table t{};
  t[0x00] = {"vredsum.vs", Form::reduce, kRed};
  t[0x01] = {"vredand.vs", Form::reduce, kRed};
  t[0x02] = {"vredor.vs", Form::reduce, kRed};
  t[0x03] = {"vredxor.vs", Form::reduce, kRed};
  t[0x04] = {"vredminu.vs", Form::reduce, kRed};
  t[0x05] = {"vredmin.vs", Form::reduce, kRed};
  t[0x06] = {"vredmaxu.vs", Form::reduce, kRed};
  t[0x07] = {"vredmax.vs", Form::reduce, kRed};
  t[0x08] = {"vaaddu.vv", Form::binary, kInt};
  t[0x09] = {"vaadd.vv", Form::binary, kInt};
  t[0x0a] = {"vasubu.vv", Form::binary, kInt};
  t[0x0b] = {"vasub.vv", Form::binary, kInt};
  t[0x10] = {"VWXUNARY0", Form::unary};
  t[0x12] = {"VXUNARY0", Form::unary};
  t[0x14] = {"VMUNARY0", Form::unary};
  t[0x17] = {"vcompress.vm", Form::compress, kPerm};
  t[0x18] = {"vmandn.mm", Form::mask_logic, kMask};
  t[0x19] = {"vmand.mm", Form::mask_logic, kMask};
  t[0x1a] = {"vmor.mm", Form::mask_logic, kMask};
  t[0x1b] = {"vmxor.mm", Form::mask_logic, kMask};
  t[0x1c] = {"vmorn.mm", Form::mask_logic, kMask};
  t[0x1d] = {"vmnand.mm", Form::mask_logic, kMask};
  t[0x1e] = {"vmnor.mm", Form::mask_logic, kMask};
  t[0x1f] = {"vmxnor.mm", Form::mask_logic, kMask};
  t[0x20] = {"vdivu.vv", Form::binary, kDiv};
  t[0x21] = {"vdiv.vv", Form::binary, kDiv};
  t[0x22] = {"vremu.vv", Form::binary, kDiv};
  t[0x23] = {"vrem.vv", Form::binary, kDiv};
  t[0x24] = {"vmulhu.vv", Form::binary, kMul};
  t[0x25] = {"vmul.vv", Form::binary, kMul};
  t[0x26] = {"vmulhsu.vv", Form::binary, kMul};
  t[0x27] = {"vmulh.vv", Form::binary, kMul};
  t[0x29] = {"vmadd.vv", Form::madd, kMul};
  t[0x2b] = {"vnmsub.vv", Form::madd, kMul};
  t[0x2d] = {"vmacc.vv", Form::madd, kMul};
  t[0x2f] = {"vnmsac.vv", Form::madd, kMul};
  t[0x30] = {"vwaddu.vv", Form::widen, kInt};
  t[0x31] = {"vwadd.vv", Form::widen, kInt};
  t[0x32] = {"vwsubu.vv", Form::widen, kInt};
  t[0x33] = {"vwsub.vv", Form::widen, kInt};
  t[0x34] = {"vwaddu.wv", Form::widen_w, kInt};
  t[0x35] = {"vwadd.wv", Form::widen_w, kInt};
  t[0x36] = {"vwsubu.wv", Form::widen_w, kInt};
  t[0x37] = {"vwsub.wv", Form::widen_w, kInt};
  t[0x38] = {"vwmulu.vv", Form::widen, kMul};
  t[0x3a] = {"vwmulsu.vv", Form::widen, kMul};
  t[0x3b] = {"vwmul.vv", Form::widen, kMul};
  t[0x3c] = {"vwmaccu.vv", Form::wmadd, kMul};
  t[0x3d] = {"vwmacc.vv", Form::wmadd, kMul};
  t[0x3f] = {"vwmaccsu.vv", Form::wmadd, kMul};
  return t;
}();

constexpr Table kOpmvx = [] {
  Table t{};
  t[0x08] = {"vaaddu.vx", Form::binary, kInt};
  t[0x09] = {"vaadd.vx", Form::binary, kInt};
  t[0x0a] = {"vasubu.vx", Form::binary, kInt};
  t[0x0b] = {"vasub.vx", Form::binary, kInt};
  t[0x0e] = {"vslide1up.vx", Form::binary, kPerm};
  t[0x0f] = {"vslide1down.vx", Form::binary, kPerm};
  t[0x10] = {"VRXUNARY0", Form::unary};
  t[0x20] = {"vdivu.vx", Form::binary, kDiv};
  t[0x21] = {"vdiv.vx", Form::binary, kDiv};
  t[0x22] = {"vremu.vx", Form::binary, kDiv};
  t[0x23] = {"vrem.vx", Form::binary, kDiv};
  t[0x24] = {"vmulhu.vx", Form::binary, kMul};
  t[0x25] = {"vmul.vx", Form::binary, kMul};
  t[0x26] = {"vmulhsu.vx", Form::binary, kMul};
  t[0x27] = {"vmulh.vx", Form::binary, kMul};
  t[0x29] = {"vmadd.vx", Form::madd, kMul};
  t[0x2b] = {"vnmsub.vx", Form::madd, kMul};
  t[0x2d] = {"vmacc.vx", Form::madd, kMul};
  t[0x2f] = {"vnmsac.vx", Form::madd, kMul};
  t[0x30] = {"vwaddu.vx", Form::widen, kInt};
  t[0x31] = {"vwadd.vx", Form::widen, kInt};
  t[0x32] = {"vwsubu.vx", Form::widen, kInt};
  t[0x33] = {"vwsub.vx", Form::widen, kInt};
  t[0x34] = {"vwaddu.wx", Form::widen_w, kInt};
  t[0x35] = {"vwadd.wx", Form::widen_w, kInt};
  t[0x36] = {"vwsubu.wx", Form::widen_w, kInt};
  t[0x37] = {"vwsub.wx", Form::widen_w, kInt};
  t[0x38] = {"vwmulu.vx", Form::widen, kMul};
  t[0x3a] = {"vwmulsu.vx", Form::widen, kMul};
  t[0x3b] = {"vwmul.vx", Form::widen, kMul};
  t[0x3c] = {"vwmaccu.vx", Form::wmadd, kMul};
  t[0x3d] = {"vwmacc.vx", Form::wmadd, kMul};
  t[0x3e] = {"vwmaccus.vx", Form::wmadd, kMul};
  t[0x3f] = {"vwmaccsu.vx", Form::wmadd, kMul};
  return t;
}();

constexpr Table kOpfvv = [] {
  Table t{};
  t[0x00] = {"vfadd.vv", Form::binary, kFp};
  t[0x01] = {"vfredusum.vs", Form::reduce, kRed};
  t[0x02] = {"vfsub.vv", Form::binary, kFp};
  t[0x03] = {"vfredosum.vs", Form::reduce, kRed};
  t[0x04] = {"vfmin.vv", Form::binary, kFp};
  t[0x05] = {"vfredmin.vs", Form::reduce, kRed};
  t[0x06] = {"vfmax.vv", Form::binary, kFp};
  t[0x07] = {"vfredmax.vs", Form::reduce, kRed};
  t[0x08] = {"vfsgnj.vv", Form::binary, kFp};
  t[0x09] = {"vfsgnjn.vv", Form::binary, kFp};
  t[0x0a] = {"vfsgnjx.vv", Form::binary, kFp};
  t[0x10] = {"VWFUNARY0", Form::unary};
  t[0x12] = {"VFUNARY0", Form::unary};
  t[0x13] = {"VFUNARY1", Form::unary};
  t[0x18] = {"vmfeq.vv", Form::compare, kFp};
  t[0x19] = {"vmfle.vv", Form::compare, kFp};
  t[0x1b] = {"vmflt.vv", Form::compare, kFp};
  t[0x1c] = {"vmfne.vv", Form::compare, kFp};
  t[0x20] = {"vfdiv.vv", Form::binary, kFdiv};
  t[0x24] = {"vfmul.vv", Form::binary, kFmul};
  t[0x28] = {"vfmadd.vv", Form::madd, kFmul};
  t[0x29] = {"vfnmadd.vv", Form::madd, kFmul};
  t[0x2a] = {"vfmsub.vv", Form::madd, kFmul};
  t[0x2b] = {"vfnmsub.vv", Form::madd, kFmul};
  t[0x2c] = {"vfmacc.vv", Form::madd, kFmul};
  t[0x2d] = {"vfnmacc.vv", Form::madd, kFmul};
  t[0x2e] = {"vfmsac.vv", Form::madd, kFmul};
  t[0x2f] = {"vfnmsac.vv", Form::madd, kFmul};
  t[0x30] = {"vfwadd.vv", Form::widen, kFp};
  t[0x31] = {"vfwredusum.vs", Form::reduce, kRed};
  t[0x32] = {"vfwsub.vv", Form::widen, kFp};
  t[0x33] = {"vfwredosum.vs", Form::reduce, kRed};
  t[0x34] = {"vfwadd.wv", Form::widen_w, kFp};
  t[0x36] = {"vfwsub.wv", Form::widen_w, kFp};
  t[0x38] = {"vfwmul.vv", Form::widen, kFmul};
  t[0x3c] = {"vfwmacc.vv", Form::wmadd, kFmul};
  t[0x3d] = {"vfwnmacc.vv", Form::wmadd, kFmul};
  t[0x3e] = {"vfwmsac.vv", Form::wmadd, kFmul};
  t[0x3f] = {"vfwnmsac.vv", Form::wmadd, kFmul};
  return t;
}();

constexpr Table kOpfvf = [] {
  Table t{};
  t[0x00] = {"vfadd.vf", Form::binary, kFp};
  t[0x02] = {"vfsub.vf", Form::binary, kFp};
  t[0x04] = {"vfmin.vf", Form::binary, kFp};
  t[0x06] = {"vfmax.vf", Form::binary, kFp};
  t[0x08] = {"vfsgnj.vf", Form::binary, kFp};
  t[0x09] = {"vfsgnjn.vf", Form::binary, kFp};
  t[0x0a] = {"vfsgnjx.vf", Form::binary, kFp};
  t[0x0e] = {"vfslide1up.vf", Form::binary, kPerm};
  t[0x0f] = {"vfslide1down.vf", Form::binary, kPerm};
  t[0x10] = {"VRFUNARY0", Form::unary};
  t[0x17] = {"vfmerge.vfm", Form::merge, kFp, "vfmv.v.f"};
  t[0x18] = {"vmfeq.vf", Form::compare, kFp};
  t[0x19] = {"vmfle.vf", Form::compare, kFp};
  t[0x1b] = {"vmflt.vf", Form::compare, kFp};
  t[0x1c] = {"vmfne.vf", Form::compare, kFp};
  t[0x1d] = {"vmfgt.vf", Form::compare, kFp};
  t[0x1f] = {"vmfge.vf", Form::compare, kFp};
  t[0x20] = {"vfdiv.vf", Form::binary, kFdiv};
  t[0x21] = {"vfrdiv.vf", Form::binary, kFdiv};
  t[0x24] = {"vfmul.vf", Form::binary, kFmul};
  t[0x27] = {"vfrsub.vf", Form::binary, kFp};
  t[0x28] = {"vfmadd.vf", Form::madd, kFmul};
  t[0x29] = {"vfnmadd.vf", Form::madd, kFmul};
  t[0x2a] = {"vfmsub.vf", Form::madd, kFmul};
  t[0x2b] = {"vfnmsub.vf", Form::madd, kFmul};
  t[0x2c] = {"vfmacc.vf", Form::madd, kFmul};
  t[0x2d] = {"vfnmacc.vf", Form::madd, kFmul};
  t[0x2e] = {"vfmsac.vf", Form::madd, kFmul};
  t[0x2f] = {"vfnmsac.vf", Form::madd, kFmul};
  t[0x30] = {"vfwadd.vf", Form::widen, kFp};
  t[0x32] = {"vfwsub.vf", Form::widen, kFp};
  t[0x34] = {"vfwadd.wf", Form::widen_w, kFp};
  t[0x36] = {"vfwsub.wf", Form::widen_w, kFp};
  t[0x38] = {"vfwmul.vf", Form::widen, kFmul};
  t[0x3c] = {"vfwmacc.vf", Form::wmadd, kFmul};
  t[0x3d] = {"vfwnmacc.vf", Form::wmadd, kFmul};
  t[0x3e] = {"vfwmsac.vf", Form::wmadd, kFmul};
  t[0x3f] = {"vfwnmsac.vf", Form::wmadd, kFmul};
  return t;
}();

// VFUNARY0 (OPFVV funct6 010010): conversions selected by vs1.
struct Convert {
  std::string_view name;
  VShape dst = VShape::group;
  VShape src = VShape::group;
};
constexpr std::array<Convert, 32> kFunary0 = [] {
  std::array<Convert, 32> t{};
  constexpr auto g = VShape::group, w = VShape::wide_group;
  t[0x00] = {"vfcvt.xu.f.v", g, g};
  t[0x01] = {"vfcvt.x.f.v", g, g};
  t[0x02] = {"vfcvt.f.xu.v", g, g};
  t[0x03] = {"vfcvt.f.x.v", g, g};
  t[0x06] = {"vfcvt.rtz.xu.f.v", g, g};
  t[0x07] = {"vfcvt.rtz.x.f.v", g, g};
  t[0x08] = {"vfwcvt.xu.f.v", w, g};
  t[0x09] = {"vfwcvt.x.f.v", w, g};
  t[0x0a] = {"vfwcvt.f.xu.v", w, g};
  t[0x0b] = {"vfwcvt.f.x.v", w, g};
  t[0x0c] = {"vfwcvt.f.f.v", w, g};
  t[0x0e] = {"vfwcvt.rtz.xu.f.v", w, g};
  t[0x0f] = {"vfwcvt.rtz.x.f.v", w, g};
  t[0x10] = {"vfncvt.xu.f.w", g, w};
  t[0x11] = {"vfncvt.x.f.w", g, w};
  t[0x12] = {"vfncvt.f.xu.w", g, w};
  t[0x13] = {"vfncvt.f.x.w", g, w};
  t[0x14] = {"vfncvt.f.f.w", g, w};
  t[0x15] = {"vfncvt.rod.f.f.w", g, w};
  t[0x16] = {"vfncvt.rtz.xu.f.w", g, w};
  t[0x17] = {"vfncvt.rtz.x.f.w", g, w};
  return t;
}();

// Operand categories, indexed by funct3.
enum class Category : uint8_t { ivv, fvv, mvv, ivi, ivx, fvf, mvx };

// Fields shared by every OP-V arithmetic instruction.
struct Fields {
  uint32_t vd, vs1, vs2;
  bool masked;
  Category category;
};

void add_mask_if(Insn& insn, bool masked) {
  insn.masked = masked;
  if (masked) add_src(insn, v0_mask());
}

// The vs1/rs1/imm operand in the instruction's category; immediates go to insn.imm instead.
void add_scalar(Insn& insn, const Fields& f, VShape vector_shape, bool uimm) {
  switch (f.category) {
    case Category::ivv:
    case Category::fvv:
    case Category::mvv:
      add_src(insn, vreg(f.vs1, vector_shape));
      return;
    case Category::ivx:
    case Category::mvx:
      add_src(insn, xreg(f.vs1));
      return;
    case Category::fvf:
      add_src(insn, freg(f.vs1));
      return;
    case Category::ivi:
      insn.imm = uimm ? int64_t{f.vs1} : sext(f.vs1, 5);
      return;
  }
}

// "dst, vs2, scalar[, v0.t]" with the given shapes.
bool emit_binary(Insn& insn, Syntax& syntax, const Row& row, const Fields& f, VShape dst, VShape vs2, VShape vs1) {
  start(insn, row.name, row.cls);
  insn.dst = vreg(f.vd, dst);
  add_src(insn, vreg(f.vs2, vs2));
  add_scalar(insn, f, vs1, row.uimm);
  add_mask_if(insn, f.masked);
  syntax = f.category == Category::ivi ? Syntax::vec_imm : Syntax::vec;
  return true;
}

// The funct6 rows whose vs1 (or vs2) field selects the operation.
bool decode_unary(uint32_t funct6, const Fields& f, Insn& insn, Syntax& syntax) {
  syntax = Syntax::vec;
  switch (f.category) {
    case Category::mvv:
      if (funct6 == 0x10) {  // VWXUNARY0
        if (f.vs1 == 0x00) {
          if (f.masked) return false;
          start(insn, "vmv.x.s", kPerm);
          insn.dst = xreg(f.vd);
          add_src(insn, vreg(f.vs2, VShape::single));
          return true;
        }
        if (f.vs1 != 0x10 && f.vs1 != 0x11) return false;
        start(insn, f.vs1 == 0x10 ? "vcpop.m" : "vfirst.m", kMask);
        insn.dst = xreg(f.vd);
        add_src(insn, vreg(f.vs2, VShape::mask));
        add_mask_if(insn, f.masked);
        return true;
      }
      if (funct6 == 0x12) {  // VXUNARY0: vzext/vsext.vf8, vf4, vf2
        static constexpr std::string_view kNames[8] = {"",          "",          "vzext.vf8", "vsext.vf8",
                                                       "vzext.vf4", "vsext.vf4", "vzext.vf2", "vsext.vf2"};
        static constexpr uint8_t kFactor[8] = {0, 0, 8, 8, 4, 4, 2, 2};
        if (f.vs1 >= 8 || kNames[f.vs1].empty()) return false;
        start(insn, kNames[f.vs1], kInt);
        insn.dst = vreg(f.vd);
        Operand src = vreg(f.vs2, VShape::eew_group);
        src.eew_div = kFactor[f.vs1];
        add_src(insn, src);
        add_mask_if(insn, f.masked);
        return true;
      }
      if (funct6 == 0x14) {  // VMUNARY0
        switch (f.vs1) {
          case 0x01:
          case 0x02:
          case 0x03: {
            static constexpr std::string_view kNames[4] = {"", "vmsbf.m", "vmsof.m", "vmsif.m"};
            start(insn, kNames[f.vs1], kMask);
            insn.dst = vreg(f.vd, VShape::mask);
            add_src(insn, vreg(f.vs2, VShape::mask));
            add_mask_if(insn, f.masked);
            return true;
          }
          case 0x10:
            start(insn, "viota.m", kMask);
            insn.dst = vreg(f.vd);
            add_src(insn, vreg(f.vs2, VShape::mask));
            add_mask_if(insn, f.masked);
            return true;
          case 0x11:
            if (f.vs2 != 0) return false;
            start(insn, "vid.v", kMask);
            insn.dst = vreg(f.vd);
            add_mask_if(insn, f.masked);
            return true;
        }
      }
      return false;
    case Category::mvx:  // VRXUNARY0
      if (f.vs2 != 0 || f.masked) return false;
      start(insn, "vmv.s.x", kPerm);
      insn.dst = vreg(f.vd, VShape::single);
      add_src(insn, xreg(f.vs1));
      return true;
    case Category::fvf:  // VRFUNARY0
      if (f.vs2 != 0 || f.masked) return false;
      start(insn, "vfmv.s.f", kPerm);
      insn.dst = vreg(f.vd, VShape::single);
      add_src(insn, freg(f.vs1));
      return true;
    case Category::fvv:
      if (funct6 == 0x10) {  // VWFUNARY0
        if (f.vs1 != 0 || f.masked) return false;
        start(insn, "vfmv.f.s", kPerm);
        insn.dst = freg(f.vd);
        add_src(insn, vreg(f.vs2, VShape::single));
        return true;
      }
      if (funct6 == 0x12) {  // VFUNARY0
        const Convert& cvt = kFunary0[f.vs1];
        if (cvt.name.empty()) return false;
        start(insn, cvt.name, kFp);
        insn.dst = vreg(f.vd, cvt.dst);
        add_src(insn, vreg(f.vs2, cvt.src));
        add_mask_if(insn, f.masked);
        return true;
      }
      if (funct6 == 0x13) {  // VFUNARY1
        switch (f.vs1) {
          case 0x00:
            start(insn, "vfsqrt.v", kFdiv);
            break;
          case 0x04:
            start(insn, "vfrsqrt7.v", InsnClass::vec_fest);
            break;
          case 0x05:
            start(insn, "vfrec7.v", InsnClass::vec_fest);
            break;
          case 0x10:
            start(insn, "vfclass.v", kFp);
            break;
          default:
            return false;
        }
        insn.dst = vreg(f.vd);
        add_src(insn, vreg(f.vs2));
        add_mask_if(insn, f.masked);
        return true;
      }
      return false;
    default:
      return false;
  }
}

bool decode_row(uint32_t funct6, const Row& row, const Fields& f, Insn& insn, Syntax& syntax) {
  constexpr auto group = VShape::group, wide = VShape::wide_group, mask = VShape::mask;
  switch (row.form) {
    case Form::none:
      return false;
    case Form::binary:
      return emit_binary(insn, syntax, row, f, group, group, group);
    case Form::widen:
      return emit_binary(insn, syntax, row, f, wide, group, group);
    case Form::widen_w:
      return emit_binary(insn, syntax, row, f, wide, wide, group);
    case Form::narrow:
      return emit_binary(insn, syntax, row, f, group, wide, group);
    case Form::compare:
      return emit_binary(insn, syntax, row, f, mask, group, group);
    case Form::gather16: {
      emit_binary(insn, syntax, row, f, group, group, VShape::eew_group);
      insn.src[1].eew = 16;
      return true;
    }
    case Form::slideup:
      emit_binary(insn, syntax, row, f, group, group, group);
      insn.dst_is_src = true;
      return true;
    case Form::reduce:
      emit_binary(insn, syntax, row, f, VShape::single, group, VShape::single);
      return true;
    case Form::carry_in:
    case Form::carry_out: {
      const bool with_carry = f.masked;  // vm=0 means "v0 holds carries"
      if (row.form == Form::carry_in && !with_carry) return false;
      start(insn, with_carry ? row.name : row.alt, row.cls);
      insn.dst = vreg(f.vd, row.form == Form::carry_out ? mask : group);
      add_src(insn, vreg(f.vs2));
      add_scalar(insn, f, group, row.uimm);
      if (with_carry) add_src(insn, v0_mask());
      syntax = f.category == Category::ivi ? Syntax::vec_imm : Syntax::vec;
      return true;
    }
    case Form::merge:
      if (f.masked) {
        start(insn, row.name, row.cls);
        insn.dst = vreg(f.vd);
        add_src(insn, vreg(f.vs2));
        add_scalar(insn, f, group, row.uimm);
        add_src(insn, v0_mask());
      } else {
        if (f.vs2 != 0) return false;
        start(insn, row.alt, row.cls);
        insn.dst = vreg(f.vd);
        add_scalar(insn, f, group, row.uimm);
      }
      syntax = f.category == Category::ivi ? Syntax::vec_imm : Syntax::vec;
      return true;
    case Form::madd:
    case Form::wmadd:
      start(insn, row.name, row.cls);
      insn.dst = vreg(f.vd, row.form == Form::wmadd ? wide : group);
      insn.dst_is_src = true;
      add_scalar(insn, f, group, false);
      add_src(insn, vreg(f.vs2));
      add_mask_if(insn, f.masked);
      syntax = Syntax::vec;
      return true;
    case Form::mask_logic:
      if (f.masked) return false;
      return emit_binary(insn, syntax, row, f, mask, mask, mask);
    case Form::compress:
      if (f.masked) return false;
      return emit_binary(insn, syntax, row, f, group, group, mask);
    case Form::move_whole: {
      static constexpr std::string_view kNames[8] = {"vmv1r.v", "vmv2r.v", "", "vmv4r.v", "", "", "", "vmv8r.v"};
      if (f.masked || f.vs1 >= 8 || kNames[f.vs1].empty()) return false;
      const uint8_t nregs = static_cast<uint8_t>(f.vs1 + 1);
      if (f.vd % nregs != 0 || f.vs2 % nregs != 0) return false;  // misaligned groups are reserved
      start(insn, kNames[f.vs1], row.cls);
      insn.dst = vreg(f.vd, VShape::whole);
      insn.dst.nregs = nregs;
      Operand src = vreg(f.vs2, VShape::whole);
      src.nregs = nregs;
      add_src(insn, src);
      syntax = Syntax::vec;
      return true;
    }
    case Form::unary:
      return decode_unary(funct6, f, insn, syntax);
  }
  return false;
}

bool decode_config(uint32_t raw, Insn& insn, Syntax& syntax) {
  start(insn, "", InsnClass::vset);
  insn.dst = xreg(bits(raw, 11, 7));
  if (bit(raw, 31) == 0) {
    insn.mnemonic = insn.base = "vsetvli";
    add_src(insn, xreg(bits(raw, 19, 15)));
    insn.vtype_imm = static_cast<int32_t>(bits(raw, 30, 20));
    syntax = Syntax::vset;
    return true;
  }
  if (bit(raw, 30) == 1) {
    insn.mnemonic = insn.base = "vsetivli";
    insn.imm = bits(raw, 19, 15);
    insn.vtype_imm = static_cast<int32_t>(bits(raw, 29, 20));
    syntax = Syntax::vseti;
    return true;
  }
  if (bits(raw, 30, 25) != 0) return false;
  insn.mnemonic = insn.base = "vsetvl";
  add_src(insn, xreg(bits(raw, 19, 15)));
  add_src(insn, xreg(bits(raw, 24, 20)));
  insn.vtype_imm = -1;
  syntax = Syntax::regs;
  return true;
}

}  // namespace

bool decode_op_v(uint32_t raw, Insn& insn, Syntax& syntax) {
  const uint32_t funct3 = bits(raw, 14, 12);
  if (funct3 == 7) return decode_config(raw, insn, syntax);

  static constexpr const Table* kTables[7] = {&kOpivv, &kOpfvv, &kOpmvv, &kOpivi, &kOpivx, &kOpfvf, &kOpmvx};
  const uint32_t funct6 = bits(raw, 31, 26);
  const Fields fields{bits(raw, 11, 7), bits(raw, 19, 15), bits(raw, 24, 20), bit(raw, 25) == 0,
                      static_cast<Category>(funct3)};
  return decode_row(funct6, (*kTables[funct3])[funct6], fields, insn, syntax);
}

}  // namespace eok::riscv::detail
