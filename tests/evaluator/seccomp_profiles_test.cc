// The sandbox's seccomp allow-lists, installed in a child process: what each profile lets through and what
// it refuses (EPERM for the toolchain, SIGSYS for the emulator once the guest runs).
#include "evaluator/sandbox/seccomp_profiles.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <functional>

namespace eok::evaluator::sandbox {
namespace {

// Runs `body` in a child under `profile`'s filter; returns its wait status.
int run_filtered(SeccompProfile profile, const std::function<int()>& body) {
  const std::string bpf = seccomp_program(profile);
  const pid_t pid = fork();
  if (pid == 0) {
    sock_fprog prog{static_cast<unsigned short>(bpf.size() / sizeof(sock_filter)),
                    reinterpret_cast<sock_filter*>(const_cast<char*>(bpf.data()))};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0)
      _exit(100);
    _exit(body());
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

bool killed_by_sigsys(int status) {
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS;
}
int exit_code(int status) {
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(SeccompProfiles, TheEmulatorWhileTheGuestRunsOpensNothingAndCreatesNoProcess) {
  EXPECT_EQ(exit_code(run_filtered(SeccompProfile::emulator_guest,
                                   [] {
                                     return write(2, "", 0) == 0 && getpid() > 0
                                                ? 7
                                                : 1;  // what the emulation needs still works
                                   })),
            7);
  EXPECT_TRUE(killed_by_sigsys(
      run_filtered(SeccompProfile::emulator_guest, [] { return open("/etc/hostname", O_RDONLY) >= 0; })));
  EXPECT_TRUE(killed_by_sigsys(run_filtered(SeccompProfile::emulator_guest, [] { return static_cast<int>(fork()); })));
  EXPECT_TRUE(
      killed_by_sigsys(run_filtered(SeccompProfile::emulator_guest, [] { return socket(AF_INET, SOCK_STREAM, 0); })));
  EXPECT_TRUE(killed_by_sigsys(run_filtered(SeccompProfile::emulator_guest,
                                            [] { return static_cast<int>(syscall(SYS_pidfd_open, getppid(), 0)); })));
  EXPECT_TRUE(killed_by_sigsys(run_filtered(SeccompProfile::emulator_guest, [] {
    struct rlimit64_t {
      uint64_t cur, max;
    } zero{0, 0};
    return static_cast<int>(syscall(SYS_prlimit64, getppid(), RLIMIT_NOFILE, &zero, nullptr));
  })));
  EXPECT_TRUE(killed_by_sigsys(
      run_filtered(SeccompProfile::emulator_guest, [] { return static_cast<int>(syscall(SYS_ftruncate, 1, 0)); })));
}

TEST(SeccompProfiles, TheToolchainWorksWithFilesButGetsNoNetworkNorPtrace) {
  EXPECT_EQ(exit_code(run_filtered(SeccompProfile::toolchain,
                                   [] {
                                     const int fd = open("/proc/self/status", O_RDONLY);
                                     return fd >= 0 && close(fd) == 0 ? 7 : 1;
                                   })),
            7);
  EXPECT_EQ(exit_code(run_filtered(SeccompProfile::toolchain,
                                   [] { return socket(AF_INET, SOCK_STREAM, 0) < 0 && errno == EPERM ? 7 : 1; })),
            7);
  EXPECT_EQ(exit_code(run_filtered(
                SeccompProfile::toolchain,
                [] { return syscall(SYS_ptrace, 0 /* PTRACE_TRACEME */, 0, 0, 0) < 0 && errno == EPERM ? 7 : 1; })),
            7);
  EXPECT_EQ(exit_code(run_filtered(
                SeccompProfile::toolchain,
                [] { return syscall(SYS_mount, "none", "/tmp", "tmpfs", 0, nullptr) < 0 && errno == EPERM ? 7 : 1; })),
            7);
}

}  // namespace
}  // namespace eok::evaluator::sandbox
