// One idea-guided EoH search (DESIGN.md section 1): pick an idea uniformly, sample thoughts by softmax
// over their effectiveness and a parent by softmax over speedup, build the initial population by applying
// each thought to the parent, then run EoH generations of the five strategies, keeping the best.
#pragma once

#include <string>
#include <vector>

#include "src/search/search_context.h"

namespace eok::search {

// What one proposal taught about an idea or thought: the relative improvement over its parent
// (child speedup / parent speedup - 1), or a penalty when the proposal failed. A proposal whose evaluation
// ended in infra_error (eok or the board failed) teaches nothing and gives no observation.
struct Observation {
  std::string id;  // idea or thought id
  double improvement = 0;
};

struct EohResult {
  std::vector<ScoredKernel> population;    // the best kernels at the end, fastest first
  std::vector<Observation> observations;
  std::string idea_id;                      // "" for plain EoH
};

// Improvement recorded for a proposal that produced no correct kernel (infra_error excepted).
constexpr double kFailedProposalImprovement = -0.1;
// A correct child slower than its parent still taught something: its credit is never below this, so it
// ranks above a failure.
constexpr double kSlowerCorrectImprovementFloor = -0.05;

// Runs search `index` of `iteration` from the run's archive (non-empty, correct kernels). Deterministic
// given the run seed and the replies; stops early when ctx.stop is set.
EohResult run_eoh_search(SearchContext& ctx, uint64_t run_seed, int iteration, int index,
                         const std::vector<ScoredKernel>& archive, const Effectiveness& effectiveness);

}  // namespace eok::search
