#include "idea_pool/abstraction.h"

#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <set>

#include "idea_pool/clustering.h"
#include "rag/offline_embedder.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"

namespace eok::idea_pool {
namespace {

namespace fs = std::filesystem;

// Six themes of ten commit messages each, written for this test in the style of a BLAS library's history.
const std::vector<std::vector<std::string>>& themes() {
  static const std::vector<std::vector<std::string>> t = {
      {// 0: prefetch
       "Add software prefetch to the dgemv_t kernel\n\nPrefetch the next rows of A a few cache lines ahead.",
       "Prefetch the B panel in the sgemm micro-kernel ahead of its loads",
       "Insert prefetch instructions into the saxpy loop to hide memory latency",
       "Tune the prefetch distance for ddot on C910", "Prefetch the next column of A in zgemv_n",
       "Prefetch the C tile before the dgemm kernel writes it",
       "Increase the prefetch distance in dscal for large vectors",
       "Prefetch the x and y streams in daxpy to cover cache misses",
       "Add prefetch of the packed A panel in the strsm kernel", "cgemv_t: software prefetch two cache lines ahead"},
      {// 1: unrolling with independent accumulators
       "Unroll the ddot loop by four with independent accumulators",
       "sdot: use four accumulators to break the dependency chain",
       "Unroll the sasum inner loop twice and sum two partial accumulators",
       "dnrm2: unroll by eight and keep separate partial accumulators",
       "Unroll the zdot loop and accumulate in independent registers",
       "isamax: unroll the loop with independent accumulators of the maximum",
       "Unroll dgemv_t by four rows with one accumulator per row",
       "Unroll the dasum loop by four accumulators to hide latency",
       "casum: unroll the loop and use two accumulators for latency hiding",
       "sgemv_t: unroll the reduction loop with independent accumulators"},
      {// 2: fused multiply-add
       "Use vfmacc instead of vfmul and vfadd in saxpy",
       "Fuse the multiply and the add in the dgemm kernel with vfmacc.vf",
       "zaxpy: replace separate multiply and add with fused multiply-add",
       "Use fused multiply-add (FMA) in the sgemv_n inner loop",
       "daxpby: compute alpha*x+beta*y with vfmacc and one vfmul", "drot: use vfmacc and vfnmsac for the rotation",
       "Use FMA instructions in the cgemm micro-kernel", "ddot: multiply-accumulate with vfmacc.vv",
       "strmm kernel: fused multiply-add for the update of C", "Enable FMA (vfmacc) in the sgemm kernel for RVV"},
      {// 3: tails with vsetvli
       "Handle the tail of saxpy with vsetvli instead of a scalar remainder loop",
       "dscal: strip-mine with vsetvli so the tail needs no scalar remainder code",
       "Remove the scalar tail loop from sdot, vsetvli sets the vector length",
       "dcopy: the vl from vsetvli handles the tail, no scalar remainder",
       "zswap: process the tail with a shorter vl from vsetvli instead of scalar code",
       "sasum: vsetvli handles the tail instead of a scalar remainder loop",
       "Drop the scalar remainder loop in daxpy, the last strip uses a smaller vl",
       "Tail handling with vsetvli in the sgemv_n kernel",
       "Rewrite the dswap tail with vsetvli, remove the scalar remainder",
       "isamin: handle the tail with vsetvli rather than a scalar loop"},
      {// 4: packing
       "Pack A into contiguous panels before the sgemm micro-kernel",
       "Add a packing routine (ncopy) that packs B panels for dgemm",
       "Vectorize the gemm tcopy packing routine with vector loads",
       "Pack the triangular panel in strsm before calling the kernel",
       "Faster dgemm oncopy: pack the panels with vector loads and stores",
       "Pack the panels of A for the small-matrix dgemm kernel",
       "zgemm: pack complex panels interleaved for the micro-kernel",
       "Rework the sgemm itcopy packing routine to pack eight columns at a time",
       "Use packed panels of A in the dsymm copy routine",
       "cgemm otcopy: pack the panels in the order the kernel reads them"},
      {// 5: NaN and Inf semantics
       "Handle NaN and Inf in sscal when alpha is zero", "dscal: propagate NaN from x when alpha is zero",
       "Fix the handling of Inf and NaN in dnrm2", "zscal: do not skip the multiplication when x holds NaN or Inf",
       "Correct NaN propagation in the daxpy shortcut for a zero alpha",
       "cscal: treat Inf and NaN arguments like the reference implementation", "Fix the NaN check in isamax",
       "dasum: a NaN input must give NaN", "Handle Inf and NaN arguments in srot",
       "Restore the NaN semantics of dscal with a zero alpha"},
  };
  return t;
}

struct Corpus {
  std::vector<MinedCommit> commits;
  std::vector<size_t> theme;            // per commit
  std::map<std::string, size_t> index;  // sha -> commit

