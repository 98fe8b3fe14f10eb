#include "evaluator/cost_model/memory_model.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "src/common/error.h"
#include "src/common/fs_util.h"

namespace eok::cost {

namespace {

constexpr const char* kKind[2] = {"scalar", "vector"};
constexpr const char* kLevel[2] = {"l2", "dram"};
constexpr const char* kHow[2] = {"random", "stream"};

double positive(const nlohmann::json& j, const std::string& key, const std::filesystem::path& file) {
  if (!j.contains(key) || !j.at(key).is_number() || j.at(key).get<double>() <= 0) {
    throw ConfigError(file.string() + ": '" + key + "' must be a positive number; regenerate the file with " +
                      "evaluator/cost_model/fit_memory_model.py");
  }
  return j.at(key).get<double>();
}

}  // namespace

MemoryModelParams MemoryModelParams::load(const std::filesystem::path& json_path) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_file(json_path));
  } catch (const std::exception& e) {
    throw ConfigError("cannot read the memory model " + json_path.string() + ": " + e.what());
  }
  MemoryModelParams p;
  p.line_bytes = static_cast<unsigned>(positive(j, "line_bytes", json_path));
  const nlohmann::json& stall = j.contains("load_stall_cycles") ? j.at("load_stall_cycles") : nlohmann::json::object();
  for (int k = 0; k < 2; ++k) {
    for (int l = 0; l < 2; ++l) {
      for (int h = 0; h < 2; ++h) {
        const std::string key = std::string(kKind[k]) + "_" + kLevel[l] + "_" + kHow[h];
        if (!stall.contains(key) || !stall.at(key).is_number() || stall.at(key).get<double>() < 0) {
          throw ConfigError(json_path.string() + ": load_stall_cycles." + key + " is missing or negative");
        }
        p.load_stall[k][l][h] = stall.at(key).get<double>();
      }
    }
  }
  const nlohmann::json& bw =
      j.contains("bandwidth_bytes_per_cycle") ? j.at("bandwidth_bytes_per_cycle") : nlohmann::json::object();
  p.l2_read = positive(bw, "l2_read", json_path);
  p.l2_write = positive(bw, "l2_write", json_path);
  p.dram_read = positive(bw, "dram_read", json_path);
  p.dram_write = positive(bw, "dram_write", json_path);
  p.dram_turnaround = bw.value("dram_turnaround_cycles_per_line", 0.0);
  const nlohmann::json& core = j.contains("core") ? j.at("core") : nlohmann::json::object();
  p.overlap_exponent = core.value("overlap_exponent", 1.0);
  p.split_line[0] = core.value("split_line_load_cycles", 0.0);
  p.split_line[1] = core.value("split_line_store_cycles", 0.0);
  p.descending_store = core.value("descending_store_dram_cycles", 0.0);
  if (p.overlap_exponent < 1 || p.dram_turnaround < 0 || p.split_line[0] < 0 || p.split_line[1] < 0 ||
      p.descending_store < 0) {
    throw ConfigError(json_path.string() + ": overlap_exponent must be >= 1 and the other figures >= 0");
  }
  p.provenance = j.value("provenance", std::string());
  return p;
}

MemoryTime memory_time(const MemoryCounters& m, const MemoryModelParams& p) {
  MemoryTime t;
  for (int k = 0; k < 2; ++k) {
    for (int l = 0; l < 2; ++l) {
      t.random_stall_cycles += static_cast<double>(m.load_fills[k][l][0]) * p.load_stall[k][l][0];
      t.stream_stall_cycles += static_cast<double>(m.load_fills[k][l][1]) * p.load_stall[k][l][1];
    }
  }
  t.split_cycles = static_cast<double>(m.vector_split_lines[0]) * p.split_line[0] +
                   static_cast<double>(m.vector_split_lines[1]) * p.split_line[1];
  t.descending_store_cycles = static_cast<double>(m.descending_store_misses) * p.descending_store;
  const uint64_t line = p.line_bytes;
  t.l2_read_bytes = (m.fills_from(0) + m.late_fills[0]) * line;
  t.l2_write_bytes = m.l1_writebacks * line;
  t.dram_read_bytes = (m.fills_from(1) + m.late_fills[1]) * line;
  t.dram_write_bytes = m.l2_writebacks * line;
  t.l2_cycles = t.l2_read_bytes / p.l2_read + t.l2_write_bytes / p.l2_write;
  const uint64_t dram_turns = std::min(t.dram_read_bytes, t.dram_write_bytes) / line;
  t.dram_cycles = t.dram_read_bytes / p.dram_read + t.dram_write_bytes / p.dram_write +
                  static_cast<double>(dram_turns) * p.dram_turnaround;
  return t;
}

double region_cycles(double compute_cycles, const MemoryTime& t, const MemoryModelParams& p) {
  const double parts[] = {core_cycles(compute_cycles, t), t.stream_stall_cycles, t.l2_cycles, t.dram_cycles};
  double hi = 0;
  for (double v : parts) hi = std::max(hi, v);
  double total = 0;
  if (hi > 0) {
    double sum = 0;
    for (double v : parts) sum += std::pow(v / hi, p.overlap_exponent);
    total = hi * std::pow(sum, 1 / p.overlap_exponent);
  }
  return total;
}

}  // namespace eok::cost
