// eok bench: reproduce the paper's tables over the task catalog. `run` searches every task of a suite
// with one method, `table` summarises what the benches found, `list` shows the benches, `roofline` puts
// every ker0 next to its lower bound.
#include <algorithm>
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "evaluator/board.h"
#include "src/bench/bench_results.h"
#include "src/bench/bench_run.h"
#include "src/bench/bench_table.h"
#include "src/bench/roofline_table.h"
#include "src/bench/suite.h"
#include "src/common/subprocess.h"
#include "src/cli/cli.h"
#include "src/cli/search_flags.h"
#include "src/common/error.h"
#include "src/common/log.h"
#include "src/search/progress.h"

namespace eok::cli {

namespace {

namespace fs = std::filesystem;

struct RunOptions {
  std::string suite = "all", resume, label;
  std::vector<std::string> tasks;
  SearchFlags flags;  // every task's search gets them
  unsigned jobs = 0;
  std::string executor = "local", partition;
  bool json = false;
};

// What every task's search of a new bench gets: the method (tuner unless given), the board, the label and
// every other search flag given. Throws ConfigError for a method a bench cannot run (auto, or an unknown name).
bench::BenchSettings bench_settings(const RunOptions& opt) {
  const SearchFlags& flags = opt.flags;
  const std::optional<db::SearchMethod> method =
      flags.method.empty() ? db::SearchMethod::tuner : parse_name<db::SearchMethod>(flags.method);
  if (!method) throw ConfigError("--method '" + flags.method + "': expected tuner, eoh or eok");
  bench::BenchSettings s;
  s.method = *method;
  s.board = flags.board;
  s.label =
      opt.label.empty() ? bench::default_label(*method, flags.thought_sampling, flags.rag, flags.pool) : opt.label;
  SearchFlags others = flags;  // --method and --board go first, from the settings themselves
  others.method.clear();
  others.board.clear();
  s.search_flags = others.arguments();
  return s;
}

int run_bench_command(const RunOptions& opt, const GlobalOptions& global) {
  log::set_level(global.log_level);
  bench::BenchRequest req{find_project_root(global.root), Workspace::open(), fs::read_symlink("/proc/self/exe")};
  const auto board = evaluator::load_board(req.root, opt.flags.board);
  req.jobs = opt.jobs ? opt.jobs
                      : bench::default_jobs(static_cast<unsigned>(board.remote.hosts.size()),
                                            !evaluator::is_real_board(board));
  req.executor = opt.executor;
  req.partition = opt.partition;
  if (req.executor != "local" && req.executor != "slurm")
    throw ConfigError("--executor: expected local or slurm, not '" + req.executor + "'");
  if (req.executor == "slurm" && !find_on_path("srun")) {
    throw ToolchainError(
        "--executor slurm needs srun on PATH (apt-get install slurm-client; SLURM_CONF names the cluster)");
  }
  if (!opt.resume.empty()) {
    req.resume = opt.resume;
  } else {
    req.settings = bench_settings(opt);
    req.suite = opt.suite;
    req.tasks = bench::suite_tasks(req.root / "kernels", opt.suite, opt.tasks);
    if (req.tasks.empty())
      throw ConfigError("the " + opt.suite + " suite has no tasks under " + (req.root / "kernels").string());
  }
  std::fprintf(stderr, "bench: %s, %u searches at once (eok bench list shows it; Ctrl-C stops, --resume continues)\n",
               opt.resume.empty() ? (std::to_string(req.tasks.size()) + " tasks of suite " + opt.suite + ", method " +
                                     req.settings.label)
                                        .c_str()
                                  : ("resuming " + opt.resume).c_str(),
               req.jobs);
  const auto outcome = bench::run_bench(req, [](const bench::BenchTaskOutcome& t, size_t done, size_t total) {
    std::string what = t.shown_state();
    if (t.state == db::RunState::finished && !t.kept) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "best %.3fx", t.best_speedup);
      what = buf;
    }
    std::fprintf(stderr, "[%zu/%zu] %-26s %-14s %6.1f s  run %s%s%s\n", done, total, t.task.c_str(), what.c_str(),
                 t.seconds, t.run_id.c_str(), t.message.empty() ? "" : ": ", t.message.c_str());
  });
  size_t finished = 0, kept = 0, failed = 0, stopped = 0;
  for (const auto& t : outcome.tasks) {
    finished += t.state == db::RunState::finished && !t.kept;
    kept += t.kept;
    failed += t.state == db::RunState::failed;
    stopped += t.state == db::RunState::stopped;
  }
  if (opt.json) {
    nlohmann::json tasks = nlohmann::json::array();
    for (const auto& t : outcome.tasks) {
      tasks.push_back({{"task", t.task},
                       {"run", t.run_id},
                       {"state", t.shown_state()},
                       {"message", t.message},
                       {"best_speedup", t.best_speedup},
                       {"seconds", t.seconds}});
    }
    std::cout << nlohmann::json{{"bench", outcome.bench_id},
                                {"label", outcome.label},
                                {"state", name_of(outcome.state)},
                                {"seconds", outcome.seconds},
                                {"tasks", tasks}}
                     .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
              << std::endl;
  } else {
    std::printf("bench   %s (%s) %s after %s: %zu finished now, %zu earlier, %zu stopped, %zu failed\n",
                outcome.bench_id.c_str(), outcome.label.c_str(), name_of(outcome.state),
                search::format_duration(outcome.seconds).c_str(), finished, kept, stopped, failed);
    if (outcome.state != db::BenchState::finished)
      std::printf("        continue it with: eok bench run --resume %s\n", outcome.bench_id.c_str());
    std::printf("next    eok bench table | eok report --out report\n");
  }
  if (outcome.state == db::BenchState::finished) return 0;
  return failed > 0 ? 1 : 7;
}

