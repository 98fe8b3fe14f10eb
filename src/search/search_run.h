// A whole `eok search` run: choose the method and the LLM, create or resume the run record, measure ker0,
// run the strategy (EoK, plain EoH or the knob tuner), and summarise. The CLI's one entry point.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "src/common/config.h"
#include "src/common/paths.h"
#include "src/db/kernel_db.h"

namespace eok::search {

class KernelJudge;

struct SearchRequest {
  SearchRequest(std::filesystem::path root_dir, Workspace ws) : root(std::move(root_dir)), workspace(std::move(ws)) {}

  std::filesystem::path root;
  Workspace workspace;
  std::string task;  // id or operation name ("mish" -> mish_f32)
  std::string board = "k1";
  Config config;  // every layer applied (flags included)
  std::optional<std::string> resume_run;
  std::optional<std::string> new_run_id;  // the id the new run takes (eok bench records it before starting)
  bool replay = false;                    // answer every LLM request from the response cache; fail on a miss
  bool terminal = false;                  // draw a live status line
  KernelJudge* judge = nullptr;           // tests: judge kernels with this instead of the board's evaluator
};

struct SearchOutcome {
  std::string run_id, task, board;
  db::SearchMethod method = db::SearchMethod::tuner;
  db::RunState state = db::RunState::finished;  // finished, stopped or failed
  std::string stop_reason;
  int64_t best_kernel_id = 0;
  double best_speedup = 0, best_cycles = 0, baseline_cycles = 0;
  std::string best_idea;
  std::filesystem::path best_file;  // the best kernel's source, written in the run's directory
  db::RunTotals totals;
  int64_t evaluated = 0, reused = 0;
  double seconds = 0;
  std::string llm;         // what served the LLM calls ("" for the tuner)
  nlohmann::json summary;  // what is stored with the run
};

// Throws eok::Error subclasses for setup problems (unknown task or run, missing pool for --method eok,
// no LLM for --method eoh, broken toolchain); a search that started always returns an outcome.
SearchOutcome run_search(SearchRequest request);

}  // namespace eok::search
