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
  // The core every kernel is compiled for (-mtune: clang's scheduling model of it), e.g. "spacemit-x60";
  // empty: clang's generic tuning. Candidates, ker0, references and the harness all get it.
  std::string tune;
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
    std::string l2_policy = "lru";  // "lru" or "random" (pseudo-random, deterministic)
    unsigned l1_sets() const { return l1_kib * 1024 / (line_bytes * l1_ways); }
    unsigned l2_sets() const { return l2_kib * 1024 / (line_bytes * l2_ways); }
  } cache;

  // How a task's kernel is timed: warm-up calls at the timed size, then timed calls, each with fresh
  // inputs; the median timed call is the kernel's time.
  struct Protocol {
    unsigned warmup_calls = 1;
    unsigned timed_calls = 3;
    bool flush_before_timed_call = false;  // empty the caches before every timed call
  } protocol;

  std::filesystem::path cost_table;    // absolute
  std::filesystem::path memory_model;  // absolute: the fitted memory model (cost_model/memory_model.h)
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
