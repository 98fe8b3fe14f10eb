#include "src/search/search_run.h"
#include "src/common/clock.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <random>
#include <thread>

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

// Marks a run stopped with its reason, so that --resume continues it. Best effort: on a full disk the
// database may take no write either, and the run then stays `running`, which --resume also continues.
void mark_stopped(db::KernelDb& db, const std::string& run_id, const std::string& reason) {
  try {
    db.update_run(
        run_id, "stopped",
        nlohmann::json{{"stop_reason", reason}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
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

}  // namespace

SearchOutcome run_search(SearchRequest req) {
  const auto started = std::chrono::steady_clock::now();
  auto db = db::KernelDb::open(req.workspace.database_path());

  // The run: a new one from the configuration, or a recorded one with its own configuration and seed.
  db::RunRecord run;
  Config config = req.config;
  std::optional<FileLock> run_lock;  // one process at a time works on a run
  auto lock_run = [&](const std::string& id) {
    std::error_code ec;
    fs::create_directories(req.workspace.runs_dir(), ec);
    run_lock.emplace(req.workspace.runs_dir() / (id + ".lock"));
    if (!run_lock->held()) {
      throw ConfigError("run " + id +
                        " is being searched by another eok process right now: wait for it to end, or stop it "
                        "(Ctrl-C) and then continue it with eok search --resume " +
                        id);
    }
  };
  if (req.new_run_id) db::check_run_id(*req.new_run_id);
  if (req.resume_run) {
    db::check_run_id(*req.resume_run);
    auto found = db->get_run(*req.resume_run);
    if (!found)
      throw NotFoundError("no run " + *req.resume_run + " in " + req.workspace.database_path().string() +
                          " (eok runs lists them)");
    run = *found;
    lock_run(run.id);
    if (run.state == "finished") log::info("run {} had finished; retracing it changes nothing new", run.id);
    config = Config::from_json(nlohmann::json::parse(run.config_json));
    req.task = run.task;
    req.board = evaluator::recorded_board_profile(req.root, req.workspace.boards_dir(), run.board);
    log::info("resuming run {} ({} on {}, method {}, seed {})", run.id, run.task, run.board, run.method, run.seed);
  }
  std::string resolved_note;
  const evaluator::Task task = evaluator::find_task(req.root, req.task, &resolved_note);
  if (!resolved_note.empty()) log::info("{}", resolved_note);
  SearchSettings settings = SearchSettings::from_config(config);

  // The method, and the LLM if it needs one.
  std::optional<llm::LlmSettings> llm_settings;
  std::string pool_note;
  std::optional<idea_pool::IdeaPool> pool;
  std::string method = req.resume_run ? run.method : settings.method;
  if (method != "tuner") {
    llm::LlmChoice choice;
    if (req.replay) {
      llm::LlmSettings s;
      s.base_url = "replay";
      s.model = req.resume_run ? run.model : config.str("llm.model");
      if (s.model.empty())
        throw ConfigError("--replay needs the model the recorded run used: set EOK_LLM_MODEL or --resume RUN_ID");
      choice.settings = s;
      choice.why = "replaying from the response cache alone (model " + s.model + ")";
    } else {
      choice = llm::choose_llm(config);
      // Before anything is measured or recorded: does the endpoint answer at all?
      if (choice.settings && config.boolean("llm.preflight")) {
        const auto& s = *choice.settings;
        if (!llm::probe_server(s.base_url, s.api_key, std::min(30.0, s.timeout_seconds))) {
          throw NotFoundError("the LLM endpoint " + s.base_url +
                              " does not answer GET /models with a model: check it with "
                              "`eok doctor`, or set llm.preflight = false for a server without /models");
        }
      }
    }
    if (!choice.settings) {
      if (method == "eok" || method == "eoh") throw ConfigError("--method " + method + " needs an LLM: " + choice.why);
      log::info("{}: running the non-LLM knob tuner instead", choice.why);
      method = "tuner";
    } else {
      llm_settings = choice.settings;
      log::info("{}", choice.why);
      pool = find_pool(config, req.workspace, &pool_note);
      if (method == "eok" && !pool) throw ConfigError("--method eok needs an idea pool: " + pool_note);
      if (method == "auto") method = pool ? "eok" : "eoh";
      if (method == "eoh" && pool) pool.reset();
      log::info("{}", method == "eoh" ? pool_note + ": running plain EoH" : pool_note);
      if (pool && idea_pool::pool_is_extractive(*pool)) {
        log::warn(
            "the idea pool was mined without an LLM (extractive): its thoughts are commit titles, not "
            "written optimisation steps, and guide the search weakly; `eok mine` with an LLM configured "
            "distils real ones");
      }
    }
  }
  settings.method = method;

  auto session = evaluator::open_board_session(req.root, req.workspace, req.board);
  if (!req.resume_run) {
    if (settings.seed == 0) {
      settings.seed = (static_cast<uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
      config.set("search.seed", std::to_string(static_cast<int64_t>(settings.seed & 0x7fffffffffffffffull)), "drawn");
      settings.seed &= 0x7fffffffffffffffull;
    }
    run.id = req.new_run_id ? *req.new_run_id : db::new_run_id(settings.seed);
    lock_run(run.id);
    run.task = task.id;
    run.board = session.board.name;
    evaluator::keep_board_profile(req.root, req.workspace.boards_dir(), session.board);
    run.state = "running";
    run.method = method;
    config.set("search.method", method, "resolved");
    run.config_json = config.to_json().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    run.seed = settings.seed;
    run.toolchain = session.tools.clang_version + "; " + session.tools.qemu_version;
    run.model = llm_settings ? llm_settings->model : "";
    run.started_at = run.updated_at = unix_seconds();
    db->create_run(run);
    log::info("run {}: {} on {} with {}, seed {}", run.id, task.id, run.board, method, run.seed);
  } else {
    settings.seed = run.seed;
    db->update_run(run.id, "running", run.summary_json);
  }

  std::atomic<bool> stop{false};
  InterruptGuard interrupts(stop);
  // The first Ctrl-C is answered at once: say what is being finished, and mark the run stopped now, so
  // that a second Ctrl-C (which exits on the spot) leaves it resumable and not "running".
  std::atomic<bool> search_over{false};
  std::thread interrupt_watch([&] {
    // The signal is looked at before the end of the search: a Ctrl-C that ended it quickly is still
    // answered (and said) before the final summary is written.
    for (;;) {
      if (interrupts.interrupted()) {
        log::warn(
            "Ctrl-C: finishing the evaluations in flight and cancelling LLM requests; the run is marked stopped "
            "(continue it with eok search --resume {}); Ctrl-C again stops at once",
            run.id);
        try {
          db->update_run(run.id, "stopped",
                         nlohmann::json{{"stop_reason", "interrupted"}}.dump(-1, ' ', false,
                                                                             nlohmann::json::error_handler_t::replace));
        } catch (const std::exception& e) {
          log::warn("could not mark run {} stopped: {}", run.id, e.what());
        }
        return;
      }
      if (search_over) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  struct JoinWatch {
    std::atomic<bool>& over;
    std::thread& watch;
    void now() {
      over = true;
      if (watch.joinable()) watch.join();
    }
    ~JoinWatch() { now(); }
  } join_watch{search_over, interrupt_watch};
  const bool llm_run = method != "tuner";
  Progress progress(llm_run ? settings.planned_proposals() : settings.tuner_max_evaluations, req.terminal);
  BoardJudge board_judge(*session.evaluator);
  EvaluationService evals(req.judge ? *req.judge : board_judge, *db, task, session.board.name, run.id, run.seed,
                          settings.eval_concurrency);
  SearchOutcome out;
  out.run_id = run.id;
  out.task = task.id;
  out.board = session.board.name;
  out.method = method;

  progress.phase("measuring ker0");
  ScoredKernel baseline;
  try {
    baseline = evals.baseline();
  } catch (const ToolchainError& e) {
    // eok or the board failed: nothing was searched yet, and the run continues once the setup is fixed.
    stop_resumably<ToolchainError>(*db, progress, run.id, e.what());
  } catch (const InfraError& e) {
    stop_resumably<InfraError>(*db, progress, run.id, e.what());
  } catch (const StorageError& e) {
    stop_resumably<StorageError>(*db, progress, run.id, e.what());
  } catch (const fs::filesystem_error& e) {
    if (!is_storage_errno(e.code().value())) throw;
    stop_resumably<StorageError>(*db, progress, run.id, e.what());
  }
  if (!baseline.ok()) {
    progress.finish();
    const std::string why = task.ker0_path().lexically_proximate(fs::current_path()).string() +
                            " does not pass on board " + out.board + ": " + baseline.eval.status + ": " +
                            baseline.eval.message;
    db->update_run(run.id, "failed",
                   nlohmann::json{{"error", why}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    throw Error(why);
  }
  out.baseline_cycles = baseline.cycles();
  progress.baseline(baseline.speedup());

  llm::LlmStats llm_stats;
  std::unique_ptr<llm::Llm> client;
  std::unique_ptr<llm::PromptLibrary> prompts;
  std::unique_ptr<rag::Retriever> retriever;
  std::unique_ptr<LlmGenerator> generator;
  if (llm_run) {
    llm::LlmBudget budget;
    budget.max_calls = config.integer("budget.max_llm_calls");
    budget.max_tokens = config.integer("budget.max_tokens");
    budget.max_cost = config.number("budget.max_cost");
    client = llm::make_llm(*llm_settings, budget, req.workspace.llm_cache_dir(), req.replay, &llm_stats);
    out.llm = client->describe();
    prompts = std::make_unique<llm::PromptLibrary>(req.root / "prompts", LlmGenerator::required_prompts(),
                                                   LlmGenerator::placeholders());
    retriever = make_retriever(settings, req, pool ? &*pool : nullptr);
    log::info("retrieval ({}): {}", rag_mode_name(settings.rag), retriever->describe());
    generator =
        std::make_unique<LlmGenerator>(*client, *prompts, *retriever, *db, task, session.board, run.id, settings);
  }
  SearchContext ctx{task, settings, evals, generator.get(), progress, pool ? &*pool : nullptr, stop, {}, {}};

  std::string state = "finished";
  std::string extra;
  try {
    if (llm_run) {
      run_eok_loop(ctx, *db, run.id, session.board.name, run.seed, baseline);
    } else {
      const TunerResult t = run_tuner(ctx, baseline);
      extra = t.best_knobs;
    }
  } catch (const StorageError& e) {
    // The disk failed, not the search: everything recorded so far stands, and --resume goes on from it.
    stop_resumably<StorageError>(*db, progress, run.id, e.what());
  } catch (const fs::filesystem_error& e) {
    if (is_storage_errno(e.code().value())) stop_resumably<StorageError>(*db, progress, run.id, e.what());
    progress.finish();
    db->update_run(run.id, "failed",
                   nlohmann::json{{"error", e.what()}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    throw;
  } catch (const std::exception& e) {
    progress.finish();
    db->update_run(run.id, "failed",
                   nlohmann::json{{"error", e.what()}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    throw;
  }
  // Kernels on record without an evaluation (their evaluation was cut off by a kill, and the resumed
  // search did not meet them again) are evaluated now, so that nothing in the database stays unjudged;
  // so are those whose evaluation failed in eok or the board, unless the run stopped for that.
  for (const auto& row : db->kernels(task.id, run.id)) {
    if (evals.infra_failing()) break;
    const bool infra = row.evaluation && row.evaluation->status == "infra_error";
    if (row.evaluation && !(infra && !stop)) continue;
    const ScoredKernel k = evals.submit(row.kernel);
    if (k.infra_error()) ctx.infra_error("unjudged kernel", k);
  }
  progress.finish();
  if (stop) {
    state = "stopped";
    out.stop_reason =
        ctx.stop_reason.empty() ? (interrupts.interrupted() ? "interrupted" : "stopped") : ctx.stop_reason;
  }
  // A search that ran its course, asking, and never got a kernel back learned nothing: it failed. (One
  // that was stopped, by Ctrl-C, the budget or a replay's miss, stays resumable.)
  if (llm_run && !stop) {
    const auto calls = db->llm_calls(run.id);
    const bool any_kernel =
        std::any_of(calls.begin(), calls.end(), [](const db::LlmCallRecord& c) { return c.kernel_id.has_value(); });
    const bool all_failed = std::all_of(calls.begin(), calls.end(), [](const db::LlmCallRecord& c) { return !c.ok; });
    if (!calls.empty() && !any_kernel) {
      state = "failed";
      out.stop_reason = std::string(all_failed ? "every LLM call failed" : "no reply of the LLM held a usable kernel") +
                        " (" + std::to_string(calls.size()) + " calls; the last: " + calls.back().error +
                        "): check the endpoint and model with `eok doctor` and one call with `eok show --call " +
                        std::to_string(calls.back().id) + "`, then continue with eok search --resume " + run.id;
      log::error("{}", out.stop_reason);
    }
  }

  // The summary: the best correct kernel of the run (ker0 when nothing beat it). The champion is checked
  // again on fresh inputs before it is reported: one that is right only on the inputs it was measured with
  // is not (its failing evaluation replaces the old one, and the next best is tried).
  ScoredKernel best = baseline;
  int demoted = 0;
  for (const auto& row : db->best_kernels(task.id, out.board, run.id, 0)) {
    if (!row.evaluation || !row.evaluation->cycles || *row.evaluation->cycles >= best.cycles() ||
        row.kernel.id == baseline.kernel.id) {
      continue;
    }
    if (auto failed = evals.recheck(row.kernel, kChampionRechecks)) {
      log::warn("kernel #{} was fastest but fails on fresh inputs ({}: {}); it is not reported", row.kernel.id,
                failed->status, failed->message);
      db->insert_evaluation(*failed);
      ++demoted;
      continue;
    }
    best = {row.kernel, *row.evaluation};
    break;
  }
  // On a real board the champion and ker0 are measured again in turns: the champion stands only when it
  // is faster beyond the board's noise, and its speedup is the one measured side by side.
  nlohmann::json remeasured;
  if (best.kernel.id != baseline.kernel.id && best.measured_on_board() && !evals.infra_failing()) {
    const Remeasured r = evals.remeasure_against(best.kernel, baseline.kernel, kChampionRemeasureRounds);
    remeasured = {{"rounds", r.rounds},
                  {"champion_cycles", r.champion_cycles},
                  {"baseline_cycles", r.baseline_cycles},
                  {"noise_cycles", r.noise},
                  {"faster", r.faster},
                  {"problem", r.problem}};
    if (!r.problem.empty()) {
      log::warn("could not re-measure kernel #{} against ker0 on the board: {}; it is reported from its own evaluation",
                best.kernel.id, r.problem);
    } else if (!r.faster) {
      log::warn(
          "kernel #{} is not faster than ker0 beyond the board's noise when measured in turns ({:.0f} vs {:.0f} "
          "cycles, "
          "noise {:.0f}): ker0 stands",
          best.kernel.id, r.champion_cycles, r.baseline_cycles, r.noise);
      best = baseline;
    } else {
      best.eval.speedup = r.baseline_cycles / r.champion_cycles;
    }
  }
  out.best_kernel_id = best.kernel.id;
  // ker0 against itself is 1 by definition (on a real board its own evaluation is one noisy sample).
  out.best_speedup = best.kernel.id == baseline.kernel.id ? 1.0 : best.speedup();
  out.best_cycles = best.cycles();
  out.best_idea = best.kernel.description;
  out.best_file = req.workspace.runs_dir() / run.id / (task.id + ".c");
  write_file_atomic(out.best_file, best.kernel.source);
  out.totals = db->run_totals(run.id);
  const auto counts = evals.counts();
  out.evaluated = counts.evaluated;
  out.reused = counts.reused;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  out.state = state;
  const auto t = llm_stats.totals();
  out.summary = {{"best_kernel_id", out.best_kernel_id},
                 {"best_speedup", out.best_speedup},
                 {"best_cycles", out.best_cycles},
                 {"baseline_cycles", out.baseline_cycles},
                 {"best_file", out.best_file.string()},
                 {"method", method},
                 {"kernels", out.totals.kernels},
                 {"evaluations_run", out.evaluated},
                 {"evaluations_reused", out.reused},
                 {"evaluations_infra_error", counts.infra_errors},
                 {"champions_failing_recheck", demoted},
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
  if (!extra.empty()) out.summary["tuner_best_knobs"] = extra;
  if (!remeasured.is_null()) out.summary["remeasured_against_ker0"] = remeasured;
  join_watch.now();  // the watch must not overwrite the summary with its early "stopped" note
  db->update_run(run.id, state, out.summary.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  return out;
}

}  // namespace eok::search
