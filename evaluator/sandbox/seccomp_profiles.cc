#include "evaluator/sandbox/seccomp_profiles.h"

#include <errno.h>
#include <seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <asm/ioctls.h>
#include <unistd.h>

#include <initializer_list>
#include <memory>

#include "src/common/error.h"

namespace eok::evaluator::sandbox {

namespace {

// Memory, signals, threads' bookkeeping, clocks, identity and exit: what any of the sandboxed programs
// needs just to run.
constexpr std::initializer_list<const char*> kRuntime = {"read",
                                                         "write",
                                                         "readv",
                                                         "writev",
                                                         "pread64",
                                                         "pwrite64",
                                                         "lseek",
                                                         "close",
                                                         "fstat",
                                                         "newfstatat",
                                                         "statx",
                                                         "mmap",
                                                         "munmap",
                                                         "mprotect",
                                                         "mremap",
                                                         "madvise",
                                                         "brk",
                                                         "rt_sigaction",
                                                         "rt_sigprocmask",
                                                         "rt_sigreturn",
                                                         "sigaltstack",
                                                         "futex",
                                                         "set_robust_list",
                                                         "get_robust_list",
                                                         "rseq",
                                                         "set_tid_address",
                                                         "arch_prctl",
                                                         "getrandom",
                                                         "clock_gettime",
                                                         "clock_getres",
                                                         "clock_nanosleep",
                                                         "nanosleep",
                                                         "gettimeofday",
                                                         "sched_yield",
                                                         "sched_getaffinity",
                                                         "getpid",
                                                         "gettid",
                                                         "getppid",
                                                         "getuid",
                                                         "geteuid",
                                                         "getgid",
                                                         "getegid",
                                                         "uname",
                                                         "sysinfo",
                                                         "membarrier",
                                                         "exit",
                                                         "exit_group"};

// A compiler and linker at work inside their own directory: files, directories, running lld, threads.
constexpr std::initializer_list<const char*> kToolchain = {"open",
                                                           "openat",
                                                           "access",
                                                           "faccessat",
                                                           "faccessat2",
                                                           "stat",
                                                           "lstat",
                                                           "readlink",
                                                           "readlinkat",
                                                           "getcwd",
                                                           "getdents64",
                                                           "fcntl",
                                                           "ioctl",
                                                           "dup",
                                                           "dup2",
                                                           "dup3",
                                                           "pipe",
                                                           "pipe2",
                                                           "unlink",
                                                           "unlinkat",
                                                           "rename",
                                                           "renameat",
                                                           "renameat2",
                                                           "mkdir",
                                                           "mkdirat",
                                                           "rmdir",
                                                           "chmod",
                                                           "fchmod",
                                                           "fchmodat",
                                                           "fchown",
                                                           "ftruncate",
                                                           "fallocate",
                                                           "fsync",
                                                           "fdatasync",
                                                           "umask",
                                                           "utimensat",
                                                           "clone",
                                                           "clone3",
                                                           "vfork",
                                                           "fork",
                                                           "execve",
                                                           "wait4",
                                                           "waitid",
                                                           "kill",
                                                           "tgkill",
                                                           "tkill",
                                                           "prlimit64",
                                                           "getrlimit",
                                                           "setrlimit",
                                                           "getpgrp",
                                                           "get_mempolicy",
                                                           "set_mempolicy",
                                                           "sched_setaffinity",
                                                           "poll",
                                                           "ppoll",
                                                           "select",
                                                           "pselect6",
                                                           "sync_file_range",
                                                           "copy_file_range",
                                                           "sendfile",
                                                           "getrusage",
                                                           "times"};

// qemu-riscv64 from exec until the guest starts: libraries, the plugin, the guest program, /proc/self/maps,
// its RCU thread, and the plugin installing the guest filter.
constexpr std::initializer_list<const char*> kEmulatorStartup = {
    "open", "openat", "access", "faccessat", "readlink", "readlinkat", "getcwd", "getdents64", "fcntl", "ioctl",
    "execve", "clone", "clone3", "prlimit64", "getrlimit", "get_mempolicy", "set_mempolicy", "kill", "tgkill", "tkill",
    "seccomp", "dup", "dup2", "dup3",
    // bubblewrap's init (pid 1 of the sandbox) runs under this filter too and reaps the emulator.
    "wait4", "waitid"};

// qemu-riscv64 while the guest runs: what the emulation of an allowed guest system call, a guest signal
// and the emulator's own exit need (the guest policy in the plugin decides what the guest may ask for).
// The guest C runtime's readlinkat("/proc/self/exe") makes qemu resolve its own path (paths only: no
// file can be opened).
constexpr std::initializer_list<const char*> kEmulatorGuest = {"kill",     "tgkill",     "tkill", "getcwd",
                                                               "readlink", "readlinkat", "lstat", "stat"};

struct Ctx {
  scmp_filter_ctx ctx;
  ~Ctx() { seccomp_release(ctx); }
};

void allow(scmp_filter_ctx ctx, const char* name) {
  const int nr = seccomp_syscall_resolve_name(name);
  if (nr == __NR_SCMP_ERROR) return;  // not a system call on this architecture (e.g. "open" on aarch64)
  if (seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0) != 0) {
    throw ToolchainError(std::string("libseccomp cannot add the rule for ") + name);
  }
}

template <typename... Conds>
void allow_if(scmp_filter_ctx ctx, const char* name, Conds... conds) {
  const int nr = seccomp_syscall_resolve_name(name);
  if (nr == __NR_SCMP_ERROR) return;
  if (seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, sizeof...(conds), conds...) != 0) {
    throw ToolchainError(std::string("libseccomp cannot add the conditional rule for ") + name);
  }
}

}  // namespace

