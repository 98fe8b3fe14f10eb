// The one way the search evaluates a kernel: recorded in the kernel database, never evaluated twice (the
// same normalised source is evaluated once per task, board and measuring setup, across runs), at most
// `concurrency` evaluations on the board at once, with a seed derived from the run's seed and the kernel.
#pragma once

#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <semaphore>
#include <string>

#include "evaluator/evaluator.h"
#include "evaluator/task.h"
#include "src/db/kernel_db.h"

namespace eok::search {

// A kernel with its evaluation.
struct ScoredKernel {
  db::KernelRecord kernel;
  db::EvaluationRecord eval;
  bool ok() const { return eval.status == "ok" && eval.cycles.has_value(); }
  double speedup() const { return eval.speedup.value_or(0); }
  double cycles() const { return eval.cycles.value_or(0); }
};

struct EvaluationCounts {
  int64_t evaluated = 0;   // evaluations run on the board
  int64_t reused = 0;      // kernels whose evaluation was already recorded
};

class EvaluationService {
 public:
  EvaluationService(evaluator::BoardEvaluator& evaluator, db::KernelDb& db, const evaluator::Task& task,
                    std::string board, std::string run_id, uint64_t run_seed, int concurrency);

  // ker0 of the task, recorded once per task and board and shared by every run.
  ScoredKernel baseline();

  // Records `k` (source, description, parents, op, idea/thought, place) in the run and returns it with
  // its evaluation. When the run already holds the same normalised source, that kernel comes back instead
  // (`duplicate` set). Thread-safe; concurrent submissions of one source evaluate it once.
  ScoredKernel submit(db::KernelRecord k, bool* duplicate = nullptr);

  EvaluationCounts counts() const;

 private:
  db::EvaluationRecord evaluate(const db::KernelRecord& k);

  evaluator::BoardEvaluator& evaluator_;
  db::KernelDb& db_;
  const evaluator::Task& task_;
  std::string board_, run_id_;
  uint64_t run_seed_;
  std::counting_semaphore<64> board_slots_;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_future<ScoredKernel>> in_flight_;  // by normalised hash
  EvaluationCounts counts_;
};

// The evaluation record of an evaluator result (evidence and profile as JSON).
db::EvaluationRecord to_record(const evaluator::EvalResult& r, int64_t kernel_id, const std::string& setup);

}  // namespace eok::search
