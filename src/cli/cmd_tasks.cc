// eok tasks: the task catalog at a glance.
#include <cstdio>
#include <iostream>
#include <set>
#include <nlohmann/json.hpp>

#include "evaluator/task.h"
#include "src/cli/cli.h"
#include "src/common/error.h"
#include "src/common/log.h"
#include "src/common/paths.h"

namespace eok::cli {

namespace {

int run_tasks(bool json, const GlobalOptions& global) {
  log::set_level(global.log_level);
  const auto root = find_project_root(global.root);
  nlohmann::json out = nlohmann::json::array();
  if (!json) std::printf("%-18s %-8s %-6s %-20s %s\n", "id", "group", "dtype", "timed size", "entry");
  size_t broken = 0;
  std::set<std::string> seen;  // a task of the user's own folders hides the catalog's of the same id
  for (const auto& dir : evaluator::task_dirs(root)) {
    // One broken task.toml is reported and skipped; the others are still listed.
    const auto tasks = evaluator::load_tasks(dir, [&](const std::string& id, const std::string& why) {
      if (!seen.insert(id).second) return;
      log::warn("task {} skipped: {}", id, why);
      ++broken;
    });
    for (const auto& t : tasks) {
      if (!seen.insert(t.id).second) continue;
      if (json) {
        out.push_back({{"id", t.id},
                       {"name", t.name},
                       {"group", t.group},
                       {"category", t.category},
                       {"dtype", t.dtype},
                       {"march", t.march},
                       {"signature", t.signature},
                       {"tolerance", t.tolerance.name},
                       {"timed", t.timed},
                       {"check_sizes", t.checks.size()},
                       {"approach", t.approach}});
      } else {
        std::printf("%-18s %-8s %-6s %-20s %s\n", t.id.c_str(), t.group.c_str(), t.dtype.c_str(),
                    evaluator::format_sizes(t.timed).c_str(), t.signature.c_str());
      }
    }
  }
  if (json) std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
  if (broken)
    log::warn(
        "{} task(s) could not be loaded (above): fix their task.toml; eok task files are described in "
        "kernels/README.md",
        broken);
  return broken ? 2 : 0;
}

}  // namespace

void add_tasks_command(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  auto json = std::make_shared<bool>(false);
  CLI::App* cmd =
      app.add_subcommand("tasks",
                         "List the task catalog (kernels/<id>/task.toml): id, group, data type, timed size\n"
                         "and the entry function a candidate must define.");
  cmd->add_flag("--json", *json, "print the catalog as JSON");
  cmd->callback([json, &global, &exit_code] { exit_code = run_tasks(*json, global); });
}

}  // namespace eok::cli
