#include "src/common/subprocess.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <thread>

#include "src/common/fs_util.h"

namespace eok {
namespace {

namespace fs = std::filesystem;

ProcessResult sh(const std::string& script, ProcessLimits limits = {}) {
  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", script};
  spec.limits = limits;
  return run_process(spec);
}

TEST(Subprocess, CapturesOutputAndExitCode) {
  ProcessResult r = sh("echo out; echo err >&2; exit 3");
  EXPECT_TRUE(r.started);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "err\n");
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.describe(), "exit 3");
}

TEST(Subprocess, ReportsTheSignalThatKilledTheChild) {
  ProcessResult r = sh("kill -SEGV $$");
  EXPECT_EQ(r.term_signal, SIGSEGV);
  EXPECT_EQ(r.describe(), "killed by SIGSEGV");
}

TEST(Subprocess, TimeoutKillsTheWholeProcessGroup) {
  TempDir dir(fs::temp_directory_path(), "eok-test-");
  const fs::path pid_file = dir.path() / "grandchild.pid";
  ProcessLimits limits;
  limits.wall_seconds = 0.5;
  // A grandchild in the background, which would outlive its shell if only the shell were killed.
  ProcessResult r = sh("sh -c 'echo $$ > " + pid_file.string() + "; exec sleep 30' & sleep 30", limits);
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(r.wall_seconds, 5.0);
  ASSERT_TRUE(fs::exists(pid_file));
  const pid_t grandchild = std::stoi(read_file(pid_file));
  // Killed with the group: gone as soon as init reaps it (polled, with a bound).
  bool gone = false;
  for (int i = 0; i < 200 && !gone; ++i) {
    gone = ::kill(grandchild, 0) != 0 && errno == ESRCH;
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(gone) << "the grandchild " << grandchild << " outlived the group kill";
}

TEST(Subprocess, AddressSpaceLimitStopsRunawayAllocation) {
  ProcessLimits limits;
  limits.address_space_bytes = 64ull << 20;
  // The shell keeps the 300 MB command substitution in memory: far over the 64 MiB limit.
  ProcessResult r = sh("a=$(head -c 300000000 /dev/zero | tr '\\0' x); echo ${#a}", limits);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.out.find("300000000"), std::string::npos);
}

TEST(Subprocess, StdinAndStdoutFiles) {
  TempDir dir(fs::temp_directory_path(), "eok-test-");
  write_file_atomic(dir.path() / "in.txt", "hello\n");
  ProcessSpec spec;
  spec.argv = {"/bin/cat"};
  spec.stdin_path = dir.path() / "in.txt";
  spec.stdout_path = dir.path() / "out.txt";
  ProcessResult r = run_process(spec);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(read_file(dir.path() / "out.txt"), "hello\n");
}

TEST(Subprocess, MissingProgramIsReportedNotThrown) {
  ProcessSpec spec;
  spec.argv = {"/nonexistent/program"};
  ProcessResult r = run_process(spec);
  EXPECT_FALSE(r.started);
  EXPECT_NE(r.spawn_error.find("No such file"), std::string::npos);
}

TEST(Subprocess, OutputBeyondTheCapIsTruncated) {
  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", "head -c 100000 /dev/zero"};
  spec.capture_limit = 1000;
  ProcessResult r = run_process(spec);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.out.size(), 1000u);
  EXPECT_TRUE(r.out_truncated);
}

TEST(Subprocess, NetworkIsolationLeavesOnlyLoopback) {
  ProcessLimits limits;
  limits.isolate_network = true;
  ProcessResult r = sh("cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d ' '", limits);
  ASSERT_TRUE(r.ok());
  if (!r.network_isolated) GTEST_SKIP() << "this host does not allow new network namespaces";
  EXPECT_EQ(r.out, "lo\n");
}

}  // namespace
}  // namespace eok
