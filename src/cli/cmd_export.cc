// eok export: the best kernel of a task as a C source and header, ready to link, with its provenance.
#include <cstdio>
#include <iostream>
#include <ctime>
#include <optional>
#include <nlohmann/json.hpp>

#include "evaluator/board_session.h"
#include "evaluator/task.h"
#include "src/search/evaluation_service.h"
#include "src/search/kernel_judge.h"
#include "src/cli/cli.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "src/common/log.h"
#include "src/common/paths.h"
#include "src/db/kernel_db.h"

namespace eok::cli {

namespace {

struct ExportOptions {
  std::string task, board = "k1", out;
  bool force = false, json = false;
};

// Fresh seeds a kernel must pass again before it leaves eok (it was chosen on the seeds it was measured with).
constexpr int kExportRechecks = 3;

// An LLM's idea text inside a C block comment: nothing in it may end the comment (or start a line of
// code after it), and no control character survives.
std::string comment_safe(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '*' && i + 1 < text.size() && text[i + 1] == '/') {
      out += "* ";
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      out += "/ ";
    } else {
      out += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? ' ' : c;
    }
  }
  return out;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

int run_export(const ExportOptions& opt, const GlobalOptions& global) {
  log::set_level(global.log_level);
  const auto root = find_project_root(global.root);
  const evaluator::Task task = evaluator::find_task(root, opt.task);
  const Workspace ws = Workspace::open();
  auto db = open_kernel_db(ws);
  const auto candidates = db->best_kernels(task.id, opt.board, "", 8);
  if (candidates.empty() || !candidates.front().evaluation) {
    throw NotFoundError("no correct kernel of " + task.id + " on board " + opt.board + " yet: eok search --task " +
                        task.id + " finds one");
  }
  const auto board = evaluator::load_board(root, evaluator::recorded_board_profile(root, ws.boards_dir(), opt.board));
  auto session = evaluator::open_board_session(root, ws, board.file.string());
  search::BoardJudge judge(*session.evaluator);
  search::EvaluationService evals(judge, *db, task, board.name, "", candidates.front().evaluation->seed, 1);
  // The fastest kernel that is right on fresh inputs too; one that fails is demoted on record, and the
  // next is tried. ker0 needs no re-check.
  const db::KernelRow* chosen = nullptr;
  for (const auto& row : candidates) {
    if (!row.evaluation) continue;
    if (row.kernel.op != "ker0") {
      log::info("checking kernel #{} again on {} fresh inputs before it is exported", row.kernel.id, kExportRechecks);
      if (auto failed = evals.recheck(row.kernel, kExportRechecks)) {
        log::warn("kernel #{} fails on fresh inputs ({}: {}); it is not exported, and its record now says so",
                  row.kernel.id, status_name(failed->status), failed->message);
        db->insert_evaluation(*failed);
        continue;
      }
    }
    chosen = &row;
    break;
  }
  if (!chosen) {
    throw NotFoundError("none of the " + std::to_string(candidates.size()) + " fastest kernels of " + task.id +
                        " is right on fresh inputs: eok search --task " + task.id + " again");
  }
  const auto& k = chosen->kernel;
  const auto& e = *chosen->evaluation;
  // On a real board, the kernel and ker0 are measured again in turns before the kernel leaves eok.
  std::optional<search::Remeasured> remeasured;
  if (evaluator::is_real_board(board) && !k.run_id.empty()) {
    log::info("measuring kernel #{} and ker0 again in turns on {}", k.id, board.name);
    remeasured = evals.remeasure_against(k, evals.baseline().kernel, 3);
    if (!remeasured->problem.empty())
      throw Error("could not measure kernel #" + std::to_string(k.id) + " again on " + board.name + ": " +
                  remeasured->problem);
    if (!remeasured->faster) {
      log::warn(
          "kernel #{} is not faster than ker0 beyond the board's noise when measured in turns ({:.0f} vs {:.0f} "
          "cycles, noise "
          "{:.0f}); exported anyway, and its provenance says so",
          k.id, remeasured->champion_cycles, remeasured->baseline_cycles, remeasured->noise);
    }
  }
  const std::filesystem::path dir = output_directory(opt.out, opt.force);
  std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  char perf[256];
  if (remeasured) {
    std::snprintf(perf, sizeof perf,
                  "%.0f cycles measured on board %s, %.3fx the task's baseline ker0 measured in turns with it%s",
                  remeasured->champion_cycles, k.board.c_str(),
                  remeasured->baseline_cycles / remeasured->champion_cycles,
                  remeasured->faster ? "" : " (within the board's noise)");
  } else {
    std::snprintf(perf, sizeof perf, "%.0f %s cycles, %.3fx the task's baseline ker0, on board %s",
                  e.cycles.value_or(0), evaluator::is_real_board(board) ? "measured" : "modeled", e.speedup.value_or(0),
                  k.board.c_str());
  }

  const std::string guard = "EOK_" + upper(task.id) + "_H";
  const std::string header =
      "/* " + task.name + ": exported by eok " + EOK_VERSION + " on " + date + ". */\n#ifndef " + guard + "\n#define " +
      guard + "\n\n#include <stddef.h>\n#include <stdint.h>\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n" +
      task.signature + ";\n\n#ifdef __cplusplus\n}\n#endif\n\n#endif\n";
  const std::string provenance =
      "/*\n * " + task.name + " (task " + task.id + ")\n * kernel #" + std::to_string(k.id) +
      (k.run_id.empty() ? " (the baseline ker0)" : " of run " + k.run_id) + ", operator " + k.op + "\n * " + perf +
      "\n * idea: " + comment_safe(k.description) + "\n * correct on every check size of the task at evaluation seed " +
      std::to_string(e.seed) +
      (k.op == "ker0" ? std::string() : " and on " + std::to_string(kExportRechecks) + " fresh seeds at export") +
      "\n * compile with: -O3 -march=" + task.march + "\n * exported by eok " + EOK_VERSION + " on " + date +
      "\n */\n#include \"" + task.id + ".h\"\n\n";
  write_file_atomic(dir / (task.id + ".h"), header);
  write_file_atomic(dir / (task.id + ".c"), provenance + k.source);
  nlohmann::json prov = {{"task", task.id},
                         {"board", k.board},
                         {"kernel_id", k.id},
                         {"run", k.run_id},
                         {"operator", k.op},
                         {"hash", k.hash},
                         {"idea", k.description},
                         {"parents", k.parents},
                         {"cycles", e.cycles.value_or(0)},
                         {"speedup", e.speedup.value_or(0)},
                         {"baseline_cycles", e.baseline_cycles.value_or(0)},
                         {"evaluation_seed", e.seed},
                         {"fresh_seed_rechecks", k.op == "ker0" ? 0 : kExportRechecks},
                         {"march", task.march},
                         {"eok_version", EOK_VERSION},
                         {"exported", date}};
  if (remeasured) {
    prov["cycles"] = remeasured->champion_cycles;
    prov["baseline_cycles"] = remeasured->baseline_cycles;
    prov["speedup"] = remeasured->baseline_cycles / remeasured->champion_cycles;
    prov["remeasured_against_ker0"] = {
        {"rounds", remeasured->rounds}, {"noise_cycles", remeasured->noise}, {"faster", remeasured->faster}};
  }
  write_file_atomic(dir / (task.id + ".provenance.json"),
                    prov.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  if (opt.json) {
    prov["files"] = {(dir / (task.id + ".c")).string(), (dir / (task.id + ".h")).string(),
                     (dir / (task.id + ".provenance.json")).string()};
    std::cout << prov.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    return 0;
  }
  std::printf("exported kernel #%lld (%s) to %s/%s.c and %s.h (+ %s.provenance.json)\n", static_cast<long long>(k.id),
              perf, dir.string().c_str(), task.id.c_str(), task.id.c_str(), task.id.c_str());
  return 0;
}

}  // namespace

void add_export_command(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  auto opt = std::make_shared<ExportOptions>();
  CLI::App* cmd =
      app.add_subcommand("export",
                         "Write the best correct kernel of a task as DIR/<task>.c and DIR/<task>.h, ready to\n"
                         "compile into an application (-march from the task), with its provenance in a header\n"
                         "comment and DIR/<task>.provenance.json.");
  cmd->add_option("--task,-t", opt->task, "task id or operation name")->required();
  cmd->add_option(
         "--board,-b", opt->board,
         "board the kernel was measured on; on a real board the kernel and ker0 are measured again in turns first")
      ->capture_default_str();
  cmd->add_option("--out,-o", opt->out, "output directory (created if needed; never / or a system directory)")
      ->required();
  cmd->add_flag("--json", opt->json, "print the provenance and the files written as JSON");
  cmd->add_flag("--force", opt->force,
                "write into a system directory (/usr/local/..., /opt is always fine) all the same");
  cmd->callback([opt, &global, &exit_code] { exit_code = run_export(*opt, global); });
}

}  // namespace eok::cli
