#include "src/common/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "src/common/error.h"
#include "src/common/unique_fd.h"

extern char** environ;

namespace eok {

namespace {

// Bytes the child writes on the status pipe before exec; the pipe closes on a successful exec.
constexpr char kNetNotIsolated = 'N';
constexpr char kExecFailed = 'E';

struct CStrings {
  std::vector<std::string> storage;
  std::vector<char*> ptrs;
  explicit CStrings(const std::vector<std::string>& v) : storage(v) {
    for (auto& s : storage) ptrs.push_back(s.data());
    ptrs.push_back(nullptr);
  }
};

void set_limit(int resource, uint64_t value) {
  if (value == 0) return;
  struct rlimit rl{static_cast<rlim_t>(value), static_cast<rlim_t>(value)};
  setrlimit(resource, &rl);
}

// Runs in the child between fork and exec: async-signal-safe calls only.
[[noreturn]] void child_exec(const ProcessSpec& spec, char* const* argv, char* const* envp, const char* cwd, int in_fd,
                             int out_fd, int err_fd, int status_fd) {
  setpgid(0, 0);
  if (spec.die_with_parent) prctl(PR_SET_PDEATHSIG, SIGKILL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGCHLD}) signal(sig, SIG_DFL);

  if (spec.limits.isolate_network && unshare(CLONE_NEWNET) != 0) {
    (void)!write(status_fd, &kNetNotIsolated, 1);
  }
  set_limit(RLIMIT_CPU, spec.limits.cpu_seconds);
  set_limit(RLIMIT_AS, spec.limits.address_space_bytes);
  set_limit(RLIMIT_FSIZE, spec.limits.file_size_bytes);
  set_limit(RLIMIT_NOFILE, spec.limits.open_files);
  struct rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);

  dup2(in_fd >= 0 ? in_fd : open("/dev/null", O_RDONLY), 0);
  dup2(out_fd, 1);
  dup2(err_fd, 2);
  if (cwd != nullptr && chdir(cwd) != 0) {
    int e = errno;
    char msg[2] = {kExecFailed, static_cast<char>(e)};
    (void)!write(status_fd, msg, 2);
    _exit(127);
  }
  // Close everything else but the status pipe (close-on-exec) and the descriptors passed on.
  for (int fd = 3; fd < 1024; ++fd) {
    bool pass = false;
    for (int p : spec.pass_fds) pass = pass || p == fd;
    if (pass)
      fcntl(fd, F_SETFD, 0);
    else if (fd != status_fd)
      close(fd);
  }
  if (strchr(argv[0], '/') != nullptr) {
    execve(argv[0], argv, envp);
  } else {
    execvpe(argv[0], argv, envp);
  }
  int e = errno;
  char msg[2] = {kExecFailed, static_cast<char>(e)};
  (void)!write(status_fd, msg, 2);
  _exit(127);
}

void drain(int fd, std::string& sink, size_t limit, bool& truncated, bool& open) {
  char buf[65536];
  ssize_t n = read(fd, buf, sizeof buf);
  if (n > 0) {
    size_t room = sink.size() < limit ? limit - sink.size() : 0;
    size_t take = std::min(room, static_cast<size_t>(n));
    sink.append(buf, take);
    if (take < static_cast<size_t>(n)) truncated = true;
  } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
    open = false;
  }
}

}  // namespace

std::string ProcessResult::describe() const {
  if (!started) return "could not start: " + spawn_error;
  if (timed_out) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "timed out after %.1f s", wall_seconds);
    return buf;
  }
  if (term_signal != 0) {
    const char* abbrev = sigabbrev_np(term_signal);
    return std::string("killed by SIG") + (abbrev ? abbrev : std::to_string(term_signal).c_str());
  }
  return "exit " + std::to_string(exit_code);
}

namespace {

void make_pipe(UniqueFd& read_end, UniqueFd& write_end) {
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0) throw Error(std::string("pipe: ") + std::strerror(errno));
  read_end.reset(p[0]);
  write_end.reset(p[1]);
}

}  // namespace

