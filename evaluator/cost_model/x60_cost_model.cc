#include "evaluator/cost_model/x60_cost_model.h"

#include <algorithm>

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
    case C::int_alu: return {Unit::ieu_any, 1, 1};
    case C::int_mul: return {Unit::ieu_b, 3, 6};  // as the measured mul
    case C::int_div: return {Unit::ieu_a, 20, 20};
    case C::load: case C::fp_load: return {Unit::ls, 1, 4};
    case C::store: case C::fp_store: return {Unit::ls, 1, 1};
    case C::branch: case C::jump: return {Unit::ieu_a, 1, 1};
    case C::fp_alu: case C::fp_cvt: return {Unit::fp, 1, 4};
    case C::fp_mul: return {Unit::fp, 1, 5};
    case C::fp_div: return {Unit::fp, 15, 15};
    case C::fp_sqrt: return {Unit::fp, 20, 20};
    case C::atomic: return {Unit::ls, 4, 8};
    case C::csr: case C::fence: case C::system: return {Unit::ieu_a, 1, 1};
    case C::vset: return {Unit::ieu_a, 3, 4.04};  // as the measured vsetvli at m1 (memset kernels)
    case C::vec_int: case C::vec_mask: return {Unit::vieu, 2, 4};
    case C::vec_mul: return {Unit::vieu, 2, 5};
    case C::vec_div: return {Unit::vieu, 40, 40};
    case C::vec_fp: case C::vec_fest: return {Unit::vfp, 1, 5};
    case C::vec_fmul: return {Unit::vfp, 1, 5};
    case C::vec_fdiv: return {Unit::vfp, 40, 40};
    case C::vec_red: return {Unit::vfp, 8, 20};
    case C::vec_perm: return {Unit::vieu, 8, 8};
    case C::vec_load: return {Unit::vls, 3, 8};
    case C::vec_store: return {Unit::vls, 3, 1};
    case C::unknown: return {Unit::ieu_a, 4, 4};
  }
  return {Unit::ieu_a, 4, 4};
}

bool is_vector(riscv::InsnClass cls) {
  using C = riscv::InsnClass;
  switch (cls) {
    case C::vec_int: case C::vec_mul: case C::vec_div: case C::vec_fp: case C::vec_fmul: case C::vec_fdiv:
    case C::vec_fest: case C::vec_red: case C::vec_perm: case C::vec_mask: case C::vec_load: case C::vec_store:
      return true;
    default:
      return false;
  }
}

void add_regs(std::vector<uint8_t>& out, const riscv::Operand& op, const riscv::VType* vt) {
  switch (op.file) {
    case riscv::RegFile::none: return;
    case riscv::RegFile::x: if (op.reg != 0) out.push_back(op.reg); return;
    case riscv::RegFile::f: out.push_back(static_cast<uint8_t>(kRegF + op.reg)); return;
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

SbInsn X60CostModel::timing(const riscv::Insn& insn, int32_t vtype, bool* fallback) const {
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
  } else if (insn.cls == riscv::InsnClass::vset) {
    // Priced by the LMUL it sets (measured per LMUL, x60_table.h); vsetvl's comes from a register: its worst.
    std::optional<int> lmul_log2;
    if (insn.vtype_imm >= 0) {
      const riscv::VType set = riscv::decode_vtype(static_cast<uint32_t>(insn.vtype_imm));
      if (!set.vill) lmul_log2 = set.lmul_log2;
    }
    cost = table_.vset(insn.mnemonic, lmul_log2);
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
  sb.rthroughput = cost->rthroughput;
  sb.latency = cost->latency;
  add_regs(sb.writes, insn.dst, vt);
  // A scalar or FP store issues once its address is ready and takes its data late (the store buffer): the
  // data register (src[0], before the base) does not hold it up; the base register does. Vector stores
  // read their data as they issue.
  const bool scalar_store = insn.cls == riscv::InsnClass::store || insn.cls == riscv::InsnClass::fp_store;
  for (uint8_t i = scalar_store ? 1 : 0; i < insn.nsrc && i < insn.src.size(); ++i) add_regs(sb.reads, insn.src[i], vt);
  if (insn.dst_is_src) add_regs(sb.reads, insn.dst, vt);
  if (insn.cls == riscv::InsnClass::vset) sb.writes.push_back(kRegVl);
  if (is_vector(insn.cls)) sb.reads.push_back(kRegVl);
  return sb;
}

std::vector<SbInsn> X60CostModel::scoreboard_block(const std::vector<riscv::Insn>& insns, int32_t vtype,
                                                   size_t* fallbacks) const {
  std::vector<SbInsn> sb;
  sb.reserve(insns.size());
  size_t n_fallback = 0;
  for (const auto& in : insns) {
    bool fb = false;
    sb.push_back(timing(in, vtype, &fb));
    n_fallback += fb;
  }
  if (fallbacks) *fallbacks = n_fallback;
  return sb;
}

CostReport X60CostModel::estimate(const BlockProfile& profile) const {
  CostReport r;
  std::vector<HotBlock> blocks;
  for (const auto& b : profile.blocks) {
    const auto insns = decode_block(b.bytes);
    size_t fallbacks = 0;
    const std::vector<SbInsn> sb = scoreboard_block(insns, b.vtype, &fallbacks);
    const double per_exec = steady_state_cycles(sb);
    const double total = per_exec * static_cast<double>(b.count);
    r.compute_cycles += total;
    r.instructions += insns.size() * b.count;
    r.fallback_instructions += fallbacks * b.count;
    // Attribute the block's time to instruction classes by how long each keeps its unit busy.
    double weight = 0;
    for (const auto& s : sb) weight += std::max(s.rthroughput, 0.5);
    for (size_t i = 0; i < insns.size(); ++i) {
      r.cycles_by_class[std::string(riscv::class_name(insns[i].cls))] += total * std::max(sb[i].rthroughput, 0.5) / weight;
    }
    HotBlock hb;
    hb.vaddr = b.vaddr;
    hb.vtype = vtype_label(b.vtype);
    hb.count = b.count;
    hb.cycles_per_exec = per_exec;
    hb.cycles = total;
    for (const auto& in : insns) hb.disasm.push_back(riscv::format(in));
    blocks.push_back(std::move(hb));
  }
  std::sort(blocks.begin(), blocks.end(), [](const HotBlock& a, const HotBlock& b) {
    return a.cycles != b.cycles ? a.cycles > b.cycles : a.vaddr < b.vaddr;
  });
  if (blocks.size() > hot_blocks_) blocks.resize(hot_blocks_);
  r.hot_blocks = std::move(blocks);
  r.counters = profile.mem;
  r.memory = memory_time(profile.mem, mem_);
  const double core = r.compute_cycles + r.memory.stall_cycles;
  const double bandwidth = std::max(r.memory.l2_cycles, r.memory.dram_cycles);
  r.cycles = std::max(core, bandwidth);
  r.bound = bandwidth > core ? "memory-bandwidth" : r.memory.stall_cycles > r.compute_cycles ? "memory-latency" : "compute";
  return r;
}

}  // namespace eok::cost