struct TableOptions {
  std::string method;
  bool markdown = false, json = false;
};

int table_command(const TableOptions& opt, const GlobalOptions& global) {
  log::set_level(global.log_level);
  const fs::path root = find_project_root(global.root);
  auto db = open_kernel_db_for_reading(Workspace::open());
  const auto results = bench::collect_results(*db, root / "kernels", opt.method);
  if (opt.json) {
    std::cout << bench::table_json(results).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    return 0;
  }
  if (results.empty()) {
    std::printf("no bench results%s yet: eok bench run --suite all --method tuner\n",
                opt.method.empty() ? "" : (" for " + opt.method).c_str());
    return 0;
  }
  std::printf(
      "%s",
      bench::format_table(results, opt.markdown ? bench::TableFormat::markdown : bench::TableFormat::text).c_str());
  if (!opt.markdown) {
    std::printf(
        "\nspeedup: the best kernel of each task's run over ker0 (modeled cycles; 1.000x when nothing beat ker0);\n"
        "correct: runs that produced a correct kernel of their own (the tuner has nothing to try on a ker0\n"
        "without knobs); > 1: runs whose kernel beat ker0\n");
  }
  return 0;
}

int list_command(bool json, const GlobalOptions& global) {
  log::set_level(global.log_level);
  auto db = open_kernel_db_for_reading(Workspace::open());
  const auto benches = db->list_benches();
  if (json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& b : benches) {
      out.push_back({{"bench", b.id},
                     {"suite", b.suite},
                     {"method", name_of(b.method)},
                     {"label", b.label},
                     {"board", b.board},
                     {"tasks", b.tasks.size()},
                     {"runs", db->bench_runs(b.id).size()},
                     {"state", name_of(b.state)}});
    }
    std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    return 0;
  }
  if (benches.empty()) {
    std::printf("no benches yet: eok bench run --suite general --method tuner\n");
    return 0;
  }
  std::printf("%-24s %-8s %-28s %-6s %-7s %s\n", "bench", "suite", "method", "board", "tasks", "state");
  for (const auto& b : benches) {
    std::printf("%-24s %-8s %-28s %-6s %3zu/%-3zu %s\n", b.id.c_str(), b.suite.c_str(), b.label.c_str(),
                b.board.c_str(), db->bench_runs(b.id).size(), b.tasks.size(), name_of(b.state));
  }
  return 0;
}