  Corpus() {
    for (size_t th = 0; th < themes().size(); ++th) {
      for (size_t i = 0; i < themes()[th].size(); ++i) {
        MinedCommit c;
        c.info.sha = "c" + std::to_string(th) + std::to_string(i) + std::string(38, '0');
        c.info.message = themes()[th][i];
        c.info.title = c.info.message.substr(0, c.info.message.find('\n'));
        FileChange file;
        file.path = "kernel/riscv64/k" + std::to_string(th) + ".c";
        c.kernel_files.push_back(file);
        c.diff = "diff --git a/kernel/riscv64/k" + std::to_string(th) + ".c b/kernel/riscv64/k" + std::to_string(th) +
                 ".c\n@@ -1,2 +1,2 @@\n-old " + std::to_string(i) + "\n+new " + std::to_string(i) +
                 "\ndiff --git a/kernel/riscv64/other.c b/kernel/riscv64/other.c\n@@ -1 +1 @@\n-a\n+b\n";
        // Theme 0 was covered by performance evaluations; the rest are estimates.
        c.effect.measured = th == 0 && i < 5;
        c.effect.improvement = th == 0 ? 0.02 * static_cast<double>(i + 1) : 0.01;
        c.effect.confidence = c.effect.measured ? 0.9 : 0.3;
        index[c.info.sha] = commits.size();
        commits.push_back(std::move(c));
        theme.push_back(th);
      }
    }
    // A commit that is neither: K-means must still give it a home.
    MinedCommit odd;
    odd.info.sha = std::string(40, 'f');
    odd.info.message = odd.info.title = "Rename a variable in the kernel Makefile";
    index[odd.info.sha] = commits.size();
    commits.push_back(odd);
    theme.push_back(6);
  }

  std::vector<std::string> texts() const {
    std::vector<std::string> t;
    for (const auto& c : commits) t.push_back(c.text());
    return t;
  }
};

struct Fixture {
  Corpus corpus;
  rag::OfflineEmbedder embedder = rag::OfflineEmbedder::fit(corpus.texts());
  ExtractiveDistiller distiller{corpus.texts()};

