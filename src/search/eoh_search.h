// One idea-guided EoH search (DESIGN.md section 1): given its idea, sample thoughts by softmax over their
// effectiveness and a parent by rank, build the initial population by applying each thought to the
// parent, then run EoH generations: each of the five operators in turn makes its children from the
// population, which is trimmed to its size after every operator.
#pragma once

#include <string>
#include <vector>

#include "src/search/sampling.h"
#include "src/search/search_context.h"

namespace eok::search {

// What one proposal taught about a thought, or one search about its idea: the relative improvement over
// the parent (child or best speedup / parent speedup - 1, never below kSlowerCorrectImprovementFloor), or
// kFailedProposalImprovement when the proposal (every proposal of the search) failed. A proposal whose
// evaluation ended in infra_error, or that the model never answered, teaches nothing.
struct Observation {
  std::string id;  // idea or thought id
  double improvement = 0;
};

struct EohResult {
  std::vector<ScoredKernel> population;  // the best kernels at the end, fastest first
  std::vector<Observation> observations;
  std::string idea_id;               // "" for plain EoH
  bool stopped_at_roofline = false;  // ended early: its best kernel was at the task's bound
};

// Improvement recorded for a proposal that produced no correct kernel (infra_error excepted).
constexpr double kFailedProposalImprovement = -0.1;
// A correct child slower than its parent still taught something: its credit is never below this, so it
// ranks above a failure.
constexpr double kSlowerCorrectImprovementFloor = -0.05;

// Runs search `index` of `iteration` from the run's archive (non-empty, correct kernels, best first), seeded
// by `idea` (an idea of ctx.pool; null for plain EoH). Deterministic given the run seed and the replies;
// stops early when ctx.stop is set or when its best kernel is at the task's roofline.
EohResult run_eoh_search(SearchContext& ctx, uint64_t run_seed, int iteration, int index,
                         const std::vector<ScoredKernel>& archive, const Effectiveness& effectiveness,
                         const idea_pool::Idea* idea);

// The ideas of `pool` for `count` parallel searches: drawn without replacement (a search shares its idea
// with another only when the pool has fewer ideas than searches), by softmax over their effectiveness
// with `temperature` (uniform when `by_effectiveness` is false). Deterministic given `rng`.
std::vector<const idea_pool::Idea*> draw_ideas(const idea_pool::IdeaPool& pool, const Effectiveness& effectiveness,
                                               size_t count, bool by_effectiveness, double temperature, Rng& rng);

}  // namespace eok::search
