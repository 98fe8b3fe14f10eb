// Timing a kernel on a real board: the candidate linked with the board harness (target/harness.c built
// with EOK_BOARD_TIMING) runs the timing protocol of the board profile's [measure] on a free board of the
// pool; every timed call's figure comes back with how it was taken (BoardTiming).
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "evaluator/board.h"
#include "evaluator/eval_result.h"
#include "evaluator/remote/board_pool.h"
#include "evaluator/remote/transport.h"

namespace eok::evaluator::remote {

struct TimingRequest {
  std::filesystem::path program;  // linked with the board harness
  std::string plan;               // the warm-up calls, then the timed calls
  size_t warmup_calls = 0, timed_calls = 0;
};

struct TimingOutcome {
  EvalStatus status = EvalStatus::infra_error;  // ok, runtime_error, timeout, rejected or infra_error
  std::string message;
  std::string rule;    // rejected: the rule
  BoardTiming timing;  // status ok
};

// Contract: time() never throws for what the kernel or a board does; a board that cannot be reached is
// infra_error (never held against the kernel) once every board of the pool has been tried.
class BoardTimer {
 public:
  BoardTimer(BoardProfile board, std::unique_ptr<Transport> transport, std::unique_ptr<BoardPool> pool);
  TimingOutcome time(const TimingRequest& req);
  BoardPool& pool() { return *pool_; }

 private:
  BoardProfile board_;
  std::unique_ptr<Transport> transport_;
  std::unique_ptr<BoardPool> pool_;
};

// Median and median absolute deviation of `v` (empty: zeros).
std::pair<double, double> median_and_mad(std::vector<double> v);

}  // namespace eok::evaluator::remote
