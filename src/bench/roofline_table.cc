#include "src/bench/roofline_table.h"

#include "evaluator/board_session.h"
#include "evaluator/task.h"
#include "src/common/error.h"

namespace eok::bench {

std::vector<RooflineRow> roofline_rows(
    const std::filesystem::path& root, const Workspace& ws, const std::string& board,
    const std::vector<std::string>& tasks,
    const std::function<void(const RooflineRow&, size_t done, size_t total)>& on_row) {
  auto session = evaluator::open_board_session(root, ws, board);
  const auto table = cost::X60Table::load(session.board.cost_table);
  const auto ids = tasks.empty() ? evaluator::list_task_ids(root / "kernels") : tasks;
  std::vector<RooflineRow> rows;
  for (const auto& id : ids) {
    const auto task = evaluator::load_task(root / "kernels" / id);
    RooflineRow row;
    row.task = id;
    row.suite = task.group;
    row.dtype = task.dtype;
    row.roof = evaluator::task_roofline(task, evaluator::peak_rates(session.board, table, session.memory, task.dtype));
    try {
      row.ker0_cycles = session.evaluator->baseline_cycles(task);
    } catch (const Error& e) {
      row.error = e.what();
    }
    rows.push_back(row);
    if (on_row) on_row(rows.back(), rows.size(), ids.size());
  }
  return rows;
}

}  // namespace eok::bench
