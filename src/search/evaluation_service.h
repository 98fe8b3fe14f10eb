// The one way the search evaluates a kernel: recorded in the kernel database, never evaluated twice (the
// same normalised source is evaluated once per task, board and measuring setup, across runs), at most
// `concurrency` evaluations on the board at once, with a seed derived from the run's seed and the kernel.
//
// An infra_error (eok or the board failed) is recorded with its kernel, so that the user sees it, but never
// stands for the kernel: it is not reused by hash, nor on resume, nor by a second submission in the same
// process; the kernel is evaluated again. The service counts them in a row and says when the board looks
// broken (infra_failing); what to do about it is the search's decision.
#pragma once

#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <semaphore>
#include <string>

#include "evaluator/task.h"
#include "src/db/kernel_db.h"
#include "src/search/kernel_judge.h"

namespace eok::search {

// A kernel with its evaluation.
struct ScoredKernel {
  db::KernelRecord kernel;
  db::EvaluationRecord eval;
  bool ok() const { return eval.status == EvalStatus::ok && eval.cycles.has_value(); }
  // eok or the board failed: nothing is known about the kernel.
  bool infra_error() const { return eval.status == EvalStatus::infra_error; }
  double speedup() const { return eval.speedup.value_or(0); }
  double cycles() const { return eval.cycles.value_or(0); }
  // The measured noise of `cycles` on a real board (the timed calls' median absolute deviation, in
  // cycles); 0 on the virtual board, whose model is deterministic.
  double noise() const;
  bool measured_on_board() const;
};

// `a` is faster than `b` by more than the board can tell apart: by more than both measurements' noise
// together. On the virtual board: simply fewer cycles.
bool clearly_faster(const ScoredKernel& a, const ScoredKernel& b);

// The champion against ker0, measured again in turns on a real board (ker0, champion, ker0, ...), so
// that both see the same board state (clock, temperature, other load).
struct Remeasured {
  int rounds = 0;
  double champion_cycles = 0, baseline_cycles = 0;  // medians over the rounds
  double noise = 0;                                 // the two measurements' noise together, in cycles
  bool faster = false;                              // the champion is faster beyond the noise
  std::string problem;                              // a round that did not measure (infra_error, ...)
};

struct EvaluationCounts {
  int64_t evaluated = 0;     // evaluations run on the board
  int64_t reused = 0;        // kernels whose evaluation was already recorded
  int64_t infra_errors = 0;  // evaluations that ended in infra_error (counted in `evaluated` too)
};

class EvaluationService {
 public:
  EvaluationService(KernelJudge& judge, db::KernelDb& db, const evaluator::Task& task, std::string board,
                    std::string run_id, uint64_t run_seed, int concurrency);

  // After this many evaluations in a row end in infra_error, the board is taken to be failing.
  static constexpr int kInfraErrorsInARow = 3;

  // ker0 of the task, recorded once per task and board and shared by every run. Throws ToolchainError
  // when ker0 cannot be measured because eok or the board failed (infra_error; nothing is recorded then).
  ScoredKernel baseline();

  // Records `k` (source, description, parents, op, idea/thought, place) in the run and returns it with
  // its evaluation. When the run already holds the same normalised source, that kernel comes back instead
  // (`duplicate` set); a copy of ker0 (after baseline()) is never recorded: ker0 comes back, `duplicate`
  // set. Thread-safe; concurrent submissions of one source evaluate it once.
  ScoredKernel submit(db::KernelRecord k, bool* duplicate = nullptr);

  EvaluationCounts counts() const;

  // Judges `k` again on `times` fresh seeds (derived from the run's seed, the kernel and the attempt; not
  // recorded). Returns the first evaluation that is not ok, or nullopt when every one is ok or failed only
  // in eok or the board (which says nothing about the kernel).
  std::optional<db::EvaluationRecord> recheck(const db::KernelRecord& k, int times);

  // Measures `champion` and `baseline` again in turns, `rounds` times each, with fresh seeds (not
  // recorded). Only meaningful on a real board.
  Remeasured remeasure_against(const db::KernelRecord& champion, const db::KernelRecord& baseline, int rounds);

  // True once kInfraErrorsInARow evaluations in a row (in the order they finished) ended in infra_error;
  // it stays true. last_infra_error(): the message of the latest one.
  bool infra_failing() const;
  std::string last_infra_error() const;

 private:
  db::EvaluationRecord evaluate(const db::KernelRecord& k);
  // The judge's verdict, holding one of the board's slots while it works.
  evaluator::EvalResult judge_on_board(const std::string& source, uint64_t seed);
  void count_evaluation(const db::EvaluationRecord& e);
  void remember_baseline(const ScoredKernel& k);

  KernelJudge& judge_;
  db::KernelDb& db_;
  const evaluator::Task& task_;
  std::string board_, run_id_;
  uint64_t run_seed_;
  std::counting_semaphore<64> board_slots_;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_future<ScoredKernel>> in_flight_;  // by normalised hash
  std::optional<ScoredKernel> baseline_;                               // ker0, once baseline() measured it
  EvaluationCounts counts_;
  int infra_in_a_row_ = 0;
  bool infra_failing_ = false;
  std::string last_infra_error_;
};

// The evaluation record of an evaluator result (evidence and profile as JSON).
db::EvaluationRecord to_record(const evaluator::EvalResult& r, int64_t kernel_id, const std::string& setup);

}  // namespace eok::search