ProcessResult run_process(const ProcessSpec& spec) {
  if (spec.argv.empty()) throw Error("run_process: empty command line");
  CStrings argv(spec.argv);
  std::vector<std::string> env_strings;
  if (spec.env) {
    env_strings = *spec.env;
  } else {
    for (char** e = environ; *e != nullptr; ++e) env_strings.emplace_back(*e);
  }
  CStrings envp(env_strings);
  const std::string cwd = spec.cwd.string();

  // Every descriptor is owned: an error on the way (a pipe, a file, fork) closes what was opened before it.
  UniqueFd in_file, held_stdin;  // held_stdin: the write end of the held-open stdin pipe
  UniqueFd out_read, out_write, err_read, err_write, status_read, status_write;
  if (spec.hold_stdin_open) {
    make_pipe(in_file, held_stdin);
  } else if (!spec.stdin_path.empty()) {
    in_file.reset(open(spec.stdin_path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!in_file) throw Error("cannot read " + spec.stdin_path.string() + ": " + std::strerror(errno));
  }
  if (!spec.stdout_path.empty()) {
    out_write.reset(open(spec.stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
    if (!out_write) throw Error("cannot create " + spec.stdout_path.string() + ": " + std::strerror(errno));
  } else {
    make_pipe(out_read, out_write);
  }
  make_pipe(err_read, err_write);
  make_pipe(status_read, status_write);

  ProcessResult result;
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid < 0) throw Error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    child_exec(spec, argv.ptrs.data(), envp.ptrs.data(), cwd.empty() ? nullptr : cwd.c_str(), in_file.get(),
               out_write.get(), err_write.get(), status_write.get());
  }
  in_file.reset();
  setpgid(pid, pid);  // also from the parent, so killpg works even if the child has not run yet
  out_write.reset();
  err_write.reset();
  status_write.reset();

  // Status bytes arrive before exec; EOF means exec happened (or the child died).
  std::string status;
  {
    char buf[16];
    ssize_t n;
    while ((n = read(status_read.get(), buf, sizeof buf)) != 0) {
      if (n < 0) {
        if (errno == EINTR) continue;
        break;
      }
      status.append(buf, static_cast<size_t>(n));
    }
    status_read.reset();
  }
  result.network_isolated = spec.limits.isolate_network && status.find(kNetNotIsolated) == std::string::npos;
  if (auto pos = status.find(kExecFailed); pos != std::string::npos) {
    int e = pos + 1 < status.size() ? static_cast<unsigned char>(status[pos + 1]) : 0;
    result.spawn_error = spec.argv[0] + ": " + std::strerror(e);
  } else {
    result.started = true;
  }

  bool out_open = static_cast<bool>(out_read), err_open = true;
  const double limit = spec.limits.wall_seconds;
  bool interrupt_sent = false;
  auto forward_interrupt = [&] {
    if (!interrupt_sent && spec.forward_interrupt && spec.forward_interrupt->load()) {
      killpg(pid, SIGINT);
      interrupt_sent = true;
    }
  };
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  while (out_open || err_open) {
    struct pollfd fds[2];
    int nfds = 0;
    if (out_open) fds[nfds++] = {out_read.get(), POLLIN, 0};
    if (err_open) fds[nfds++] = {err_read.get(), POLLIN, 0};
    int wait_ms = -1;
    if (limit > 0) {
      double left = limit - elapsed();
      if (left <= 0) {
        result.timed_out = true;
        break;
      }
      wait_ms = static_cast<int>(left * 1000) + 1;
    }
    if (spec.forward_interrupt && (wait_ms < 0 || wait_ms > 200)) wait_ms = 200;
    forward_interrupt();
    int r = poll(fds, static_cast<nfds_t>(nfds), wait_ms);
    if (r < 0 && errno == EINTR) continue;
    for (int i = 0; i < nfds; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      if (fds[i].fd == out_read.get())
        drain(out_read.get(), result.out, spec.capture_limit, result.out_truncated, out_open);
      else
        drain(err_read.get(), result.err, spec.capture_limit, result.err_truncated, err_open);
    }
  }
  // The pipes closed (or the limit fired); wait for the child, still honouring the limit.
  int wstatus = 0;
  for (;;) {
    if (!result.timed_out && limit > 0 && elapsed() >= limit) result.timed_out = true;
    if (result.timed_out) killpg(pid, SIGKILL);
    pid_t w = waitpid(pid, &wstatus, result.timed_out ? 0 : WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) break;
    forward_interrupt();
    if (w == 0) usleep(500);
  }
  killpg(pid, SIGKILL);  // anything the child left behind in its group
  held_stdin.reset();
  result.wall_seconds = elapsed();
  out_read.reset();
  err_read.reset();
  if (WIFEXITED(wstatus)) result.exit_code = WEXITSTATUS(wstatus);
  if (WIFSIGNALED(wstatus)) result.term_signal = WTERMSIG(wstatus);
  if (result.timed_out) result.term_signal = 0;
  return result;
}

std::optional<std::filesystem::path> find_on_path(const std::string& name) {
  if (name.find('/') != std::string::npos) {
    if (access(name.c_str(), X_OK) == 0) return std::filesystem::absolute(name);
    return std::nullopt;
  }
  const char* path = getenv("PATH");
  std::string p = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t begin = 0;
  while (begin <= p.size()) {
    size_t end = p.find(':', begin);
    if (end == std::string::npos) end = p.size();
    std::filesystem::path dir = p.substr(begin, end - begin);
    if (!dir.empty()) {
      auto candidate = dir / name;
      if (access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    begin = end + 1;
  }
  return std::nullopt;
}

}  // namespace eok
