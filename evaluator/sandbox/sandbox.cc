#include "evaluator/sandbox/sandbox.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <regex>

#include "src/common/error.h"

namespace eok::evaluator::sandbox {

namespace fs = std::filesystem;

namespace {

// The directory of the host's own shared libraries (the sandboxed tools are host programs).
std::vector<fs::path> host_library_dirs() {
#if defined(__x86_64__)
  const char* multiarch = "x86_64-linux-gnu";
#elif defined(__aarch64__)
  const char* multiarch = "aarch64-linux-gnu";
#else
  const char* multiarch = "";
#endif
  std::vector<fs::path> out;
  for (const fs::path& p :
       {fs::path("/usr/lib") / multiarch, fs::path("/lib") / multiarch, fs::path("/usr/lib64"), fs::path("/lib64")}) {
    std::error_code ec;
    if (p.filename().empty() || fs::is_symlink(p.parent_path(), ec)) continue;  // reached through a /lib symlink
    if (fs::is_directory(p, ec) && !fs::is_symlink(p, ec)) out.push_back(p);
  }
  return out;
}

// A descriptor holding `bytes`, readable from the start, inherited by the child.
int memory_file(const std::string& bytes) {
  const int fd = memfd_create("eok-sandbox", MFD_CLOEXEC);
  if (fd < 0) throw Error("memfd_create failed: cannot hand the seccomp filter to bubblewrap");
  for (size_t off = 0; off < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + off, bytes.size() - off);
    if (n <= 0) {
      ::close(fd);
      throw Error("cannot write the seccomp filter for bubblewrap");
    }
    off += static_cast<size_t>(n);
  }
  lseek(fd, 0, SEEK_SET);
  return fd;
}

// "exit-code": N from bubblewrap's --json-status-fd output, or -1; child_started: it ran the program.
int parse_status(const std::string& json, bool* child_started) {
  *child_started = json.find("\"child-pid\"") != std::string::npos;
  std::smatch m;
  static const std::regex exit_re(R"re("exit-code"\s*:\s*(\d+))re");
  return std::regex_search(json, m, exit_re) ? std::stoi(m[1].str()) : -1;
}

}  // namespace

fs::path find_bwrap() {
  if (const char* v = std::getenv("EOK_BWRAP"); v && *v) return access(v, X_OK) == 0 ? fs::path(v) : fs::path();
  auto p = find_on_path("bwrap");
  return p ? *p : fs::path();
}

Sandbox::Sandbox(std::vector<fs::path> system_paths) : bwrap_(find_bwrap()) {
  if (bwrap_.empty())
    throw ToolchainError("bubblewrap (bwrap) not found; eok runs every evaluation inside it: " +
                         std::string(kBwrapFix));
  for (auto& p : host_library_dirs()) system_paths.push_back(p);
  for (auto& p : system_paths) {
    std::error_code ec;
    if (fs::exists(p, ec)) system_paths_.push_back(fs::absolute(p).lexically_normal());
  }
  // A merged-/usr system reaches /lib, /lib64, /bin through symlinks; the sandbox needs the same ones.
  for (const char* top : {"/lib", "/lib64", "/bin", "/sbin"}) {
    std::error_code ec;
    if (fs::is_symlink(top, ec)) root_symlinks_.emplace_back(top, fs::read_symlink(top, ec).string());
  }
  programs_[0] = seccomp_program(SeccompProfile::toolchain);
  programs_[1] = seccomp_program(SeccompProfile::emulator_startup);
  programs_[2] = seccomp_program(SeccompProfile::emulator_guest);
}

const std::string& Sandbox::program(SeccompProfile profile) const {
  return programs_[static_cast<int>(profile)];
}

ProcessResult Sandbox::run(const SandboxedRun& run) const {
  std::vector<std::string> argv = {bwrap_.string(), "--unshare-all", "--die-with-parent",
                                   "--new-session", "--cap-drop",    "ALL",
                                   "--hostname",    "eok-sandbox",   "--clearenv",
                                   "--setenv",      "PATH",          "/usr/bin:/bin",
                                   "--setenv",      "LANG",          "C",
                                   "--setenv",      "TMPDIR",        kWorkdir,
                                   "--dev",         "/dev"};
  for (const auto& e : run.env) {
    const size_t eq = e.find('=');
    if (eq == std::string::npos) continue;
    argv.insert(argv.end(), {"--setenv", e.substr(0, eq), e.substr(eq + 1)});
  }
  for (const auto& p : system_paths_) argv.insert(argv.end(), {"--ro-bind", p.string(), p.string()});
  for (const auto& [inside, target] : root_symlinks_) argv.insert(argv.end(), {"--symlink", target, inside});
  if (run.proc) argv.insert(argv.end(), {"--proc", "/proc"});
  argv.insert(argv.end(), {"--bind", run.workdir.string(), kWorkdir});
  for (const auto& b : run.binds) {
    argv.insert(argv.end(), {b.writable ? "--bind" : "--ro-bind", b.host.string(), b.inside.string()});
  }
  argv.insert(argv.end(), {"--chdir", kWorkdir});

  const int filter_fd = memory_file(program(run.profile));
  int status_pipe[2];
  if (pipe2(status_pipe, O_CLOEXEC) != 0) {
    ::close(filter_fd);
    throw Error("pipe failed: cannot start the sandbox");
  }
  argv.insert(argv.end(),
              {"--seccomp", std::to_string(filter_fd), "--json-status-fd", std::to_string(status_pipe[1]), "--"});
  argv.insert(argv.end(), run.argv.begin(), run.argv.end());

  ProcessSpec spec;
  spec.argv = std::move(argv);
  spec.env = std::vector<std::string>{"PATH=/usr/bin:/bin", "LANG=C"};
  spec.stdin_path = run.stdin_path;
  spec.stdout_path = run.stdout_path;
  spec.capture_limit = run.capture_limit;
  spec.limits = run.limits;
  spec.limits.isolate_network = false;  // bubblewrap's own network namespace does it
  spec.pass_fds = {filter_fd, status_pipe[1]};
  ProcessResult r;
  try {
    r = run_process(spec);
  } catch (...) {
    ::close(filter_fd);
    ::close(status_pipe[0]);
    ::close(status_pipe[1]);
    throw;
  }
  ::close(filter_fd);
  ::close(status_pipe[1]);
  std::string status;
  char buf[512];
  ssize_t n;
  while ((n = ::read(status_pipe[0], buf, sizeof buf)) > 0) status.append(buf, static_cast<size_t>(n));
  ::close(status_pipe[0]);

  bool child_started = false;
  const int code = parse_status(status, &child_started);
  r.network_isolated = child_started;
  if (r.started && !child_started && !r.timed_out && r.term_signal == 0) {
    // bubblewrap failed before running the program: the sandbox is broken, not the program.
    r.started = false;
    r.spawn_error = "the sandbox could not start (" + r.describe() + "): " + r.err.substr(0, r.err.find('\n'));
    return r;
  }
  if (code > 128 && r.term_signal == 0 && !r.timed_out) {
    r.term_signal = code - 128;
    r.exit_code = -1;
  }
  return r;
}

}  // namespace eok::evaluator::sandbox
