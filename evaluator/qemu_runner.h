// The virtual K1's runner: qemu-riscv64 with the board's CPU model, eok's TCG plugin for measured runs,
// a hard wall-clock limit with process-group kill, memory/CPU/file-size limits, no network.
#pragma once

#include "evaluator/board.h"
#include "evaluator/runner.h"
#include "evaluator/toolchain.h"

namespace eok::evaluator {

class QemuRunner : public Runner {
 public:
  QemuRunner(BoardProfile board, Toolchain tools) : board_(std::move(board)), tools_(std::move(tools)) {}
  RunOutcome run(const RunRequest& req) override;

 private:
  BoardProfile board_;
  Toolchain tools_;
};

}  // namespace eok::evaluator
