#include "src/bench/suite.h"

#include <algorithm>

#include "evaluator/task.h"
#include "src/common/error.h"
#include "src/common/log.h"

namespace eok::bench {

bool is_suite(const std::string& suite) {
  return suite == "general" || suite == "nn" || suite == "all";
}

std::string task_suite(const std::filesystem::path& kernels_dir, const std::string& task_id) {
  return evaluator::load_task(kernels_dir / task_id).group;
}

std::vector<std::string> suite_tasks(const std::filesystem::path& kernels_dir, const std::string& suite,
                                     const std::vector<std::string>& only) {
  if (!is_suite(suite)) throw ConfigError("unknown suite '" + suite + "': expected general, nn or all");
  std::vector<std::string> ids;
  if (only.empty()) {
    const auto tasks = evaluator::load_tasks(kernels_dir, [](const std::string& id, const std::string& why) {
      log::warn("task {} left out of the suite: {}", id, why);
    });
    for (const auto& t : tasks) {
      if (suite == "all" || t.group == suite) ids.push_back(t.id);
    }
    return ids;
  }
  for (std::string name : only) {
    name.erase(0, name.find_first_not_of(" \t"));
    name.erase(name.find_last_not_of(" \t") + 1);
    if (name.empty()) continue;  // "a,,b" or a trailing comma
    const std::string id = evaluator::resolve_task_id(kernels_dir, name).id;
    if (suite != "all" && task_suite(kernels_dir, id) != suite) {
      throw ConfigError("task " + id + " is not in the " + suite + " suite (use --suite all, or drop it from --tasks)");
    }
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace eok::bench
