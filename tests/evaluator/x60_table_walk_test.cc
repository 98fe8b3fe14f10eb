// Walks the whole X60 cost table through the cost model: every instruction the decoder knows, under every
// vtype a vsetvli can set (SEW 8..64, LMUL mf8..m8) and under an unknown, absent or vill vtype, masked and
// unmasked, must cost a finite positive price that is never below its nearest measured neighbour. Then the
// regressions of the audit that found cheap gaps (a 32-cycle vlse32.v priced 3 under e8, indexed loads at
// half a strided one, mulw at 0.5 against mul's 3).
//
// The price of an instruction is what the scoreboard charges per copy for a stream of 16 independent
// copies: the table figure alone would hide a unit with two instances (two muls overlap on the two pipes).
//
// A cell priced by its own measurement is the measurement: it is exempt from the neighbour rules (the
// measured table has cheaper cells than their neighbours, e.g. vle32.v under e8mf4, 2.3, against e32m1,
// 2.45). Every other cell (derived by make_x60_table.py, LLVM's, or with no cell at all) must be priced at
// least as its neighbours, defined as the instruction that does the same work:
//  * same data: a load/store with an explicit EEW under e<SEW>,<LMUL> moves the elements it moves under
//    e<EEW>,<EMUL>, EMUL = EEW/SEW*LMUL (vlse32.v under e8m1 = vlse32.v under e32m4).
//  * indexed >= strided: v[ls][ou]x[seg<f>]ei<n>.v under a vtype >= v[ls]s[seg<f>]e<SEW>.v under it (the
//    same elements and fields); ordered >= unordered.
//  * whole registers: vl<n>re<e>.v >= vle<e>.v under e<e>m<n>; vs<n>r.v >= vse8.v under e8m<n>;
//    vmv<n>r.v >= vmv.v.v under e<SEW>m<n> (the same registers).
//  * vfnmacc/vfnmadd/vfnmsac/vfnmsub, vnmsac/vnmsub >= vfmacc/vfmadd/vfmsac/vfmsub, vmacc/vmadd under the
//    same vtype; vssra >= vssrl; int8<->fp16 conversions under e8 >= the same under e16 with the same LMUL.
//  * masked >= unmasked, unless the masked figure is measured.
//  * no cell (the instruction is illegal under the vtype and traps), and an unknown, absent or vill vtype:
//    >= the instruction under every vtype.
//  * scalar: >= the measured member of its class (add for int_alu, mul for int_mul); .aq/.rl atomics >= the
//    plain one; a compressed instruction = its 32-bit base.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "evaluator/cost_model/x60_cost_model.h"
#include "evaluator/riscv/decoder.h"
#include "support/x60_data.h"

