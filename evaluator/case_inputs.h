// The inputs a call was given, recomputed on the host from its plan: what a mismatch's evidence shows
// beside the expected and the wrong value. evaluator/target/input_values.h is the one definition of how
// inputs are drawn, shared with the harness, so these are the bits the kernel saw.
#pragma once

#include <cstdint>
#include <string>

#include "evaluator/harness_plan.h"
#include "evaluator/task.h"

namespace eok::evaluator {

// "x[3] = 0.5" for every input buffer of `task` as long as `output` (an elementwise relation; other
// buffers say nothing about one output element), joined by ", ". "" when there is none or `index` < 0.
std::string inputs_at(const Task& task, const PlannedCase& pc, const ArgSpec& output, int64_t index);

}  // namespace eok::evaluator
