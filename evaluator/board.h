// A board profile (configs/boards/<name>.toml): the target ISA, how programs run on it, and the figures
// of its memory system that the cost model uses.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace eok::evaluator {

struct BoardProfile {
  std::string name, description;
  std::string runner;  // "qemu" (the virtual board), "ssh", "slurm", "local" (eok runs on the board itself)
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

  // A real board (runner ssh, slurm or local). Kernels are checked on the host's virtual twin first
  // (`virtual_board`, whose emulator, caches and cost model this profile takes over); only correct ones are
  // timed on the board.
  std::string virtual_board;  // the twin's name under configs/boards/ ("k1")
  struct Remote {
    // exec_prefix wraps the program on the board (empty on a real K1; qemu-riscv64 on a test "board").
    std::vector<std::string> exec_prefix;
    std::string remote_dir = "/tmp/eok-board";  // each run gets its own directory under it
    double timeout_seconds = 120;               // one timing run, transfer included
    // ssh: "user@host:port" (port and user optional); several hosts are a pool.
    std::vector<std::string> hosts;
    std::string identity_file;
    std::vector<std::string> options;  // OpenSSH -o options, e.g. "ProxyJump=gw"
    bool reuse_connections = true;     // ControlMaster: one connection per board, kept 60 s
    // slurm: timing runs are `srun -p partition` job steps; run directories live under shared_dir, a
    // directory the nodes see at the same path.
    std::string partition;
    std::vector<std::string> srun_args;
    std::string shared_dir;
  } remote;

  // How a real board times a kernel: warm-up calls, then timed calls, each with fresh inputs.
  struct Measure {
    unsigned warmup = 3;
    unsigned repeats = 10;
    bool flush = false;            // evict the caches (write a 2x L2-sized buffer) before every timed call
    int core = 0;                  // pin the program to this core; -1: leave it to the scheduler
    double max_temperature_c = 0;  // wait until every thermal zone is below this; 0: do not wait
    double temperature_wait_seconds = 60;
  } measure;

  std::filesystem::path cost_table;    // absolute
  std::filesystem::path memory_model;  // absolute: the fitted memory model (cost_model/memory_model.h)
  std::filesystem::path file;          // where the profile came from
};

// Loads configs/boards/<name>.toml under `root`, or the TOML file `name` names when it is a path (has a
// '/' or ends in .toml). A real board's profile comes back merged with its virtual twin's. Throws
// NotFoundError listing the boards when the name is unknown, ConfigError naming the key when a file is wrong.
BoardProfile load_board(const std::filesystem::path& root, const std::string& name);

inline bool is_real_board(const BoardProfile& b) {
  return b.runner != "qemu";
}

// Runs record a board by name. A profile given as a path is kept under `kept_dir` (the workspace's
// boards/) by its name when a run starts, so that --resume, export and the like find it again.
void keep_board_profile(const std::filesystem::path& root, const std::filesystem::path& kept_dir,
                        const BoardProfile& board);
// What load_board() takes for a recorded name: the name when configs/boards/ has it, else the kept copy's
// path when there is one, else the name (whose error then lists the boards).
std::string recorded_board_profile(const std::filesystem::path& root, const std::filesystem::path& kept_dir,
                                   const std::string& name);

std::vector<std::string> list_boards(const std::filesystem::path& root);

// The -march for compiling a task on this board: the task's, checked against what the board has.
// Throws ConfigError when the task needs an extension the board lacks.
std::string effective_march(const BoardProfile& board, const std::string& task_march);

}  // namespace eok::evaluator
