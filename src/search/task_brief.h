// What the model is told about the task itself, once per prompt: what the function computes (the
// reference source) and what it will be called with (sizes, value ranges, special values, tolerance).
#pragma once

#include <string>

#include "evaluator/task.h"

namespace eok::search {

// The reference implementation (ref.c) as the specification; cut at `max_chars` with a note saying so.
// "" when the task has no readable ref.c.
std::string task_specification(const evaluator::Task& task, size_t max_chars = 3000);

// One line per argument (type, length, direction, value distribution, special values), then the sizes of
// the timed call and of the checks: the input side of the contract the evaluator enforces.
std::string task_inputs(const evaluator::Task& task);

// "|out - ref| <= 1e-05 + 0.0001 * |ref| (f32_composite)", or "bit-exact".
std::string task_tolerance(const evaluator::Task& task);

}  // namespace eok::search
