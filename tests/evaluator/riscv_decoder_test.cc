// Tests for the RISC-V decoder (evaluator/riscv/decoder.h).
//
// Unit tests pin the fields the cost model and the static checker rely on. Oracle tests use LLVM 22 as
// the reference: fixture C and assembly files under testdata/decoder/ are compiled with clang-22, every
// instruction of their .text is decoded by a linear sweep and compared with llvm-objdump-22, and the text
// format() produces is assembled again with llvm-mc-22, which must give back the same bytes. Sweeps over
// whole encoding spaces compare the decoder with llvm-objdump on encodings no compiler would emit.
// The LLVM tools are found by name on PATH; without them the oracle tests are skipped.
//
// Differences from llvm-objdump that the comparison accepts, and why:
//  * 0x0000 is c.unimp to objdump; the decoder reports it unknown (the all-zero parcel is defined to be
//    illegal, and the checker must reject it like any other unknown encoding).
//  * CSR operands: objdump names ~300 CSRs, format() names the common ones and prints the others as a
//    number (which llvm-mc accepts too), so a number against a name is not compared as text.
//  * llvm-mc rejects register overlaps that the encodings allow but the spec reserves (a masked vd = v0,
//    vadc/vmerge writing v0, a widening vd overlapping vs2) while objdump prints them; the sweep's
//    reassembly skips lines llvm-mc refuses for that reason only. The fixtures contain none.
#include "evaluator/riscv/decoder.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace eok::riscv {
namespace {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------------------
// Helpers

Insn decode_word(uint32_t raw) {
  const uint8_t bytes[4] = {static_cast<uint8_t>(raw), static_cast<uint8_t>(raw >> 8), static_cast<uint8_t>(raw >> 16),
                            static_cast<uint8_t>(raw >> 24)};
  return decode(bytes);
}

Insn decode_half(uint16_t raw) {
  const uint8_t bytes[2] = {static_cast<uint8_t>(raw), static_cast<uint8_t>(raw >> 8)};
  return decode(bytes);
}

VType vtype_of(std::string_view key) {
  for (uint32_t imm = 0; imm < 256; ++imm) {
    const VType vt = decode_vtype(imm);
    if (!vt.vill && vtype_key(vt) == key) return vt;
  }
  ADD_FAILURE() << "no vtype " << key;
  return {};
}

// ---------------------------------------------------------------------------------------------------------
// vtype

TEST(DecoderVType, SewLmulAndPolicies) {
  const VType vt = decode_vtype(0xd2);  // e32, m4, ta, ma
  EXPECT_EQ(vt.sew, 32u);
  EXPECT_EQ(vt.lmul_log2, 2);
  EXPECT_TRUE(vt.ta);
  EXPECT_TRUE(vt.ma);
  EXPECT_FALSE(vt.vill);
  EXPECT_EQ(vtype_key(vt), "e32m4");
}

TEST(DecoderVType, FractionalLmulUndisturbed) {
  const VType vt = decode_vtype(0x0f);  // e16, mf2, tu, mu
  EXPECT_EQ(vt.sew, 16u);
  EXPECT_EQ(vt.lmul_log2, -1);
  EXPECT_FALSE(vt.ta);
  EXPECT_FALSE(vt.ma);
  EXPECT_EQ(vtype_key(vt), "e16mf2");
  EXPECT_EQ(vtype_key(decode_vtype(0x45)), "e8mf8");  // ta only
  EXPECT_TRUE(decode_vtype(0x45).ta);
  EXPECT_FALSE(decode_vtype(0x45).ma);
  EXPECT_EQ(vtype_key(decode_vtype(0x1b)), "e64m8");
}

TEST(DecoderVType, ReservedSettingsAreVill) {
  EXPECT_TRUE(decode_vtype(0x04).vill);   // vlmul 100
  EXPECT_TRUE(decode_vtype(0x20).vill);   // vsew 100 (e128)
  EXPECT_TRUE(decode_vtype(0x38).vill);   // vsew 111
  EXPECT_TRUE(decode_vtype(0x100).vill);  // bit above vma
  EXPECT_TRUE(decode_vtype(0x400).vill);
  EXPECT_EQ(vtype_key(decode_vtype(0x04)), "vill");
}

TEST(DecoderVType, EveryValidSettingHasADistinctKey) {
  std::set<std::string> keys;
  for (uint32_t imm = 0; imm < 0x40; ++imm) {
    const VType vt = decode_vtype(imm);
    if (!vt.vill) keys.insert(vtype_key(vt));
  }
  EXPECT_EQ(keys.size(), 4u * 7u);  // 4 SEW x 7 LMUL
  EXPECT_TRUE(keys.count("e8mf8") && keys.count("e64m8") && keys.count("e32mf4"));
}

// ---------------------------------------------------------------------------------------------------------
// Vector operand shapes

TEST(DecoderShapes, WideningMultiplyAddDestination) {
  const Insn insn = decode_word(0xf3881457);  // vfwmacc.vv v8, v16, v24
  EXPECT_EQ(insn.mnemonic, "vfwmacc.vv");
  EXPECT_EQ(insn.cls, InsnClass::vec_fmul);
  EXPECT_EQ(insn.dst.file, RegFile::v);
  EXPECT_EQ(insn.dst.reg, 8);
  EXPECT_EQ(insn.dst.shape, VShape::wide_group);
  EXPECT_TRUE(insn.dst_is_src);
  ASSERT_EQ(insn.nsrc, 2);
  EXPECT_EQ(insn.src[0].reg, 16);  // assembler order: vs1, vs2
  EXPECT_EQ(insn.src[0].shape, VShape::group);
  EXPECT_EQ(insn.src[1].reg, 24);
  EXPECT_EQ(insn.src[1].shape, VShape::group);
}

TEST(DecoderShapes, NarrowingSourceIsWide) {
  const Insn insn = decode_word(0xb30c0457);  // vnsrl.wv v8, v16, v24
  EXPECT_EQ(insn.mnemonic, "vnsrl.wv");
  EXPECT_EQ(insn.dst.shape, VShape::group);
  ASSERT_EQ(insn.nsrc, 2);
  EXPECT_EQ(insn.src[0].reg, 16);
  EXPECT_EQ(insn.src[0].shape, VShape::wide_group);
  EXPECT_EQ(insn.src[1].shape, VShape::group);
  EXPECT_EQ(decode_word(0xd70c2457).src[0].shape, VShape::wide_group);  // vwadd.wv: vs2 is wide too
  EXPECT_EQ(decode_word(0xd70c2457).dst.shape, VShape::wide_group);
}

TEST(DecoderShapes, ReductionScalarsAreSingle) {
  const Insn insn = decode_word(0x030c2457);  // vredsum.vs v8, v16, v24
  EXPECT_EQ(insn.mnemonic, "vredsum.vs");
  EXPECT_EQ(insn.cls, InsnClass::vec_red);
  EXPECT_EQ(insn.dst.shape, VShape::single);
  ASSERT_EQ(insn.nsrc, 2);
  EXPECT_EQ(insn.src[0].shape, VShape::group);   // vs2: the vector being reduced
  EXPECT_EQ(insn.src[1].shape, VShape::single);  // vs1: the scalar start value
}

TEST(DecoderShapes, UnitLoadUsesEncodedEew) {
  const Insn insn = decode_word(0x02055407);  // vle16.v v8, (a0)
  EXPECT_EQ(insn.mnemonic, "vle16.v");
  EXPECT_EQ(insn.cls, InsnClass::vec_load);
  EXPECT_EQ(insn.dst.shape, VShape::eew_group);
  EXPECT_EQ(insn.dst.eew, 16);
  EXPECT_EQ(insn.dst.nfields, 1);
  EXPECT_EQ(insn.vmem, VMemMode::unit);
  EXPECT_EQ(insn.mem_eew, 16);
  ASSERT_EQ(insn.nsrc, 1);
  EXPECT_EQ(insn.src[0].file, RegFile::x);
  EXPECT_EQ(insn.src[0].reg, 10);
  EXPECT_FALSE(insn.masked);
}

TEST(DecoderShapes, CompareProducesMask) {
  const Insn insn = decode_word(0x630c0457);  // vmseq.vv v8, v16, v24
  EXPECT_EQ(insn.mnemonic, "vmseq.vv");
  EXPECT_EQ(insn.cls, InsnClass::vec_int);
  EXPECT_EQ(insn.dst.shape, VShape::mask);
  EXPECT_EQ(insn.src[0].shape, VShape::group);
}

TEST(DecoderShapes, WholeRegisterLoadAndMove) {
  const Insn load = decode_word(0xe2856407);  // vl8re32.v v8, (a0)
  EXPECT_EQ(load.mnemonic, "vl8re32.v");
  EXPECT_EQ(load.dst.shape, VShape::whole);
  EXPECT_EQ(load.dst.nregs, 8);
  EXPECT_EQ(load.vmem, VMemMode::whole);
  EXPECT_EQ(load.mem_eew, 32);

  const Insn store = decode_word(0x62850427);  // vs4r.v v8, (a0)
  EXPECT_EQ(store.mnemonic, "vs4r.v");
  EXPECT_EQ(store.cls, InsnClass::vec_store);
  EXPECT_EQ(store.dst.file, RegFile::none);
  EXPECT_EQ(store.src[0].shape, VShape::whole);
  EXPECT_EQ(store.src[0].nregs, 4);

  const Insn move = decode_word(0x9e40b157);  // vmv2r.v v2, v4
  EXPECT_EQ(move.mnemonic, "vmv2r.v");
  EXPECT_EQ(move.cls, InsnClass::vec_perm);
  EXPECT_EQ(move.dst.nregs, 2);
  EXPECT_EQ(move.src[0].nregs, 2);
}

TEST(DecoderShapes, IndexedSegmentAndSpecialOperands) {
  const Insn ux = decode_word(0x05055407);  // vluxei16.v v8, (a0), v16, v0.t
  EXPECT_EQ(ux.mnemonic, "vluxei16.v");
  EXPECT_EQ(ux.vmem, VMemMode::indexed_unordered);
  EXPECT_EQ(ux.mem_eew, 0);  // data elements are SEW wide
  EXPECT_EQ(ux.dst.shape, VShape::group);
  ASSERT_EQ(ux.nsrc, 3);
  EXPECT_EQ(ux.src[1].shape, VShape::eew_group);
  EXPECT_EQ(ux.src[1].eew, 16);
  EXPECT_TRUE(ux.masked);
  EXPECT_EQ(ux.src[2].reg, 0);
  EXPECT_EQ(ux.src[2].shape, VShape::mask);

  const Insn seg = decode_word(0x4ac5e207);  // vlsseg3e32.v v4, (a1), a2
  EXPECT_EQ(seg.mnemonic, "vlsseg3e32.v");
  EXPECT_EQ(seg.vmem, VMemMode::strided);
  EXPECT_EQ(seg.dst.nfields, 3);
  EXPECT_EQ(seg.dst.eew, 32);
  ASSERT_EQ(seg.nsrc, 2);
  EXPECT_EQ(seg.src[1].file, RegFile::x);

  EXPECT_EQ(decode_word(0x03056407).vmem, VMemMode::fault_first);  // vle32ff.v
  const Insn mask = decode_word(0x02b50007);                       // vlm.v v0, (a0)
  EXPECT_EQ(mask.mnemonic, "vlm.v");
  EXPECT_EQ(mask.vmem, VMemMode::mask);
  EXPECT_EQ(mask.dst.shape, VShape::mask);

  const Insn ext = decode_word(0x4b02a457);  // vsext.vf4 v8, v16
  EXPECT_EQ(ext.mnemonic, "vsext.vf4");
  EXPECT_EQ(ext.src[0].shape, VShape::eew_group);
  EXPECT_EQ(ext.src[0].eew_div, 4);
  EXPECT_EQ(decode_word(0x3b0c0457).src[1].eew, 16);  // vrgatherei16.vv: vs1 indices are 16-bit

  const Insn merge = decode_word(0x5d0eb457);  // vmerge.vim v8, v16, -3, v0
  EXPECT_FALSE(merge.masked);                  // v0 selects; it is not an execution mask
  EXPECT_EQ(merge.imm, -3);
  ASSERT_EQ(merge.nsrc, 2);
  EXPECT_EQ(merge.src[1].shape, VShape::mask);

  const Insn to_x = decode_word(0x42802557);  // vmv.x.s a0, v8
  EXPECT_EQ(to_x.dst.file, RegFile::x);
  EXPECT_EQ(to_x.src[0].shape, VShape::single);
  EXPECT_EQ(decode_word(0x42056457).dst.shape, VShape::single);  // vmv.s.x
  const Insn cpop = decode_word(0x40882557);                     // vcpop.m a0, v8, v0.t
  EXPECT_EQ(cpop.cls, InsnClass::vec_mask);
  EXPECT_TRUE(cpop.masked);
  EXPECT_EQ(cpop.src[0].shape, VShape::mask);
}

TEST(DecoderShapes, RegisterCountFollowsVType) {
  const VType e32m4 = vtype_of("e32m4");
  EXPECT_EQ(register_count(decode_word(0x02055407).dst, e32m4), 2u);               // vle16: EMUL = 16/32 * 4
  EXPECT_EQ(register_count(decode_word(0xf3881457).dst, e32m4), 8u);               // vfwmacc vd: 2 * LMUL
  EXPECT_EQ(register_count(decode_word(0x4b02a457).src[0], e32m4), 1u);            // vsext.vf4 source: LMUL / 4
  EXPECT_EQ(register_count(decode_word(0x030c2457).dst, e32m4), 1u);               // reduction result
  EXPECT_EQ(register_count(decode_word(0xe2856407).dst, e32m4), 8u);               // vl8re32: whatever vtype says
  EXPECT_EQ(register_count(decode_word(0x4ac5e207).dst, vtype_of("e32m1")), 3u);   // 3 fields
  EXPECT_EQ(register_count(decode_word(0x02055407).dst, vtype_of("e16mf2")), 1u);  // fractional
  EXPECT_EQ(operand_eew(decode_word(0x4b02a457).src[0], 64), 16u);
}

// ---------------------------------------------------------------------------------------------------------
// Classes and fields

TEST(DecoderClasses, SystemCsrAndVector) {
  const Insn ecall = decode_word(0x00000073);
  EXPECT_EQ(ecall.mnemonic, "ecall");
  EXPECT_EQ(ecall.cls, InsnClass::system);
  EXPECT_EQ(decode_half(0x9002).cls, InsnClass::system);  // c.ebreak
  EXPECT_EQ(decode_half(0x9002).base, "ebreak");

  const Insn csr = decode_word(0xc2002573);  // csrrs a0, vl, zero
  EXPECT_EQ(csr.mnemonic, "csrrs");
  EXPECT_EQ(csr.cls, InsnClass::csr);
  EXPECT_EQ(csr.csr, 0xc20);
  EXPECT_EQ(csr.dst.reg, 10);
  const Insn csri = decode_word(0x00a15073);  // csrrwi zero, vxrm, 2
  EXPECT_EQ(csri.csr, 0x00a);
  EXPECT_EQ(csri.imm, 2);

  EXPECT_EQ(decode_word(0x0000100f).mnemonic, "fence.i");
  EXPECT_EQ(decode_word(0x0000100f).cls, InsnClass::fence);
  EXPECT_EQ(decode_word(0x0310000f).cls, InsnClass::fence);
  EXPECT_EQ(decode_word(0x830c1457).cls, InsnClass::vec_fdiv);  // vfdiv.vv
  EXPECT_EQ(decode_word(0x330c0457).cls, InsnClass::vec_perm);  // vrgather.vv
  EXPECT_EQ(decode_word(0x06b6252f).cls, InsnClass::atomic);    // amoadd.w.aqrl
  EXPECT_EQ(decode_word(0x06b6252f).mnemonic, "amoadd.w.aqrl");
  EXPECT_EQ(decode_word(0x02c5c533).cls, InsnClass::int_div);
  EXPECT_EQ(decode_word(0x02c5853b).cls, InsnClass::int_mul);
  EXPECT_EQ(decode_word(0x20c5a533).cls, InsnClass::int_alu);  // sh1add
  EXPECT_EQ(decode_word(0x68c5f543).cls, InsnClass::fp_mul);   // fmadd.s
  EXPECT_EQ(decode_word(0xc2051553).cls, InsnClass::fp_cvt);   // fcvt.w.d
  EXPECT_EQ(decode_word(0x00251507).cls, InsnClass::fp_load);  // flh
  EXPECT_EQ(decode_word(0x00251507).mem_bytes, 2);
  EXPECT_EQ(class_name(InsnClass::vec_fmul), "vec_fmul");
}

TEST(DecoderClasses, VectorConfiguration) {
  const Insn vli = decode_word(0x0d25f557);  // vsetvli a0, a1, e32, m4, ta, ma
  EXPECT_EQ(vli.mnemonic, "vsetvli");
  EXPECT_EQ(vli.cls, InsnClass::vset);
  EXPECT_EQ(vli.vtype_imm, 0xd2);
  EXPECT_EQ(vtype_key(decode_vtype(vli.vtype_imm)), "e32m4");
  ASSERT_EQ(vli.nsrc, 1);
  EXPECT_EQ(vli.src[0].reg, 11);

  const Insn ivli = decode_word(0xc0f47057);  // vsetivli zero, 8, e16, mf2, tu, mu
  EXPECT_EQ(ivli.mnemonic, "vsetivli");
  EXPECT_EQ(ivli.imm, 8);
  EXPECT_EQ(ivli.vtype_imm, 0x0f);
  EXPECT_EQ(ivli.nsrc, 0);

  const Insn vl = decode_word(0x80c5f557);  // vsetvl a0, a1, a2
  EXPECT_EQ(vl.mnemonic, "vsetvl");
  EXPECT_EQ(vl.vtype_imm, -1);
  EXPECT_EQ(vl.nsrc, 2);
}

TEST(DecoderClasses, MaskedAndAccumulating) {
  const Insn fmacc = decode_word(0xb1055457);  // vfmacc.vf v8, fa0, v16, v0.t
  EXPECT_EQ(fmacc.mnemonic, "vfmacc.vf");
  EXPECT_TRUE(fmacc.masked);
  EXPECT_TRUE(fmacc.dst_is_src);
  ASSERT_EQ(fmacc.nsrc, 3);
  EXPECT_EQ(fmacc.src[0].file, RegFile::f);
  EXPECT_EQ(fmacc.src[0].reg, 10);
  EXPECT_EQ(fmacc.src[1].reg, 16);
  EXPECT_EQ(fmacc.src[2].shape, VShape::mask);
  EXPECT_TRUE(decode_word(0x3b054457).dst_is_src);   // vslideup.vx
  EXPECT_FALSE(decode_word(0x330c0457).dst_is_src);  // vrgather.vv
}

TEST(DecoderClasses, ScalarMemoryAndBranches) {
  const Insn ld = decode_word(0x0105b503);  // ld a0, 16(a1)
  EXPECT_EQ(ld.cls, InsnClass::load);
  EXPECT_EQ(ld.mem_bytes, 8);
  EXPECT_EQ(ld.imm, 16);
  EXPECT_EQ(ld.src[0].reg, 11);
  const Insn sd = decode_word(0x00113423);  // sd ra, 8(sp)
  EXPECT_EQ(sd.cls, InsnClass::store);
  ASSERT_EQ(sd.nsrc, 2);
  EXPECT_EQ(sd.src[0].reg, 1);  // data, then base
  EXPECT_EQ(sd.src[1].reg, 2);
  EXPECT_EQ(decode_word(0xfeb50ce3).imm, -8);  // beq a0, a1, -8
  EXPECT_EQ(decode_word(0xfeb50ce3).cls, InsnClass::branch);
  EXPECT_EQ(decode_word(0x001000ef).imm, 2048);  // jal ra, 2048
  EXPECT_EQ(decode_word(0x001000ef).cls, InsnClass::jump);
  EXPECT_EQ(decode_word(0xfffff537).imm, -4096);  // lui a0, 0xfffff
}

TEST(DecoderCompressed, BaseNamesTheUncompressedInstruction) {
  struct Case {
    uint16_t raw;
    std::string_view mnemonic, base;
    InsnClass cls;
  };
  const Case cases[] = {
      {0xe501, "c.bnez", "bne", InsnClass::branch},   {0x556d, "c.li", "addi", InsnClass::int_alu},
      {0x852e, "c.mv", "add", InsnClass::int_alu},    {0xbff5, "c.j", "jal", InsnClass::jump},
      {0x8082, "c.jr", "jalr", InsnClass::jump},      {0x6522, "c.ldsp", "ld", InsnClass::load},
      {0x2588, "c.fld", "fld", InsnClass::fp_load},   {0x0001, "c.nop", "addi", InsnClass::int_alu},
      {0x157d, "c.addi", "addi", InsnClass::int_alu}, {0x952e, "c.add", "add", InsnClass::int_alu},
      {0x9502, "c.jalr", "jalr", InsnClass::jump},    {0xe406, "c.sdsp", "sd", InsnClass::store},
      {0x757d, "c.lui", "lui", InsnClass::int_alu},
  };
  for (const Case& c : cases) {
    const Insn insn = decode_half(c.raw);
    EXPECT_EQ(insn.length, 2) << c.mnemonic;
    EXPECT_EQ(insn.mnemonic, c.mnemonic);
    EXPECT_EQ(insn.base, c.base) << c.mnemonic;
    EXPECT_EQ(insn.cls, c.cls) << c.mnemonic;
  }
  // Operands are those of the 32-bit form: c.li a0, -5 is addi a0, zero, -5.
  const Insn li = decode_half(0x556d);
  EXPECT_EQ(li.dst.reg, 10);
  ASSERT_EQ(li.nsrc, 1);
  EXPECT_EQ(li.src[0].reg, 0);
  EXPECT_EQ(li.imm, -5);
  const Insn ldsp = decode_half(0x6522);
  EXPECT_EQ(ldsp.src[0].reg, 2);
  EXPECT_EQ(ldsp.imm, 8);
  EXPECT_EQ(ldsp.mem_bytes, 8);
  EXPECT_EQ(decode_half(0xe501).imm, 8);
  EXPECT_EQ(decode_half(0xbff5).imm, -4);
  EXPECT_EQ(decode_half(0x9502).dst.reg, 1);        // c.jalr links through ra
  EXPECT_EQ(decode_word(0x01050513).base, "addi");  // 32-bit: base = mnemonic
}

TEST(DecoderUnknown, IllegalAndTruncatedInput) {
  const Insn zero = decode_word(0x00000000);
  EXPECT_EQ(zero.cls, InsnClass::unknown);
  EXPECT_EQ(zero.length, 2);  // a 16-bit parcel: the sweep resumes 2 bytes on
  EXPECT_TRUE(zero.mnemonic.empty());

  const Insn ones = decode_word(0xffffffff);
  EXPECT_EQ(ones.cls, InsnClass::unknown);
  EXPECT_EQ(ones.length, 4);

  const uint8_t half_of_vsetvli[2] = {0x57, 0xf5};
  const Insn cut = decode(half_of_vsetvli);
  EXPECT_EQ(cut.cls, InsnClass::unknown);
  EXPECT_EQ(cut.length, 2);
  const uint8_t three[3] = {0x57, 0xf5, 0x25};
  EXPECT_EQ(decode(three).length, 3);
  const uint8_t one[1] = {0x13};
  EXPECT_EQ(decode(one).length, 1);
  EXPECT_EQ(decode(std::span<const uint8_t>()).length, 1);
  EXPECT_EQ(decode(std::span<const uint8_t>()).cls, InsnClass::unknown);

  EXPECT_EQ(decode_word(0x420c0457).cls, InsnClass::unknown);            // vadc with vm=1 is reserved
  EXPECT_EQ(decode_word(0x10b50007).cls, InsnClass::unknown);            // mew=1
  EXPECT_EQ(decode_word(0x02c5f553 | 6 << 25).cls, InsnClass::unknown);  // fmt Q
  EXPECT_EQ(decode_word(0x00c5d553).cls, InsnClass::unknown);            // fadd.s with reserved rm 5
  EXPECT_EQ(decode_half(0x4002).cls, InsnClass::unknown);                // c.lwsp zero
  EXPECT_EQ(format(ones), ".4byte 0xffffffff");
  EXPECT_EQ(format(zero), ".2byte 0x0");
}

TEST(DecoderFormat, AssemblerText) {
  EXPECT_EQ(format(decode_word(0xb1055457)), "vfmacc.vf v8, fa0, v16, v0.t");
  EXPECT_EQ(format(decode_word(0x01050513)), "addi a0, a0, 16");
  EXPECT_EQ(format(decode_word(0x0d25f557)), "vsetvli a0, a1, e32, m4, ta, ma");
  EXPECT_EQ(format(decode_word(0xc0f47057)), "vsetivli zero, 8, e16, mf2, tu, mu");
  EXPECT_EQ(format(decode_word(0x5d0eb457)), "vmerge.vim v8, v16, -3, v0");
  EXPECT_EQ(format(decode_word(0x05055407)), "vluxei16.v v8, (a0), v16, v0.t");
  EXPECT_EQ(format(decode_word(0xc2002573)), "csrrs a0, vl, zero");
  EXPECT_EQ(format(decode_word(0x0105b503)), "ld a0, 16(a1)");
  EXPECT_EQ(format(decode_word(0x00113423)), "sd ra, 8(sp)");
  EXPECT_EQ(format(decode_word(0x02c5f553)), "fadd.d fa0, fa1, fa2, dyn");
  EXPECT_EQ(format(decode_word(0xfeb50ce3)), "beq a0, a1, -8");
  EXPECT_EQ(format(decode_word(0x0310000f)), "fence rw, w");
  EXPECT_EQ(format(decode_word(0x06b6252f)), "amoadd.w.aqrl a0, a1, (a2)");
  EXPECT_EQ(format(decode_word(0xfffff537)), "lui a0, 0xfffff");
  EXPECT_EQ(format(decode_half(0x157d)), "c.addi a0, -1");
  EXPECT_EQ(format(decode_half(0x6522)), "c.ldsp a0, 8(sp)");
  EXPECT_EQ(format(decode_half(0x852e)), "c.mv a0, a1");
  EXPECT_EQ(format(decode_half(0x0001)), "c.nop");
}

// ---------------------------------------------------------------------------------------------------------
// LLVM oracle: tools, processes, ELF and objdump parsing

constexpr const char* kMarch = "rv64gcv_zfh_zvfh_zba_zbb_zbs";
constexpr const char* kObjdumpAttrs = "+v,+zfh,+zvfh,+zba,+zbb,+zbs";
// llvm-mc needs M and A spelled out (clang's -march implies them); C only for the 16-bit forms, since
// with C enabled llvm-mc would compress eligible 32-bit instructions.
constexpr const char* kMcAttrs32 = "+v,+zfh,+zvfh,+zba,+zbb,+zbs,+m,+a";
constexpr const char* kMcAttrs16 = "+v,+zfh,+zvfh,+zba,+zbb,+zbs,+m,+a,+c";

std::optional<std::string> find_on_path(std::string_view name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return std::nullopt;
  std::stringstream dirs(path);
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty()) continue;
    const fs::path candidate = fs::path(dir) / name;
    if (fs::is_regular_file(candidate) && ::access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return std::nullopt;
}

struct Tools {
  std::string clang, objdump, mc;
};

// The LLVM 22 tools, or nullopt (with the missing name) when one is not installed.
std::optional<Tools> find_tools(std::string* missing) {
  Tools tools;
  const std::pair<const char*, std::string*> wanted[] = {
      {"clang-22", &tools.clang}, {"llvm-objdump-22", &tools.objdump}, {"llvm-mc-22", &tools.mc}};
  for (const auto& [name, slot] : wanted) {
    const auto found = find_on_path(name);
    if (!found) {
      *missing = name;
      return std::nullopt;
    }
    *slot = *found;
  }
  return tools;
}

std::string quote(const std::string& arg) {
  std::string out = "'";
  for (char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs a shell command; returns its exit status and fills `output` with stdout (stderr goes to `errors`).
int run(const std::string& command, std::string* output, const fs::path& errors) {
  const std::string full = command + " 2>" + quote(errors.string());
  FILE* pipe = ::popen(full.c_str(), "r");
  if (pipe == nullptr) return -1;
  std::array<char, 65536> buffer;
  size_t n;
  output->clear();
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) output->append(buffer.data(), n);
  const int status = ::pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A temporary directory removed with its contents at scope exit.
class ScratchDir {
 public:
  ScratchDir() {
    std::random_device seed;
    path_ =
        fs::temp_directory_path() / ("eok_decoder_test_" + std::to_string(::getpid()) + "_" + std::to_string(seed()));
    fs::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

struct Section {
  std::string name;
  std::vector<uint8_t> bytes;
};

// Executable sections of an ELF64 little-endian relocatable object: just enough ELF for the sweep.
std::vector<Section> read_exec_sections(const fs::path& path) {
  const std::string file = read_text(path);
  auto u16 = [&](size_t at) -> uint64_t { return uint8_t(file[at]) | uint64_t(uint8_t(file[at + 1])) << 8; };
  auto u32 = [&](size_t at) -> uint64_t { return u16(at) | u16(at + 2) << 16; };
  auto u64 = [&](size_t at) -> uint64_t { return u32(at) | u32(at + 4) << 32; };
  std::vector<Section> sections;
  const bool elf64_le = file.size() >= 64 &&
                        file.compare(0, 4,
                                     "\x7f"
                                     "ELF") == 0 &&
                        file[4] == 2 && file[5] == 1;
  if (!elf64_le) return sections;
  const uint64_t shoff = u64(0x28), shentsize = u16(0x3a), shnum = u16(0x3c), shstrndx = u16(0x3e);
  const uint64_t names_offset = u64(shoff + shstrndx * shentsize + 0x18);
  constexpr uint64_t kProgbits = 1, kExecinstr = 4;
  for (uint64_t i = 0; i < shnum; ++i) {
    const size_t header = shoff + i * shentsize;
    if (u32(header + 4) != kProgbits || (u64(header + 8) & kExecinstr) == 0) continue;
    Section section;
    section.name = file.c_str() + names_offset + u32(header);
    const uint64_t offset = u64(header + 0x18), size = u64(header + 0x20);
    section.bytes.assign(file.begin() + offset, file.begin() + offset + size);
    sections.push_back(std::move(section));
  }
  return sections;
}

struct ObjdumpLine {
  std::string mnemonic;
  std::string operands;
};
// section name -> address -> instruction
using Disassembly = std::map<std::string, std::map<uint64_t, ObjdumpLine>>;

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Parses `llvm-objdump -d` output: "  addr: encoding \tmnemonic\toperands" under "Disassembly of section".
Disassembly parse_objdump(const std::string& text) {
  Disassembly out;
  std::string section;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    constexpr std::string_view kHeader = "Disassembly of section ";
    if (line.rfind(kHeader, 0) == 0) {
      section = line.substr(kHeader.size());
      if (!section.empty() && section.back() == ':') section.pop_back();
      continue;
    }
    const size_t colon = line.find(':');
    const size_t tab = line.find('\t');
    if (colon == std::string::npos || tab == std::string::npos || tab < colon) continue;
    const std::string_view address = trim(std::string_view(line).substr(0, colon));
    if (address.empty() || address.find_first_not_of("0123456789abcdef") != std::string_view::npos) continue;
    const std::string_view rest = std::string_view(line).substr(tab + 1);
    const size_t tab2 = rest.find('\t');
    ObjdumpLine entry;
    entry.mnemonic = std::string(trim(rest.substr(0, tab2)));
    if (tab2 != std::string_view::npos) entry.operands = std::string(trim(rest.substr(tab2 + 1)));
    out[section][std::stoull(std::string(address), nullptr, 16)] = std::move(entry);
  }
  return out;
}

// An operand reduced to what both spellings agree on: numbers by value (objdump prints hex, format()
// mostly decimal), "off(reg)" split into both parts, anything else as text.
struct Token {
  enum Kind { number, memory, text } kind = text;
  int64_t value = 0;
  std::string name;
  bool operator==(const Token&) const = default;
};

std::optional<int64_t> parse_number(std::string_view s) {
  bool negative = false;
  if (!s.empty() && s.front() == '-') {
    negative = true;
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && s[1] == 'x') {
    base = 16;
    s.remove_prefix(2);
  }
  if (s.empty()) return std::nullopt;
  uint64_t value = 0;
  for (char c : s) {
    int digit;
    if (c >= '0' && c <= '9')
      digit = c - '0';
    else if (base == 16 && c >= 'a' && c <= 'f')
      digit = c - 'a' + 10;
    else
      return std::nullopt;
    value = value * base + digit;
  }
  return negative ? -static_cast<int64_t>(value) : static_cast<int64_t>(value);
}

std::vector<Token> tokenize(std::string_view operands) {
  std::vector<Token> tokens;
  operands = trim(operands);
  while (!operands.empty()) {
    const size_t comma = operands.find(',');
    std::string_view piece = trim(operands.substr(0, comma));
    operands = comma == std::string_view::npos ? std::string_view() : operands.substr(comma + 1);
    // objdump annotates targets and jalr bases with the nearest symbol: "0x40 <fn+0x10>"
    if (const size_t angle = piece.find(" <"); angle != std::string_view::npos) piece = trim(piece.substr(0, angle));
    Token token;
    if (const auto number = parse_number(piece)) {
      token.kind = Token::number;
      token.value = *number;
    } else if (const size_t paren = piece.find('('); paren != std::string_view::npos && paren > 0) {
      const auto offset = parse_number(piece.substr(0, paren));
      token.kind = offset ? Token::memory : Token::text;
      token.value = offset.value_or(0);
      token.name = std::string(offset ? piece.substr(paren) : piece);
    } else {
      token.name = std::string(piece);
    }
    tokens.push_back(std::move(token));
  }
  return tokens;
}

bool is_pc_relative(const Insn& insn) {
  return insn.cls == InsnClass::branch || insn.mnemonic == "jal" || insn.mnemonic == "c.j";
}

// Compares the decoder's view of the instruction at `address` with objdump's; empty when they agree.
std::string compare_with_objdump(const Insn& insn, uint64_t address, const ObjdumpLine& expected) {
  if (insn.cls == InsnClass::unknown) {
    if (expected.mnemonic == "<unknown>" || (expected.mnemonic == "c.unimp" && insn.raw == 0)) return {};
    return "decoder: unknown";
  }
  const std::string text = format(insn);
  const size_t space = text.find(' ');
  const std::string_view mnemonic = std::string_view(text).substr(0, space);
  const std::string_view operands =
      space == std::string::npos ? std::string_view() : std::string_view(text).substr(space);
  if (mnemonic != insn.mnemonic) return "format() mnemonic differs from Insn::mnemonic: " + text;
  if (insn.mnemonic != expected.mnemonic) return "decoder: " + text;

  std::vector<Token> ours = tokenize(operands);
  std::vector<Token> theirs = tokenize(expected.operands);
  if (is_pc_relative(insn) && !theirs.empty() && theirs.back().kind == Token::number)
    theirs.back().value = static_cast<int64_t>(static_cast<uint64_t>(theirs.back().value) - address);
  if (insn.cls == InsnClass::csr && ours.size() == 3 && theirs.size() == 3 && ours[1].kind == Token::number &&
      theirs[1].kind == Token::text && ours[1].value == insn.csr)
    ours[1] = theirs[1];  // a CSR objdump names and format() prints by number
  if (ours != theirs) return "decoder: " + text;
  return {};
}

// Assembles `lines` with llvm-mc and checks each encoding against `expected` (raw, length). Lines that
// llvm-mc refuses only for a reserved register overlap are skipped when `skip_overlaps`. Returns the
// number of lines checked.
size_t check_reassembly(const Tools& tools, const ScratchDir& scratch, const std::string& tag,
                        const std::vector<std::string>& lines,
                        const std::vector<std::pair<uint32_t, uint8_t>>& expected, const char* attrs,
                        bool skip_overlaps) {
  const fs::path source = scratch.path() / (tag + ".s");
  const fs::path errors = scratch.path() / (tag + ".err");
  {
    std::ofstream out(source);
    for (const std::string& line : lines) out << line << '\n';
  }
  std::string output;
  run(quote(tools.mc) + " -triple=riscv64 -mattr=" + attrs + " -show-encoding " + quote(source.string()), &output,
      errors);

  // "file.s:LINE:COL: error: message"
  std::set<size_t> refused;
  std::istringstream error_lines(read_text(errors));
  for (std::string line; std::getline(error_lines, line);) {
    const size_t at = line.find(": error: ");
    if (at == std::string::npos) continue;
    const size_t line_start = line.rfind(".s:", at);
    const size_t number = std::stoul(line.substr(line_start + 3));
    const bool overlap =
        line.find("cannot overlap") != std::string::npos || line.find("cannot be V0") != std::string::npos;
    if (!(skip_overlaps && overlap)) {
      ADD_FAILURE() << "llvm-mc rejects \"" << lines[number - 1] << "\": " << line.substr(at + 2);
    }
    refused.insert(number);
  }

  std::vector<std::vector<uint8_t>> encodings;
  std::istringstream out_lines(output);
  for (std::string line; std::getline(out_lines, line);) {
    const size_t at = line.find("encoding: [");
    if (at == std::string::npos) continue;
    std::vector<uint8_t> bytes;
    std::stringstream list(line.substr(at + 11, line.find(']', at) - at - 11));
    for (std::string byte; std::getline(list, byte, ',');)
      bytes.push_back(static_cast<uint8_t>(std::stoul(byte, nullptr, 16)));
    encodings.push_back(std::move(bytes));
  }

  size_t next = 0, checked = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (refused.count(i + 1)) continue;
    if (next >= encodings.size()) {
      ADD_FAILURE() << "llvm-mc produced no encoding for \"" << lines[i] << "\"";
      break;
    }
    const std::vector<uint8_t>& bytes = encodings[next++];
    uint32_t raw = 0;
    for (size_t b = 0; b < bytes.size() && b < 4; ++b) raw |= uint32_t{bytes[b]} << (8 * b);
    const auto [want_raw, want_length] = expected[i];
    EXPECT_TRUE(bytes.size() == want_length && raw == want_raw)
        << "\"" << lines[i] << "\" reassembles to " << std::hex << raw << " (" << bytes.size()
        << " bytes), decoded from " << want_raw;
    ++checked;
  }
  return checked;
}

// ---------------------------------------------------------------------------------------------------------
// Oracle over the fixtures

struct FixtureInsn {
  std::string where;  // fixture:section+offset
  uint64_t address;
  Insn insn;
  ObjdumpLine expected;
};

class DecoderFixtures : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string missing;
    tools_ = find_tools(&missing);
    if (!tools_) {
      skip_reason_ = missing + " is not on PATH";
      return;
    }
    scratch_ = new ScratchDir();
    const fs::path dir = fs::path(EOK_TEST_DATA_DIR) / "evaluator" / "testdata" / "decoder";
    std::vector<fs::path> fixtures;
    for (const auto& entry : fs::directory_iterator(dir)) {
      const std::string ext = entry.path().extension().string();
      if (ext == ".c" || ext == ".s") fixtures.push_back(entry.path());
    }
    std::sort(fixtures.begin(), fixtures.end());
    for (const fs::path& fixture : fixtures) load_fixture(fixture);
  }

  static void TearDownTestSuite() {
    delete scratch_;
    scratch_ = nullptr;
    insns_.clear();
  }

  void SetUp() override {
    if (!tools_) GTEST_SKIP() << skip_reason_;
    ASSERT_TRUE(setup_error_.empty()) << setup_error_;
  }

  static void load_fixture(const fs::path& fixture) {
    const std::string stem = fixture.filename().string();
    const fs::path object = scratch_->path() / (stem + ".o");
    const fs::path errors = scratch_->path() / (stem + ".err");
    std::string output;
    std::string command = quote(tools_->clang) + " --target=riscv64-linux-gnu -march=" + kMarch + " -c " +
                          quote(fixture.string()) + " -o " + quote(object.string());
    if (fixture.extension() == ".c") command += " -O2 -ffreestanding";
    if (run(command, &output, errors) != 0) {
      setup_error_ += "cannot compile " + stem + ": " + read_text(errors) + "\n";
      return;
    }
    if (run(quote(tools_->objdump) + " -d --mattr=" + kObjdumpAttrs + " -M no-aliases " + quote(object.string()),
            &output, errors) != 0) {
      setup_error_ += "objdump failed on " + stem + ": " + read_text(errors) + "\n";
      return;
    }
    const Disassembly disassembly = parse_objdump(output);
    for (const Section& section : read_exec_sections(object)) {
      const auto listed = disassembly.find(section.name);
      for (size_t offset = 0; offset < section.bytes.size();) {
        FixtureInsn entry;
        entry.where = stem + ":" + section.name + "+0x" + ([&] {
                        std::ostringstream hex;
                        hex << std::hex << offset;
                        return hex.str();
                      })();
        entry.address = offset;
        entry.insn = decode(std::span<const uint8_t>(section.bytes).subspan(offset));
        if (listed != disassembly.end()) {
          const auto line = listed->second.find(offset);
          if (line != listed->second.end()) entry.expected = line->second;
        }
        offset += entry.insn.length;
        insns_.push_back(std::move(entry));
      }
    }
  }

  static std::optional<Tools> tools_;
  static std::string skip_reason_;
  static std::string setup_error_;
  static ScratchDir* scratch_;
  static std::vector<FixtureInsn> insns_;
};

std::optional<Tools> DecoderFixtures::tools_;
std::string DecoderFixtures::skip_reason_;
std::string DecoderFixtures::setup_error_;
ScratchDir* DecoderFixtures::scratch_ = nullptr;
std::vector<FixtureInsn> DecoderFixtures::insns_;

TEST_F(DecoderFixtures, EveryInstructionMatchesObjdump) {
  size_t checked = 0, compressed = 0, vector = 0;
  for (const FixtureInsn& entry : insns_) {
    ASSERT_FALSE(entry.expected.mnemonic.empty())
        << entry.where << ": objdump lists no instruction here; the sweep lost step";
    const std::string problem = compare_with_objdump(entry.insn, entry.address, entry.expected);
    EXPECT_TRUE(problem.empty()) << entry.where << ": objdump \"" << entry.expected.mnemonic << " "
                                 << entry.expected.operands << "\", " << problem;
    EXPECT_NE(entry.insn.cls, InsnClass::unknown) << entry.where << ": fixtures hold no unknown encodings";
    ++checked;
    compressed += entry.insn.length == 2;
    vector += entry.insn.mnemonic.starts_with("v");
  }
  EXPECT_GT(checked, 1500u);
  std::cout << "[ decoder  ] " << checked << " fixture instructions cross-checked against llvm-objdump (" << compressed
            << " compressed, " << vector << " vector)\n";
}

TEST_F(DecoderFixtures, FormatReassemblesToTheSameBytes) {
  std::vector<std::string> lines32, lines16;
  std::vector<std::pair<uint32_t, uint8_t>> expected32, expected16;
  for (const FixtureInsn& entry : insns_) {
    if (entry.insn.cls == InsnClass::unknown) continue;
    auto& lines = entry.insn.length == 2 ? lines16 : lines32;
    auto& expected = entry.insn.length == 2 ? expected16 : expected32;
    lines.push_back(format(entry.insn));
    expected.emplace_back(entry.insn.raw, entry.insn.length);
  }
  const size_t checked = check_reassembly(*tools_, *scratch_, "fixtures32", lines32, expected32, kMcAttrs32, false) +
                         check_reassembly(*tools_, *scratch_, "fixtures16", lines16, expected16, kMcAttrs16, false);
  EXPECT_EQ(checked, lines32.size() + lines16.size());
  std::cout << "[ decoder  ] " << checked << " format() lines reassembled by llvm-mc to the same bytes\n";
}

// Every family the brief names appears in the fixtures, so the comparisons above cover it.
TEST_F(DecoderFixtures, CoverEveryFamily) {
  std::set<std::string_view> seen;
  std::set<InsnClass> classes;
  std::set<VMemMode> modes;
  bool masked = false, fp16_vector = false;
  for (const FixtureInsn& entry : insns_) {
    seen.insert(entry.insn.mnemonic);
    classes.insert(entry.insn.cls);
    modes.insert(entry.insn.vmem);
    masked |= entry.insn.masked;
  }
  for (const FixtureInsn& entry : insns_) {
    if (entry.insn.mnemonic == "vsetvli" && decode_vtype(entry.insn.vtype_imm).sew == 16) fp16_vector = true;
  }
  for (InsnClass cls = InsnClass::int_alu; cls <= InsnClass::vec_store; cls = InsnClass(int(cls) + 1))
    EXPECT_TRUE(classes.count(cls)) << "no fixture instruction of class " << class_name(cls);
  for (VMemMode mode = VMemMode::unit; mode <= VMemMode::fault_first; mode = VMemMode(int(mode) + 1))
    EXPECT_TRUE(modes.count(mode)) << "no vector access of mode " << int(mode);
  EXPECT_TRUE(masked);
  EXPECT_TRUE(fp16_vector);
  const char* required[] = {"ecall",
                            "ebreak",
                            "c.ebreak",
                            "csrrs",
                            "csrrw",
                            "csrrc",
                            "csrrwi",
                            "csrrsi",
                            "csrrci",
                            "fence",
                            "fence.i",
                            "fence.tso",
                            "lr.w",
                            "sc.d.aqrl",
                            "amoadd.w.aq",
                            "vsetvl",
                            "vsetvli",
                            "vsetivli",
                            "vle8.v",
                            "vse64.v",
                            "vlse32.v",
                            "vsse16.v",
                            "vluxei8.v",
                            "vloxei64.v",
                            "vsuxei32.v",
                            "vsoxei16.v",
                            "vlseg8e16.v",
                            "vle32ff.v",
                            "vlseg2e32ff.v",
                            "vl1re8.v",
                            "vl8re64.v",
                            "vs8r.v",
                            "vlm.v",
                            "vsm.v",
                            "vfmacc.vf",
                            "vfwmacc.vv",
                            "vfncvt.rod.f.f.w",
                            "vfredusum.vs",
                            "vfwredosum.vs",
                            "vmv.x.s",
                            "vfmv.f.s",
                            "vmv.s.x",
                            "vfmv.s.f",
                            "vmv1r.v",
                            "vmv8r.v",
                            "vrgatherei16.vv",
                            "vcompress.vm",
                            "vslide1down.vx",
                            "vid.v",
                            "viota.m",
                            "vcpop.m",
                            "vfirst.m",
                            "vmsbf.m",
                            "vnclipu.wi",
                            "vsmul.vv",
                            "vzext.vf8",
                            "vsext.vf2",
                            "vwmaccus.vx",
                            "vdivu.vx",
                            "vfsqrt.v",
                            "vfrec7.v",
                            "vfrsqrt7.v",
                            "vfclass.v",
                            "vmadc.vvm",
                            "vmsbc.vx",
                            "vadc.vim",
                            "vmerge.vvm",
                            "c.addi4spn",
                            "c.fld",
                            "c.lw",
                            "c.ld",
                            "c.fsd",
                            "c.sw",
                            "c.sd",
                            "c.nop",
                            "c.addi",
                            "c.addiw",
                            "c.li",
                            "c.addi16sp",
                            "c.lui",
                            "c.srli",
                            "c.srai",
                            "c.andi",
                            "c.sub",
                            "c.xor",
                            "c.or",
                            "c.and",
                            "c.subw",
                            "c.addw",
                            "c.j",
                            "c.beqz",
                            "c.bnez",
                            "c.slli",
                            "c.fldsp",
                            "c.lwsp",
                            "c.ldsp",
                            "c.jr",
                            "c.mv",
                            "c.jalr",
                            "c.add",
                            "c.fsdsp",
                            "c.swsp",
                            "c.sdsp",
                            "sh3add.uw",
                            "slli.uw",
                            "add.uw",
                            "clz",
                            "cpopw",
                            "rev8",
                            "orc.b",
                            "rori",
                            "zext.h",
                            "bexti",
                            "binv",
                            "fmadd.h",
                            "fcvt.d.h",
                            "fmv.h.x",
                            "flh",
                            "fsh",
                            "mulhsu",
                            "remuw"};
  for (const char* mnemonic : required) EXPECT_TRUE(seen.count(mnemonic)) << "no fixture instruction " << mnemonic;
}

// ---------------------------------------------------------------------------------------------------------
// Oracle over whole encoding spaces

struct Word {
  uint32_t raw;
  uint8_t length;
};

constexpr uint32_t enc_r(uint32_t funct7, uint32_t rs2, uint32_t rs1, uint32_t funct3, uint32_t rd, uint32_t opcode) {
  return funct7 << 25 | rs2 << 20 | rs1 << 15 | funct3 << 12 | rd << 7 | opcode;
}

// Encodings to compare with objdump: exhaustive where the space is small, structured over the fields
// that select operations elsewhere, plus random words. Deterministic: fixed seed, and every random field
// is drawn into a named local so the evaluation order cannot differ between compilers.
std::vector<Word> sweep_words() {
  std::mt19937 rng(20240611);
  auto below = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
  auto pick = [&](std::initializer_list<uint32_t> values) {
    return *(values.begin() + below(static_cast<uint32_t>(values.size())));
  };
  std::vector<Word> words;
  auto add32 = [&](uint32_t raw) { words.push_back({raw, 4}); };
  // rd, rs1 and rs2 random; the other fields from the caller
  auto add_r = [&](uint32_t funct7, uint32_t funct3, uint32_t opcode) {
    const uint32_t rs2 = below(32), rs1 = below(32), rd = below(32);
    add32(enc_r(funct7, rs2, rs1, funct3, rd, opcode));
  };

  for (uint32_t half = 0; half < 0x10000; ++half)  // every 16-bit parcel
    if ((half & 3) != 3) words.push_back({half, 2});
  for (uint32_t funct3 = 0; funct3 < 8; ++funct3)  // OP-V: funct6 x vm x vs1 (the unary selectors)
    for (uint32_t funct6 = 0; funct6 < 64; ++funct6)
      for (uint32_t vm = 0; vm < 2; ++vm)
        for (uint32_t vs1 = 0; vs1 < 32; vs1 += (funct3 == 7 ? 7 : 1)) {
          const uint32_t vs2 = pick({0, 1, 3, 8, 16, 24}), vd = pick({0, 1, 2, 4, 8, 9, 16, 31});
          add32(enc_r(funct6 << 1 | vm, vs2, vs1, funct3, vd, 0x57));
        }
  for (uint32_t opcode : {0x07u, 0x27u})  // vector and fp loads/stores: nf, mew, mop, vm, lumop, width
    for (uint32_t width = 0; width < 8; ++width)
      for (uint32_t nf = 0; nf < 8; ++nf)
        for (uint32_t mew_mop_vm = 0; mew_mop_vm < 16; ++mew_mop_vm)
          for (uint32_t field = 0; field < 32; field += 1 + below(3)) {
            const uint32_t rs1 = below(32), vd = pick({0, 1, 2, 3, 4, 8, 16, 24});
            add32(nf << 29 | mew_mop_vm << 25 | field << 20 | rs1 << 15 | width << 12 | vd << 7 | opcode);
          }
  for (uint32_t opcode : {0x33u, 0x3bu})  // register-register integer ops; rs2 selects Zbb unary ops
    for (uint32_t funct7 = 0; funct7 < 128; ++funct7)
      for (uint32_t funct3 = 0; funct3 < 8; ++funct3) {
        for (uint32_t rs2 : {0u, 1u, 2u, 5u}) add32(enc_r(funct7, rs2, below(32), funct3, 10, opcode));
        add_r(funct7, funct3, opcode);
      }
  for (uint32_t opcode : {0x13u, 0x1bu})  // immediate ops: every imm12 (shift and Zbb selectors live there)
    for (uint32_t imm = 0; imm < 4096; ++imm)
      for (uint32_t funct3 : {1u, 5u, below(8)}) {
        const uint32_t rs1 = below(32), rd = below(32);
        add32(imm << 20 | rs1 << 15 | funct3 << 12 | rd << 7 | opcode);
      }
  for (uint32_t funct7 = 0; funct7 < 128; ++funct7)  // OP-FP: funct7 x rm x rs2 (rs2 selects conversions)
    for (uint32_t rm = 0; rm < 8; ++rm)
      for (uint32_t rs2 = 0; rs2 < 32; rs2 += (rs2 < 4 ? 1 : 10)) {
        const uint32_t rs1 = below(32), rd = below(32);
        add32(enc_r(funct7, rs2, rs1, rm, rd, 0x53));
      }
  for (uint32_t opcode : {0x43u, 0x47u, 0x4bu, 0x4fu})  // fused multiply-add: fmt x rm
    for (uint32_t fmt_rm = 0; fmt_rm < 32; ++fmt_rm) add_r(below(32) << 2 | fmt_rm >> 3, fmt_rm & 7, opcode);
  for (uint32_t funct7 = 0; funct7 < 128; ++funct7)  // AMO: funct5, aq, rl, width; lr needs rs2 = 0
    for (uint32_t funct3 = 0; funct3 < 8; ++funct3) {
      add32(enc_r(funct7, 0, below(32), funct3, 10, 0x2f));
      add_r(funct7, funct3, 0x2f);
    }
  for (uint32_t imm = 0; imm < 4096; ++imm)  // MISC-MEM and SYSTEM: reserved fields set and clear
    for (uint32_t funct3 : {0u, 1u, below(8)}) {
      const uint32_t rd = pick({0, 0, 0, 5}), rs1 = pick({0, 0, 0, 7});
      add32(imm << 20 | rs1 << 15 | funct3 << 12 | rd << 7 | 0x0f);
      if (funct3 == 0) add32(imm << 20 | rs1 << 15 | rd << 7 | 0x73);
    }
  // CSR accesses over the CSRs format() names plus unnamed custom ones; objdump names many more.
  for (uint32_t csr : {0x001u, 0x002u, 0x003u, 0x008u, 0x009u, 0x00au, 0x00fu, 0xc00u, 0xc01u, 0xc02u, 0xc03u,
                       0xc1fu, 0xc20u, 0xc21u, 0xc22u, 0x300u, 0x341u, 0xf14u, 0x7c0u, 0x800u, 0xcc0u, 0x5c0u})
    for (uint32_t funct3 = 1; funct3 < 8; ++funct3) {
      const uint32_t rs1 = below(32), rd = below(32);
      add32(csr << 20 | rs1 << 15 | funct3 << 12 | rd << 7 | 0x73);
    }
  for (uint32_t opcode : {0x03u, 0x23u, 0x63u, 0x67u, 0x6fu, 0x37u, 0x17u})  // the rest, random fields
    for (int i = 0; i < 1500; ++i) add32(static_cast<uint32_t>(rng()) << 7 | opcode);
  for (int i = 0; i < 60000; ++i) {  // anything that is a 32-bit encoding
    const uint32_t raw = static_cast<uint32_t>(rng()) | 3;
    if ((raw & 0x1f) != 0x1f) add32(raw);
  }
  return words;
}

class DecoderSweep : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string missing;
    tools_ = find_tools(&missing);
    if (!tools_) GTEST_SKIP() << missing << " is not on PATH";
  }
  std::optional<Tools> tools_;
  ScratchDir scratch_;
};

