#include "evaluator/cost_model/x60_cost_model.h"

#include <algorithm>
#include <map>

namespace eok::cost {

namespace {

// Conservative stand-ins for instructions the table cannot cost (LLVM X60-like orders of magnitude).
// Vector figures are per LMUL=1 register and scale with the register group. Every instruction the decoder
// knows has a table entry except fences and privileged ones (x60_table_walk_test checks it), so these
// only stand in for what a future decoder might add.
struct ClassDefault {
  Unit unit;
  double rthroughput, latency;
};

ClassDefault class_default(riscv::InsnClass cls) {
  using C = riscv::InsnClass;
  switch (cls) {
    case C::int_alu:
      return {Unit::ieu_any, 1, 1};
    case C::int_mul:
      return {Unit::ieu_b, 3, 6};  // as the measured mul
    case C::int_div:
      return {Unit::ieu_a, 20, 20};
    case C::load:
    case C::fp_load:
      return {Unit::ls, 1, 4};
    case C::store:
    case C::fp_store:
      return {Unit::ls, 1, 1};
    case C::branch:
    case C::jump:
      return {Unit::ieu_a, 1, 1};
    case C::fp_alu:
    case C::fp_cvt:
      return {Unit::fp, 1, 4};
    case C::fp_mul:
      return {Unit::fp, 1, 5};
    case C::fp_div:
      return {Unit::fp, 15, 15};
    case C::fp_sqrt:
      return {Unit::fp, 20, 20};
    case C::atomic:
      return {Unit::ls, 4, 8};
    case C::csr:
    case C::fence:
    case C::system:
      return {Unit::ieu_a, 1, 1};
    case C::vset:
      return {Unit::vcfg, 6, 3};  // as the measured vsetvli (memset kernels)
    case C::vec_int:
    case C::vec_mask:
      return {Unit::vieu, 2, 4};
    case C::vec_mul:
      return {Unit::vieu, 2, 5};
    case C::vec_div:
      return {Unit::vieu, 40, 40};
    case C::vec_fp:
    case C::vec_fest:
      return {Unit::vfp, 1, 5};
    case C::vec_fmul:
      return {Unit::vfp, 1, 5};
    case C::vec_fdiv:
      return {Unit::vfp, 40, 40};
    case C::vec_red:
      return {Unit::vfp, 8, 20};
    case C::vec_perm:
      return {Unit::vieu, 8, 8};
    case C::vec_load:
      return {Unit::vls, 3, 8};
    case C::vec_store:
      return {Unit::vls, 3, 1};
    case C::unknown:
      return {Unit::ieu_a, 4, 4};
  }
  return {Unit::ieu_a, 4, 4};
}

// When a vector load's register group is complete for a store that takes it whole, after the load's
// occupancy of the load/store unit: a fixed part and a part per destination register (see timing()).
constexpr double kLoadGroupBase = 1.5, kLoadGroupPerRegister = 1.5;
constexpr double kVlenBytes = 32;  // the X60's VLEN, 256 bits

bool is_vector(riscv::InsnClass cls) {
  using C = riscv::InsnClass;
  switch (cls) {
    case C::vec_int:
    case C::vec_mul:
    case C::vec_div:
    case C::vec_fp:
    case C::vec_fmul:
    case C::vec_fdiv:
    case C::vec_fest:
    case C::vec_red:
    case C::vec_perm:
    case C::vec_mask:
    case C::vec_load:
    case C::vec_store:
      return true;
    default:
      return false;
  }
}

void add_regs(std::vector<uint8_t>& out, const riscv::Operand& op, const riscv::VType* vt) {
  switch (op.file) {
    case riscv::RegFile::none:
      return;
    case riscv::RegFile::x:
      if (op.reg != 0) out.push_back(op.reg);
      return;
    case riscv::RegFile::f:
      out.push_back(static_cast<uint8_t>(kRegF + op.reg));
      return;
    case riscv::RegFile::v: {
      // Unknown vtype: dependences by base register, as under e32m1.
      const unsigned n = std::max(1u, riscv::register_count(op, vt ? *vt : riscv::VType{32, 0, true, true, false}));
      for (unsigned i = 0; i < n && op.reg + i < 32; ++i) out.push_back(static_cast<uint8_t>(kRegV + op.reg + i));
      return;
    }
  }
}

std::string vtype_label(int32_t vtype) {
  if (vtype == kVtypeUnknown) return "unknown";
  if (vtype < 0) return "none";
  const riscv::VType vt = riscv::decode_vtype(static_cast<uint32_t>(vtype));
  return vt.vill ? "vill" : riscv::vtype_key(vt);
}

}  // namespace

std::vector<riscv::Insn> decode_block(const std::vector<uint8_t>& bytes) {
  std::vector<riscv::Insn> insns;
  for (size_t off = 0; off < bytes.size();) {
    riscv::Insn in = riscv::decode({bytes.data() + off, bytes.size() - off});
    off += std::max<size_t>(in.length, 1);
    insns.push_back(in);
  }
  return insns;
}

X60CostModel::X60CostModel(X60Table table, MemoryModelParams memory, size_t hot_blocks)
    : table_(std::move(table)), mem_(std::move(memory)), hot_blocks_(hot_blocks) {}

std::optional<InsnCost> X60CostModel::vector_cost(const riscv::Insn& insn, int32_t vtype) const {
  if (vtype >= 0) {
    const riscv::VType vt = riscv::decode_vtype(static_cast<uint32_t>(vtype));
    if (!vt.vill) {
      if (auto c = table_.vector(insn.mnemonic, insn.masked, vt)) return c;
    }
  }
  // No cell: the vtype is unknown at translation (vsetvl), none was set, it is vill, or the instruction
  // is illegal under it (EMUL > 8, floating point at e8, ...: the hart traps). Whatever ran must not
  // come out cheap, so it costs the worst the instruction costs under any vtype.
  return table_.vector_worst(insn.mnemonic, insn.masked);
}

SbInsn X60CostModel::timing(const riscv::Insn& insn, int32_t vtype, bool* fallback, double vector_bytes) const {
  SbInsn sb;
  riscv::VType vt_storage{};
  const riscv::VType* vt = nullptr;
  if (vtype >= 0) {
    vt_storage = riscv::decode_vtype(static_cast<uint32_t>(vtype));
    if (!vt_storage.vill) vt = &vt_storage;
  }
  std::optional<InsnCost> cost;
  if (is_vector(insn.cls)) {
    cost = vector_cost(insn, vtype);
  } else {
    cost = table_.scalar(insn.base.empty() ? insn.mnemonic : insn.base);
  }
  if (fallback) *fallback = !cost.has_value();
  if (!cost) {
    const ClassDefault d = class_default(insn.cls);
    double scale = 1;
    if (is_vector(insn.cls)) scale = vt ? std::max(1.0, static_cast<double>(1 << std::max(0, vt->lmul_log2))) : 8.0;
    cost = InsnCost{d.rthroughput * scale, d.latency + (scale - 1), d.unit, false};
  }
  sb.unit = cost->unit;
  // Permutes (vrgather, slides, compress) take the vector load/store unit: on the X60 a strip that loads
  // a group, permutes it and stores it runs at the sum of their occupancies. rvv-bench LUT4 and byteswap,
  // a group loaded at m2-m8, one m1 vrgather.vv per register, stored: 85.6 cycles a 256-byte strip at m8,
  // vle8 16.6 + vand 16 + 8 x 4 + vse8 19.4, where LLVM's units (vls, vieu) would overlap them to 55.
  // Arithmetic keeps its own unit: a splat or an add beside loads and stores overlaps them (rvv-bench
  // memset's vmv.v.x before its store loop costs the board nothing extra).
  if (insn.cls == riscv::InsnClass::vec_perm && sb.unit == Unit::vieu) sb.unit = Unit::vls;
  sb.rthroughput = cost->rthroughput;
  sb.latency = cost->latency;
  // A vector load's register group is complete only well after the load has had the load/store unit, but
  // arithmetic chains on its elements as they arrive. A vector store takes its data group at once and
  // waits for all of it: measured copy loops in L1 (rvv-bench memcpy, X60: 8.3, 13.8, 25.7, 49.5 cycles
  // per iteration at m1-m8 without vsetvli) are load occupancy + 1.5 + 1.5 per register + store
  // occupancy, while a load feeding a compare and vcpop costs about the sum of the occupancies (utf8_count).
  // Computed for a full register group (vl = VLMAX, the steady state of a strip-mined loop).
  // With the bytes the load really moved (its vl), the wait is for those: rvv-bench's memcpy with vl = 16
  // bytes at m8 costs 34 cycles per iteration, not the 49.5 of a full group.
  if (insn.cls == riscv::InsnClass::vec_load && vt) {
    double regs = std::max(1u, riscv::register_count(insn.dst, *vt));
    const double register_bytes = kVlenBytes;
    if (vector_bytes > 0) regs = std::min(regs, vector_bytes / register_bytes);
    sb.whole_latency = sb.rthroughput + kLoadGroupBase + kLoadGroupPerRegister * regs;
  }
  if (insn.cls == riscv::InsnClass::vec_store) sb.whole_reads = true;
  sb.cascades = (insn.cls == riscv::InsnClass::int_alu && sb.latency <= 1) || insn.cls == riscv::InsnClass::branch;
  add_regs(sb.writes, insn.dst, vt);
  // A scalar or FP store issues once its address is ready and takes its data late (the store buffer): the
  // data register (src[0], before the base) does not hold it up; the base register does. Vector stores
  // read their data as they issue.
  const bool scalar_store = insn.cls == riscv::InsnClass::store || insn.cls == riscv::InsnClass::fp_store;
  for (uint8_t i = scalar_store ? 1 : 0; i < insn.nsrc && i < insn.src.size(); ++i) add_regs(sb.reads, insn.src[i], vt);
  if (insn.dst_is_src) add_regs(sb.reads, insn.dst, vt);
  if (insn.cls == riscv::InsnClass::vset) sb.writes.push_back(kRegVl);
  // A new vl reaches vector arithmetic and stores about 3 cycles after vsetvli (memset m1: 6.0 cycles per
  // iteration with a vsetvli, 3.0 without), but a load right after it does not wait: memcpy m1 costs the
  // same 8.1 cycles per iteration with and without a vsetvli in the loop (rvv-bench, X60). Back-to-back
  // vset instructions are spaced by their own unit (vcfg), wherever they sit in the loop.
  if (is_vector(insn.cls) && insn.cls != riscv::InsnClass::vec_load) sb.reads.push_back(kRegVl);
  return sb;
}

std::vector<SbInsn> X60CostModel::scoreboard_block(const ExecutedBlock& block, const std::vector<riscv::Insn>& insns,
                                                   size_t* fallbacks) const {
  std::vector<SbInsn> sb;
  sb.reserve(insns.size());
  size_t n_fallback = 0;
  uint32_t offset = 0;
  for (const auto& in : insns) {
    double moved = 0;
    for (const auto& [at, bytes] : block.vector_bytes) {
      if (at == offset && block.count > 0) moved = static_cast<double>(bytes) / static_cast<double>(block.count);
    }
    bool fb = false;
    sb.push_back(timing(in, block.vtype, &fb, moved));
    n_fallback += fb;
    offset += std::max<uint32_t>(in.length, 1);
  }
  if (fallbacks) *fallbacks = n_fallback;
  return sb;
}

CostReport X60CostModel::estimate(const BlockProfile& profile) const {
  CostReport r;
  struct Costed {
    const ExecutedBlock* block;
    std::vector<riscv::Insn> insns;
    std::vector<SbInsn> sb;
    double alone = 0;       // steady-state cycles of one execution on its own
    double cycles = 0;      // what its executions cost in total
    uint64_t unpaired = 0;  // executions not costed together with a neighbour
  };
  std::vector<Costed> costed;
  std::map<uint64_t, std::vector<size_t>> at;  // vaddr -> blocks there (one per vtype)
  for (const auto& b : profile.blocks) {
    Costed c{&b, decode_block(b.bytes), {}, 0, 0, b.count};
    size_t fallbacks = 0;
    c.sb = scoreboard_block(b, c.insns, &fallbacks);
    c.alone = steady_state_cycles(c.sb);
    r.instructions += c.insns.size() * b.count;
    r.fallback_instructions += fallbacks * b.count;
    at[b.vaddr].push_back(costed.size());
    costed.push_back(std::move(c));
  }
  // QEMU ends a translation block at every vset instruction, so a strip-mined loop runs as the block that
  // ends in vsetvli and the block after it (and after the next vsetvli, if the loop has several),
  // executed in turn. It also ends one where the code crosses a page, so a loop placed across a page
  // boundary runs as blocks that fall through into each other. Costed apart, the waits between them (the
  // body's first vector instruction for the new vl, a vcpop for the compare before it) and their overlap
  // with the previous iteration's work are lost; costed as one block, as the core runs them, they are not.
  // The most executed first: a loop's blocks before the one-off translations of its first iteration.
  std::vector<size_t> order(costed.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return costed[a].block->count > costed[b].block->count; });
  auto successor = [&](const Costed& c, size_t self) -> Costed* {
    auto it = at.find(c.block->vaddr + c.block->bytes.size());
    if (it == at.end()) return nullptr;
    Costed* next = nullptr;
    for (size_t i : it->second) {
      if (i != self && (!next || costed[i].unpaired > next->unpaired)) next = &costed[i];
    }
    return next && next->unpaired > 0 ? next : nullptr;
  };
  // Whether the block runs on into the one after it: it was ended by a vset or a page boundary, not by a
  // branch or jump.
  auto falls_through = [](const Costed& c) {
    if (c.insns.empty()) return false;
    const riscv::InsnClass last = c.insns.back().cls;
    return last != riscv::InsnClass::branch && last != riscv::InsnClass::jump && last != riscv::InsnClass::unknown;
  };
  // A chain starts where the loop does: a block that another block runs on into is not a head while that
  // block still has executions to pair (LUT4's loop is [vsetvli] then three blocks split by vsetvli, and
  // the most executed of those is the second: started there, the chain left the loop's first vsetvli
  // to be costed alone). Heads first, then whatever is left of the others.
  std::vector<bool> entered_by_fall_through(costed.size(), false);
  for (size_t i = 0; i < costed.size(); ++i) {
    if (!falls_through(costed[i])) continue;
    if (const Costed* next = successor(costed[i], i))
      entered_by_fall_through[static_cast<size_t>(next - costed.data())] = true;
  }
  std::stable_partition(order.begin(), order.end(), [&](size_t i) { return !entered_by_fall_through[i]; });
  for (size_t ci : order) {
    Costed& head = costed[ci];
    if (!falls_through(head) || head.unpaired == 0) continue;
    // The chain: this block, then each block it runs on into (a loop with several vsetvli, or across a page
    // boundary, runs as several), up to the one that branches.
    std::vector<Costed*> chain{&head};
    for (Costed* c = &head; falls_through(*c) && chain.size() < 8;) {
      Costed* next = successor(*c, static_cast<size_t>(c - costed.data()));
      if (!next || std::find(chain.begin(), chain.end(), next) != chain.end()) break;
      chain.push_back(next);
      c = next;
    }
    if (chain.size() < 2) continue;
    uint64_t runs = head.unpaired;
    double alone = 0;
    std::vector<SbInsn> all;
    for (Costed* c : chain) {
      runs = std::min(runs, c->unpaired);
      alone += c->alone;
      all.insert(all.end(), c->sb.begin(), c->sb.end());
    }
    const double together = steady_state_cycles(all) * static_cast<double>(runs);
    // The chain's time is shared in proportion to what each part costs alone.
    for (Costed* c : chain) {
      c->cycles += together * (alone > 0 ? c->alone / alone : 1.0 / static_cast<double>(chain.size()));
      c->unpaired -= runs;
    }
  }
  std::vector<HotBlock> blocks;
  for (auto& c : costed) {
    c.cycles += c.alone * static_cast<double>(c.unpaired);
    const double total = c.cycles;
    r.compute_cycles += total;
    // Attribute the block's time to instruction classes by how long each keeps its unit busy.
    double weight = 0;
    for (const auto& s : c.sb) weight += std::max(s.rthroughput, 0.5);
    for (size_t i = 0; i < c.insns.size(); ++i) {
      r.cycles_by_class[std::string(riscv::class_name(c.insns[i].cls))] +=
          total * std::max(c.sb[i].rthroughput, 0.5) / weight;
    }
    HotBlock hb;
    hb.vaddr = c.block->vaddr;
    hb.vtype = vtype_label(c.block->vtype);
    hb.count = c.block->count;
    hb.cycles_per_exec = c.block->count ? total / static_cast<double>(c.block->count) : 0;
    hb.cycles = total;
    for (const auto& in : c.insns) hb.disasm.push_back(riscv::format(in));
    blocks.push_back(std::move(hb));
  }
  std::sort(blocks.begin(), blocks.end(), [](const HotBlock& a, const HotBlock& b) {
    return a.cycles != b.cycles ? a.cycles > b.cycles : a.vaddr < b.vaddr;
  });
  if (blocks.size() > hot_blocks_) blocks.resize(hot_blocks_);
  r.hot_blocks = std::move(blocks);
  r.counters = profile.mem;
  r.memory = memory_time(profile.mem, mem_);
  r.cycles = region_cycles(r.compute_cycles, r.memory, mem_);
  r.memory.stall_cycles = r.cycles - r.compute_cycles;
  // What bounds it: the largest of its parts.
  const double core = core_cycles(r.compute_cycles, r.memory);
  const double bandwidth = std::max(r.memory.l2_cycles, r.memory.dram_cycles);
  const double biggest = std::max({core, r.memory.stream_stall_cycles, bandwidth});
  r.bound = biggest == core        ? (r.compute_cycles >= core - r.compute_cycles ? "compute" : "memory-latency")
            : biggest == bandwidth ? "memory-bandwidth"
                                   : "memory-latency";
  return r;
}

}  // namespace eok::cost
