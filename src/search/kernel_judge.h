// The KernelJudge seam: what the search asks of the evaluator. One candidate in, one EvalResult out,
// with its speedup over the task's ker0; and the name of the measuring setup, so that a recorded
// evaluation is reused only where it is comparable. The board's evaluator is the one implementation eok
// runs; tests judge with a scripted one (infrastructure failures on demand, no emulator needed).
#pragma once

#include <cstdint>
#include <string>

#include "evaluator/eval_result.h"
#include "evaluator/evaluator.h"
#include "evaluator/task.h"

namespace eok::search {

// Contract: judge() returns a result for every source, however hostile (a bad kernel is a status, never
// an exception); for status ok it carries cycles, baseline_cycles and speedup. infra_error means eok or
// the board failed and says nothing about the kernel. It throws only for eok's own configuration problems
// (eok::Error subclasses). The same (task, source, seed) gives the same status and cycles. Thread-safe.
class KernelJudge {
 public:
  virtual ~KernelJudge() = default;
  virtual evaluator::EvalResult judge(const evaluator::Task& task, const std::string& source, uint64_t seed) = 0;
  // Identifies the measuring setup (board profile, cost table, tools, eok build).
  virtual const std::string& setup() const = 0;
  // The kernel's identity: equal for sources that differ only in comments and layout, different for any
  // two programs (evaluator::Evaluator::identity). Kernels of one identity share one evaluation.
  virtual std::string identity(const evaluator::Task& task, const std::string& source) = 0;
};

// The board's evaluator behind the seam.
class BoardJudge final : public KernelJudge {
 public:
  explicit BoardJudge(evaluator::BoardEvaluator& evaluator) : evaluator_(evaluator) {}
  evaluator::EvalResult judge(const evaluator::Task& task, const std::string& source, uint64_t seed) override {
    return evaluator_.evaluate_against_baseline(task, source, seed);
  }
  const std::string& setup() const override { return evaluator_.setup(); }
  std::string identity(const evaluator::Task& task, const std::string& source) override {
    return evaluator_.identity(task, source);
  }

 private:
  evaluator::BoardEvaluator& evaluator_;
};

}  // namespace eok::search
