// What the harness is told to do for one evaluation: the generated glue that calls the task's entry
// function, and the plan of cases (sizes, seeds, buffers) it reads on stdin.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "evaluator/task.h"

namespace eok::evaluator {

struct PlannedCase {
  SizeParams sizes;
  bool timed = false;
  uint64_t seed = 0;
  bool tight = false;  // buffers end exactly at an unmapped page
};

// The task's prototype, force-included before candidate and reference sources so that a definition with
// another signature fails to compile with a clear message.
std::string prototype_header(const Task& task);

// C source of eok_invoke() for this task: casts the harness's buffers and scalars to the signature's
// types and stores the return value.
std::string generate_glue(const Task& task);

// Every check size, then the timed size, each with its own seed drawn from `seed`; timed is last.
std::vector<PlannedCase> plan_cases(const Task& task, uint64_t seed);

// The plan text for evaluator/target/harness.c (format in harness_protocol.h).
std::string render_plan(const Task& task, const std::vector<PlannedCase>& cases);

// splitmix64 step: the one source of derived seeds in the evaluator.
uint64_t next_seed(uint64_t& state);

}  // namespace eok::evaluator
