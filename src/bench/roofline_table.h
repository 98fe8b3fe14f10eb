// Every task's roofline next to its ker0: the bound, ker0's modeled cycles and their ratio (eok bench
// roofline). ker0 is measured on the board when the workspace has no cached figure for it.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "evaluator/roofline.h"
#include "src/common/paths.h"

namespace eok::bench {

struct RooflineRow {
  std::string task, suite, dtype;
  evaluator::Roofline roof;
  double ker0_cycles = 0;  // 0 when ker0 could not be measured (error says why)
  std::string error;
  double distance() const { return roof.distance(ker0_cycles); }
};

// Rows for `tasks` (every task when empty), in catalog order; on_row is called as each is done.
std::vector<RooflineRow> roofline_rows(
    const std::filesystem::path& root, const Workspace& ws, const std::string& board,
    const std::vector<std::string>& tasks,
    const std::function<void(const RooflineRow&, size_t done, size_t total)>& on_row);

}  // namespace eok::bench
