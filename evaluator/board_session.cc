#include "evaluator/board_session.h"

#include "evaluator/cost_model/x60_cost_model.h"
#include "evaluator/qemu_runner.h"
#include "evaluator/remote/transport.h"
#include "evaluator/roofline.h"
#include "src/common/error.h"

namespace eok::evaluator {

BoardSession open_board_session(const std::filesystem::path& root, const Workspace& ws, const std::string& board_name,
                                const SessionOptions& options) {
  BoardSession s;
  s.board = load_board(root, board_name);
  if (is_real_board(s.board)) {
    s.board_timer = std::make_unique<remote::BoardTimer>(
        s.board, remote::make_transport(s.board),
        std::make_unique<remote::BoardPool>(s.board.name, s.board.remote.hosts, remote::default_lock_dir(),
                                            s.board.file));
  }
  s.tools = find_toolchain(s.board, ws.tool_versions_path());
  s.sandbox = std::make_unique<sandbox::Sandbox>(sandbox_system_paths(s.tools));
  s.compiler = std::make_unique<ClangCompiler>(s.tools, *s.sandbox, ws.objects_dir(), ws.tmp_dir());
  s.runner = std::make_unique<QemuRunner>(s.board, s.tools, *s.sandbox);
  cost::X60Table table = cost::X60Table::load(s.board.cost_table);
  s.memory = cost::MemoryModelParams::load(s.board.memory_model);
  s.cost_model = std::make_unique<cost::X60CostModel>(table, s.memory);

  BoardEvaluatorConfig cfg;
  cfg.board = s.board;
  cfg.root = root;
  cfg.scratch_dir = ws.tmp_dir();
  cfg.baseline_cache = ws.baselines_dir();
  cfg.fingerprint = measurement_fingerprint(s.board, s.tools);
  cfg.keep_temp = options.keep_temp;
  cfg.board_timer = s.board_timer.get();
  cfg.roofline_cycles = [board = s.board, table, memory = s.memory](const Task& task) {
    try {
      return task_roofline(task, peak_rates(board, table, memory, task.dtype)).bound_cycles;
    } catch (const ConfigError&) {
      return 0.0;  // a task without declared work has no bound to check against
    }
  };
  s.evaluator = std::make_unique<BoardEvaluator>(cfg, *s.compiler, *s.runner, *s.cost_model);
  return s;
}

}  // namespace eok::evaluator
