// eok leaderboard: per task and board, the fastest correct kernel found so far.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "evaluator/task.h"
#include "src/cli/cli.h"
#include "src/common/log.h"
#include "src/common/paths.h"
#include "src/db/kernel_db.h"

namespace eok::cli {

namespace {

struct LeaderboardOptions {
  std::string task;
  bool json = false;
};

int run_leaderboard(const LeaderboardOptions& opt, const GlobalOptions& global) {
  log::set_level(global.log_level);
  // "relu" means relu_f32 here as everywhere else.
  const std::string task = opt.task.empty() ? "" : evaluator::find_task(find_project_root(global.root), opt.task).id;
  auto db = open_kernel_db_for_reading(Workspace::open());
  const auto rows = db->leaderboard(task);
  if (opt.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& r : rows) {
      nlohmann::json counts = nlohmann::json::object();
      for (const auto& [status, n] : r.counts_by_status) counts[status_name(status)] = n;
      const bool none = r.best_kernel_id == 0;  // no correct kernel measured yet: null, not a speedup of 0
      auto or_null = [&](auto v) { return none ? nlohmann::json(nullptr) : nlohmann::json(v); };
      out.push_back({{"task", r.task},
                     {"board", r.board},
                     {"best_kernel_id", or_null(r.best_kernel_id)},
                     {"run", r.best_run_id},
                     {"speedup", or_null(r.best_speedup)},
                     {"cycles", or_null(r.best_cycles)},
                     {"baseline_cycles", or_null(r.baseline_cycles)},
                     {"counts_by_status", counts}});
    }
    std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    return 0;
  }
  if (rows.empty()) {
    std::printf("the leaderboard is empty: eok search --task mish puts a task on it\n");
    return 0;
  }
  std::printf("%-18s %-5s %-8s %-9s %-12s %-12s %-24s %s\n", "task", "board", "kernel", "speedup", "cycles",
              "ker0 cycles", "run", "evaluations by status");
  for (const auto& r : rows) {
    std::string counts;
    for (const auto& [status, n] : r.counts_by_status)
      counts += std::string(status_name(status)) + " " + std::to_string(n) + "  ";
    if (r.best_kernel_id == 0) {  // kernels on record, none correct and measured yet (ker0 is being measured)
      std::printf("%-18s %-5s %-8s %-9s %-12s %-12s %-24s %s\n", r.task.c_str(), r.board.c_str(), "-", "-", "-", "-",
                  "(no correct kernel yet)", counts.c_str());
      continue;
    }
    char speedup[32];
    std::snprintf(speedup, sizeof speedup, "%.3fx", r.best_speedup);
    std::printf("%-18s %-5s #%-7lld %-9s %-12s %-12s %-24s %s\n", r.task.c_str(), r.board.c_str(),
                static_cast<long long>(r.best_kernel_id), speedup, with_commas(r.best_cycles).c_str(),
                with_commas(r.baseline_cycles).c_str(), r.best_run_id.empty() ? "(ker0)" : r.best_run_id.c_str(),
                counts.c_str());
  }
  return 0;
}

}  // namespace

void add_leaderboard_command(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  auto opt = std::make_shared<LeaderboardOptions>();
  CLI::App* cmd =
      app.add_subcommand("leaderboard",
                         "Per task and board: the fastest correct kernel found by any run, its speedup over\n"
                         "ker0, its modeled cycles, the run it came from, and how all evaluations ended.\n"
                         "eok show KERNEL_ID shows one; eok export --task T writes the best as C files.");
  cmd->add_option("--task,-t", opt->task, "only this task");
  cmd->add_flag("--json", opt->json, "print the leaderboard as JSON");
  cmd->callback([opt, &global, &exit_code] { exit_code = run_leaderboard(*opt, global); });
}

}  // namespace eok::cli
