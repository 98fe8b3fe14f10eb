#include "src/bench/bench_table.h"

#include <cstdio>

namespace eok::bench {

namespace {

std::string x(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3fx", v);
  return buf;
}

nlohmann::json stats_json(const SuiteStats& s) {
  return {{"tasks", s.tasks}, {"correct", s.correct}, {"faster", s.faster}, {"mean", s.mean},
          {"max", s.max},     {"p75", s.p75},         {"p50", s.p50},       {"p25", s.p25}};
}

}  // namespace

std::string format_table(const std::vector<MethodResults>& results, TableFormat format) {
  if (results.empty()) return "";
  size_t width = 6;
  for (const auto& m : results) width = std::max(width, m.label.size());
  std::string out;
  char line[512];
  for (const char* suite : {"general", "nn"}) {
    bool any = false;
    for (const auto& m : results) any = any || suite_stats(m, suite).tasks > 0;
    if (!any) continue;
    if (format == TableFormat::markdown) {
      out += std::string("\n**") + suite +
             " suite**\n\n| method | tasks | mean | max | 75% | 50% | 25% | correct | > 1 |\n"
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    } else {
      std::snprintf(line, sizeof line, "\n%s suite\n%-*s %6s %8s %8s %8s %8s %8s %8s %5s\n", suite,
                    static_cast<int>(width), "method", "tasks", "mean", "max", "75%", "50%", "25%", "correct", "> 1");
      out += line;
    }
    for (const auto& m : results) {
      const SuiteStats s = suite_stats(m, suite);
      if (s.tasks == 0) continue;
      if (format == TableFormat::markdown) {
        std::snprintf(line, sizeof line, "| %s | %zu | %s | %s | %s | %s | %s | %zu | %zu |\n", m.label.c_str(),
                      s.tasks, x(s.mean).c_str(), x(s.max).c_str(), x(s.p75).c_str(), x(s.p50).c_str(),
                      x(s.p25).c_str(), s.correct, s.faster);
      } else {
        std::snprintf(line, sizeof line, "%-*s %6zu %8s %8s %8s %8s %8s %8zu %5zu\n", static_cast<int>(width),
                      m.label.c_str(), s.tasks, x(s.mean).c_str(), x(s.max).c_str(), x(s.p75).c_str(), x(s.p50).c_str(),
                      x(s.p25).c_str(), s.correct, s.faster);
      }
      out += line;
    }
  }
  return out;
}

nlohmann::json table_json(const std::vector<MethodResults>& results) {
  nlohmann::json methods = nlohmann::json::array();
  for (const auto& m : results) {
    nlohmann::json tasks = nlohmann::json::array();
    for (const auto& [id, r] : m.tasks) {
      tasks.push_back({{"task", id},
                       {"suite", r.suite},
                       {"bench", r.bench_id},
                       {"run", r.run_id},
                       {"run_state", r.run_state ? name_of(*r.run_state) : "not started"},
                       {"correct", r.correct},
                       {"speedup", r.speedup},
                       {"own_speedup", r.own_speedup},
                       {"best_kernel_id", r.best_kernel_id},
                       {"best_by_iteration", r.best_by_iteration}});
    }
    methods.push_back({{"label", m.label},
                       {"method", name_of(m.method)},
                       {"suites",
                        {{"general", stats_json(suite_stats(m, "general"))},
                         {"nn", stats_json(suite_stats(m, "nn"))},
                         {"all", stats_json(suite_stats(m, "all"))}}},
                       {"tasks", tasks}});
  }
  return {{"methods", methods}};
}

}  // namespace eok::bench
