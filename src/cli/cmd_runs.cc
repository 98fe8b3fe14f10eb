// eok runs: the runs in the kernel database, newest first.
#include <cstdio>
#include <ctime>
#include <iostream>
#include <nlohmann/json.hpp>

#include "evaluator/task.h"
#include "src/cli/cli.h"
#include "src/common/log.h"
#include "src/common/paths.h"
#include "src/db/kernel_db.h"

namespace eok::cli {

namespace {

struct RunsOptions {
  std::string task;
  bool json = false;
};

std::string when(double unix_seconds) {
  std::time_t t = static_cast<std::time_t>(unix_seconds);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M", std::localtime(&t));
  return buf;
}

int run_runs(const RunsOptions& opt, const GlobalOptions& global) {
  log::set_level(global.log_level);
  // "relu" means relu_f32 here as everywhere else.
  const std::string task = opt.task.empty() ? "" : evaluator::find_task(find_project_root(global.root), opt.task).id;
  auto db = open_kernel_db_for_reading(Workspace::open());
  const auto runs = db->list_runs(task);
  if (opt.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& r : runs) {
      auto summary = nlohmann::json::parse(r.summary_json.empty() ? "null" : r.summary_json, nullptr, false);
      out.push_back({{"id", r.id},
                     {"task", r.task},
                     {"board", r.board},
                     {"state", name_of(r.state)},
                     {"method", name_of(r.method)},
                     {"seed", r.seed},
                     {"model", r.model},
                     {"started_at", r.started_at},
                     {"updated_at", r.updated_at},
                     {"summary", summary.is_discarded() ? nlohmann::json(nullptr) : summary}});
    }
    std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    return 0;
  }
  if (runs.empty()) {
    std::printf("no runs yet in %s (eok search --task mish starts one)\n", Workspace::open().database_path().c_str());
    return 0;
  }
  std::printf("%-24s %-16s %-4s %-6s %-9s %-17s %s\n", "id", "task", "board", "method", "state", "started", "best");
  for (const auto& r : runs) {
    std::string best = "-";
    auto summary = nlohmann::json::parse(r.summary_json.empty() ? "{}" : r.summary_json, nullptr, false);
    if (!summary.is_discarded() && summary.contains("best_speedup")) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.3fx (kernel #%lld)", summary["best_speedup"].get<double>(),
                    static_cast<long long>(summary.value("best_kernel_id", int64_t{0})));
      best = buf;
    }
    std::printf("%-24s %-16s %-4s %-6s %-9s %-17s %s\n", r.id.c_str(), r.task.c_str(), r.board.c_str(),
                name_of(r.method), name_of(r.state), when(r.started_at).c_str(), best.c_str());
  }
  return 0;
}

}  // namespace

void add_runs_command(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  auto opt = std::make_shared<RunsOptions>();
  CLI::App* cmd = app.add_subcommand("runs",
                                     "List the search runs in the kernel database (newest first) with their state:\n"
                                     "running, finished, stopped (Ctrl-C or budget), failed. A run that was killed\n"
                                     "shows as running; continue it with: eok search --resume RUN_ID");
  cmd->add_option("--task,-t", opt->task, "only runs of this task");
  cmd->add_flag("--json", opt->json, "print the runs as JSON");
  cmd->callback([opt, &global, &exit_code] { exit_code = run_runs(*opt, global); });
}

}  // namespace eok::cli