struct RooflineOptions {
  std::string board = "k1", suite = "all", sort = "distance";
  std::vector<std::string> tasks;
  bool json = false;
};

int roofline_command(const RooflineOptions& opt, const GlobalOptions& global) {
  log::set_level(global.log_level);
  const fs::path root = find_project_root(global.root);
  const auto tasks = bench::suite_tasks(root / "kernels", opt.suite, opt.tasks);
  auto rows = bench::roofline_rows(root, Workspace::open(), opt.board, tasks,
                                   [&](const bench::RooflineRow& r, size_t done, size_t total) {
                                     if (!opt.json) std::fprintf(stderr, "[%zu/%zu] %s\n", done, total, r.task.c_str());
                                   });
  if (opt.sort == "distance") {
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto& a, const auto& b) { return a.distance() > b.distance(); });
  } else if (opt.sort != "task") {
    throw ConfigError("--sort '" + opt.sort + "': expected distance or task");
  }
  int broken = 0;
  if (opt.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& r : rows) {
      out.push_back({{"task", r.task},
                     {"suite", r.suite},
                     {"dtype", r.dtype},
                     {"flops", r.roof.flops},
                     {"bytes", r.roof.bytes},
                     {"intensity", r.roof.intensity()},
                     {"compute_cycles", r.roof.compute_cycles},
                     {"memory_cycles", r.roof.memory_cycles},
                     {"bound_cycles", r.roof.bound_cycles},
                     {"bound_by", r.roof.limit},
                     {"ker0_cycles", r.ker0_cycles},
                     {"distance", r.distance()},
                     {"error", r.error}});
      broken += !r.error.empty();
    }
    std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    return broken ? 1 : 0;
  }
  std::printf("%-26s %-7s %-5s %10s %8s %12s %12s %9s\n", "task", "suite", "type", "flops/B", "bound", "roofline",
              "ker0", "ker0/roof");
  for (const auto& r : rows) {
    if (!r.error.empty()) {
      std::printf("%-26s %-7s %-5s ker0 failed: %s\n", r.task.c_str(), r.suite.c_str(), r.dtype.c_str(),
                  r.error.c_str());
      ++broken;
      continue;
    }
    std::printf("%-26s %-7s %-5s %10.3f %8s %12s %12s %8.2fx\n", r.task.c_str(), r.suite.c_str(), r.dtype.c_str(),
                r.roof.intensity(), r.roof.limit.c_str(), with_commas(r.roof.bound_cycles).c_str(),
                with_commas(r.ker0_cycles).c_str(), r.distance());
  }
  std::printf(
      "\nroofline: the fewest cycles the cost model allows for the declared flops and bytes (kernels/README.md);\n"
      "ker0/roof: how many times that bound ker0 takes\n");
  return broken ? 1 : 0;
}

}  // namespace

