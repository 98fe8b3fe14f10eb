// The operating-system boundary around everything an evaluation runs: every compile, link and run of a
// candidate happens inside a fresh bubblewrap sandbox (DESIGN.md section 7).
//
// A sandboxed program gets new user, pid, network, mount, ipc, uts and cgroup namespaces; it sees only the
// system directories it needs (the toolchain, the riscv64 sysroot, the host's shared libraries) read-only,
// plus the evaluation's own directory at /eval and any file bound in explicitly; no network; its own
// session; a seccomp allow-list (seccomp_profiles.h); the resource limits of its ProcessSpec; and it dies
// with eok. The host's home directories, /etc, /tmp, the workspace and eok's own sources are not there, so
// no spelling of #include, #embed or .incbin can read them.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "evaluator/sandbox/seccomp_profiles.h"
#include "src/common/subprocess.h"

namespace eok::evaluator::sandbox {

// Where the evaluation's own directory appears inside the sandbox (and the programs' working directory).
inline constexpr const char* kWorkdir = "/eval";

struct Bind {
  std::filesystem::path host;    // a file or directory
  std::filesystem::path inside;  // absolute path inside the sandbox
  bool writable = false;
};

struct SandboxedRun {
  std::vector<std::string> argv;  // as seen inside (system tools keep their host paths)
  std::filesystem::path workdir;  // host directory bound read-write at kWorkdir; the cwd
  std::vector<Bind> binds;        // more files or directories (read-only unless writable)
  SeccompProfile profile = SeccompProfile::toolchain;
  bool proc = false;                 // mount a /proc of the sandbox's own pid namespace
  std::vector<std::string> env;      // the whole environment inside (PATH, LANG, TMPDIR are added)
  std::filesystem::path stdin_path;  // host paths, as in ProcessSpec
  std::filesystem::path stdout_path;
  size_t capture_limit = 1 << 20;
  ProcessLimits limits;  // applied to the sandbox and everything in it
};

class Sandbox {
 public:
  // `system_paths`: host directories or files the sandboxed tools need, exposed read-only at the same
  // paths (e.g. /usr/lib/llvm-22, /usr/riscv64-linux-gnu). The host's shared-library directories and the
  // top-level /lib, /lib64, /bin symlinks of a merged-/usr system are added by themselves.
  // Throws ToolchainError when bubblewrap is missing or libseccomp fails (the message names the fix).
  explicit Sandbox(std::vector<std::filesystem::path> system_paths);

  // Runs the program. Never throws for anything the program does. A program that died of a signal is
  // reported as term_signal (bubblewrap reports it as exit status 128 + signal); when the sandbox itself
  // could not be set up, started is false and spawn_error has bubblewrap's message.
  ProcessResult run(const SandboxedRun& run) const;

  // The raw BPF program of a profile (for the plugin's filter= file).
  const std::string& program(SeccompProfile profile) const;

  const std::filesystem::path& bwrap() const { return bwrap_; }

 private:
  std::filesystem::path bwrap_;
  std::vector<std::filesystem::path> system_paths_;
  std::vector<std::pair<std::string, std::string>> root_symlinks_;  // inside path -> target
  std::string programs_[3];
};

// Finds bubblewrap: $EOK_BWRAP or bwrap on PATH; empty when missing.
std::filesystem::path find_bwrap();

inline constexpr const char* kBwrapFix = "apt-get install -y bubblewrap";

}  // namespace eok::evaluator::sandbox
