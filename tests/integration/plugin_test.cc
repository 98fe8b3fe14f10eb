// The virtual board's TCG plugin on real qemu-riscv64 runs: region counting, vtype tracking, the cache
// simulation and the seccomp sandbox.
#include <gtest/gtest.h>
#include <signal.h>

#include "evaluator/cost_model/block_profile.h"
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
  cost::BlockProfile run(const std::string& source, const std::string& lang, ProcessResult* result = nullptr,
                         bool sandbox = true) {
    const fs::path exe = build_program(dir_->path(), source, lang);
    const fs::path profile = dir_->path() / "profile.txt";
    ProcessResult r = run_with_plugin(board_, exe, profile, sandbox);
    if (result) *result = r;
    return fs::exists(profile) ? cost::parse_block_profile(read_file(profile)) : cost::BlockProfile{};
  }
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

TEST_F(PluginTest, CountsOnlyTheTimedRegionAndKnowsEachBlocksVtype) {
  ProcessResult r;
  cost::BlockProfile p = run(kCountingProgram, "s", &r);
  ASSERT_TRUE(r.ok()) << r.describe() << r.err;
  ASSERT_TRUE(p.complete);
  EXPECT_EQ(p.region_begins, 1);
  EXPECT_EQ(p.region_ends, 1);
  uint64_t loop_execs = 0;
  for (const auto& b : p.blocks) {
    // Every block in the region runs under e32, m4, ta, ma = 0xd2.
    EXPECT_EQ(b.vtype, 0xd2) << std::hex << b.vaddr;
    if (b.bytes.size() == 12) loop_execs += b.count;  // addi + vadd.vv + bnez (4 bytes each)
  }
  // The first iteration shares a block with the begin marker, whose counter was reset after it ticked.
  EXPECT_GE(loop_execs, 248u);
  EXPECT_LE(loop_execs, 250u);
}

TEST_F(PluginTest, RegisterFormVsetvlMakesTheVtypeUnknown) {
  cost::BlockProfile p = run(R"(
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
)", "s");
  ASSERT_TRUE(p.complete);
  bool saw_unknown = false;
  for (const auto& b : p.blocks) saw_unknown |= b.vtype == cost::kVtypeUnknown;
  EXPECT_TRUE(saw_unknown);
}

TEST_F(PluginTest, CacheSimulationSeesAColdStreamingRead) {
  cost::BlockProfile p = run(R"(
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
)", "c");
  ASSERT_TRUE(p.complete);
  // 256 KiB read once after the flush: 4096 lines from DRAM, nothing written back.
  EXPECT_GE(p.mem.l2_load_misses, 4096u);
  EXPECT_LE(p.mem.l2_load_misses, 4100u);
  EXPECT_GE(p.mem.load_bytes, 262144u);
  EXPECT_EQ(p.mem.store_bytes < 1024, true);
}

TEST_F(PluginTest, MarkersRunTwiceAreCounted) {
  cost::BlockProfile p = run(R"(
.text
.globl main
main:
  slti zero, zero, 1248
  slti zero, zero, 1249
  slti zero, zero, 1248
  slti zero, zero, 1249
  li a0, 0
  ret
)", "s");
  EXPECT_EQ(p.region_begins, 2);
  EXPECT_EQ(p.region_ends, 2);
}

constexpr const char* kOpensAFile = R"(
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
  int fd = open("/etc/hostname", O_RDONLY);
  printf("opened %d\n", fd);
  return 0;
}
)";

TEST_F(PluginTest, SandboxKillsAProgramThatOpensAFile) {
  ProcessResult r;
  cost::BlockProfile p = run(kOpensAFile, "c", &r, /*sandbox=*/true);
  if (!p.sandboxed) GTEST_SKIP() << "seccomp is not available on this host";
  EXPECT_EQ(r.term_signal, SIGSYS) << r.describe();
  EXPECT_EQ(r.out.find("opened"), std::string::npos);
}

TEST_F(PluginTest, WithoutTheSandboxTheSameProgramRuns) {
  ProcessResult r;
  run(kOpensAFile, "c", &r, /*sandbox=*/false);
  EXPECT_TRUE(r.ok()) << r.describe();
  EXPECT_NE(r.out.find("opened"), std::string::npos);
}

}  // namespace
}  // namespace eok::testing
