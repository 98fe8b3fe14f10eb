// What benches found, per method and task, and the paper's summary statistics per suite.
//
// A task's result under a method is its run in the newest bench of that method's label that covers the
// task. Its speedup is that of the best kernel of the run's archive, which starts with ker0 (every method
// keeps it): the fastest correct kernel the run produced when that beats ker0, else 1.00x. "Correct" counts
// the tasks where the run produced a correct kernel of its own, "> 1" those where one beat ker0.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/db/kernel_db.h"

namespace eok::bench {

struct TaskResult {
  std::string task, suite, run_id, bench_id;
  std::optional<db::RunState> run_state;  // nullopt: the run was never started
  bool correct = false;                   // the run produced a correct kernel of its own
  double speedup = 1;                     // the best of the archive over ker0 (>= 1: ker0 is in it)
  double own_speedup = 0;                 // of the run's fastest correct kernel (0 when none)
  int64_t best_kernel_id = 0;
  // Best speedup so far after each iteration the run recorded (index = iteration, from 0).
  std::vector<double> best_by_iteration;
};

struct MethodResults {
  std::string label;
  db::SearchMethod method = db::SearchMethod::tuner;
  std::map<std::string, TaskResult> tasks;  // by task id
};

// The results of every label (or only labels whose method or label equals `method`), newest bench per
// task. kernels_dir gives each task's suite.
std::vector<MethodResults> collect_results(db::KernelDb& db, const std::filesystem::path& kernels_dir,
                                           const std::string& method = "");

// One task's result from its run.
TaskResult task_result(db::KernelDb& db, const std::string& task, const std::string& suite, const std::string& run_id);

struct SuiteStats {
  std::string suite;
  size_t tasks = 0;                                     // tasks of the suite the method ran
  size_t correct = 0;                                   // with a correct kernel
  size_t faster = 0;                                    // with speedup > 1
  double mean = 0, max = 0, p75 = 0, p50 = 0, p25 = 0;  // of the tasks' speedups; 0 when no task
};

// Statistics of `results` restricted to `suite` ("general", "nn", "all").
SuiteStats suite_stats(const MethodResults& results, const std::string& suite);

// The q-quantile (0..1) of values by linear interpolation between closest ranks; 0 for none.
double quantile(std::vector<double> values, double q);

}  // namespace eok::bench
