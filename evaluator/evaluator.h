// The Evaluator seam: preprocess -> static checks -> compile -> object checks -> link with the harness ->
// image checks -> run on the board next to the reference -> compare -> measure. This is the one place that
// decides a candidate's EvalStatus. Every step of the candidate's runs inside the evaluation sandbox. On a
// real board every check runs on its virtual twin first; only a correct kernel is then timed on the board.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "evaluator/board.h"
#include "evaluator/compiler.h"
#include "evaluator/cost_model/cost_model.h"
#include "evaluator/eval_result.h"
#include "evaluator/remote/board_timer.h"
#include "evaluator/runner.h"
#include "evaluator/task.h"

namespace eok::evaluator {

// Contract: evaluate() returns a result for every input, however hostile; it throws only for problems of
// eok's own configuration (ToolchainError, ConfigError). The same (task, source, seed) gives the same
// status and cycles.
class Evaluator {
 public:
  virtual ~Evaluator() = default;
  virtual EvalResult evaluate(const Task& task, const std::string& source, uint64_t seed) = 0;
  // The kernel's identity (EvalResult::kernel_hash): equal for sources that differ only in comments and
  // layout, different for any two programs clang would compile differently. Never throws for a bad source.
  virtual std::string identity(const Task& task, const std::string& source) = 0;
};

struct BoardEvaluatorConfig {
  BoardProfile board;
  std::filesystem::path root;            // eok root: evaluator/target/ sources
  std::filesystem::path scratch_dir;     // fresh temp dirs go here
  std::filesystem::path baseline_cache;  // ker0 results
  std::string fingerprint;               // everything outside the sources that changes measurements
  bool keep_temp = false;                // leave each evaluation's temp dir for debugging
  // The task's roofline bound in cycles on this board (0: none). A kernel modeled well below it is an
  // evaluator hole or an overstated task, flagged instead of celebrated.
  std::function<double(const Task&)> roofline_cycles;
  // A real board: kernels correct on the virtual twin are timed there, and its median is their cycles.
  // nullptr: the virtual board's modeled cycles count.
  remote::BoardTimer* board_timer = nullptr;
};

class BoardEvaluator : public Evaluator {
 public:
  BoardEvaluator(BoardEvaluatorConfig cfg, Compiler& compiler, Runner& runner, const cost::CostModel& model);

  EvalResult evaluate(const Task& task, const std::string& source, uint64_t seed) override;
  std::string identity(const Task& task, const std::string& source) override;

  // ker0's modeled cycles, evaluated once and cached by everything that determines them. Throws
  // eok::Error when ker0 itself does not pass (a broken task is eok's problem, not the candidate's).
  double baseline_cycles(const Task& task);

  // evaluate() plus baseline_cycles and speedup (for status ok).
  EvalResult evaluate_against_baseline(const Task& task, const std::string& source, uint64_t seed);

  // Identifies the measuring setup (board profile, cost table, plugin, tools, eok build): results of one
  // setup are comparable; a recorded evaluation is reused only under the same setup.
  const std::string& setup() const { return cfg_.fingerprint; }

  // How this board compiles a task's kernel source (march, -O, tune, the task's prototype): the request
  // of every candidate, ker0 and identity.
  CompileRequest kernel_request(const Task& task, const std::string& source) const;

 private:
  struct Baseline {
    double cycles = 0;
    double run_seconds = 0;  // ker0's wall time on the board: the scale for candidates' time limit
  };
  std::filesystem::path support_object(const Task& task, const std::string& which);
  // Times a kernel that passed on the virtual twin on the real board (its object linked with the board
  // harness and the task's glue object); fills res or returns why not.
  std::optional<std::pair<EvalStatus, std::string>> time_on_board(const Task& task, const std::filesystem::path& object,
                                                                  const std::filesystem::path& glue,
                                                                  const std::filesystem::path& dir, uint64_t seed,
                                                                  EvalResult& res);
  std::filesystem::path baseline_file(const Task& task) const;
  std::optional<Baseline> cached_baseline(const Task& task) const;
  double run_timeout(const Task& task) const;

  BoardEvaluatorConfig cfg_;
  Compiler& compiler_;
  Runner& runner_;
  const cost::CostModel& model_;
};

// The fingerprint of the measuring setup: board profile, cost table, plugin and tool versions.
std::string measurement_fingerprint(const BoardProfile& board, const Toolchain& tools);

}  // namespace eok::evaluator
