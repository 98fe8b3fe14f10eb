// The virtual board's TCG plugin on real qemu-riscv64 runs in the evaluation sandbox: call counting, vtype
// tracking, the cache simulation, snapshots of the buffers when a call ends, the guest's system-call
// policy and the rule that candidate code runs only inside calls.
#include <gtest/gtest.h>
#include <signal.h>

#include <sstream>

#include "evaluator/cost_model/block_profile.h"
#include "evaluator/qemu_plugin/measurement_protocol.h"
#include "support/board_fixture.h"

namespace eok::testing {
namespace {

namespace fs = std::filesystem;

class PluginTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::make_unique<TempDir>(fs::temp_directory_path(), "eok-plugin-");
    board_ = evaluator::load_board(source_root(), "k1");
  }
  fs::path build(const std::string& source, const std::string& lang) {
    return build_program(dir_->path(), source, lang);
  }
  PluginRun run(const std::string& source, const std::string& lang, int calls = 1) {
    return run_watched(board_, build(source, lang), calls);
  }
  std::string rule_of(const PluginRun& r) { return r.measurement.violation ? r.measurement.violation->rule : "(none)"; }

  std::unique_ptr<TempDir> dir_;
  evaluator::BoardProfile board_;
};

// Runs 1000 iterations of a loop outside the markers, then 250 between them. Uncompressed, so that the
// loop block is exactly three 4-byte instructions.
constexpr const char* kCountingProgram = R"(
.option norvc
.text
.globl main
main:
  li t1, 1000
1: addi t1, t1, -1
  nop
  bnez t1, 1b
  li t1, 250
  vsetvli t0, zero, e32, m4, ta, ma
  slti zero, zero, 1248
2: addi t1, t1, -1
  vadd.vv v8, v16, v24
  bnez t1, 2b
  slti zero, zero, 1249
  li a0, 0
  ret
)";

TEST_F(PluginTest, CountsOnlyTheTimedCallAndKnowsEachBlocksVtype) {
  PluginRun r = run(kCountingProgram, "s");
  ASSERT_TRUE(r.process.ok()) << r.process.describe() << r.process.err;
  const auto& m = r.measurement;
  EXPECT_TRUE(m.hello && m.sandboxed && m.guest_memory_ok && m.exited) << m.error;
  ASSERT_EQ(m.profiles.size(), 1u);
  ASSERT_TRUE(m.profiles[0].profile.complete);
  ASSERT_EQ(m.calls.size(), 1u);
  uint64_t loop_execs = 0;
  for (const auto& b : m.profiles[0].profile.blocks) {
    // Every block in the call runs under e32, m4, ta, ma = 0xd2.
    EXPECT_EQ(b.vtype, 0xd2) << std::hex << b.vaddr;
    if (b.bytes.size() == 12) loop_execs += b.count;  // addi + vadd.vv + bnez (4 bytes each)
  }
  // The first iteration shares a block with the begin marker, whose counter was reset after it ticked.
  EXPECT_GE(loop_execs, 248u);
  EXPECT_LE(loop_execs, 250u);
}

TEST_F(PluginTest, RegisterFormVsetvlMakesTheVtypeUnknown) {
  PluginRun r = run(R"(
.text
.globl main
main:
  li t2, 0xd2
  li t3, 8
  vsetvl t0, t3, t2
  slti zero, zero, 1248
  j 1f
1:
  vadd.vv v8, v16, v24
  slti zero, zero, 1249
  li a0, 0
  ret
)",
                    "s");
  ASSERT_EQ(r.measurement.profiles.size(), 1u);
  ASSERT_TRUE(r.measurement.profiles[0].profile.complete);
  bool saw_unknown = false;
  for (const auto& b : r.measurement.profiles[0].profile.blocks) saw_unknown |= b.vtype == cost::kVtypeUnknown;
  EXPECT_TRUE(saw_unknown);
}

TEST_F(PluginTest, CachesCarryWhatTheProgramDidBeforeTheTimedCall) {
  PluginRun r = run(R"(
#include <stddef.h>
#include "eok_markers.h"
static float buf[65536];
int main(void) {
  for (size_t i = 0; i < 65536; ++i) buf[i] = (float)i;
  volatile float sum = 0;
  __asm__ volatile("slti zero, zero, %0" ::"i"(EOK_MARK_BEGIN_IMM) : "memory");
  float s = 0;
  for (size_t i = 0; i < 65536; ++i) s += buf[i];
  __asm__ volatile("slti zero, zero, %0" ::"i"(EOK_MARK_END_IMM) : "memory");
  sum = s;
  return 0;
}
)",
                    "c");
  ASSERT_EQ(r.measurement.profiles.size(), 1u);
  ASSERT_TRUE(r.measurement.profiles[0].profile.complete);
  const auto& mem = r.measurement.profiles[0].profile.mem;
  // The 256 KiB were just written: they are in L2 (the last 32 KiB dirty in L1), nothing comes from DRAM,
  // and the region pays for writing back the dirty lines its loads push out of L1, no more.
  EXPECT_LE(mem.fills_from(1), 4u);
  EXPECT_GE(mem.fills_from(0), 4096u - 512u);
  EXPECT_LE(mem.fills_from(0), 4100u);
  EXPECT_GE(mem.l1_writebacks, 500u);
  EXPECT_LE(mem.l1_writebacks, 512u);
  EXPECT_GE(mem.load_bytes, 262144u);
  EXPECT_LT(mem.store_bytes, 1024u);
}

