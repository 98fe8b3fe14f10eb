// Everything needed to evaluate kernels on one board, assembled from the board profile: toolchain,
// compiler with its object cache, runner, cost model and evaluator. The one place that picks the
// implementation of each seam for a board.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "evaluator/board.h"
#include "evaluator/compiler.h"
#include "evaluator/cost_model/cost_model.h"
#include "evaluator/cost_model/memory_model.h"
#include "evaluator/evaluator.h"
#include "evaluator/runner.h"
#include "evaluator/sandbox/sandbox.h"
#include "evaluator/toolchain.h"
#include "src/common/paths.h"

namespace eok::evaluator {

struct BoardSession {
  BoardProfile board;
  Toolchain tools;
  std::unique_ptr<sandbox::Sandbox> sandbox;  // every compile, link and run of an evaluation goes through it
  std::unique_ptr<Compiler> compiler;
  std::unique_ptr<Runner> runner;
  std::unique_ptr<cost::CostModel> cost_model;
  cost::MemoryModelParams memory;  // the board's fitted memory model (the cost model's and the rooflines')
  std::unique_ptr<remote::BoardTimer> board_timer;  // a real board's (runner ssh, slurm, local); else null
  std::unique_ptr<BoardEvaluator> evaluator;
};

struct SessionOptions {
  bool keep_temp = false;
};

// `board_name`: a profile under configs/boards/ or the path of one. A real board's session checks kernels
// on its virtual twin and times them on the board. Throws NotFoundError (unknown board), ToolchainError
// (missing tools or sandbox: the message names the fix) or ConfigError (a wrong profile).
BoardSession open_board_session(const std::filesystem::path& root, const Workspace& ws, const std::string& board_name,
                                const SessionOptions& options = {});

}  // namespace eok::evaluator
