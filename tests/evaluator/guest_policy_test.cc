// The guest's system-call policy of the virtual board's plugin, decision by decision: what the harness
// needs in each phase is allowed, everything a kernel could use to act outside its computation is not.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>

extern "C" {
#include "evaluator/qemu_plugin/guest_policy.h"
}
#include "evaluator/target/harness_protocol.h"

namespace {

// riscv64 numbers
constexpr int64_t kRead = 63, kWrite = 64, kOpenat = 56, kClose = 57, kMmap = 222, kMprotect = 226, kMunmap = 215,
                  kExitGroup = 94, kKill = 129, kTgkill = 131, kPrlimit = 261, kNewfstatat = 79, kClone = 220,
                  kRtSigaction = 134, kSysinfo = 179, kPidfdGetfd = 438;

bool allowed(guest_phase_t phase, int64_t num, std::initializer_list<uint64_t> args) {
  uint64_t a[6] = {0, 0, 0, 0, 0, 0};
  size_t i = 0;
  for (uint64_t v : args) a[i++] = v;
  char why[256];
  return guest_policy_check(phase, num, a, why, sizeof why) == nullptr;
}

constexpr uint64_t kMinusOne = ~uint64_t{0};
const uint64_t kSelf = static_cast<uint64_t>(getpid());

TEST(GuestPolicy, InsideACallOnlyTheFaultRecordAndExit) {
  constexpr uint64_t kRecord = sizeof(eok_signal_record);
  EXPECT_TRUE(allowed(PHASE_CALL, kWrite, {1, 0x1000, kRecord}));  // the harness's fault record
  EXPECT_TRUE(allowed(PHASE_CALL, kExitGroup, {3}));
  EXPECT_FALSE(allowed(PHASE_CALL, kWrite, {1, 0x1000, kRecord + 1}));
  EXPECT_FALSE(allowed(PHASE_CALL, kWrite, {2, 0x1000, kRecord}));
  EXPECT_FALSE(allowed(PHASE_CALL, kWrite, {3, 0x1000, kRecord}));  // the plugin's measurement file, say
  for (int64_t num : {kRead, kOpenat, kClose, kMmap, kMprotect, kMunmap, kKill, kTgkill, kPrlimit, kClone, kRtSigaction,
                      kSysinfo, kPidfdGetfd}) {
    EXPECT_FALSE(allowed(PHASE_CALL, num, {0, 0, 0, 0, 0, 0})) << num;
  }
}

TEST(GuestPolicy, BetweenCallsTheHarnessReadsWritesAndMapsData) {
  EXPECT_TRUE(allowed(PHASE_HARNESS, kRead, {0, 0x1000, 4096}));
  EXPECT_FALSE(allowed(PHASE_HARNESS, kRead, {3, 0x1000, 4096}));
  EXPECT_TRUE(allowed(PHASE_HARNESS, kWrite, {2, 0x1000, 100}));
  EXPECT_FALSE(allowed(PHASE_HARNESS, kWrite, {4, 0x1000, 100}));
  EXPECT_TRUE(allowed(PHASE_HARNESS, kMmap, {0x2000000000, 8192, 3 /* RW */, 0x22, kMinusOne, 0}));
  EXPECT_FALSE(allowed(PHASE_HARNESS, kMmap, {0, 8192, 7 /* RWX */, 0x22, kMinusOne, 0}));
  EXPECT_FALSE(allowed(PHASE_HARNESS, kMmap, {0, 8192, 1, 0x02 /* a file */, 3, 0}));
  // The emulator's own pages (high in the shared address space) cannot be named, replaced or probed.
  EXPECT_FALSE(allowed(PHASE_HARNESS, kMmap, {0x7f0000000000, 8192, 3, 0x22, kMinusOne, 0}));
  EXPECT_FALSE(allowed(PHASE_HARNESS, kMmap, {0x2000000000, 8192, 3, 0x32 /* MAP_FIXED */, kMinusOne, 0}));
  EXPECT_FALSE(allowed(PHASE_HARNESS, kMunmap, {0x555555554000, 4096}));
  EXPECT_FALSE(allowed(PHASE_HARNESS, kMprotect, {0x7f0000000000, 4096, 0}));
  EXPECT_FALSE(allowed(PHASE_HARNESS, 233 /* madvise */, {0x7f0000000000, 4096, 4}));
  EXPECT_FALSE(allowed(PHASE_HARNESS, kMunmap, {0xfffffffffffff000, 8192}));  // wraps around
  EXPECT_TRUE(allowed(PHASE_HARNESS, kMprotect, {0x2000001000, 4096, 0}));
  EXPECT_FALSE(allowed(PHASE_HARNESS, kMprotect, {0x10000, 4096, 5 /* RX */}));
  EXPECT_TRUE(allowed(PHASE_HARNESS, kMunmap, {0x2000000000, 8192}));
  EXPECT_TRUE(allowed(PHASE_HARNESS, kSysinfo, {0x1000}));
  EXPECT_TRUE(allowed(PHASE_HARNESS, kTgkill, {kSelf, kSelf, 6}));
  EXPECT_FALSE(allowed(PHASE_HARNESS, kKill, {1, 9}));
  EXPECT_FALSE(allowed(PHASE_HARNESS, kKill, {kMinusOne, 19}));
  EXPECT_FALSE(allowed(PHASE_HARNESS, kOpenat, {static_cast<uint64_t>(-100), 0x1000, 0}));
  EXPECT_FALSE(allowed(PHASE_HARNESS, kRtSigaction, {11, 0x1000, 0, 8}));
  EXPECT_FALSE(allowed(PHASE_HARNESS, kNewfstatat, {0, 0x1000, 0x2000, 0x1000}));  // startup only
}

TEST(GuestPolicy, StartupAllowsTheRuntimesOwnCallsAndReadingLimitsOnly) {
  EXPECT_TRUE(allowed(PHASE_STARTUP, kRtSigaction, {11, 0x1000, 0, 8}));
  EXPECT_TRUE(allowed(PHASE_STARTUP, kPrlimit, {0, 3, 0, 0x1000}));
  EXPECT_FALSE(allowed(PHASE_STARTUP, kPrlimit, {0, 3, 0x1000, 0}));  // setting a limit
  EXPECT_FALSE(allowed(PHASE_STARTUP, kPrlimit, {1, 3, 0, 0x1000}));  // another process's
  EXPECT_TRUE(allowed(PHASE_STARTUP, kNewfstatat, {0, 0x1000, 0x2000, 0x1000 /* AT_EMPTY_PATH */}));
  EXPECT_FALSE(allowed(PHASE_STARTUP, kNewfstatat, {static_cast<uint64_t>(-100), 0x1000, 0x2000, 0}));
  EXPECT_FALSE(allowed(PHASE_STARTUP, kNewfstatat, {0, 0x1000, 0x2000, 0}));  // a path, not the descriptor
  EXPECT_FALSE(allowed(PHASE_STARTUP, kOpenat, {static_cast<uint64_t>(-100), 0x1000, 0}));
  EXPECT_FALSE(allowed(PHASE_STARTUP, kClone, {17, 0}));
}

TEST(GuestPolicy, ARefusalNamesTheCallItsArgumentsAndThePhase) {
  uint64_t a[6] = {static_cast<uint64_t>(-100), 0x10543, 0, 0, 0, 0};
  char why[256];
  const char* r = guest_policy_check(PHASE_CALL, kOpenat, a, why, sizeof why);
  ASSERT_NE(r, nullptr);
  EXPECT_NE(std::strstr(r, "openat(0xffffffffffffff9c, 0x10543"), nullptr) << r;
  EXPECT_NE(std::strstr(r, "inside the kernel call"), nullptr) << r;
  EXPECT_STREQ(guest_syscall_name(kPidfdGetfd), "pidfd_getfd");
}

}  // namespace
