// The virtual K1's runner: qemu-riscv64 with the board's CPU model and eok's TCG plugin, inside the
// evaluation sandbox (its own namespaces, the emulator's seccomp allow-lists, no network), with a hard
// wall-clock limit, memory, CPU and file-size limits, and killed with eok.
#pragma once

#include "evaluator/board.h"
#include "evaluator/runner.h"
#include "evaluator/sandbox/sandbox.h"
#include "evaluator/toolchain.h"

namespace eok::evaluator {

class QemuRunner : public Runner {
 public:
  QemuRunner(BoardProfile board, Toolchain tools, const sandbox::Sandbox& sandbox)
      : board_(std::move(board)), tools_(std::move(tools)), sandbox_(sandbox) {}
  RunOutcome run(const RunRequest& req) override;

 private:
  BoardProfile board_;
  Toolchain tools_;
  const sandbox::Sandbox& sandbox_;
};

}  // namespace eok::evaluator
