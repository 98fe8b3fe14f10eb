// The verdict on a candidate's run, before its outputs are compared: from the process (exit, signal,
// timeout), the board plugin's measurement (its hello, seccomp, tampering, policy violations, calls) and
// the harness's fault record, the status a kernel earns and its evidence in words. A decision of its own,
// tested without a board (tests/evaluator/run_verdict_test.cc).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "evaluator/eval_result.h"
#include "evaluator/harness_plan.h"
#include "evaluator/harness_records.h"
#include "evaluator/measurement_records.h"
#include "evaluator/runner.h"
#include "evaluator/task.h"

namespace eok::evaluator {

using Verdict = std::optional<std::pair<EvalStatus, std::string>>;

// nullopt: every planned call ran and returned, and the outputs are to be compared. Otherwise the status
// and its message; `rule` receives the trust rule a rejection broke. Anything the kernel can cause is a
// kernel status; only an observer that never started (or could not watch) is infra_error.
Verdict judge_run(const RunOutcome& run, const Measurement& m, const HarnessOutput& harness, const Task& task,
                  const std::vector<PlannedCase>& cases, std::string* rule);

// "case 2 (n=65536, timed)", or "before the first case" for an index outside the plan.
std::string case_label(const std::vector<PlannedCase>& cases, int index);

}  // namespace eok::evaluator
