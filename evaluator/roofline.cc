#include "evaluator/roofline.h"

#include <algorithm>

#include "src/common/error.h"

namespace eok::evaluator {

namespace {

unsigned element_bits(const std::string& dtype) {
  if (dtype.size() >= 2 && (dtype[0] == 'f' || dtype[0] == 'i' || dtype[0] == 'u')) {
    const std::string digits = dtype.substr(1);
    if (digits == "8" || digits == "16" || digits == "32" || digits == "64")
      return static_cast<unsigned>(std::stoi(digits));
  }
  throw ConfigError("roofline: unknown data type '" + dtype + "' (expected f16, f32, i32, ...)");
}

}  // namespace

PeakRates peak_rates(const BoardProfile& board, const cost::X60Table& table, const cost::MemoryModelParams& mem,
                     const std::string& dtype) {
  const unsigned sew = element_bits(dtype);
  riscv::VType vt;
  vt.sew = sew;
  vt.lmul_log2 = 0;
  const char* fma = dtype[0] == 'f' ? "vfmacc.vv" : "vmacc.vv";
  const auto cost = table.vector(fma, false, vt);
  if (!cost || cost->rthroughput <= 0) {
    throw ConfigError(std::string("roofline: the cost table has no ") + fma + " figure for e" + std::to_string(sew) +
                      "m1");
  }
  PeakRates p;
  p.ops_per_cycle = 2.0 * (board.vlen / sew) / cost->rthroughput;
  // The best unit-stride rate of any element width and register group: what L1 can feed at most.
  for (const char* op : {"vle8.v", "vle16.v", "vle32.v", "vle64.v", "vse8.v", "vse16.v", "vse32.v", "vse64.v"}) {
    for (unsigned s : {8u, 16u, 32u, 64u}) {
      for (int lg = 0; lg <= 3; ++lg) {
        riscv::VType v;
        v.sew = s;
        v.lmul_log2 = lg;
        const auto c = table.vector(op, false, v);
        if (!c || c->rthroughput <= 0) continue;
        const double rate = (board.vlen / 8.0) * (1 << lg) / c->rthroughput;
        double& best = op[1] == 'l' ? p.l1_read : p.l1_write;
        best = std::max(best, rate);
      }
    }
  }
  if (p.l1_read <= 0 || p.l1_write <= 0)
    throw ConfigError("roofline: the cost table has no unit-stride vector load/store figure");
  p.l2_read = mem.l2_read;
  p.dram_read = mem.dram_read;
  p.dram_write = mem.dram_write;
  p.l1_bytes = board.cache.l1_kib * 1024.0;
  p.l2_bytes = board.cache.l2_kib * 1024.0;
  return p;
}

Roofline task_roofline(const Task& task, const PeakRates& peak) {
  if (task.flops.empty() || task.bytes.empty()) {
    throw ConfigError("task " + task.id + " declares no flops or bytes: add them to task.toml (kernels/README.md)");
  }
  Roofline r;
  r.flops = static_cast<double>(eval_size_expr(task.flops, task.timed));
  r.bytes = static_cast<double>(eval_size_expr(task.bytes, task.timed));
  if (r.flops < 0 || r.bytes <= 0)
    throw ConfigError("task " + task.id + ": flops must be >= 0 and bytes > 0 at the timed size");
  double output_bytes = 0;
  for (const auto& a : task.args) {
    if (a.is_buffer && a.access != Access::in) {
      output_bytes += static_cast<double>(eval_size_expr(a.len, task.timed)) * static_cast<double>(elem_size(a.type));
    }
  }
  // Writes are the cheaper direction, so counting at most the outputs as written keeps this a lower bound.
  r.write_bytes = std::min(r.bytes, output_bytes);
  r.read_bytes = r.bytes - r.write_bytes;
  r.compute_cycles = r.flops / peak.ops_per_cycle;
  const double through_l1 = r.read_bytes / peak.l1_read + r.write_bytes / peak.l1_write;
  const double beyond_l1 = std::max(0.0, r.read_bytes - peak.l1_bytes) / (peak.l2_read + peak.dram_read);
  // Beyond both caches, reads first: they are the slower direction, and whatever stays cached may be written.
  double dram_share = std::max(0.0, r.bytes - peak.l1_bytes - peak.l2_bytes);
  const double dram_reads = std::min(dram_share, r.read_bytes);
  const double through_dram = dram_reads / peak.dram_read + std::max(0.0, dram_share - dram_reads) / peak.dram_write;
  r.memory_cycles = std::max({through_l1, beyond_l1, through_dram});
  r.bound_cycles = std::max(r.compute_cycles, r.memory_cycles);
  r.limit = r.memory_cycles >= r.compute_cycles ? "memory" : "compute";
  return r;
}

}  // namespace eok::evaluator
