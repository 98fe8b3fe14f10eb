// A board profile (configs/boards/<name>.toml): the target ISA, how programs run on it, and the figures
// of its memory system that the cost model uses.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace eok::evaluator {

struct BoardProfile {
  std::string name, description;
  std::string runner;  // "qemu" (virtual), "ssh", "local"
  std::string march;
  std::vector<std::string> extensions;
  unsigned vlen = 256;
  double clock_ghz = 1.6;
  unsigned cores = 1;

  struct Qemu {
    std::string binary = "qemu-riscv64";
    std::string cpu;
    double timeout_seconds = 30;
    unsigned memory_mib = 1024;
  } qemu;

  struct Cache {
    unsigned line_bytes = 64;
    unsigned l1_kib = 32, l1_ways = 4;
    unsigned l2_kib = 512, l2_ways = 16;
    bool flush_before_timed_run = true;
    unsigned l1_sets() const { return l1_kib * 1024 / (line_bytes * l1_ways); }
    unsigned l2_sets() const { return l2_kib * 1024 / (line_bytes * l2_ways); }
  } cache;

  struct Memory {
    double l2_fill = 5.73, l2_writeback = 9.0;      // bytes per cycle
    double dram_fill = 2.48, dram_writeback = 4.5;
  } memory;

  std::filesystem::path cost_table;  // absolute
  std::filesystem::path file;        // where the profile came from
};

// Loads configs/boards/<name>.toml under `root`. Throws NotFoundError listing the boards there when the
// name is unknown, ConfigError naming the key when the file is wrong.
BoardProfile load_board(const std::filesystem::path& root, const std::string& name);

std::vector<std::string> list_boards(const std::filesystem::path& root);

// The -march for compiling a task on this board: the task's, checked against what the board has.
// Throws ConfigError when the task needs an extension the board lacks.
std::string effective_march(const BoardProfile& board, const std::string& task_march);

}  // namespace eok::evaluator
