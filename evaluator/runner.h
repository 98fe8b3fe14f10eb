// Runners execute a built program on a board. The virtual K1 runs it under qemu-riscv64 with eok's plugin
// inside the evaluation sandbox; a real board would copy it over SSH. A runner knows nothing about
// correctness or cost: it runs, limits, and returns what the program and the board's observer wrote.
#pragma once

#include <filesystem>
#include <string>

#include "src/common/subprocess.h"

namespace eok::evaluator {

struct RunRequest {
  std::filesystem::path program;
  std::string plan;                  // the harness's stdin
  std::string watch;                 // what the board's observer watches (qemu_plugin/measurement_protocol.h)
  std::filesystem::path workdir;     // a fresh private directory; the program's cwd
  bool measure = false;              // record the timed call's profile
  double timeout_seconds = 0;        // 0: the board's limit; never more than the board's limit
};

struct RunOutcome {
  ProcessResult process;
  std::string harness;               // the harness's stdout (a fault record, if any)
  std::string measurement;           // the observer's measurement file
};

// Contract: run() never throws because of what the program does (crash, hang, garbage output); it throws
// eok::Error only when the board itself cannot be used (missing emulator, unwritable workdir).
class Runner {
 public:
  virtual ~Runner() = default;
  virtual RunOutcome run(const RunRequest& req) = 0;
};

}  // namespace eok::evaluator