  Abstraction run(AbstractionOptions options = {}) {
    return abstract_commits(corpus.commits, embedder, distiller, options);
  }
};

// The theme most of `commits` belong to, and how many do.
std::pair<size_t, size_t> majority(const Corpus& corpus, const std::vector<std::string>& shas) {
  std::map<size_t, size_t> count;
  for (const auto& sha : shas) ++count[corpus.theme[corpus.index.at(sha)]];
  auto best = std::max_element(count.begin(), count.end(), [](auto& a, auto& b) { return a.second < b.second; });
  return *best;
}

std::vector<std::string> shas_of(const Thought& t) {
  std::vector<std::string> s;
  for (const auto& c : t.commits) s.push_back(c.sha);
  return s;
}

std::vector<std::string> shas_of(const Idea& idea) {
  std::vector<std::string> s;
  for (const auto& t : idea.thoughts) {
    for (const auto& c : t.commits) s.push_back(c.sha);
  }
  return s;
}

// Every commit is in exactly one thought, and thought_of_commit says which.
void expect_every_commit_placed_once(const Corpus& corpus, const Abstraction& a) {
  std::map<std::string, std::string> where;
  for (const auto& idea : a.pool.ideas) {
    for (const auto& t : idea.thoughts) {
      EXPECT_FALSE(t.commits.empty()) << t.id;
      for (const auto& c : t.commits) EXPECT_TRUE(where.emplace(c.sha, t.id).second) << c.sha << " in two thoughts";
    }
  }
  ASSERT_EQ(where.size(), corpus.commits.size());
  ASSERT_EQ(a.thought_of_commit.size(), corpus.commits.size());
  for (size_t i = 0; i < corpus.commits.size(); ++i)
    EXPECT_EQ(a.thought_of_commit[i], where[corpus.commits[i].info.sha]);
}

TEST(TwoLevel, EveryCommitIsWithinDeltaOfItsThoughtOrAccountedFor) {
  Fixture f;
  const Abstraction a = f.run();
  expect_every_commit_placed_once(f.corpus, a);
  EXPECT_EQ(a.stats.commits, f.corpus.commits.size());
  EXPECT_EQ(a.stats.within_delta + a.stats.beyond_delta, f.corpus.commits.size());
  EXPECT_TRUE(a.stats.stable);
  EXPECT_LE(a.stats.beyond_delta, 2u);

  // Checked independently: each commit's distance to its thought's description.
  const auto commit_vectors = f.embedder.embed(f.corpus.texts());
  size_t within = 0;
  for (const auto& idea : a.pool.ideas) {
    for (const auto& t : idea.thoughts) {
      const auto tv = f.embedder.embed_one(t.description);
      for (const auto& c : t.commits)
        within += cosine_distance(commit_vectors[f.corpus.index.at(c.sha)], tv) <= kOfflineDelta;
    }
  }
  EXPECT_EQ(within, a.stats.within_delta);
}

TEST(TwoLevel, RecoversTheThemesAsThoughtsAndIdeas) {
  Fixture f;
  const Abstraction a = f.run({.idea_count = 6});
  // Thoughts are pure: nearly every commit shares its thought with commits of its own theme.
  size_t agreeing = 0;
  for (const auto& idea : a.pool.ideas) {
    for (const auto& t : idea.thoughts) {
      const auto shas = shas_of(t);
      const auto [theme, count] = majority(f.corpus, shas);
      agreeing += count;
      EXPECT_EQ(t.description.rfind(kExtractivePrefix, 0), 0u) << t.description;
    }
  }
  EXPECT_GE(agreeing, f.corpus.commits.size() - 4);
  // Each theme is essentially one idea, and different themes are different ideas.
  ASSERT_EQ(a.pool.ideas.size(), 6u);
  std::set<size_t> themes_seen;
  for (const auto& idea : a.pool.ideas) {
    const auto [theme, count] = majority(f.corpus, shas_of(idea));
    EXPECT_GE(count, 7u) << idea.principle;  // "prefetch of the packed A panel" may well go with packing
    themes_seen.insert(theme);
    EXPECT_FALSE(idea.principle.empty());
  }
  EXPECT_EQ(themes_seen.size(), 6u);
}

TEST(TwoLevel, IdsAreStableAndThePoolIsValid) {
  Fixture f;
  const Abstraction a = f.run();
  for (size_t i = 0; i < a.pool.ideas.size(); ++i) {
    EXPECT_EQ(a.pool.ideas[i].id, "I" + std::to_string(i + 1));
    for (size_t j = 0; j < a.pool.ideas[i].thoughts.size(); ++j) {
      EXPECT_EQ(a.pool.ideas[i].thoughts[j].id, a.pool.ideas[i].id + ".T" + std::to_string(j + 1));
    }
  }
  EXPECT_EQ(a.pool.source.at("variant"), "two-level");
  EXPECT_EQ(a.pool.source.at("distiller"), "extractive");
  EXPECT_EQ(a.pool.source.at("embedder"), f.embedder.describe());
  TempDir dir(fs::temp_directory_path(), "eok-abstraction-");
  write_file_atomic(dir.path() / "pool.json", pool_to_json(a.pool));
  const IdeaPool back = load_pool(dir.path() / "pool.json");
  EXPECT_EQ(pool_to_json(back), pool_to_json(a.pool));
}

TEST(TwoLevel, CommitsNearAPrincipleJoinIt) {
  Fixture f;
  // A principle worded like the prefetch commits attracts them before any K-means.
  AbstractionOptions o;
  o.principles = {
      {"prefetch", "memory", "Prefetch data a few cache lines ahead in the kernel to hide memory latency."}};
  const Abstraction a = f.run(o);
  EXPECT_EQ(a.stats.from_principles, 1u);
  o.principles = {{"unrelated", "work", "Quantum chromodynamics lattice gauge."}};
  EXPECT_EQ(f.run(o).stats.from_principles, 0u);  // an empty principle is dropped
}

TEST(TwoLevel, IsDeterministic) {
  Fixture f, g;
  const Abstraction a = f.run({.parallel = 1}), b = g.run({.parallel = 4});
  EXPECT_EQ(pool_to_json(a.pool), pool_to_json(b.pool));
  EXPECT_EQ(a.thought_of_commit, b.thought_of_commit);
  EXPECT_NE(pool_to_json(a.pool), pool_to_json(f.run({.idea_count = 3, .seed = 99}).pool));
}

TEST(TwoLevel, ReportsProgress) {
  Fixture f;
  std::vector<std::string> stages;
  std::mutex m;
  AbstractionOptions o;
  o.progress = [&](const AbstractionProgress& p) {
    std::lock_guard lock(m);
    EXPECT_LE(p.done, p.total);
    if (stages.empty() || stages.back() != p.stage) stages.push_back(p.stage);
  };
  f.run(o);
  ASSERT_GE(stages.size(), 3u);
  EXPECT_EQ(stages.front(), "embed");
  EXPECT_EQ(stages[1], "round 1");
  EXPECT_EQ(stages.back(), "ideas");
}

TEST(Effectiveness, ConfidenceWeightedAndMeasuredWins) {
  MinedCommit measured, estimated, unknown;
  measured.info.sha = "m";
  measured.effect = {0.10, true, 0.9, "bench"};
  estimated.info.sha = "e";
  estimated.effect = {0.02, false, 0.3, "estimate"};
  unknown.info.sha = "u";
  const Thought both = summarise_thought("x", {&estimated, &measured}, 3, 100);
  EXPECT_NEAR(both.effectiveness, (0.9 * 0.10 + 0.3 * 0.02) / 1.2, 1e-12);
  EXPECT_FALSE(both.estimated);
  EXPECT_NEAR(both.confidence, (0.81 + 0.09) / 1.2, 1e-12);
  ASSERT_EQ(both.commits.size(), 2u);
  EXPECT_EQ(both.commits[0].sha, "e");  // commits in the given order
  EXPECT_TRUE(both.commits[0].estimated);
  EXPECT_FALSE(both.commits[1].estimated);
  const Thought guess = summarise_thought("y", {&estimated}, 3, 100);
  EXPECT_TRUE(guess.estimated);
  EXPECT_NEAR(guess.effectiveness, 0.02, 1e-12);
  const Thought none = summarise_thought("z", {&unknown, &unknown}, 3, 100);
  EXPECT_EQ(none.effectiveness, 0);
  EXPECT_TRUE(none.estimated);
}

TEST(Effectiveness, ExamplesAreCappedDiffsOfTheBestCommits) {
  Corpus corpus;
  std::vector<const MinedCommit*> prefetch;
  for (size_t i = 0; i < 10; ++i) prefetch.push_back(&corpus.commits[i]);
  const Thought t = summarise_thought("prefetch", prefetch, 2, 1000);
  ASSERT_EQ(t.examples.size(), 2u);
  EXPECT_EQ(t.examples[0].commit, corpus.commits[4].info.sha);  // the best measured one (+10 %)
  EXPECT_EQ(t.examples[1].commit, corpus.commits[3].info.sha);
  EXPECT_EQ(t.examples[0].file, "kernel/riscv64/k0.c");
  EXPECT_EQ(t.examples[0].code.find("other.c"), std::string::npos);  // one file per example
  EXPECT_FALSE(t.estimated);
  const Thought tiny = summarise_thought("prefetch", prefetch, 1, 20);
  EXPECT_LE(tiny.examples[0].code.size(), 20u + 6u);
  EXPECT_TRUE(tiny.examples[0].code.ends_with("[...]\n"));
}

TEST(Effectiveness, PoolThoughtsAggregateTheirCommits) {
  Fixture f;
  const Abstraction a = f.run();
  for (const auto& idea : a.pool.ideas) {
    double sum = 0;
    for (const auto& t : idea.thoughts) {
      bool any_measured = false;
      for (const auto& c : t.commits) any_measured |= !c.estimated;
      EXPECT_EQ(t.estimated, !any_measured) << t.id;
      sum += t.effectiveness;
    }
    EXPECT_NEAR(idea.effectiveness, sum / static_cast<double>(idea.thoughts.size()), 1e-12);
  }
}

TEST(Variants, RawKeepsEveryCommitAsItsOwnIdea) {
  Fixture f;
  const Abstraction a = f.run({.variant = PoolVariant::raw});
  expect_every_commit_placed_once(f.corpus, a);
  ASSERT_EQ(a.pool.ideas.size(), f.corpus.commits.size());
  EXPECT_EQ(a.pool.thought_count(), f.corpus.commits.size());
  EXPECT_EQ(a.pool.source.at("variant"), "raw");
  EXPECT_EQ(a.stats.distillations, 0u);
  for (const auto& idea : a.pool.ideas) EXPECT_EQ(idea.thoughts[0].commits[0].title, idea.principle);
}

TEST(Variants, KMeansGroupsCommitsWithoutPrinciplesOrRounds) {
  Fixture f;
  const Abstraction a = f.run({.variant = PoolVariant::kmeans, .group_size = 10, .idea_count = 3});
  expect_every_commit_placed_once(f.corpus, a);
  EXPECT_LE(a.pool.thought_count(), 7u);  // ceil(61 / 10) clusters, empty ones dropped
  EXPECT_EQ(a.pool.ideas.size(), 3u);
  EXPECT_EQ(a.stats.from_principles, 0u);
  EXPECT_EQ(a.stats.rounds, 1u);
  EXPECT_FALSE(a.stats.converged);
  EXPECT_EQ(a.pool.source.at("variant"), "kmeans");
  EXPECT_EQ(a.pool.source.count("delta"), 0u);
}

TEST(Variants, ParseAndName) {
  EXPECT_EQ(parse_variant("two-level"), PoolVariant::two_level);
  EXPECT_EQ(parse_variant("kmeans"), PoolVariant::kmeans);
  EXPECT_EQ(parse_variant("raw"), PoolVariant::raw);
  EXPECT_STREQ(variant_name(PoolVariant::two_level), "two-level");
  EXPECT_THROW(parse_variant("three-level"), ConfigError);
}

TEST(Abstraction, RefusesNothingToDoAndBadOptions) {
  Fixture f;
  EXPECT_THROW(abstract_commits({}, f.embedder, f.distiller), Error);
  EXPECT_THROW(f.run({.delta = 3}), ConfigError);
  EXPECT_THROW(f.run({.group_size = 0}), ConfigError);
}

}  // namespace
}  // namespace eok::idea_pool
