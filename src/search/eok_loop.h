// EoK's outer loop: iterations of parallel idea-guided EoH searches over the run's archive (its best
// kernels and ker0), with the effectiveness of ideas and thoughts updated from each iteration's results.
// Without an idea pool the same loop runs plain EoH.
#pragma once

#include "src/db/kernel_db.h"
#include "src/search/eoh_search.h"
#include "src/search/search_context.h"

namespace eok::search {

struct LoopResult {
  int iterations_done = 0;
};

// Runs the loop for `run_id` in ctx. Deterministic given the run's seed and the LLM's replies, so a
// resumed run retraces its steps from the records and the response cache.
LoopResult run_eok_loop(SearchContext& ctx, db::KernelDb& db, const std::string& run_id, const std::string& board,
                        uint64_t run_seed, const ScoredKernel& baseline);

}  // namespace eok::search