const char* profile_name(SeccompProfile profile) {
  switch (profile) {
    case SeccompProfile::toolchain:
      return "toolchain";
    case SeccompProfile::emulator_startup:
      return "emulator_startup";
    case SeccompProfile::emulator_guest:
      return "emulator_guest";
  }
  return "?";
}

std::string seccomp_program(SeccompProfile profile) {
  // A denied call fails with EPERM in the toolchain and before the guest starts (programs report that
  // clearly); once the guest runs, it kills the emulator.
  const uint32_t deny = profile == SeccompProfile::emulator_guest ? SCMP_ACT_KILL_PROCESS : SCMP_ACT_ERRNO(EPERM);
  Ctx c{seccomp_init(deny)};
  if (!c.ctx) throw ToolchainError("libseccomp cannot create a filter (is the kernel built with seccomp?)");
  for (const char* name : kRuntime) allow(c.ctx, name);
  switch (profile) {
    case SeccompProfile::toolchain:
      for (const char* name : kToolchain) allow(c.ctx, name);
      allow_if(c.ctx, "prctl", SCMP_A0(SCMP_CMP_EQ, PR_SET_NAME));  // lld names its worker threads
      allow_if(c.ctx, "prctl", SCMP_A0(SCMP_CMP_EQ, PR_GET_NAME));
      break;
    case SeccompProfile::emulator_startup:
      for (const char* name : kEmulatorStartup) allow(c.ctx, name);
      allow_if(c.ctx, "prctl", SCMP_A0(SCMP_CMP_EQ, PR_SET_NO_NEW_PRIVS));
      allow_if(c.ctx, "prctl", SCMP_A0(SCMP_CMP_EQ, PR_SET_NAME));
      break;
    case SeccompProfile::emulator_guest:
      for (const char* name : kEmulatorGuest) allow(c.ctx, name);
      // Reading its own limits (the guest's getrlimit); dying of a guest's fatal signal, the emulator turns
      // off its own core dumps.
      allow_if(c.ctx, "prlimit64", SCMP_A0(SCMP_CMP_EQ, 0), SCMP_A2(SCMP_CMP_EQ, 0));
      allow_if(c.ctx, "prlimit64", SCMP_A0(SCMP_CMP_EQ, 0), SCMP_A1(SCMP_CMP_EQ, RLIMIT_CORE));
      allow_if(c.ctx, "setrlimit", SCMP_A0(SCMP_CMP_EQ, RLIMIT_CORE));
      allow_if(c.ctx, "ioctl", SCMP_A1(SCMP_CMP_EQ, TCGETS));  // the guest's stdio asks whether 1 is a tty
      break;
  }
  // Export through a memory file: the library writes to a descriptor.
  const int fd = memfd_create("eok-seccomp", MFD_CLOEXEC);
  if (fd < 0) throw ToolchainError("memfd_create failed while building the seccomp filter");
  std::string bpf;
  if (seccomp_export_bpf(c.ctx, fd) == 0 && lseek(fd, 0, SEEK_SET) == 0) {
    char buf[4096];
    ssize_t n;
    while ((n = ::read(fd, buf, sizeof buf)) > 0) bpf.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  if (bpf.empty())
    throw ToolchainError(std::string("libseccomp cannot export the ") + profile_name(profile) + " filter");
  return bpf;
}

}  // namespace eok::evaluator::sandbox
