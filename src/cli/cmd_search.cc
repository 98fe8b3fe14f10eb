// eok search: find a faster kernel for a task (EoK with an LLM and an idea pool, plain EoH with an LLM,
// or the knob tuner without one), recording everything in the kernel database.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <algorithm>
#include <map>
#include <vector>

#include "src/cli/cli.h"
#include "src/cli/search_flags.h"
#include "src/common/config.h"
#include "src/common/error.h"
#include "src/common/log.h"
#include "src/common/paths.h"
#include "src/search/progress.h"
#include "src/search/search_run.h"

namespace eok::cli {

namespace {

struct SearchOptions {
  std::string task, resume, run_id;
  SearchFlags flags;
  bool replay = false, json = false;
};

void print_summary(const search::SearchOutcome& o, db::KernelDb& db) {
  std::map<std::string, int> by_status;
  std::vector<std::pair<double, std::string>> variants;  // the tuner's, fastest first
  for (const auto& row : db.kernels(o.task, o.run_id)) {
    by_status[row.evaluation ? status_name(row.evaluation->status) : "not evaluated"]++;
    if (row.kernel.op == "tuner" && row.evaluation && row.evaluation->speedup) {
      variants.emplace_back(*row.evaluation->speedup,
                            row.kernel.description.substr(row.kernel.description.find("knobs ") + 6));
    }
  }
  std::sort(variants.rbegin(), variants.rend());
  std::string statuses;
  for (const auto& [s, n] : by_status) statuses += (statuses.empty() ? "" : ", ") + std::to_string(n) + " " + s;
  std::printf("\nrun     %s (%s on %s, %s) %s after %s%s\n", o.run_id.c_str(), o.task.c_str(), o.board.c_str(),
              name_of(o.method), name_of(o.state), search::format_duration(o.seconds).c_str(),
              o.stop_reason.empty() ? "" : (": " + o.stop_reason).c_str());
  if (o.best_speedup > 1.0) {
    std::printf("best    kernel #%lld: %.3fx ker0 (%s vs %s modeled cycles)\n",
                static_cast<long long>(o.best_kernel_id), o.best_speedup, with_commas(o.best_cycles).c_str(),
                with_commas(o.baseline_cycles).c_str());
  } else {
    std::printf("best    nothing beat ker0 (%s modeled cycles); the best is ker0 itself (kernel #%lld)\n",
                with_commas(o.baseline_cycles).c_str(), static_cast<long long>(o.best_kernel_id));
  }
  if (!o.best_idea.empty()) std::printf("idea    %s\n", o.best_idea.c_str());
  std::printf("file    %s\n", o.best_file.c_str());
  std::printf("kernels %lld in this run (%s); %lld evaluated on the board, %lld reused\n",
              static_cast<long long>(o.totals.kernels), statuses.empty() ? "none" : statuses.c_str(),
              static_cast<long long>(o.evaluated), static_cast<long long>(o.reused));
  if (!variants.empty()) {
    std::string tried;
    for (size_t i = 0; i < variants.size() && i < 8; ++i) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "%s%s %.3fx", i ? ", " : "", variants[i].second.c_str(), variants[i].first);
      tried += buf;
    }
    std::printf("tuned   %s%s (ker0's own settings: 1.000x)\n", tried.c_str(), variants.size() > 8 ? ", ..." : "");
  }
  if (!o.llm.empty()) {
    std::printf(
        "llm     %s: %lld calls (%lld from the cache, %lld failed, %lld retried requests, %lld unusable replies, "
        "%lld repeats of a kernel on record), %s tokens in, %s out, cost %.4f\n",
        o.llm.c_str(), static_cast<long long>(o.totals.llm_calls), static_cast<long long>(o.totals.cache_hits),
        static_cast<long long>(o.totals.llm_failures), static_cast<long long>(o.summary.value("retries", int64_t{0})),
        static_cast<long long>(o.totals.unusable_replies), static_cast<long long>(o.totals.repeats),
        with_commas(static_cast<double>(o.totals.prompt_tokens)).c_str(),
        with_commas(static_cast<double>(o.totals.completion_tokens)).c_str(), o.totals.cost);
  }
  std::printf(
      "next    eok show %lld | eok kernels --task %s --run %s | eok leaderboard | eok export --task %s --out DIR\n",
      static_cast<long long>(o.best_kernel_id), o.task.c_str(), o.run_id.c_str(), o.task.c_str());
  if (o.state == db::RunState::stopped)
    std::printf("        continue it with: eok search --resume %s\n", o.run_id.c_str());
}

