// Running external programs (compiler, emulator) with limits: the one place eok forks.
//
// Contract: run_process() never throws for anything the child does; it reports exit status, the signal
// that ended the child, whether the wall-clock limit fired, and the captured output. The child runs in its
// own process group, and the whole group is killed with SIGKILL on timeout and after the child exits, so a
// hostile program cannot leave anything running. It throws eok::Error only when eok itself cannot create
// pipes or fork.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace eok {

struct ProcessLimits {
  double wall_seconds = 0;           // 0: no wall-clock limit
  uint64_t cpu_seconds = 0;          // RLIMIT_CPU; 0: unlimited
  uint64_t address_space_bytes = 0;  // RLIMIT_AS; 0: unlimited
  uint64_t file_size_bytes = 0;      // RLIMIT_FSIZE; 0: unlimited
  uint64_t open_files = 0;           // RLIMIT_NOFILE; 0: inherit
  bool isolate_network = false;      // a fresh network namespace with no interfaces, where permitted
};

struct ProcessSpec {
  std::vector<std::string> argv;                // argv[0] is looked up on PATH when it has no slash
  std::filesystem::path cwd;                    // empty: inherit
  std::optional<std::vector<std::string>> env;  // replaces the environment when set
  std::filesystem::path stdin_path;             // empty: /dev/null
  // Instead of stdin_path: a pipe that eok holds open and never writes until the child ends. A remote
  // watchdog (ssh) sees its end of file when eok dies, however it dies.
  bool hold_stdin_open = false;
  // The child gets SIGKILL when the thread that started it dies (prctl PR_SET_PDEATHSIG): an ssh or
  // srun client must not outlive a killed eok.
  bool die_with_parent = false;
  std::filesystem::path stdout_path;  // empty: capture into ProcessResult::out
  size_t capture_limit = 1 << 20;     // bytes kept of captured stdout and of stderr
  ProcessLimits limits;
  // Descriptors the child inherits at the same numbers (e.g. a seccomp program for bubblewrap); every
  // other descriptor but 0, 1 and 2 is closed before exec.
  std::vector<int> pass_fds;
  // When set, checked a few times a second: once it is true the child's process group gets one SIGINT
  // (the child runs in its own group, so a Ctrl-C at the terminal does not reach it by itself).
  const std::atomic<bool>* forward_interrupt = nullptr;
};

struct ProcessResult {
  bool started = false;  // false: exec failed (see spawn_error)
  std::string spawn_error;
  int exit_code = -1;   // valid when the child exited normally
  int term_signal = 0;  // the signal that ended the child, if any
  bool timed_out = false;
  bool network_isolated = false;
  double wall_seconds = 0;
  std::string out, err;
  bool out_truncated = false, err_truncated = false;

  bool ok() const { return started && !timed_out && term_signal == 0 && exit_code == 0; }
  // "exit 1", "killed by SIGSEGV", "timed out after 2.0 s", "could not start: ..."
  std::string describe() const;
};

ProcessResult run_process(const ProcessSpec& spec);

// Absolute path of an executable found on PATH, or nullopt.
std::optional<std::filesystem::path> find_on_path(const std::string& name);

}  // namespace eok
