#include "evaluator/roofline.h"

#include <algorithm>

#include "src/common/error.h"

namespace eok::evaluator {

namespace {

unsigned element_bits(const std::string& dtype) {
  if (dtype.size() >= 2 && (dtype[0] == 'f' || dtype[0] == 'i' || dtype[0] == 'u')) {
    const std::string digits = dtype.substr(1);
    if (digits == "8" || digits == "16" || digits == "32" || digits == "64") return static_cast<unsigned>(std::stoi(digits));
  }
  throw ConfigError("roofline: unknown data type '" + dtype + "' (expected f16, f32, i32, ...)");
}

}  // namespace

PeakRates peak_rates(const BoardProfile& board, const cost::X60Table& table, const std::string& dtype) {
  const unsigned sew = element_bits(dtype);
  riscv::VType vt;
  vt.sew = sew;
  vt.lmul_log2 = 0;
  const char* fma = dtype[0] == 'f' ? "vfmacc.vv" : "vmacc.vv";
  const auto cost = table.vector(fma, false, vt);
  if (!cost || cost->rthroughput <= 0) {
    throw ConfigError(std::string("roofline: the cost table has no ") + fma + " figure for e" + std::to_string(sew) + "m1");
  }
  PeakRates p;
  p.ops_per_cycle = 2.0 * (board.vlen / sew) / cost->rthroughput;
  p.read_bytes_per_cycle = board.memory.dram_fill;
  p.write_bytes_per_cycle = board.memory.dram_writeback;
  return p;
}

Roofline task_roofline(const Task& task, const PeakRates& peak) {
  if (task.flops.empty() || task.bytes.empty()) {
    throw ConfigError("task " + task.id + " declares no flops or bytes: add them to task.toml (kernels/README.md)");
  }
  Roofline r;
  r.flops = static_cast<double>(eval_size_expr(task.flops, task.timed));
  r.bytes = static_cast<double>(eval_size_expr(task.bytes, task.timed));
  if (r.flops < 0 || r.bytes <= 0) throw ConfigError("task " + task.id + ": flops must be >= 0 and bytes > 0 at the timed size");
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
  r.memory_cycles = r.read_bytes / peak.read_bytes_per_cycle + r.write_bytes / peak.write_bytes_per_cycle;
  r.bound_cycles = std::max(r.compute_cycles, r.memory_cycles);
  r.limit = r.memory_cycles >= r.compute_cycles ? "memory" : "compute";
  return r;
}

}  // namespace eok::evaluator
