#include "src/bench/bench_results.h"

#include <algorithm>
#include <numeric>

#include "src/bench/suite.h"

namespace eok::bench {

double quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double pos = q * static_cast<double>(values.size() - 1);
  const size_t lo = static_cast<size_t>(pos);
  const size_t hi = std::min(lo + 1, values.size() - 1);
  return values[lo] + (values[hi] - values[lo]) * (pos - static_cast<double>(lo));
}

TaskResult task_result(db::KernelDb& db, const std::string& task, const std::string& suite, const std::string& run_id) {
  TaskResult r;
  r.task = task;
  r.suite = suite;
  r.run_id = run_id;
  if (auto run = db.get_run(run_id)) r.run_state = run->state;
  std::map<int, double> best_at;  // iteration -> best speedup of kernels created in it
  for (const auto& row : db.kernels(task, run_id)) {
    const auto& e = row.evaluation;
    if (row.kernel.op == "ker0" || !e || e->status != EvalStatus::ok || !e->speedup || !e->cycles) continue;
    if (!r.correct || *e->speedup > r.own_speedup) {
      r.correct = true;
      r.own_speedup = *e->speedup;
      r.best_kernel_id = row.kernel.id;
    }
    const int it = std::max(0, row.kernel.iteration);
    best_at[it] = std::max(best_at[it], *e->speedup);
  }
  r.speedup = std::max(1.0, r.own_speedup);
  double so_far = 1.0;
  for (int it = 0; !best_at.empty() && it <= best_at.rbegin()->first; ++it) {
    if (auto f = best_at.find(it); f != best_at.end()) so_far = std::max(so_far, f->second);
    r.best_by_iteration.push_back(so_far);
  }
  return r;
}

std::vector<MethodResults> collect_results(db::KernelDb& db, const std::filesystem::path& kernels_dir,
                                           const std::string& method) {
  std::map<std::string, MethodResults> by_label;
  std::map<std::string, std::string> suites;  // task -> suite, loaded once
  // Benches come newest first: the first bench of a label that has a task's run wins.
  for (const auto& b : db.list_benches()) {
    if (!method.empty() && name_of(b.method) != method && b.label != method) continue;
    MethodResults& m = by_label[b.label];
    m.label = b.label;
    m.method = b.method;
    for (const auto& [task, run_id] : db.bench_runs(b.id)) {
      if (m.tasks.count(task)) continue;
      if (!suites.count(task)) {
        std::error_code ec;
        suites[task] =
            std::filesystem::exists(kernels_dir / task / "task.toml", ec) ? task_suite(kernels_dir, task) : "unknown";
      }
      TaskResult r = task_result(db, task, suites[task], run_id);
      r.bench_id = b.id;
      m.tasks[task] = std::move(r);
    }
  }
  std::vector<MethodResults> out;
  for (auto& [label, m] : by_label) out.push_back(std::move(m));
  return out;
}

SuiteStats suite_stats(const MethodResults& results, const std::string& suite) {
  SuiteStats s;
  s.suite = suite;
  std::vector<double> speedups;
  for (const auto& [task, r] : results.tasks) {
    if (suite != "all" && r.suite != suite) continue;
    ++s.tasks;
    speedups.push_back(r.speedup);
    if (!r.correct) continue;
    ++s.correct;
    if (r.own_speedup > 1.0) ++s.faster;
  }
  if (speedups.empty()) return s;
  s.mean = std::accumulate(speedups.begin(), speedups.end(), 0.0) / static_cast<double>(speedups.size());
  s.max = *std::max_element(speedups.begin(), speedups.end());
  s.p75 = quantile(speedups, 0.75);
  s.p50 = quantile(speedups, 0.50);
  s.p25 = quantile(speedups, 0.25);
  return s;
}

}  // namespace eok::bench
