// The two levels of abstraction of the miner (DESIGN.md section 1, step 4): commits -> actionable thoughts
// -> general ideas, and the ablation variants of the pool.
//
//   two-level  start from the initial principles as thoughts; a commit joins its nearest thought when within
//              delta (and stays with it while within delta); K-means groups the rest into new thoughts; every
//              changed group is distilled into a description, re-embedded, and commits are re-assigned,
//              until a round changes no pairing (every commit within delta, or the few that no description
//              reaches settled in their K-means group) or the round cap; then K-means over the thoughts'
//              embeddings gives ideas whose principles are distilled.
//   kmeans     one level: K-means groups of commits are the thoughts (no principles, no re-assignment),
//              grouped into ideas as above.
//   raw        no abstraction, the paper's "raw commits" baseline: every commit is an idea of one thought,
//              its message; the search then samples commits uniformly.
//
// Contract: abstract_commits() is deterministic for the same commits, embedder, distiller and options; it
// never prints (progress goes to the callback). It throws eok::Error when there are no commits or the
// embedder fails (its errors pass through), ConfigError for unusable options.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "idea_pool/distiller.h"
#include "idea_pool/mined_commit.h"
#include "idea_pool/pool.h"
#include "idea_pool/principles.h"
#include "src/llm/llm.h"

namespace eok::idea_pool {

enum class PoolVariant { raw, kmeans, two_level };

const char* variant_name(PoolVariant v);  // "raw", "kmeans", "two-level"
// Throws ConfigError naming the three variants.
PoolVariant parse_variant(std::string_view name);

// delta, the cosine distance under which a commit belongs to a thought. The paper's value, 0.05, is a
// distance between neural sentence embeddings, a compressed space (unrelated texts only ~0.2-0.3 apart):
// there it means "describes the same specific change". Use it with such a model (llm::HttpEmbedder).
// The offline TF-IDF/SVD embedder spreads texts out: on OpenBLAS's 2,015 kernel commits unrelated messages
// are ~1.0 apart, a message and its nearest neighbour ~0.15 (same change on a sibling routine), and a
// thought's description, worded unlike any single message, sits 0.3-0.5 from the commits it summarises.
// With it, 0.2 (the paper's 0.05 scaled by the spread) shatters those commits into ~860 thoughts, half of
// them single commits, and never settles; 0.5 gives ~370 thoughts of one specific change each ("Handle INF
// and NAN", "prefetch in DOT and ASUM"), 99.6 % of commits within delta, stable after 15 rounds.
inline constexpr double kPaperDelta = 0.05;   // for a neural embedding model, as in the paper
inline constexpr double kOfflineDelta = 0.5;  // the same grouping under rag::OfflineEmbedder

struct AbstractionProgress {
  std::string stage;  // "embed", "round 2", "distil", "ideas"
  size_t done = 0, total = 0;
};

struct AbstractionOptions {
  PoolVariant variant = PoolVariant::two_level;
  double delta = kOfflineDelta;  // see above; kPaperDelta with a neural embedding model
  size_t group_size = 6;         // K-means of commits aims at groups of about this many: k = ceil(n / group_size)
  size_t max_rounds = 16;        // association rounds of two-level before it stops unsettled
  size_t idea_count = 0;         // ideas; 0: round(sqrt(thoughts))
  size_t max_examples = 3;       // example diffs per thought, from its best commits
  size_t max_example_chars = 4000;
  size_t parallel = 4;  // distillations at once (an LLM distiller's requests overlap)
  uint64_t seed = 1;    // K-means initialisations
  std::vector<Principle> principles = initial_principles();
  std::function<void(const AbstractionProgress&)> progress = {};  // called one report at a time, from any thread
};

struct AbstractionStats {
  size_t commits = 0, thoughts = 0, ideas = 0;
  size_t rounds = 0;           // association rounds run (two-level)
  bool stable = false;         // two-level: a round changed no pairing before the cap (a fixed point)
  bool converged = false;      // two-level: stable, and every commit within delta of its thought
  size_t within_delta = 0;     // commits within delta of their thought's final embedding
  size_t beyond_delta = 0;     // the others: commits that no description comes within delta of (a long
                               // message its group's sentence does not cover), kept in their K-means group
  size_t from_principles = 0;  // thoughts that began as an initial principle
  size_t distillations = 0;    // thought() and principle() calls
};

struct Abstraction {
  IdeaPool pool;  // ids I1, I1.T1 ...; schema eok-idea-pool/1
  AbstractionStats stats;
  std::vector<std::string> thought_of_commit;  // per input commit, the id of its thought
};

Abstraction abstract_commits(const std::vector<MinedCommit>& commits, llm::Embedder& embedder, Distiller& distiller,
                             const AbstractionOptions& options = {});

// A thought's numbers from its commits: effectiveness is the confidence-weighted mean of their improvements
// (the plain mean when no commit has confidence), estimated unless some commit was measured, confidence the
// confidence-weighted mean of their confidences; commits in the given order; examples are the diffs of the
// best commits (measured first, then by improvement), one file each, capped.
Thought summarise_thought(std::string description, const std::vector<const MinedCommit*>& commits, size_t max_examples,
                          size_t max_example_chars);

}  // namespace eok::idea_pool