namespace eok::cost {
namespace {

using nlohmann::json;
using riscv::Insn;
using riscv::InsnClass;
using riscv::VMemMode;
using testing::x60::committed_table;
using testing::x60::model;
using testing::x60::table;

// ---------------------------------------------------------------------------------------------------
// What the decoder knows: one representative per mnemonic, masked and unmasked

struct Vocabulary {
  std::map<std::string, Insn> plain, masked, compressed;
};

void add(Vocabulary& v, const Insn& in) {
  if (in.cls == InsnClass::unknown) return;
  auto& into = in.length == 2 ? v.compressed : in.masked ? v.masked : v.plain;
  into.emplace(std::string(in.mnemonic), in);
}

// Every 16-bit parcel, and every 32-bit encoding over the fields that select an operation: bits 31..12
// (funct7, rs2, funct3, and rs1 where it selects too: OP-V unary groups, SYSTEM, MISC-MEM, vector
// loads/stores) with rd both x0 and not (some encodings reserve rd). About ten million decodes.
Vocabulary enumerate_decoder() {
  Vocabulary v;
  auto decode32 = [&](uint32_t raw) {
    const uint8_t b[4] = {static_cast<uint8_t>(raw), static_cast<uint8_t>(raw >> 8), static_cast<uint8_t>(raw >> 16),
                          static_cast<uint8_t>(raw >> 24)};
    add(v, riscv::decode(b));
  };
  for (uint32_t major = 0; major < 32; ++major) {
    const uint32_t opcode = major << 2 | 3;
    if ((opcode & 0x1f) == 0x1f) continue;  // longer than 32 bits
    const bool rs1_selects = opcode == 0x57 || opcode == 0x07 || opcode == 0x27 || opcode == 0x73 || opcode == 0x0f;
    for (uint32_t high = 0; high < (1u << 20); ++high) {
      const uint32_t rs1 = (high >> 3) & 31;
      if (!rs1_selects && rs1 != 0 && rs1 != 11) continue;
      for (uint32_t rd : {0u, 8u}) decode32(high << 12 | rd << 7 | opcode);
    }
  }
  for (uint32_t half = 0; half < 0x10000; ++half) {
    if ((half & 3) == 3) continue;
    const uint8_t b[2] = {static_cast<uint8_t>(half), static_cast<uint8_t>(half >> 8)};
    add(v, riscv::decode(b));
  }
  return v;
}

const Vocabulary& vocabulary() {
  static const Vocabulary v = enumerate_decoder();
  return v;
}

// The representative of `mnemonic`, masked when asked and the decoder has a masked form.
const Insn& insn(const std::string& mnemonic, bool masked = false) {
  const auto& v = vocabulary();
  if (masked) {
    if (auto it = v.masked.find(mnemonic); it != v.masked.end()) return it->second;
  }
  auto it = v.plain.find(mnemonic);
  if (it == v.plain.end()) {
    ADD_FAILURE() << "the decoder knows no " << mnemonic;
    static const Insn none;
    return none;
  }
  return it->second;
}

bool is_vector(InsnClass c) {
  return c >= InsnClass::vec_int && c <= InsnClass::vec_store;
}

// ---------------------------------------------------------------------------------------------------
// vtypes and prices

struct Vt {
  int32_t code;  // a vsetvli immediate, or kVtypeUnknown / kVtypeNone
  unsigned sew = 0;
  int lg = 0;
  std::string key;
};

int32_t vtype_code(unsigned sew, int lg) {
  const int vsew = sew == 8 ? 0 : sew == 16 ? 1 : sew == 32 ? 2 : 3;
  return 0xc0 | vsew << 3 | (lg & 7);  // ta, ma
}

Vt walk_vtype(unsigned sew, int lg) {
  return {vtype_code(sew, lg), sew, lg,
          riscv::vtype_key(riscv::decode_vtype(static_cast<uint32_t>(vtype_code(sew, lg))))};
}

const std::vector<Vt>& all_vtypes() {
  static const std::vector<Vt> out = [] {
    std::vector<Vt> v;
    for (unsigned sew : {8u, 16u, 32u, 64u}) {
      for (int lg = -3; lg <= 3; ++lg) v.push_back(walk_vtype(sew, lg));
    }
    return v;
  }();
  return out;
}

// Vtypes with no figure for anything: unknown at translation (vsetvl), none set yet, vill (vlmul = 100).
const std::vector<Vt>& shapeless_vtypes() {
  static const std::vector<Vt> out = {
      {kVtypeUnknown, 0, 0, "unknown"}, {kVtypeNone, 0, 0, "none"}, {0x04, 0, 0, "vill"}};
  return out;
}

// Cycles per copy of a stream of independent copies.
double price(const Insn& in, int32_t vtype) {
  SbInsn sb = model().timing(in, vtype);
  sb.reads.clear();
  sb.writes.clear();
  return steady_state_cycles(std::vector<SbInsn>(16, sb)) / 16;
}

double price(const std::string& mnemonic, bool masked, const Vt& v) {
  return price(insn(mnemonic, masked), v.code);
}

double worst_price(const Insn& in) {
  double worst = 0;
  for (const Vt& v : all_vtypes()) worst = std::max(worst, price(in, v.code));
  return worst;
}

// Whether the price of (mnemonic, masked) under `key` is the instruction's own measurement.
bool own_measurement(const std::string& mnemonic, bool masked, const std::string& key) {
  const json& vec = committed_table().at("vector");
  if (!vec.contains(mnemonic)) return false;
  const json& e = vec.at(mnemonic);
  if (e.at("source") == "llvm") return false;
  auto has = [&](const char* field) { return e.contains(field) && e.at(field).contains(key); };
  if (masked && has("masked_rthroughput")) return !has("masked_derived");
  return has("rthroughput") && !has("derived");
}

// The neighbour's price must not exceed the price; `why` names the neighbour in the failure.
#define EXPECT_NOT_BELOW(price_, neighbour_, why_) EXPECT_GE((price_) + 1e-9, (neighbour_)) << why_

std::string where(const std::string& mnemonic, bool masked, const Vt& v) {
  return mnemonic + (masked ? " (masked)" : "") + " under " + v.key;
}

int lg2(unsigned n) {
  return std::countr_zero(n);
}

// The data operand of a vector load/store (the destination of a load, the first source of a store).
const riscv::Operand& data_operand(const Insn& in) {
  return in.cls == InsnClass::vec_load ? in.dst : in.src[0];
}

// ---------------------------------------------------------------------------------------------------
// The walk

TEST(X60TableWalk, DecoderVocabularyIsLarge) {
  EXPECT_GT(vocabulary().plain.size(), 900u);
  EXPECT_GT(vocabulary().masked.size(), 500u);
  EXPECT_GT(vocabulary().compressed.size(), 30u);
}

TEST(X60TableWalk, EveryInstructionHasAFiniteTablePrice) {
  // What LLVM's model cannot schedule (sources.llvm.not_modelled) and the table therefore lacks; the cost
  // model gives them class defaults. Anything else the decoder knows must be in the table.
  const std::set<std::string> not_modelled = {"fence", "fence.i", "fence.tso", "ebreak",    "wfi",
                                              "mret",  "sret",    "dret",      "sfence.vma"};
  for (const auto* forms : {&vocabulary().plain, &vocabulary().masked}) {
    for (const auto& [mn, in] : *forms) {
      for (const auto* set : {&all_vtypes(), &shapeless_vtypes()}) {
        for (const Vt& v : *set) {
          SCOPED_TRACE(where(mn, in.masked, v));
          bool fallback = false;
          const SbInsn sb = model().timing(in, v.code, &fallback);
          EXPECT_TRUE(std::isfinite(sb.rthroughput) && sb.rthroughput > 0) << sb.rthroughput;
          EXPECT_TRUE(std::isfinite(sb.latency) && sb.latency > 0) << sb.latency;
          const double p = price(in, v.code);
          EXPECT_TRUE(std::isfinite(p) && p > 0) << p;
          if (fallback) {
            EXPECT_TRUE(!is_vector(in.cls) && not_modelled.count(mn)) << "no table entry";
          }
        }
      }
    }
  }
}

TEST(X60TableWalk, NoVectorCellBelowItsNeighbours) {
  size_t checked = 0;
  for (bool masked : {false, true}) {
    for (const auto& [mn, in] : masked ? vocabulary().masked : vocabulary().plain) {
      if (!is_vector(in.cls)) continue;
      const double worst = worst_price(in);
      for (const Vt& v : all_vtypes()) {
        const std::string at = where(mn, masked, v);
        const double p = price(in, v.code);
        ++checked;
        // No cell: the instruction traps under this vtype; whatever ran costs its worst.
        if (!table().vector(mn, masked, riscv::decode_vtype(static_cast<uint32_t>(v.code)))) {
          EXPECT_NOT_BELOW(p, worst, at << ": no cell, below the instruction's worst");
          continue;
        }
        if (own_measurement(mn, masked, v.key)) continue;

        if (masked) {
          EXPECT_NOT_BELOW(p, price(mn, false, v), at << ": below the unmasked form");
        }

        const riscv::Operand& data = data_operand(in);
        const unsigned nf = std::max<unsigned>(1, data.nfields);
        const std::string seg = nf > 1 ? "seg" + std::to_string(nf) : "";
        if ((in.vmem == VMemMode::unit || in.vmem == VMemMode::strided || in.vmem == VMemMode::fault_first) &&
            in.mem_eew != 0) {
          // Same data: under e<EEW>,<EMUL> the same elements fill the same registers.
          const int elg = v.lg + lg2(in.mem_eew) - lg2(v.sew);
          if (elg >= -3 && elg <= 3 && nf * (1u << std::max(elg, 0)) <= 8) {
            const Vt diag = walk_vtype(in.mem_eew, elg);
            EXPECT_NOT_BELOW(p, price(in, diag.code), at << ": below the same data under " << diag.key);
          }
        }
        if (in.vmem == VMemMode::indexed_unordered || in.vmem == VMemMode::indexed_ordered) {
          const bool load = in.cls == InsnClass::vec_load;
          const std::string strided = std::string(load ? "vls" : "vss") + seg + "e" + std::to_string(v.sew) + ".v";
          EXPECT_NOT_BELOW(p, price(strided, masked, v), at << ": below " << strided << ", the same elements");
          if (in.vmem == VMemMode::indexed_ordered) {
            std::string unordered = mn;
            unordered[2] = 'u';  // vloxei -> vluxei, vsoxseg -> vsuxseg
            EXPECT_NOT_BELOW(p, price(unordered, masked, v), at << ": below " << unordered);
          }
        }
        if (in.vmem == VMemMode::whole) {
          const unsigned n = data.nregs;
          const bool load = in.cls == InsnClass::vec_load;
          const unsigned eew = load ? in.mem_eew : 8;
          const std::string unit = std::string(load ? "vle" : "vse") + std::to_string(eew) + ".v";
          const Vt same_regs = walk_vtype(eew, lg2(n));
          EXPECT_NOT_BELOW(p, price(unit, false, same_regs), at << ": below " << unit << " under " << same_regs.key);
        }
        if (mn.size() == 7 && mn.rfind("vmv", 0) == 0 && mn.substr(4) == "r.v") {  // vmv<n>r.v
          const Vt same_regs = walk_vtype(v.sew, lg2(static_cast<unsigned>(mn[3] - '0')));
          EXPECT_NOT_BELOW(p, price("vmv.v.v", false, same_regs), at << ": below vmv.v.v under " << same_regs.key);
        }
        static const std::map<std::string, std::string> negated = {{"vfnmacc", "vfmacc"}, {"vfnmadd", "vfmadd"},
                                                                   {"vfnmsac", "vfmsac"}, {"vfnmsub", "vfmsub"},
                                                                   {"vnmsac", "vmacc"},   {"vnmsub", "vmadd"}};
        const std::string base = mn.substr(0, mn.find('.')), form = mn.substr(mn.find('.'));
        if (auto it = negated.find(base); it != negated.end()) {
          EXPECT_NOT_BELOW(p, price(it->second + form, masked, v), at << ": below " << it->second << form);
        }
        if (base == "vssra") {
          EXPECT_NOT_BELOW(p, price("vssrl" + form, masked, v), at << ": below vssrl" << form);
        }
        if (v.sew == 8 &&
            (mn.rfind("vfwcvt.f.x", 0) == 0 || mn.rfind("vfncvt.x", 0) == 0 || mn.rfind("vfncvt.rtz.x", 0) == 0)) {
          const Vt e16 = walk_vtype(16, std::max(v.lg, -2));
          EXPECT_NOT_BELOW(p, price(in, e16.code), at << ": below the same under " << e16.key);
        }
      }
      // An unknown, absent or vill vtype: the worst under any vtype.
      for (const Vt& v : shapeless_vtypes()) {
        EXPECT_NOT_BELOW(price(in, v.code), worst, where(mn, masked, v) << ": below the instruction's worst");
      }
    }
  }
  EXPECT_GT(checked, 30000u);
}

TEST(X60TableWalk, NoScalarInstructionBelowItsNeighbours) {
  const Vt any = all_vtypes().front();  // scalar prices do not depend on the vtype
  // Classes with a measured member: nothing in them is cheaper than it.
  const std::map<InsnClass, std::string> measured = {{InsnClass::int_alu, "add"}, {InsnClass::int_mul, "mul"}};
  size_t checked = 0;
  for (const auto& [mn, in] : vocabulary().plain) {
    if (is_vector(in.cls)) continue;
    const double p = price(in, any.code);
    if (auto it = measured.find(in.cls); it != measured.end()) {
      EXPECT_NOT_BELOW(p, price(it->second, false, any), mn << ": below the measured " << it->second);
      ++checked;
    }
    // Acquire/release orderings of an atomic: never cheaper than the plain one.
    for (const char* order : {".aqrl", ".aq", ".rl"}) {
      const std::string suffix = order;
      if (mn.size() > suffix.size() && mn.compare(mn.size() - suffix.size(), suffix.size(), suffix) == 0) {
        const std::string plain = mn.substr(0, mn.size() - suffix.size());
        EXPECT_NOT_BELOW(p, price(plain, false, any), mn << ": below " << plain);
        ++checked;
        break;
      }
    }
  }
  EXPECT_GT(checked, 100u);
  for (const auto& [mn, in] : vocabulary().compressed) {
    EXPECT_DOUBLE_EQ(price(in, any.code), price(std::string(in.base), false, any)) << mn << " against " << in.base;
  }
}

// ---------------------------------------------------------------------------------------------------
// The audit's three examples

TEST(X60TableRegression, StridedLoadUnderNarrowerSewCostsTheElementsItMoves) {
  // vlse32.v under e8, LMUL L moves 32-bit elements in EMUL = 4L registers: what it costs under e32, 4L.
  for (int lg = -3; lg <= 3; ++lg) {
    for (bool masked : {false, true}) {
      const Vt e8 = walk_vtype(8, lg);
      const int elg = lg + 2;
      const double p = price("vlse32.v", masked, e8);
      if (elg <= 3) {
        const Vt e32 = walk_vtype(32, elg);
        EXPECT_GE(p, price("vlse32.v", masked, e32)) << where("vlse32.v", masked, e8) << " against " << e32.key;
      } else {  // EMUL 16 or 32: illegal, the hart traps; never cheaper than the largest legal group
        EXPECT_GE(p, price("vlse32.v", masked, walk_vtype(32, 3))) << where("vlse32.v", masked, e8);
      }
    }
  }
  // The audit's case: 32 elements, one a cycle, as measured under e32m4 (it cost 3 cycles).
  EXPECT_NEAR(price("vlse32.v", false, walk_vtype(8, 0)), 32, 1e-9);
  EXPECT_NEAR(price("vle32.v", false, walk_vtype(8, 0)), price("vle32.v", false, walk_vtype(32, 2)), 1e-9);
}

TEST(X60TableRegression, IndexedNeverBelowStridedOfTheSameElements) {
  // Under every vtype where the indexed access is legal (the walk covers the others: its worst figure).
  size_t checked = 0;
  for (const char* kind : {"vlux", "vlox", "vsux", "vsox"}) {
    for (unsigned idx : {8u, 16u, 32u, 64u}) {
      const std::string mn = std::string(kind) + "ei" + std::to_string(idx) + ".v";
      for (const Vt& v : all_vtypes()) {
        if (!table().vector(mn, false, riscv::decode_vtype(static_cast<uint32_t>(v.code)))) continue;
        for (bool masked : {false, true}) {
          const std::string strided = std::string(kind[1] == 'l' ? "vlse" : "vsse") + std::to_string(v.sew) + ".v";
          EXPECT_GE(price(mn, masked, v), price(strided, masked, v)) << where(mn, masked, v) << " against " << strided;
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 500u);
  // The audit's case: 8 elements under e32m1, 4 cycles against vlse32.v's measured 8.
  EXPECT_GE(price("vluxei32.v", false, walk_vtype(32, 0)), 8);
}

TEST(X60TableRegression, MultiplyFamilyNeverBelowMul) {
  const Vt any = all_vtypes().front();
  const double mul = price("mul", false, any);
  // A stream of independent muls costs what rvv-bench measured a mul (3 cycles), not half of it.
  auto measured_mul = table().scalar("mul");
  ASSERT_TRUE(measured_mul && measured_mul->measured);
  EXPECT_NEAR(mul, measured_mul->rthroughput, 1e-9);
  for (const char* mn : {"mulw", "mulh", "mulhsu", "mulhu"}) EXPECT_GE(price(mn, false, any), mul) << mn;
}

TEST(X60TableRegression, HonestFiguresStayMeasured) {
  // The cells the fixes must not move: own measurements under their own vtype.
  const double vle32[] = {2.45, 4.35, 8.6, 16.52}, vfmacc[] = {1, 2, 4, 8};
  for (int lg = 0; lg <= 3; ++lg) {
    EXPECT_NEAR(price("vle32.v", false, walk_vtype(32, lg)), vle32[lg], 1e-9);
    EXPECT_NEAR(price("vfmacc.vv", false, walk_vtype(32, lg)), vfmacc[lg], 1e-9);
  }
  EXPECT_NEAR(price("vle32.v", false, walk_vtype(8, -2)), 2.3, 1e-9);  // measured under e8mf4 (EMUL m1)
  EXPECT_NEAR(price("add", false, walk_vtype(32, 0)), 0.5, 1e-9);      // dual issue
}

}  // namespace
}  // namespace eok::cost