TEST_F(PluginTest, ACallThePlanDoesNotHaveIsAViolation) {
  PluginRun r = run(R"(
.text
.globl main
main:
  li t1, 2
1:
  slti zero, zero, 1248
  slti zero, zero, 1249
  addi t1, t1, -1
  bnez t1, 1b
  li a0, 0
  ret
)",
                    "s", 1);
  EXPECT_EQ(rule_of(r), "measurement-markers");
  EXPECT_EQ(r.process.exit_code, EOK_VIOLATION_EXIT);
  EXPECT_EQ(r.measurement.calls.size(), 1u);  // the first call's record is kept
}

TEST_F(PluginTest, MarkersCountOnlyAtTheWatchedAddresses) {
  // A marker pair executed elsewhere (as a hostile program would) is not a call: only the pair at the
  // addresses eok found in the harness is.
  const fs::path exe = build(R"(
.option norvc
.text
.globl main
main:
  slti zero, zero, 1248
  slti zero, zero, 1249
  j real
real:
  slti zero, zero, 1248
  li t1, 5
  slti zero, zero, 1249
  li a0, 0
  ret
)",
                             "s");
  const auto [real, size] = symbol_range(exe, "real");
  std::ostringstream w;
  w << EOK_WATCH_MAGIC << "\nmarkers " << std::hex << real << " " << real + 8 << "\nret 0\ncall 0 1 0\n";
  PluginRun r = run_watched(board_, exe, 1, {}, w.str());
  EXPECT_TRUE(r.process.ok()) << r.process.describe();
  EXPECT_EQ(rule_of(r), "(none)");
  EXPECT_EQ(r.measurement.calls.size(), 1u);
}

TEST_F(PluginTest, GuestPolicyStopsAProgramThatOpensAFile) {
  PluginRun r = run(R"(
#include <fcntl.h>
#include <stdio.h>
int main(void) {
  int fd = open("/etc/hostname", O_RDONLY);
  printf("opened %d\n", fd);
  return 0;
}
)",
                    "c");
  EXPECT_EQ(rule_of(r), "forbidden-syscall");
  EXPECT_NE(r.measurement.violation->detail.find("openat"), std::string::npos) << r.measurement.violation->detail;
  EXPECT_EQ(r.out.find("opened"), std::string::npos);
}

// A program that makes one system call inside its call: the kernel's side of the policy.
std::string syscall_in_call(const std::string& call) {
  return R"(
#include <stdint.h>
#include <sys/mman.h>
#include <signal.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "eok_markers.h"
int main(void) {
  __asm__ volatile("slti zero, zero, %0" ::"i"(EOK_MARK_BEGIN_IMM) : "memory");
  )" + call +
         R"(;
  __asm__ volatile("slti zero, zero, %0" ::"i"(EOK_MARK_END_IMM) : "memory");
  return 0;
}
)";
}

TEST_F(PluginTest, InsideACallAKernelMayMakeNoSystemCall) {
  for (const char* call : {"write(2, \"x\", 1)", "write(3, \"fake profile\", 12)", "getpid()",
                           "mmap(0, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)",
                           "kill(1, SIGKILL)", "syscall(SYS_pidfd_open, 1, 0)", "syscall(SYS_prlimit64, 0, 7, 0, 0)"}) {
    PluginRun r = run(syscall_in_call(call), "c");
    EXPECT_EQ(rule_of(r), "forbidden-syscall") << call;
    EXPECT_TRUE(r.measurement.calls.empty()) << call;
  }
}

TEST_F(PluginTest, BetweenCallsTheHarnessGetsNoMoreThanItNeeds) {
  const std::string prog = R"(
#include <sys/mman.h>
#include <unistd.h>
#include "eok_markers.h"
int main(void) {
  __asm__ volatile("slti zero, zero, %0" ::"i"(EOK_MARK_BEGIN_IMM) : "memory");
  __asm__ volatile("slti zero, zero, %0" ::"i"(EOK_MARK_END_IMM) : "memory");
  void *p = mmap(0, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED;
}
)";
  PluginRun r = run(prog, "c");
  EXPECT_EQ(rule_of(r), "forbidden-syscall");
  EXPECT_NE(r.measurement.violation->detail.find("between kernel calls"), std::string::npos);
  EXPECT_EQ(r.measurement.calls.size(), 1u);
}

