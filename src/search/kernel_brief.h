// How a kernel is shown to the LLM: its idea, modeled performance, profile and code; and how a failure is
// fed back to the next prompt of its lineage.
#pragma once

#include <string>

#include "src/search/evaluation_service.h"

namespace eok::search {

// Idea, cycles, speedup, bound, distance to the task's roofline, the share of the tolerance its worst
// element used, time by instruction class, the hottest block, and the code.
std::string kernel_brief(const ScoredKernel& k, bool with_profile);

// How far `k` is from the task's roofline: "" when unknown, else one line for the prompt that says
// plainly when the kernel is at its bound.
std::string roofline_line(const ScoredKernel& k);

// A kernel within this factor of its roofline is at its bound: prompts say so and a search stops early.
constexpr double kAtRooflineFactor = 1.10;
bool at_roofline(const ScoredKernel& k);

// What the next attempt from `parent` should avoid: the failed child's idea, its change to the parent (a
// diff, capped), its status and message, the first compiler errors or mismatches. Empty for an
// infra_error: that failure was eok's or the board's, and is never shown to the LLM as the kernel's.
std::string failure_feedback(const ScoredKernel& failed, const ScoredKernel* parent);

// Notice for the next prompt from a parent whose child turned out to be a kernel already evaluated.
std::string repeat_notice(const ScoredKernel& repeated);

}  // namespace eok::search
