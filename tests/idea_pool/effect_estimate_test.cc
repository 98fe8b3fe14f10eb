#include "idea_pool/effect_estimate.h"

#include <gtest/gtest.h>

namespace eok::idea_pool {
namespace {

constexpr int64_t kDay = 86400;

MinedCommit mined_commit(const std::string& sha, const std::string& message, int64_t time = 1000 * kDay,
                         const std::vector<std::string>& files = {"kernel/riscv64/dot_rvv.c"}) {
  MinedCommit c;
  c.info.sha = sha;
  c.info.message = message;
  c.info.title = message.substr(0, message.find('\n'));
  c.info.time = time;
  for (const auto& f : files) {
    FileChange change;
    change.path = f;
    c.kernel_files.push_back(change);
  }
  return c;
}

std::string sha(char c) {
  return std::string(40, c);
}

Effect estimate(const std::string& message) {
  return estimate_effect(mined_commit(sha('a'), message), EstimateContext());
}

// ----- stated figures ---------------------------------------------------------------------------------

TEST(MessageSignals, StatedFiguresBecomeImprovements) {
  auto claims = [](const std::string& text) { return read_message_signals(text).claims; };
  EXPECT_EQ(claims("Vectorize SBGEMM incopy - 4x faster."), std::vector<double>{3.0});
  EXPECT_EQ(claims("dgemm: 20% faster on SkylakeX"), std::vector<double>{0.2});
  EXPECT_EQ(claims("new optimization of dgemm kernel for bulldozer: 10% performance increase"),
            std::vector<double>{0.1});
  EXPECT_EQ(claims("This gives a 2x speedup for small sizes"), std::vector<double>{1.0});
  EXPECT_EQ(claims("Tweak: can improve performance by ~33%."), std::vector<double>{0.33});
  EXPECT_EQ(claims("speedup of 1.5x over the C kernel"), std::vector<double>{0.5});
  ASSERT_EQ(claims("improvement from 17 to 22-23gflops").size(), 1u);
  EXPECT_NEAR(claims("improvement from 17 to 22-23gflops")[0], 22.0 / 17 - 1, 1e-12);
  ASSERT_EQ(claims("25% less time in the packing loop").size(), 1u);
  EXPECT_NEAR(claims("25% less time in the packing loop")[0], 1 / 0.75 - 1, 1e-12);
  EXPECT_TRUE(read_message_signals("written for THUNDERX2T99, upto 6x faster for large n").peak_claim);
}

TEST(MessageSignals, NumbersThatAreNotClaimsAreIgnored) {
  EXPECT_TRUE(read_message_signals("32x unrolled 16x4 kernel and 8x4 kernel").claims.empty());
  EXPECT_TRUE(read_message_signals("fix 4x4 block of the zgemm kernel").claims.empty());
  EXPECT_TRUE(read_message_signals("use 100% of the vector register").claims.empty());
  EXPECT_TRUE(
      read_message_signals("500x faster (in a debug build)").claims.empty());  // over 10x: not a kernel's speedup
  EXPECT_TRUE(read_message_signals("20% slower but correct").claims.empty());
}

TEST(EffectEstimate, ClaimsAreDiscountedBestCases) {
  const Effect e = estimate("dgemm: 20% faster on SkylakeX");
  EXPECT_FALSE(e.measured);
  EXPECT_NEAR(e.improvement, 0.1, 1e-12);
  EXPECT_DOUBLE_EQ(e.confidence, 0.45);  // a figure and an intent word
  EXPECT_EQ(e.evidence.rfind("estimate: ", 0), 0u) << e.evidence;
  EXPECT_NE(e.evidence.find("'20% faster'"), std::string::npos) << e.evidence;

  EXPECT_NEAR(estimate("Use a 2x4 tile, up to 3x faster").improvement, 2.0 * 0.3, 1e-12);                   // a peak
  EXPECT_DOUBLE_EQ(estimate("Vectorize in-copy packing/copying for SGEMM - 4X faster.").improvement, 1.0);  // capped
}

// ----- words ------------------------------------------------------------------------------------------

TEST(EffectEstimate, OptimisationWordsSuggestAGain) {
  const Effect rvv = estimate("Optimize dot with RVV: unroll by 4 and prefetch");
  EXPECT_FALSE(rvv.measured);
  EXPECT_GT(rvv.improvement, 0.05);
  EXPECT_LE(rvv.improvement, 0.08);
  EXPECT_NE(rvv.evidence.find("optimize"), std::string::npos);
  EXPECT_NE(rvv.evidence.find("RVV"), std::string::npos);

  const Effect one = estimate("Vectorize reduction stage of sgemv_t.");
  EXPECT_GT(one.improvement, 0.0);
  EXPECT_LT(one.improvement, rvv.improvement);  // fewer signals, smaller and less sure
  EXPECT_LT(one.confidence, rvv.confidence);

  EXPECT_GT(estimate("LoongArch64: Opt somatcopy_ct with LASX").improvement, 0.0);
  EXPECT_GT(estimate("speed up zgemv for SIMD widths of 512 bits").improvement, 0.0);
}

TEST(EffectEstimate, FixesAndHousekeepingSuggestNoGain) {
  for (const std::string message :
       {"Fix typo in comment", "fix inverted conditional for NAN handling", "Add workaround for gcc14 miscompilation",
        "address clang array overflow warning", "Update the docs", "Fix build on AIX"}) {
    const Effect e = estimate(message);
    EXPECT_DOUBLE_EQ(e.improvement, 0.0) << message;
    EXPECT_DOUBLE_EQ(e.confidence, 0.3) << message;
    EXPECT_NE(e.evidence.find("nothing about speed"), std::string::npos) << e.evidence;
  }
  // Technique words in a repair name the code repaired, not a speed-up.
  const Effect sve = estimate("Fix SVE gemv compile error");
  EXPECT_NEAR(sve.improvement, 0.005, 1e-12);
  // A performance fix is still about speed, but less sure.
  const Effect regression = estimate("Fix performance regression in dgemm");
  EXPECT_GT(regression.improvement, 0.0);
  EXPECT_LT(regression.improvement, estimate("Improve dgemm performance").improvement);
  // Housekeeping next to a technique does not cancel it.
  EXPECT_GT(estimate("Clean up k2 removal more and unroll SGEMM more").improvement, 0.02);
}

TEST(EffectEstimate, NoSignalIsASmallUnsurePrior) {
  const Effect e = estimate("Common code.");
  EXPECT_DOUBLE_EQ(e.improvement, 0.01);
  EXPECT_DOUBLE_EQ(e.confidence, 0.1);
  EXPECT_DOUBLE_EQ(estimate("").improvement, 0.01);
  const Effect revert = estimate("Revert \"Optimize dot\"\n\nThis reverts commit " + sha('b') + ".");
  EXPECT_DOUBLE_EQ(revert.improvement, 0.0);
  EXPECT_NE(revert.evidence.find("is a revert"), std::string::npos);
}

// ----- the history ------------------------------------------------------------------------------------

TEST(EffectEstimate, ALaterRevertCancelsTheEstimate) {
  const MinedCommit opt = mined_commit(sha('a'), "Optimize dot with RVV");
  EstimateContext ctx;
  CommitInfo revert;
  revert.sha = sha('r');
  revert.title = "Revert \"Optimize dot with RVV\"";
  revert.message = revert.title + "\n\nThis reverts commit " + sha('a').substr(0, 12) + ".\n";  // abbreviated
  revert.time = opt.info.time + kDay;
  ctx.add(revert, {"kernel/riscv64/dot_rvv.c"});
  const Effect e = estimate_effect(opt, ctx);
  EXPECT_DOUBLE_EQ(e.improvement, 0.0);
  EXPECT_DOUBLE_EQ(e.confidence, 0.6);
  EXPECT_NE(e.evidence.find("reverted by rrrrrrrr"), std::string::npos) << e.evidence;
  // By title alone, too.
  CommitInfo by_title = revert;
  by_title.sha = sha('s');
  by_title.message = by_title.title;
  EstimateContext ctx2;
  ctx2.add(by_title, {});
  EXPECT_DOUBLE_EQ(estimate_effect(opt, ctx2).improvement, 0.0);
  // The revert does not revert an unrelated commit.
  EXPECT_GT(estimate_effect(mined_commit(sha('c'), "Optimize gemv with RVV"), ctx).improvement, 0.0);
}

TEST(EffectEstimate, FollowUpFixesOfTheSameFilesLowerIt) {
  const MinedCommit opt = mined_commit(sha('a'), "Optimize dot with RVV", 1000 * kDay, {"kernel/riscv64/dot_rvv.c"});
  const Effect alone = estimate_effect(opt, EstimateContext());
  auto with = [&](const std::vector<MinedCommit>& history) { return estimate_effect(opt, EstimateContext(history)); };

  const MinedCommit fix1 =
      mined_commit(sha('b'), "Fix dot_rvv for inc_x = 0", opt.info.time + 3 * kDay, {"kernel/riscv64/dot_rvv.c"});
  const Effect one = with({opt, fix1});
  EXPECT_NEAR(one.improvement, alone.improvement * 0.7, 1e-12);
  EXPECT_NEAR(one.confidence, alone.confidence * 0.85, 1e-12);
  EXPECT_NE(one.evidence.find("1 follow-up fix of its files within 30 days (bbbbbbbb)"), std::string::npos)
      << one.evidence;

  const MinedCommit fix2 = mined_commit(sha('c'), "fix wrong result of dot for n = 1", opt.info.time + 10 * kDay,
                                        {"kernel/riscv64/dot_rvv.c"});
  EXPECT_NEAR(with({opt, fix1, fix2}).improvement, alone.improvement * 0.49, 1e-12);

  // Not counted: a fix too late, of other files, before the commit, or one that is itself an optimisation.
  const MinedCommit late =
      mined_commit(sha('d'), "Fix dot_rvv", opt.info.time + 90 * kDay, {"kernel/riscv64/dot_rvv.c"});
  const MinedCommit other = mined_commit(sha('e'), "Fix gemv_rvv", opt.info.time + kDay, {"kernel/riscv64/gemv_rvv.c"});
  const MinedCommit before = mined_commit(sha('f'), "Fix dot_rvv", opt.info.time - kDay, {"kernel/riscv64/dot_rvv.c"});
  const MinedCommit more =
      mined_commit(sha('g'), "Optimize dot_rvv further", opt.info.time + kDay, {"kernel/riscv64/dot_rvv.c"});
  EXPECT_DOUBLE_EQ(with({opt, late, other, before, more}).improvement, alone.improvement);

  // A shorter window leaves fix2 out.
  EstimateOptions week;
  week.follow_up_window_s = 7 * kDay;
  EXPECT_NEAR(estimate_effect(opt, EstimateContext({opt, fix1, fix2}, week)).improvement, alone.improvement * 0.7,
              1e-12);
}

TEST(EffectEstimate, IsDeterministicWhateverTheHistoryOrder) {
  const MinedCommit opt = mined_commit(sha('a'), "Optimize dot with RVV, 15% faster");
  const MinedCommit fix1 = mined_commit(sha('b'), "Fix dot_rvv", opt.info.time + kDay);
  const MinedCommit fix2 = mined_commit(sha('c'), "Fix dot_rvv again", opt.info.time + kDay);  // same time
  const Effect a = estimate_effect(opt, EstimateContext({opt, fix1, fix2}));
  const Effect b = estimate_effect(opt, EstimateContext({fix2, opt, fix1}));
  EXPECT_EQ(a.improvement, b.improvement);
  EXPECT_EQ(a.confidence, b.confidence);
  EXPECT_EQ(a.evidence, b.evidence);
  EXPECT_NE(a.evidence.find("2 follow-up fixes"), std::string::npos) << a.evidence;
}

}  // namespace
}  // namespace eok::idea_pool