TEST_F(PluginTest, CandidateCodeOutsideACallIsAViolation) {
  const fs::path exe = build(R"(
#include "eok_markers.h"
__attribute__((noinline)) int cand(int x) { return x * 3 + 1; }
volatile int sink;
int main(void) {
  sink = cand(1);  /* before the call: work the timed call would not be charged for */
  __asm__ volatile("slti zero, zero, %0" ::"i"(EOK_MARK_BEGIN_IMM) : "memory");
  sink = cand(2);
  __asm__ volatile("slti zero, zero, %0" ::"i"(EOK_MARK_END_IMM) : "memory");
  return 0;
}
)",
                             "c");
  const auto [lo, size] = symbol_range(exe, "cand");
  PluginRun r = run_watched(board_, exe, 1, {{lo, lo + size}});
  EXPECT_EQ(rule_of(r), "code-outside-call");
  EXPECT_NE(r.measurement.violation->detail.find("before the first call"), std::string::npos);
}

TEST_F(PluginTest, BuffersAreReadWhenTheCallEndsNotLater) {
  // The call writes 'A', then (after the call) the program writes 'B', damages a guard and changes the
  // input: the record holds what the call left.
  const fs::path exe = build(R"(
#include <string.h>
#include <sys/mman.h>
#include "eok_markers.h"
int main(void) {
  unsigned char *in = mmap((void *)0x2000000000, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  unsigned char *out = mmap((void *)0x2000010000, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  memset(in, 7, 4096);
  memset(out, 0, 4096);
  __asm__ volatile("slti zero, zero, %0" ::"i"(EOK_MARK_BEGIN_IMM) : "memory");
  memset(out + 64, 'A', 16);
  out[64 + 16 + 3] = 1;   /* damages the guard after the data */
  in[64 + 5] = 8;         /* changes element 5 of the input */
  __asm__ volatile("slti zero, zero, %0" ::"i"(EOK_MARK_END_IMM) : "memory");
  memset(out + 64, 'B', 16);
  in[64 + 5] = 7;
  out[64 + 16 + 3] = 0;
  return 0;
}
)",
                             "c");
  std::ostringstream w;
  PluginRun probe = run_watched(board_, exe, 1);  // finds the markers
  ASSERT_TRUE(probe.process.ok()) << probe.process.describe();
  // The same run with two buffers watched: the input at 0x2000000000 and the output at 0x2000010000.
  const std::string marker_line = [&] {
    std::istringstream in(read_file(exe.parent_path() / "watch.txt"));
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("markers", 0) == 0) return line;
    }
    return std::string();
  }();
  w << EOK_WATCH_MAGIC << "\n"
    << marker_line << "\nret 0\ncall 0 1 2\n"
    << "buf 0 i 1 2000000000 64 16 64\nbuf 1 o 1 2000010000 64 16 64\n";
  PluginRun r = run_watched(board_, exe, 1, {}, w.str());
  ASSERT_TRUE(r.process.ok()) << r.process.describe();
  ASSERT_EQ(r.measurement.calls.size(), 1u);
  const auto* out = r.measurement.calls[0].buffer(1);
  const auto* in = r.measurement.calls[0].buffer(0);
  ASSERT_TRUE(out && in);
  EXPECT_EQ(out->data, std::string(16, 'A'));
  EXPECT_EQ(out->guard_after, 4);
  EXPECT_EQ(in->input_changed, 6u);
  ASSERT_EQ(r.measurement.begins.size(), 1u);
  EXPECT_NE(r.measurement.begins[0].input_hashes[0], 0u);
}

TEST_F(PluginTest, UnmappedWatchedBuffersAreTheHarnessLayoutBroken) {
  const fs::path exe = build(kCountingProgram, "s");
  PluginRun probe = run_watched(board_, exe, 1);
  std::istringstream in(read_file(exe.parent_path() / "watch.txt"));
  std::string markers;
  std::getline(in, markers);
  std::getline(in, markers);
  PluginRun r = run_watched(
      board_, exe, 1, {},
      std::string(EOK_WATCH_MAGIC) + "\n" + markers + "\nret 0\ncall 0 1 1\nbuf 0 o 4 2000000000 64 64 64\n");
  EXPECT_EQ(rule_of(r), "harness-layout");
}

}  // namespace
}  // namespace eok::testing
