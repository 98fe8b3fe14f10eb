// The non-LLM tuner: searches the knobs that the task's ker0 declares (src/search/knobs.h) by coordinate
// descent: from the defaults, try every value of one knob with the others at their best so far, keep the
// fastest correct variant, move to the next knob, and repeat passes until nothing improves or the budget
// of evaluations is spent. It is what `eok search` runs without an LLM, and the "Kernel Tuner" baseline.
// A variant whose evaluation ends in infra_error is not counted against the budget and stays untried.
#pragma once

#include "src/search/search_context.h"

namespace eok::search {

struct TunerResult {
  int evaluations = 0;
  int passes = 0;
  std::string best_knobs;  // "LMUL=8 UNROLL=1", or "defaults"
};

// Throws nothing for a ker0 without knobs: it reports that there is nothing to tune (best_knobs "defaults").
TunerResult run_tuner(SearchContext& ctx, const ScoredKernel& baseline);

}  // namespace eok::search