TEST_F(DecoderSweep, EncodingSpacesMatchObjdump) {
  const std::vector<Word> words = sweep_words();
  const fs::path source = scratch_.path() / "sweep.s", object = scratch_.path() / "sweep.o",
                 errors = scratch_.path() / "sweep.err";
  {
    std::ofstream out(source);
    out << ".text\nsweep:\n" << std::hex;
    for (const Word& word : words) out << ".insn " << int(word.length) << ", 0x" << word.raw << '\n';
  }
  std::string output;
  ASSERT_EQ(run(quote(tools_->clang) + " --target=riscv64-linux-gnu -march=" + kMarch + " -c " +
                    quote(source.string()) + " -o " + quote(object.string()),
                &output, errors),
            0)
      << read_text(errors);
  ASSERT_EQ(run(quote(tools_->objdump) + " -d --mattr=" + kObjdumpAttrs + " -M no-aliases " + quote(object.string()),
                &output, errors),
            0)
      << read_text(errors);
  Disassembly disassembly = parse_objdump(output);
  const auto& listing = disassembly[".text"];

  size_t address = 0, known = 0, failures = 0;
  std::vector<std::string> lines32, lines16;
  std::vector<std::pair<uint32_t, uint8_t>> expected32, expected16;
  for (const Word& word : words) {
    const uint8_t bytes[4] = {static_cast<uint8_t>(word.raw), static_cast<uint8_t>(word.raw >> 8),
                              static_cast<uint8_t>(word.raw >> 16), static_cast<uint8_t>(word.raw >> 24)};
    const Insn insn = decode(std::span<const uint8_t>(bytes, word.length));
    EXPECT_EQ(insn.length, word.length) << std::hex << word.raw;
    const auto line = listing.find(address);
    ASSERT_NE(line, listing.end()) << "objdump skipped address " << address;
    const std::string problem = compare_with_objdump(insn, address, line->second);
    if (!problem.empty() && ++failures <= 50) {
      ADD_FAILURE() << std::hex << "0x" << word.raw << ": objdump \"" << line->second.mnemonic << " "
                    << line->second.operands << "\", " << problem;
    }
    if (insn.cls != InsnClass::unknown) {
      (word.length == 4 ? lines32 : lines16).push_back(format(insn));
      (word.length == 4 ? expected32 : expected16).emplace_back(insn.raw, insn.length);
    }
    known += line->second.mnemonic != "<unknown>";
    address += word.length;
  }
  EXPECT_EQ(failures, 0u);
  std::cout << "[ decoder  ] " << words.size() << " swept encodings compared with llvm-objdump (" << known
            << " valid)\n";

  const size_t reassembled = check_reassembly(*tools_, scratch_, "sweep32", lines32, expected32, kMcAttrs32, true) +
                             check_reassembly(*tools_, scratch_, "sweep16", lines16, expected16, kMcAttrs16, false);
  std::cout << "[ decoder  ] " << reassembled << " of " << lines32.size() + lines16.size()
            << " decoded sweep encodings reassembled by llvm-mc to the same bytes (the rest are reserved"
               " register overlaps llvm-mc refuses)\n";
}

}  // namespace
}  // namespace eok::riscv