int run_search_command(const SearchOptions& opt, const GlobalOptions& global) {
  log::set_level(global.log_level);
  search::SearchRequest req{find_project_root(global.root), Workspace::open()};
  const std::string& config_file = opt.flags.config_file;
  req.config =
      Config::load(req.root, config_file.empty() ? std::nullopt : std::optional<std::filesystem::path>(config_file));
  opt.flags.apply(req.config);
  if (!opt.resume.empty()) {
    req.resume_run = opt.resume;
    // A resumed run keeps what it was started with (so that it asks nothing twice): say so, not silently.
    std::vector<std::string> ignored = opt.flags.given();
    if (!opt.task.empty()) ignored.insert(ignored.begin(), "--task");
    if (!ignored.empty()) {
      std::string list;
      for (const auto& f : ignored) list += (list.empty() ? "" : ", ") + f;
      log::warn(
          "--resume continues run {} with the configuration it was started with: {} ignored (start a new run to "
          "change them)",
          opt.resume, list);
    }
  } else if (opt.task.empty()) {
    throw ConfigError("--task is required (or --resume RUN_ID): eok search --task mish");
  }
  if (!opt.run_id.empty()) {
    if (!opt.resume.empty())
      throw ConfigError("--run-id names a new run; --resume continues an existing one: give one of them");
    req.new_run_id = opt.run_id;
  }
  req.task = opt.task;
  req.board = opt.flags.board;
  req.replay = opt.replay;
  req.terminal = isatty(STDERR_FILENO) != 0;
  const search::SearchOutcome o = search::run_search(req);
  if (opt.json) {
    nlohmann::json j = o.summary;
    j["run"] = o.run_id;
    j["task"] = o.task;
    j["board"] = o.board;
    j["state"] = name_of(o.state);
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
  } else {
    print_summary(o, *open_kernel_db(req.workspace));
  }
  return o.state == db::RunState::finished ? 0 : o.state == db::RunState::failed ? 8 : 7;
}

}  // namespace

void add_search_command(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  auto opt = std::make_shared<SearchOptions>();
  CLI::App* cmd = app.add_subcommand(
      "search",
      "Search for a faster kernel for a task. Each iteration runs --parallel idea-guided EoH searches: an LLM\n"
      "applies optimisation thoughts from the idea pool to a kernel of the run's archive, then evolves them with\n"
      "the strategies E1, E2, M1, M2, M3; every candidate is evaluated on the board (eok eval) and recorded in\n"
      "the kernel database. Without an idea pool it is plain EoH; without any LLM (none configured, none found\n"
      "on the usual local ports) it runs the knob tuner on the knobs ker0 declares, and says so.\n\n"
      "LLM: any OpenAI-compatible endpoint: EOK_LLM_BASE_URL (e.g. http://127.0.0.1:8000/v1), EOK_LLM_MODEL,\n"
      "EOK_LLM_API_KEY; or a vLLM/Ollama/llama.cpp server on 127.0.0.1 is found. Every reply is cached in the\n"
      "workspace; --replay runs from that cache alone. Settings: configs/eok.toml, --config FILE, EOK_* variables,\n"
      "flags (eok search --help lists the flags; src/common/config_keys.cc every key).\n\n"
      "Ctrl-C stops after the proposals in flight; a stopped or killed run continues with --resume RUN_ID, and\n"
      "nothing already recorded (LLM call or evaluation) is repeated, except evaluations that failed in eok or\n"
      "the board (infra_error): those kernels are evaluated again. Three infra_errors in a row stop the run\n"
      "(check the setup with eok doctor, then --resume).\n"
      "Exit code: 0 finished, 7 stopped early (Ctrl-C, budget, a failing board), 8 failed (every LLM call failed\n"
      "or no reply held a kernel: nothing was learned), 1-6 errors.\n\n"
      "Examples:\n  eok search --task mish --board k1\n  EOK_LLM_BASE_URL=http://127.0.0.1:8000/v1 eok search --task "
      "relu_f32 --iterations 3\n"
      "  eok search --resume r20261122-143005-7f3a");
  cmd->add_option("--task,-t", opt->task, "task id or operation name (mish -> mish_f32)");
  cmd->add_option("--resume", opt->resume, "continue a stopped or killed run (its stored settings apply)");
  cmd->add_option("--run-id", opt->run_id,
                  "the id of the new run (default: drawn; scripts and eok bench choose it up front)");
  opt->flags.declare(*cmd, SearchFlags::Scope::one_search);
  cmd->add_flag("--replay", opt->replay, "answer every LLM request from the response cache; a miss fails clearly");
  cmd->add_flag("--json", opt->json, "print the run's summary as JSON");
  cmd->callback([opt, &global, &exit_code] { exit_code = run_search_command(*opt, global); });
}

}  // namespace eok::cli
