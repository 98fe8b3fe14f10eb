// How eok reaches a real board: put a few files into a fresh run directory on it and run a shell script
// there. Three ways: OpenSSH (runner "ssh", one board or a pool), a Slurm job step on a partition of
// board nodes (runner "slurm"), or this machine (runner "local": eok itself runs on the board).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "evaluator/board.h"
#include "src/common/subprocess.h"

namespace eok::evaluator::remote {

struct RemoteJob {
  std::filesystem::path program;  // a static riscv64 executable, copied to the board
  std::vector<std::string> args;
  std::string input;           // the program's stdin (text: it travels inside the script)
  double timeout_seconds = 0;  // the whole job: transfer, run and clean-up
};

struct RemoteOutcome {
  ProcessResult process;     // the script's: stdout is the program's records, stderr its messages
  bool unreachable = false;  // the board could not be used at all (connection, authentication, scheduler)
  std::string problem;       // why, for the user (unreachable only)
};

// Contract: run() runs job.program on `host` (one of the profile's) in a fresh directory under the
// profile's remote_dir, with remote_script.h's script. It never throws for what the program or the board does; the run directory is removed when
// the job ends, and nothing started by it outlives eok (the script's watchdog ends it when eok's end of
// its stdin closes, however eok dies). It throws eok::Error only when eok cannot fork or write locally.
class Transport {
 public:
  virtual ~Transport() = default;
  virtual RemoteOutcome run(const std::string& host, const RemoteJob& job) = 0;
};

// The transport of a real board's profile. Throws ConfigError for a virtual board.
std::unique_ptr<Transport> make_transport(const BoardProfile& board);

// A fresh name for one run directory: unique across hosts, processes and threads.
std::string fresh_run_name();

}  // namespace eok::evaluator::remote
