// Deciding correctness: the candidate's outputs against the reference's, call by call, as the board's
// plugin read them when each call ended, under the task's tolerance: exact tasks compare bit for bit
// (-0 is not +0, a NaN's payload counts); others |got - expected| <= atol + rtol * |expected|, with
// non-finite values matching in kind, and an element still holding the harness's poison never correct.
#pragma once

#include <string>
#include <vector>

#include "evaluator/eval_result.h"
#include "evaluator/harness_plan.h"
#include "evaluator/measurement_records.h"
#include "evaluator/task.h"

namespace eok::evaluator {

struct CheckResult {
  EvalStatus status = EvalStatus::ok;  // ok, wrong_answer, runtime_error (out-of-bounds write), rejected
  std::string message;
  std::vector<Mismatch> mismatches;  // the first few, in case order

  std::string rule;  // for rejected: the rule broken

  // How much of the tolerance the closest-to-failing element used: max |got - expected| / (atol + rtol *
  // |expected|) over every finite element compared (0 for exact tasks and non-finite values).
  double tolerance_used = 0;
};

// Both measurements must hold every call (the caller handles crashed or truncated runs first).
CheckResult compare_outputs(const Task& task, const std::vector<PlannedCase>& cases, const Measurement& reference,
                            const Measurement& candidate, size_t max_mismatches = 8);

// Value of one element as a double (fp16 decoded), for comparisons and evidence.
double element_value(ElemType type, const char* bytes);

}  // namespace eok::evaluator
