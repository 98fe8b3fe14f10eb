#include "src/search/search_run.h"
#include "src/common/clock.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <random>
#include <utility>

#include "evaluator/board_session.h"
#include "evaluator/task.h"
#include "idea_pool/example_code.h"
#include "src/common/file_lock.h"
#include "idea_pool/pool.h"
#include "rag/retriever.h"
#include "src/search/context_retriever.h"
#include "src/common/error.h"
#include "src/common/interrupt_guard.h"
#include "src/common/fs_util.h"
#include "src/common/log.h"
#include "src/db/run_id.h"
#include "src/llm/discovery.h"
#include "src/llm/llm_factory.h"
#include "src/llm/llm_settings.h"
#include "src/llm/llm_stats.h"
#include "src/search/eok_loop.h"
#include "src/search/kernel_judge.h"
#include "src/search/llm_generator.h"
#include "src/search/run_interrupt_watch.h"
#include "src/llm/llm_choice.h"
#include "src/llm/prompt_library.h"
#include "src/search/settings.h"
#include "src/search/tuner.h"

namespace eok::search {

namespace fs = std::filesystem;

namespace {

// On a real board, the champion and ker0 are measured again in turns, this many times each.
constexpr int kChampionRemeasureRounds = 3;
// The champion is re-checked on this many fresh seeds (the fastest first, until one passes or ker0 stands).
constexpr int kChampionRechecks = 2;

std::string json_text(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Marks a run stopped with its reason, so that --resume continues it. Best effort: on a full disk the
// database may take no write either, and the run then stays `running`, which --resume also continues.
void mark_stopped(db::KernelDb& db, const std::string& run_id, const std::string& reason) {
  try {
    db.update_run(run_id, db::RunState::stopped, json_text({{"stop_reason", reason}}));
  } catch (const std::exception& e) {
    log::warn("could not mark run {} stopped: {}", run_id, e.what());
  }
}

// Marks the run stopped and throws `E` saying how to continue it: for failures of the machine or the setup,
// after which --resume goes on from everything recorded.
template <class E>
[[noreturn]] void stop_resumably(db::KernelDb& db, Progress& progress, const std::string& run_id,
                                 const std::string& why) {
  progress.finish();
  mark_stopped(db, run_id, why);
  throw E(why + "; once that is fixed, continue the run with eok search --resume " + run_id);
}

// The retriever of --rag MODE: the document index (built from rag/corpus/ when there is none yet) and the
// example index of the pool.
std::unique_ptr<rag::Retriever> make_retriever(const SearchSettings& settings, const SearchRequest& req,
                                               const idea_pool::IdeaPool* pool) {
  const RagMode mode = settings.rag;
  if (mode == RagMode::none) return std::make_unique<rag::NoRetriever>();
  std::optional<rag::DocIndex> docs;
  std::optional<idea_pool::ExampleIndex> code;
  if (uses_docs(mode)) {
    const fs::path dir = req.workspace.rag_dir() / settings.rag_index;
    try {
      if (!rag::DocIndex::exists(dir) && settings.rag_index == "default" && fs::exists(req.root / "rag" / "corpus")) {
        log::info("no document index yet: indexing rag/corpus/ (eok rag build --docs DIR adds the specs)");
        rag::DocIndex::build({req.root / "rag" / "corpus"}, dir);
      }
      docs = rag::DocIndex::load(dir);
    } catch (const Error& e) {
      log::warn("no document retrieval: {}", e.what());
    }
  }
  if (uses_code(mode) && pool && !pool->file.empty()) {
    try {
      code = idea_pool::ExampleIndex::load(pool->file);
    } catch (const Error& e) {
      log::info("no example-code retrieval: {}", e.what());
    }
  }
  if (!docs && !code) return std::make_unique<rag::NoRetriever>();
  return std::make_unique<ContextRetriever>(std::move(docs), std::move(code), pool);
}

std::optional<idea_pool::IdeaPool> find_pool(const Config& c, const Workspace& ws, std::string* note) {
  std::string path = c.str("search.pool");
  if (path.empty()) {
    const fs::path latest = idea_pool::latest_pool_path(ws.root());
    if (!fs::exists(latest)) {
      *note = "no idea pool (eok mine writes one; --pool FILE names one)";
      return std::nullopt;
    }
    path = latest.string();
  }
  auto pool = idea_pool::load_pool(path);
  *note = "idea pool " + path + ": " + std::to_string(pool.ideas.size()) + " ideas, " +
          std::to_string(pool.thought_count()) + " thoughts" +
          (pool.description.empty() ? "" : " (" + pool.description + ")");
  return pool;
}

// The run a search works on: the recorded one it resumes (with its own configuration, task and board) or
// the new one it will create, and the lock that keeps other processes off it.
struct RunSetup {
  db::RunRecord run;
  Config config;
  std::unique_ptr<FileLock> lock;
};

// Takes the run's lock for this process, or throws ConfigError saying how to continue it once the other
// process is done.
void lock_run(const Workspace& ws, const std::string& id, std::unique_ptr<FileLock>& lock) {
  std::error_code ec;
  fs::create_directories(ws.runs_dir(), ec);
  lock = std::make_unique<FileLock>(ws.runs_dir() / (id + ".lock"));
  if (!lock->held()) {
    throw ConfigError("run " + id +
                      " is being searched by another eok process right now: wait for it to end, or stop it "
                      "(Ctrl-C) and then continue it with eok search --resume " +
                      id);
  }
}

// Checks the run ids of the request; for --resume, reads and locks the recorded run, and points the
// request at its task and board.
RunSetup open_requested_run(SearchRequest& req, db::KernelDb& db) {
  RunSetup setup;
  setup.config = req.config;
  if (req.new_run_id) db::check_run_id(*req.new_run_id);
  if (!req.resume_run) return setup;
  db::check_run_id(*req.resume_run);
  auto found = db.get_run(*req.resume_run);
  if (!found) {
    throw NotFoundError("no run " + *req.resume_run + " in " + req.workspace.database_path().string() +
                        " (eok runs lists them)");
  }
  setup.run = *found;
  const db::RunRecord& run = setup.run;
  lock_run(req.workspace, run.id, setup.lock);
  if (run.state == db::RunState::finished) log::info("run {} had finished; retracing it changes nothing new", run.id);
  setup.config = Config::from_json(nlohmann::json::parse(run.config_json));
  req.task = run.task;
  req.board = evaluator::recorded_board_profile(req.root, req.workspace.boards_dir(), run.board);
  log::info("resuming run {} ({} on {}, method {}, seed {})", run.id, run.task, run.board, name_of(run.method),
            run.seed);
  return setup;
}

// The method a run uses, with the LLM and the idea pool it needs.
struct MethodChoice {
  db::SearchMethod method = db::SearchMethod::tuner;
  std::optional<llm::LlmSettings> llm;
  std::optional<idea_pool::IdeaPool> pool;  // eok only
};

// The LLM the request names or finds: the response cache alone under --replay; otherwise the configured or
// a local endpoint, which must answer before anything is measured or recorded.
llm::LlmChoice choose_endpoint(const SearchRequest& req, const RunSetup& setup) {
  llm::LlmChoice choice;
  if (req.replay) {
    llm::LlmSettings s;
    s.base_url = "replay";
    s.model = req.resume_run ? setup.run.model : setup.config.str("llm.model");
    if (s.model.empty())
      throw ConfigError("--replay needs the model the recorded run used: set EOK_LLM_MODEL or --resume RUN_ID");
    choice.settings = s;
    choice.why = "replaying from the response cache alone (model " + s.model + ")";
    return choice;
  }
  choice = llm::choose_llm(setup.config);
  if (choice.settings && setup.config.boolean("llm.preflight")) {
    const auto& s = *choice.settings;
    if (!llm::probe_server(s.base_url, s.api_key, std::min(30.0, s.timeout_seconds))) {
      throw NotFoundError("the LLM endpoint " + s.base_url +
                          " does not answer GET /models with a model: check it with "
                          "`eok doctor`, or set llm.preflight = false for a server without /models");
    }
  }
  return choice;
}

// Resolves the method: a resumed run keeps its own; auto is eok with an LLM and an idea pool, eoh with an
// LLM, else the tuner. Throws ConfigError when the method asked for cannot run (no LLM, no pool).
MethodChoice choose_method(const SearchRequest& req, const RunSetup& setup, const SearchSettings& settings) {
  const std::optional<db::SearchMethod> asked = req.resume_run ? setup.run.method : settings.method;
  MethodChoice out;
  if (asked == db::SearchMethod::tuner) return out;
  const llm::LlmChoice choice = choose_endpoint(req, setup);
  if (!choice.settings) {
    if (asked) throw ConfigError("--method " + std::string(name_of(*asked)) + " needs an LLM: " + choice.why);
    log::info("{}: running the non-LLM knob tuner instead", choice.why);
    return out;
  }
  out.llm = choice.settings;
  log::info("{}", choice.why);
  std::string pool_note;
  out.pool = find_pool(setup.config, req.workspace, &pool_note);
  if (asked == db::SearchMethod::eok && !out.pool) throw ConfigError("--method eok needs an idea pool: " + pool_note);
  out.method = asked.value_or(out.pool ? db::SearchMethod::eok : db::SearchMethod::eoh);
  if (out.method == db::SearchMethod::eoh) out.pool.reset();
  log::info("{}", out.method == db::SearchMethod::eoh ? pool_note + ": running plain EoH" : pool_note);
  if (out.pool && idea_pool::pool_is_extractive(*out.pool)) {
    log::warn(
        "the idea pool was mined without an LLM (extractive): its thoughts are commit titles, not "
        "written optimisation steps, and guide the search weakly; `eok mine` with an LLM configured "
        "distils real ones");
  }
  return out;
}

// Records a new run (its seed drawn when none is set, its resolved configuration kept), or marks the
// resumed one running again with its own seed.
void start_run(const SearchRequest& req, db::KernelDb& db, RunSetup& setup, SearchSettings& settings,
               const evaluator::Task& task, const evaluator::BoardSession& session, const MethodChoice& method) {
  db::RunRecord& run = setup.run;
  if (req.resume_run) {
    settings.seed = run.seed;
    db.update_run(run.id, db::RunState::running, run.summary_json);
    return;
  }
  if (settings.seed == 0) {
    settings.seed = (static_cast<uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
    setup.config.set("search.seed", std::to_string(static_cast<int64_t>(settings.seed & 0x7fffffffffffffffull)),
                     "drawn");
    settings.seed &= 0x7fffffffffffffffull;
  }
  run.id = req.new_run_id ? *req.new_run_id : db::new_run_id(settings.seed);
  lock_run(req.workspace, run.id, setup.lock);
  run.task = task.id;
  run.board = session.board.name;
  evaluator::keep_board_profile(req.root, req.workspace.boards_dir(), session.board);
  run.state = db::RunState::running;
  run.method = method.method;
  setup.config.set("search.method", name_of(method.method), "resolved");
  run.config_json = json_text(setup.config.to_json());
  run.seed = settings.seed;
  run.toolchain = session.tools.clang_version + "; " + session.tools.qemu_version;
  run.model = method.llm ? method.llm->model : "";
  run.started_at = run.updated_at = unix_seconds();
  db.create_run(run);
  log::info("run {}: {} on {} with {}, seed {}", run.id, task.id, run.board, name_of(method.method), run.seed);
}

// ker0, measured (or found measured) on the board. A failure of eok or the board stops the run
// resumably; a ker0 that does not pass fails it.
ScoredKernel measure_baseline(EvaluationService& evals, db::KernelDb& db, Progress& progress, const std::string& run_id,
                              const evaluator::Task& task, const std::string& board) {
  progress.phase("measuring ker0");
  ScoredKernel baseline;
  try {
    baseline = evals.baseline();
  } catch (const ToolchainError& e) {
    // eok or the board failed: nothing was searched yet, and the run continues once the setup is fixed.
    stop_resumably<ToolchainError>(db, progress, run_id, e.what());
  } catch (const InfraError& e) {
    stop_resumably<InfraError>(db, progress, run_id, e.what());
  } catch (const StorageError& e) {
    stop_resumably<StorageError>(db, progress, run_id, e.what());
  } catch (const fs::filesystem_error& e) {
    if (!is_storage_errno(e.code().value())) throw;
    stop_resumably<StorageError>(db, progress, run_id, e.what());
  }
  if (!baseline.ok()) {
    progress.finish();
    const std::string why = task.ker0_path().lexically_proximate(fs::current_path()).string() +
                            " does not pass on board " + board + ": " + status_name(baseline.eval.status) + ": " +
                            baseline.eval.message;
    db.update_run(run_id, db::RunState::failed, json_text({{"error", why}}));
    throw Error(why);
  }
  return baseline;
}

// What an LLM run asks with: the client (budgeted, cached), the prompts, retrieval and the generator.
struct LlmStack {
  std::unique_ptr<llm::Llm> client;
  std::unique_ptr<llm::PromptLibrary> prompts;
  std::unique_ptr<rag::Retriever> retriever;
  std::unique_ptr<LlmGenerator> generator;
};

LlmStack connect_llm(const SearchRequest& req, const RunSetup& setup, const SearchSettings& settings,
                     const MethodChoice& method, db::KernelDb& db, const evaluator::Task& task,
                     const evaluator::BoardSession& session, llm::LlmStats& stats) {
  LlmStack out;
  const Config& config = setup.config;
  llm::LlmBudget budget;
  budget.max_calls = config.integer("budget.max_llm_calls");
  budget.max_tokens = config.integer("budget.max_tokens");
  budget.max_cost = config.number("budget.max_cost");
  out.client = llm::make_llm(*method.llm, budget, req.workspace.llm_cache_dir(), req.replay, &stats);
  out.prompts = std::make_unique<llm::PromptLibrary>(req.root / "prompts", LlmGenerator::required_prompts(),
                                                     LlmGenerator::placeholders());
  out.retriever = make_retriever(settings, req, method.pool ? &*method.pool : nullptr);
  log::info("retrieval ({}): {}", rag_mode_name(settings.rag), out.retriever->describe());
  out.generator = std::make_unique<LlmGenerator>(*out.client, *out.prompts, *out.retriever, db, task, session.board,
                                                 setup.run.id, settings);
  return out;
}

// Runs the strategy (EoK/EoH iterations, or the tuner; `tuner_best_knobs` gets the tuner's best). The disk
// failing stops the run resumably; any other failure marks it failed and propagates.
void run_strategy(SearchContext& ctx, db::KernelDb& db, const db::RunRecord& run, const std::string& board,
                  const ScoredKernel& baseline, bool llm_run, std::string& tuner_best_knobs) {
  try {
    if (llm_run) {
      run_eok_loop(ctx, db, run.id, board, run.seed, baseline);
    } else {
      tuner_best_knobs = run_tuner(ctx, baseline).best_knobs;
    }
  } catch (const StorageError& e) {
    // The disk failed, not the search: everything recorded so far stands, and --resume goes on from it.
    stop_resumably<StorageError>(db, ctx.progress, run.id, e.what());
  } catch (const fs::filesystem_error& e) {
    if (is_storage_errno(e.code().value())) stop_resumably<StorageError>(db, ctx.progress, run.id, e.what());
    ctx.progress.finish();
    db.update_run(run.id, db::RunState::failed, json_text({{"error", e.what()}}));
    throw;
  } catch (const std::exception& e) {
    ctx.progress.finish();
    db.update_run(run.id, db::RunState::failed, json_text({{"error", e.what()}}));
    throw;
  }
}

// Kernels on record without an evaluation (their evaluation was cut off by a kill, and the resumed search
// did not meet them again) are evaluated now, so that nothing in the database stays unjudged; so are those
// whose evaluation failed in eok or the board, unless the run stopped for that.
void judge_unjudged(SearchContext& ctx, db::KernelDb& db, const std::string& run_id) {
  for (const auto& row : db.kernels(ctx.task.id, run_id)) {
    if (ctx.evals.infra_failing()) break;
    const bool infra = row.evaluation && row.evaluation->status == EvalStatus::infra_error;
    if (row.evaluation && !(infra && !ctx.stop)) continue;
    const ScoredKernel k = ctx.evals.submit(row.kernel);
    if (k.infra_error()) ctx.infra_error("unjudged kernel", k);
  }
}

// A search that ran its course, asking, and never got a kernel back learned nothing: why it failed, or ""
// when some reply became a kernel (or nothing was asked).
std::string no_kernel_failure(db::KernelDb& db, const std::string& run_id) {
  const auto calls = db.llm_calls(run_id);
  const bool any_kernel =
      std::any_of(calls.begin(), calls.end(), [](const db::LlmCallRecord& c) { return c.kernel_id.has_value(); });
  if (calls.empty() || any_kernel) return "";
  const bool all_failed = std::all_of(calls.begin(), calls.end(), [](const db::LlmCallRecord& c) { return !c.ok; });
  return std::string(all_failed ? "every LLM call failed" : "no reply of the LLM held a usable kernel") + " (" +
         std::to_string(calls.size()) + " calls; the last: " + calls.back().error +
         "): check the endpoint and model with `eok doctor` and one call with `eok show --call " +
         std::to_string(calls.back().id) + "`, then continue with eok search --resume " + run_id;
}

// The best correct kernel of the run (ker0 when nothing beat it) and how it was confirmed.
struct Champion {
  ScoredKernel best;
  int demoted = 0;            // faster kernels that failed on fresh inputs
  nlohmann::json remeasured;  // null unless measured again in turns with ker0 on a real board
};

// The champion is checked again on fresh inputs before it is reported: one that is right only on the inputs
// it was measured with is not (its failing evaluation replaces the old one, and the next best is tried).
// On a real board the champion and ker0 are then measured again in turns: the champion stands only when it
// is faster beyond the board's noise, and its speedup is the one measured side by side.
Champion choose_champion(EvaluationService& evals, db::KernelDb& db, const evaluator::Task& task,
                         const std::string& board, const std::string& run_id, const ScoredKernel& baseline) {
  Champion c{baseline, 0, nullptr};
  for (const auto& row : db.best_kernels(task.id, board, run_id, 0)) {
    if (!row.evaluation || !row.evaluation->cycles || *row.evaluation->cycles >= c.best.cycles() ||
        row.kernel.id == baseline.kernel.id) {
      continue;
    }
    if (auto failed = evals.recheck(row.kernel, kChampionRechecks)) {
      log::warn("kernel #{} was fastest but fails on fresh inputs ({}: {}); it is not reported", row.kernel.id,
                status_name(failed->status), failed->message);
      db.insert_evaluation(*failed);
      ++c.demoted;
      continue;
    }
    c.best = {row.kernel, *row.evaluation};
    break;
  }
  if (c.best.kernel.id == baseline.kernel.id || !c.best.measured_on_board() || evals.infra_failing()) return c;
  const Remeasured r = evals.remeasure_against(c.best.kernel, baseline.kernel, kChampionRemeasureRounds);
  c.remeasured = {{"rounds", r.rounds},
                  {"champion_cycles", r.champion_cycles},
                  {"baseline_cycles", r.baseline_cycles},
                  {"noise_cycles", r.noise},
                  {"faster", r.faster},
                  {"problem", r.problem}};
  if (!r.problem.empty()) {
    log::warn("could not re-measure kernel #{} against ker0 on the board: {}; it is reported from its own evaluation",
              c.best.kernel.id, r.problem);
  } else if (!r.faster) {
    log::warn(
        "kernel #{} is not faster than ker0 beyond the board's noise when measured in turns ({:.0f} vs {:.0f} "
        "cycles, "
        "noise {:.0f}): ker0 stands",
        c.best.kernel.id, r.champion_cycles, r.baseline_cycles, r.noise);
    c.best = baseline;
  } else {
    c.best.eval.speedup = r.baseline_cycles / r.champion_cycles;
  }
  return c;
}

// Fills the outcome and the summary stored with the run from the champion, and writes the champion's
// source into the run's directory.
void summarise(SearchOutcome& out, const Champion& champion, const ScoredKernel& baseline, const SearchRequest& req,
               const std::string& task_id, db::KernelDb& db, const EvaluationService& evals,
               const llm::LlmStats& llm_stats, const std::string& tuner_best_knobs) {
  const ScoredKernel& best = champion.best;
  out.best_kernel_id = best.kernel.id;
  // ker0 against itself is 1 by definition (on a real board its own evaluation is one noisy sample).
  out.best_speedup = best.kernel.id == baseline.kernel.id ? 1.0 : best.speedup();
  out.best_cycles = best.cycles();
  out.best_idea = best.kernel.description;
  out.best_file = req.workspace.runs_dir() / out.run_id / (task_id + ".c");
  write_file_atomic(out.best_file, best.kernel.source);
  out.totals = db.run_totals(out.run_id);
  const auto counts = evals.counts();
  out.evaluated = counts.evaluated;
  out.reused = counts.reused;
  const auto t = llm_stats.totals();
  out.summary = {{"best_kernel_id", out.best_kernel_id},
                 {"best_speedup", out.best_speedup},
                 {"best_cycles", out.best_cycles},
                 {"baseline_cycles", out.baseline_cycles},
                 {"best_file", out.best_file.string()},
                 {"method", name_of(out.method)},
                 {"kernels", out.totals.kernels},
                 {"evaluations_run", out.evaluated},
                 {"evaluations_reused", out.reused},
                 {"evaluations_infra_error", counts.infra_errors},
                 {"champions_failing_recheck", champion.demoted},
                 {"llm_calls", out.totals.llm_calls},
                 {"llm_failures", out.totals.llm_failures},
                 {"unusable_replies", out.totals.unusable_replies},
                 {"repeats", out.totals.repeats},
                 {"cache_hits", out.totals.cache_hits},
                 {"prompt_tokens", out.totals.prompt_tokens},
                 {"completion_tokens", out.totals.completion_tokens},
                 {"cost", out.totals.cost},
                 {"seconds_this_session", out.seconds},
                 {"retries", t.retries},
                 {"stop_reason", out.stop_reason}};
  if (!tuner_best_knobs.empty()) out.summary["tuner_best_knobs"] = tuner_best_knobs;
  if (!champion.remeasured.is_null()) out.summary["remeasured_against_ker0"] = champion.remeasured;
}

}  // namespace

SearchOutcome run_search(SearchRequest req) {
  const auto started = std::chrono::steady_clock::now();
  auto db = db::KernelDb::open(req.workspace.database_path());
  RunSetup setup = open_requested_run(req, *db);
  std::string resolved_note;
  const evaluator::Task task = evaluator::find_task(req.root, req.task, &resolved_note);
  if (!resolved_note.empty()) log::info("{}", resolved_note);
  SearchSettings settings = SearchSettings::from_config(setup.config);
  const MethodChoice method = choose_method(req, setup, settings);
  settings.method = method.method;
  auto session = evaluator::open_board_session(req.root, req.workspace, req.board);
  start_run(req, *db, setup, settings, task, session, method);
  const db::RunRecord& run = setup.run;

  std::atomic<bool> stop{false};
  InterruptGuard interrupts(stop);
  RunInterruptWatch interrupt_watch(*db, run.id, interrupts);
  const bool llm_run = method.method != db::SearchMethod::tuner;
  Progress progress(llm_run ? settings.planned_proposals() : settings.tuner_max_evaluations, req.terminal);
  BoardJudge board_judge(*session.evaluator);
  EvaluationService evals(req.judge ? *req.judge : board_judge, *db, task, session.board.name, run.id, run.seed,
                          settings.eval_concurrency);
  SearchOutcome out;
  out.run_id = run.id;
  out.task = task.id;
  out.board = session.board.name;
  out.method = method.method;

  const ScoredKernel baseline = measure_baseline(evals, *db, progress, run.id, task, out.board);
  out.baseline_cycles = baseline.cycles();
  progress.baseline(baseline.speedup());

  llm::LlmStats llm_stats;
  LlmStack llm;
  if (llm_run) {
    llm = connect_llm(req, setup, settings, method, *db, task, session, llm_stats);
    out.llm = llm.client->describe();
  }
  const idea_pool::IdeaPool* pool = method.pool ? &*method.pool : nullptr;
  SearchContext ctx{task, settings, evals, llm.generator.get(), progress, pool, stop, {}, {}};
  std::string tuner_best_knobs;
  run_strategy(ctx, *db, run, out.board, baseline, llm_run, tuner_best_knobs);
  judge_unjudged(ctx, *db, run.id);
  progress.finish();

  out.state = db::RunState::finished;
  if (stop) {
    out.state = db::RunState::stopped;
    out.stop_reason =
        ctx.stop_reason.empty() ? (interrupts.interrupted() ? "interrupted" : "stopped") : ctx.stop_reason;
  }
  // (A run that was stopped, by Ctrl-C, the budget or a replay's miss, stays resumable.)
  if (llm_run && !stop) {
    if (std::string why = no_kernel_failure(*db, run.id); !why.empty()) {
      out.state = db::RunState::failed;
      out.stop_reason = std::move(why);
      log::error("{}", out.stop_reason);
    }
  }

  const Champion champion = choose_champion(evals, *db, task, out.board, run.id, baseline);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  summarise(out, champion, baseline, req, task.id, *db, evals, llm_stats, tuner_best_knobs);
  interrupt_watch.end();  // the watch must not overwrite the summary with its early "stopped" note
  db->update_run(run.id, out.state, json_text(out.summary));
  return out;
}

}  // namespace eok::search
