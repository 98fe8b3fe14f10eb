// The outcome of evaluating one candidate kernel: status, evidence, modeled time and profile.
//
// A bad kernel is a status, never an exception, and `message` says what it did:
//   compile_error  it does not preprocess, compile or link, or lacks the entry function (compiler_output)
//   rejected       it broke a rule, named in `rule`: a source or object rule, a forbidden system call,
//                  tampering with the harness or the measurement, beyond-roofline (modeled faster than the
//                  board can be)
//   runtime_error  a fault or signal (the address and case where known), an out-of-bounds write, too much
//                  memory or output, an early exit, a missing or wrongly sized output, an incomplete
//                  measurement, an instruction the emulator cannot run (rule emulator-limit); run_log
//   wrong_answer   an output outside the tolerance (the first `mismatches`), or an input it modified
//   timeout        it ran past the time limit
// infra_error means eok or the board failed, and is never held against the kernel.
#pragma once

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "evaluator/cost_model/cost_model.h"
#include "src/common/eval_status.h"

namespace eok::evaluator {

// The status and its names live in src/common/eval_status.h: the kernel database stores them too.
using ::eok::EvalStatus;
using ::eok::status_name;

struct Mismatch {
  size_t case_index = 0;
  std::string sizes;   // "n=33"
  std::string arg;     // output name, or "return"
  int64_t index = -1;  // element index
  std::string expected, got;
  std::string inputs;  // the inputs at that index, when the relation is elementwise ("x[3] = 0.5")
};

struct EvalTimings {
  double compile = 0;    // candidate compile (0 when cached)
  double link = 0;       // candidate link
  double run = 0;        // candidate run under the board's runner, wall
  double reference = 0;  // reference link + run, wall; beside the candidate's link + run
  double model = 0;      // cost model
  double total = 0;
  // Toolchain and emulator time: the candidate's compile, then its link + run beside the reference's.
  double toolchain_and_board() const { return compile + std::max(link + run, reference); }
  // eok's own work: everything else (checks, plan, parsing, comparison, the cost model).
  double overhead() const { return total - toolchain_and_board(); }
};

// A kernel timed on a real board: every timed call's figure, and how they were taken.
struct BoardTiming {
  std::string host;                     // the board that ran it (user@host:port, slurm:<partition>, localhost)
  std::string timer;                    // "perf_event cycles", "rdcycle", "clock_gettime"
  std::string unit;                     // "cycles" or "ns" (then `cycles` fields are ns x the board's clock)
  std::vector<double> samples;          // every timed call, in call order, the timer's own overhead subtracted
  double median = 0, mad = 0, min = 0;  // in `unit`
  double median_cycles = 0;             // the kernel's time on the board
  double mad_cycles = 0;                // its noise: the MAD in cycles
  double timer_overhead = 0;            // subtracted from every sample, in `unit`
  unsigned warmup = 0;
  bool seccomp = false;                 // the harness's own filter was installed on the board
  std::string notes;                    // what the board could not give (seccomp, pinning, governor, temperature)
  std::string governor;                 // the pinned core's cpufreq governor, or "none"
  std::optional<double> temperature_c;  // hottest thermal zone before the run
  double seconds = 0;                   // wall time of the whole board job (copy, run, clean-up)

  nlohmann::json to_json() const;
};

struct EvalResult {
  EvalStatus status = EvalStatus::infra_error;
  std::string message;  // one line a user can act on
  std::string task, board, kernel_hash;
  uint64_t seed = 0;

  // Evidence
  std::string rule;  // rejected: the rule id
  std::string compiler_output;
  std::vector<Mismatch> mismatches;
  std::string run_log;  // stderr of the run, capped

  // Measurement (status ok)
  std::optional<double> cycles;
  std::optional<double> baseline_cycles;
  std::vector<double> timed_call_cycles;  // every timed call's modeled cycles, fastest first; `cycles` is the median
  std::optional<double> speedup;
  std::optional<double> tolerance_used;   // correct kernels: CheckResult::tolerance_used
  std::optional<double> roofline_cycles;  // the task's bound on this board, when it has one
  std::optional<cost::CostReport> cost;
  // On a real board: `cycles` is the board's median; the virtual twin's model stays here, and the
  // measurement says how the board took it.
  std::optional<double> modeled_cycles;
  std::optional<BoardTiming> measurement;
  bool sandboxed = false;
  bool network_isolated = false;

  EvalTimings timings;

  nlohmann::json to_json() const;
};

// The profile of one modeled region as JSON (the "profile" of an evaluation, a region of `eok measure`).
nlohmann::json cost_json(const cost::CostReport& c);

// "79,200 modeled (compute 70,000, load stalls 9,200, L2 0, DRAM 0: compute-bound)".
std::string describe_cycles(const cost::CostReport& c);

}  // namespace eok::evaluator
