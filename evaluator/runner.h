// Runners execute a built program on a board. The virtual K1 runs it under qemu-riscv64 with eok's plugin
// inside the evaluation sandbox; a real board would copy it over SSH. A runner knows nothing about
// correctness or cost: it runs, limits, and returns what the program and the board's observer wrote.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "src/common/subprocess.h"

namespace eok::evaluator {

struct RunRequest {
  std::filesystem::path program;
  std::string plan;               // the harness's stdin
  std::string watch;              // what the board's observer watches (qemu_plugin/measurement_protocol.h)
  std::filesystem::path workdir;  // a fresh private directory; the program's cwd
  bool measure = false;           // record the timed calls' profiles
  double timeout_seconds = 0;     // 0: the board's limit; never more than the board's limit
  // A whole program measured by its region markers (target/eok_region.h) instead of a harness: no watch
  // file, `plan` is its stdin, `args` its arguments.
  bool regions = false;
  std::vector<std::string> args;
};

// A run of the harness with its plan and watch file.
inline RunRequest harness_run(std::filesystem::path program, std::string plan, std::string watch,
                              std::filesystem::path workdir, bool measure, double timeout_seconds = 0) {
  RunRequest r;
  r.program = std::move(program);
  r.plan = std::move(plan);
  r.watch = std::move(watch);
  r.workdir = std::move(workdir);
  r.measure = measure;
  r.timeout_seconds = timeout_seconds;
  return r;
}

struct RunOutcome {
  ProcessResult process;
  std::string harness;         // the program's stdout (the harness's: a fault record, if any), a prefix
  uint64_t harness_bytes = 0;  // how much the program wrote to stdout in all (more than `harness` holds
                               // when it wrote past the runner's cap)
  std::string measurement;     // the observer's measurement file
};

// Contract: run() never throws because of what the program does (crash, hang, garbage output); it throws
// eok::Error only when the board itself cannot be used (missing emulator, unwritable workdir).
class Runner {
 public:
  virtual ~Runner() = default;
  virtual RunOutcome run(const RunRequest& req) = 0;
};

}  // namespace eok::evaluator
