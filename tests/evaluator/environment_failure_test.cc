// A toolchain that failed because of the machine is told apart from a kernel that does not compile, and a
// kernel cannot pass its own error off as the machine's.
#include <gtest/gtest.h>

#include <csignal>

#include "evaluator/environment_failure.h"
#include "src/common/fs_util.h"

namespace eok::evaluator {
namespace {

ProcessResult exited(int code) {
  ProcessResult p;
  p.started = true;
  p.exit_code = code;
  return p;
}

TEST(EnvironmentFailure, AFullDiskOrAnIoErrorIsTheMachines) {
  const auto full = environment_failure(
      exited(1), "error: unable to open output file '/in/kernel.o': 'No space left on device'\n1 error generated.\n",
      "kernel.c");
  EXPECT_NE(full.find("No space left on device"), std::string::npos);
  EXPECT_NE(full.find("free space"), std::string::npos) << full;
  EXPECT_NE(
      environment_failure(exited(1), "fatal error: error in backend: IO failure on output stream: Input/output error\n",
                          "kernel.c"),
      "");
  EXPECT_NE(environment_failure(exited(1), "ld.lld: error: failed to write output 'cand': Read-only file system\n", ""),
            "");
}

TEST(EnvironmentFailure, ASignalFromTheSystemIsTheMachinesButACrashOrATimeoutIsNot) {
  ProcessResult bus = exited(-1);
  bus.term_signal = SIGBUS;
  EXPECT_NE(environment_failure(bus, "clang-22: error: unable to execute command: Bus error\n", "kernel.c"), "");
  ProcessResult killed = exited(-1);
  killed.term_signal = SIGKILL;
  EXPECT_NE(environment_failure(killed, "", "kernel.c"), "");
  killed.timed_out = true;  // eok's own limit: the kernel's doing (a compile bomb)
  EXPECT_EQ(environment_failure(killed, "", "kernel.c"), "");
  ProcessResult segv = exited(-1);
  segv.term_signal = SIGSEGV;  // a compiler crash on this source: reported as the kernel's compile error
  EXPECT_EQ(environment_failure(segv, "PLEASE submit a bug report\n", "kernel.c"), "");
}

TEST(EnvironmentFailure, TheKernelsOwnErrorsNeverCountAsTheMachines) {
  EXPECT_EQ(environment_failure(exited(1),
                                "kernel.c:3:2: error: No space left on device\n"
                                "    3 | #error No space left on device\n      |  ^\n"
                                "kernel.c:4:2: error: Bus error\n    4 | #error Bus error\n2 errors generated.\n",
                                "kernel.c"),
            "")
      << "an #error line is the kernel speaking";
  EXPECT_EQ(environment_failure(exited(1), "kernel.c:1:1: error: unknown type name 'vfloat32m9_t'\n", "kernel.c"), "");
}

TEST(StorageFailure, AWritableDirectoryIsNotAFailureAndTheProbeLeavesNothing) {
  TempDir dir(std::filesystem::temp_directory_path(), "eok-probe-");
  EXPECT_EQ(storage_failure(dir.path()), "");
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  // A directory that is gone says nothing about the disk (the run's own directory was never made).
  EXPECT_EQ(storage_failure(dir.path() / "missing"), "");
}

}  // namespace
}  // namespace eok::evaluator
