// Deciding correctness: the candidate's outputs against the reference's, case by case, under the task's
// tolerance (|got - expected| <= atol + rtol * |expected|; non-finite values must match exactly).
#pragma once

#include <string>
#include <vector>

#include "evaluator/eval_result.h"
#include "evaluator/harness_plan.h"
#include "evaluator/harness_records.h"
#include "evaluator/task.h"

namespace eok::evaluator {

struct CheckResult {
  EvalStatus status = EvalStatus::ok;  // ok, wrong_answer, runtime_error (out-of-bounds write)
  std::string message;
  std::vector<Mismatch> mismatches;    // the first few, in case order
};

// Both outputs must hold every case (the caller handles crashed or truncated runs first).
CheckResult compare_outputs(const Task& task, const std::vector<PlannedCase>& cases, const HarnessOutput& reference,
                            const HarnessOutput& candidate, size_t max_mismatches = 8);

// Value of one element as a double (fp16 decoded), for comparisons and evidence.
double element_value(ElemType type, const char* bytes);

}  // namespace eok::evaluator
