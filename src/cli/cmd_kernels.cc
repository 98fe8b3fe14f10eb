// eok kernels: every candidate of a task (or of one run) with its status and speed.
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

struct KernelsOptions {
  std::string task, run;
  bool json = false;
};

int run_kernels(const KernelsOptions& opt, const GlobalOptions& global) {
  log::set_level(global.log_level);
  const auto root = find_project_root(global.root);
  const std::string task = evaluator::find_task(root, opt.task).id;
  auto db = open_kernel_db_for_reading(Workspace::open());
  const auto rows = db->kernels(task, opt.run);
  if (opt.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& r : rows) {
      const auto& k = r.kernel;
      const auto& e = r.evaluation;
      out.push_back({{"id", k.id},
                     {"hash", k.hash},
                     {"run", k.run_id},
                     {"operator", k.op},
                     {"parents", k.parents},
                     {"idea", k.description},
                     {"idea_id", k.idea_id},
                     {"thought_id", k.thought_id},
                     {"status", e ? status_name(e->status) : "not evaluated"},
                     {"cycles", e && e->cycles ? nlohmann::json(*e->cycles) : nlohmann::json(nullptr)},
                     {"speedup", e && e->speedup ? nlohmann::json(*e->speedup) : nlohmann::json(nullptr)}});
    }
    std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    return 0;
  }
  if (rows.empty()) {
    std::printf("no kernels of %s%s in the database\n", task.c_str(),
                opt.run.empty() ? "" : (" in run " + opt.run).c_str());
    return 0;
  }
  std::printf("%-7s %-12s %-6s %-14s %-12s %-9s %-14s %s\n", "id", "hash", "op", "status", "cycles", "speedup",
              "parents", "idea");
  for (const auto& r : rows) {
    const auto& k = r.kernel;
    std::string parents;
    for (auto p : k.parents) parents += (parents.empty() ? "#" : ",#") + std::to_string(p);
    std::string speedup = "-", cycles = "-";
    if (r.evaluation && r.evaluation->speedup) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.3fx", *r.evaluation->speedup);
      speedup = buf;
      cycles = with_commas(r.evaluation->cycles.value_or(0));
    }
    std::string idea = k.description.size() > 60 ? k.description.substr(0, 57) + "..." : k.description;
    std::printf("#%-6lld %-12.12s %-6s %-14s %-12s %-9s %-14s %s\n", static_cast<long long>(k.id), k.hash.c_str(),
                k.op.c_str(), r.evaluation ? status_name(r.evaluation->status) : "not evaluated", cycles.c_str(),
                speedup.c_str(), parents.empty() ? "-" : parents.c_str(), idea.c_str());
  }
  return 0;
}

}  // namespace

void add_kernels_command(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  auto opt = std::make_shared<KernelsOptions>();
  CLI::App* cmd =
      app.add_subcommand("kernels",
                         "List every candidate kernel of a task (all runs, or one with --run): id, hash,\n"
                         "operator (ker0 init i1 E1 E2 M1 M2 M3 tuner), status, cycles, speedup, parents, idea.");
  cmd->add_option("--task,-t", opt->task, "task id or operation name")->required();
  cmd->add_option("--run,-r", opt->run, "only kernels of this run");
  cmd->add_flag("--json", opt->json,
                "print the kernels as JSON (id, hash, status, cycles, speedup, operator, parents ...)");
  cmd->callback([opt, &global, &exit_code] { exit_code = run_kernels(*opt, global); });
}

}  // namespace eok::cli
