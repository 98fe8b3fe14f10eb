// How a kernel is shown to the LLM: its idea, modeled performance, profile and code; and how a failure is
// fed back to the next prompt of its lineage.
#pragma once

#include <string>

#include "src/search/evaluation_service.h"

namespace eok::search {

// Idea, cycles, speedup, bound, time by instruction class, the hottest block, and the code.
std::string kernel_brief(const ScoredKernel& k, bool with_profile);

// Status, message, the first compiler errors or mismatches: what the next attempt should avoid. Empty for
// an infra_error: that failure was eok's or the board's, and is never shown to the LLM as the kernel's.
std::string failure_feedback(const ScoredKernel& failed);

}  // namespace eok::search