void add_bench_command(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  CLI::App* bench = app.add_subcommand(
      "bench",
      "Reproduce the paper's tables over the task catalog (14 general-purpose and 66 neural-network tasks).\n\n"
      "Examples:\n"
      "  eok bench run --suite all --method tuner           the non-LLM baseline on all 80 tasks\n"
      "  eok bench run --suite nn --method eok --rag none   the RAG ablation (Table 5) on the nn suite\n"
      "  eok bench run --resume b20261122-143005-7f3a       continue a stopped bench\n"
      "  eok bench table --markdown                         Mean/Max/75%/50%/25%, #correct, #>1 per suite\n"
      "  eok bench roofline                                 every ker0 against its roofline");
  bench->require_subcommand(1);

  auto run = std::make_shared<RunOptions>();
  CLI::App* r = bench->add_subcommand(
      "run",
      "Search every task of a suite with one method, tasks in parallel (each an `eok search` run in the kernel\n"
      "database). A bench is resumable: Ctrl-C stops the searches in flight the way Ctrl-C stops one search;\n"
      "--resume keeps finished tasks, continues stopped ones and starts the rest.\n"
      "Ablations (the paper's Tables 4 and 5): --pool (idea-pool variant: a pool mined with --pool-variant raw,\n"
      "kmeans or two-level), --thought-sampling uniform|softmax, --rag none|docs|code|both.\n"
      "Exit code: 0 every task finished, 7 stopped, 1 some task failed.");
  r->add_option("--suite", run->suite, "general, nn or all")->capture_default_str();
  r->add_option("--tasks", run->tasks, "only these tasks of the suite, comma-separated (ids or operation names)")
      ->delimiter(',');
  run->flags.declare(*r, SearchFlags::Scope::every_task);
  r->add_option("--jobs,-j", run->jobs,
                "searches at once (default: the host's cores, and at least one per board of a real board's pool)");
  r->add_option(
       "--executor", run->executor,
       "where each task's search runs: local (a child process) or slurm (a Slurm job named eok-<task>, through srun; "
       "the workspace and eok must be on a filesystem the nodes share)")
      ->capture_default_str();
  r->add_option("--partition", run->partition,
                "slurm: the partition the search jobs run on (default: the cluster's default)");
  r->add_option("--label", run->label,
                "the name of this configuration in tables and the report (default: method + ablations)");
  r->add_option("--resume", run->resume, "continue this bench (its stored settings apply)");
  r->add_flag("--json", run->json, "print the outcome as JSON");
  r->callback([run, &global, &exit_code] { exit_code = run_bench_command(*run, global); });

  auto table = std::make_shared<TableOptions>();
  CLI::App* t = bench->add_subcommand(
      "table",
      "The paper's table from the benches in this workspace: per suite and method, Mean, Max, 75%, 50% and 25%\n"
      "speedup over ker0, tasks with a correct kernel, tasks with speedup > 1. Each method's newest run of each\n"
      "task counts.");
  t->add_option("--method", table->method, "only this method (tuner, eoh, eok) or label");
  t->add_flag("--markdown", table->markdown, "print Markdown tables");
  t->add_flag("--json", table->json, "print every figure and every task's result as JSON");
  t->callback([table, &global, &exit_code] { exit_code = table_command(*table, global); });

  auto list_json = std::make_shared<bool>(false);
  CLI::App* l = bench->add_subcommand("list", "The benches of this workspace, newest first.");
  l->add_flag("--json", *list_json, "print JSON");
  l->callback([list_json, &global, &exit_code] { exit_code = list_command(*list_json, global); });

  auto roof = std::make_shared<RooflineOptions>();
  CLI::App* rf = bench->add_subcommand(
      "roofline",
      "Every task's roofline (the fewest cycles the cost model allows for its declared flops and bytes) next to\n"
      "ker0's modeled cycles. ker0s not yet measured in this workspace are measured (about a second each).");
  rf->add_option("--board,-b", roof->board, "board profile")->capture_default_str();
  rf->add_option("--suite", roof->suite, "general, nn or all")->capture_default_str();
  rf->add_option("--tasks", roof->tasks, "only these tasks, comma-separated")->delimiter(',');
  rf->add_option("--sort", roof->sort, "distance (furthest from the roofline first) or task")->capture_default_str();
  rf->add_flag("--json", roof->json, "print JSON");
  rf->callback([roof, &global, &exit_code] { exit_code = roofline_command(*roof, global); });
}

}  // namespace eok::cli
