#include "idea_pool/miner.h"

#include <chrono>
#include <ctime>
#include <memory>

#include "idea_pool/example_index.h"
#include "idea_pool/effect_estimate.h"
#include "rag/offline_embedder.h"
#include "src/common/error.h"
#include "src/common/clock.h"
#include "src/common/fs_util.h"
#include "src/common/log.h"
#include "src/common/progress_bar.h"
#include "src/llm/cached_embedder.h"
#include "src/llm/http_embedder.h"
#include "src/llm/llm_choice.h"
#include "src/llm/llm_factory.h"
#include "src/llm/llm_stats.h"
#include "src/llm/prompt_library.h"

namespace eok::idea_pool {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

std::string utc_stamp(const char* format) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

// One progress bar per stage of the abstraction, replaced when the stage changes.
class StageProgress {
 public:
  explicit StageProgress(bool terminal) : terminal_(terminal) {}
  void operator()(const AbstractionProgress& p) {
    if (p.stage != stage_) {
      bar_.reset();
      stage_ = p.stage;
      bar_ = std::make_unique<ProgressBar>("[" + p.stage + "]", static_cast<int64_t>(p.total), terminal_);
    }
    bar_->update(static_cast<int64_t>(p.done), static_cast<int64_t>(p.total));
  }
  void finish() { bar_.reset(); }

 private:
  bool terminal_;
  std::string stage_;
  std::unique_ptr<ProgressBar> bar_;
};

// The raw variant embeds nothing; abstract_commits still takes an embedder.
class NoEmbedder : public llm::Embedder {
 public:
  std::vector<std::vector<float>> embed(const std::vector<std::string>&) override {
    throw Error("the raw pool variant embeds nothing (a bug if this is reached)");
  }
  size_t dim() const override { return 0; }
  std::string describe() const override { return "none"; }
};

// The pool and its example index at `file`.
void write_pool(const IdeaPool& pool, const ExampleIndex* index, const fs::path& file) {
  if (file.has_parent_path()) fs::create_directories(file.parent_path());
  write_file_atomic(file, pool_to_json(pool));
  if (index) index->save(file);
}

}  // namespace

nlohmann::json MineReport::to_json() const {
  nlohmann::json j;
  j["repo"] = {{"name", source.name}, {"path", source.path.string()},    {"branch", branch},
               {"head", walk.tip},    {"cloned_now", source.cloned_now}, {"shallow", walk.shallow}};
  j["walk"] = {{"seen", walk.seen},
               {"kept", walk.kept},
               {"dropped", walk.dropped},
               {"pull_requests", walk.pull_requests},
               {"pr_titles_joined", walk.pr_titles_joined},
               {"diffs_truncated", walk.diffs_truncated}};
  j["effects"] = {{"measured", measured}, {"estimated", estimated}};
  if (perf) {
    j["effects"]["perf_history"] = {{"runs", perf->runs_loaded},
                                    {"load_warnings", perf_load_warnings},
                                    {"builds_mapped", perf->builds.size()},
                                    {"builds_unmapped", perf->unmapped_builds.size()},
                                    {"comparisons", perf->comparisons.size()},
                                    {"warnings", perf->warnings}};
  }
  j["pool"] = {{"variant", variant},
               {"ideas", abstraction.ideas},
               {"thoughts", abstraction.thoughts},
               {"commits", abstraction.commits},
               {"rounds", abstraction.rounds},
               {"stable", abstraction.stable},
               {"converged", abstraction.converged},
               {"within_delta", abstraction.within_delta},
               {"beyond_delta", abstraction.beyond_delta},
               {"from_principles", abstraction.from_principles},
               {"distillations", abstraction.distillations},
               {"examples_indexed", examples_indexed}};
  j["embedder"] = embedder;
  j["distiller"] = {{"kind", distiller},
                    {"llm_calls", llm_calls},
                    {"llm_cache_hits", llm_cache_hits},
                    {"fallbacks", distiller_fallbacks}};
  j["embedding_cache_hits"] = embedding_cache_hits;
  j["files"] = {{"pool", pool_file.string()}, {"latest", latest_file.string()}};
  if (out_file) j["files"]["out"] = out_file->string();
  j["seconds"] = seconds;
  return j;
}

MineReport mine(const MineRequest& req) {
  const auto t_start = Clock::now();
  const Config& cfg = req.config;
  MineReport report;
  const PoolVariant variant = parse_variant(cfg.str("mine.variant"));
  report.variant = variant_name(variant);

  // 1. The repository and the branch.
  report.source = resolve_repo(req.repo, req.root, req.workspace);
  const GitRepo repo = GitRepo::open(report.source.path);
  report.branch = cfg.str("mine.branch");
  if (report.branch.empty()) report.branch = report.source.branch.empty() ? "HEAD" : report.source.branch;
  log::info("mining {} ({}), branch {}", report.source.name, report.source.path.string(), report.branch);

  // 2. Walk and filter. Every commit, kept or not, feeds the estimate context (later reverts and fixes).
  FilterRules rules;
  if (!report.source.kernel_paths.empty()) rules.kernel_prefixes = report.source.kernel_paths;
  rules.max_added_files = static_cast<size_t>(cfg.integer("mine.import_files"));
  EstimateContext context;
  const CommitFilter kernel_code(rules);  // follow-up fixes matter on kernel files only
  WalkOptions walk_options;
  walk_options.max_diff_bytes = static_cast<size_t>(cfg.integer("mine.max_diff_bytes"));
  auto walk_bar = std::make_unique<ProgressBar>("[walk]", 0, req.terminal);
  walk_options.progress = [&](size_t done, size_t total) {
    walk_bar->update(static_cast<int64_t>(done), static_cast<int64_t>(total));
  };
  walk_options.observe = [&](const CommitInfo& c, const std::vector<FileChange>& files, const FilterVerdict&) {
    std::vector<std::string> paths;
    for (const auto& f : files) {
      if (kernel_code.is_kernel_file(f.path)) paths.push_back(f.path);
    }
    context.add(c, paths);
  };
  auto t = Clock::now();
  WalkResult walk = walk_commits(repo, report.branch, rules, walk_options);
  walk_bar->finish(std::to_string(walk.summary.seen) + " commits, " + std::to_string(walk.summary.kept) +
                   " change kernel code");
  walk_bar.reset();
  report.walk = walk.summary;
  report.seconds["walk"] = seconds_since(t);
  std::string dropped;
  for (const auto& [reason, n] : walk.summary.dropped)
    dropped += (dropped.empty() ? "" : ", ") + reason + " " + std::to_string(n);
  log::info("walk: {} commits, {} kept ({} with their pull request's title); dropped: {}", walk.summary.seen,
            walk.summary.kept, walk.summary.pr_titles_joined, dropped.empty() ? "none" : dropped);
  if (walk.commits.empty()) {
    throw Error("no commit of " + report.branch + " in " + report.source.path.string() +
                " changes kernel code (kernel paths: " + rules.kernel_prefixes.front() +
                "...): check the branch, or the library's kernel_paths in configs/repos.toml");
  }

  // 3. Effects: measured where the performance history covers a commit, estimated elsewhere.
  t = Clock::now();
  std::map<std::string, Effect> measured;
  if (req.perf_history) {
    const PerfHistory history = load_perf_history(*req.perf_history);
    report.perf_load_warnings = history.warnings.size();
    for (const auto& w : history.warnings) log::debug("perf history: {}", w);
    PerfEffectsReport perf;
    const std::string base_tag = report.source.base_tag.empty() ? "v0.3.27" : report.source.base_tag;
    measured = measured_effects(history, repo, report.branch, base_tag, &perf);
    for (const auto& w : perf.warnings) log::warn("perf history: {}", w);
    log::info("perf history {}: {}", req.perf_history->string(), perf.summary());
    report.perf = std::move(perf);
  }
  for (auto& c : walk.commits) {
    if (auto it = measured.find(c.info.sha); it != measured.end()) {
      c.effect = it->second;
      ++report.measured;
    } else {
      c.effect = estimate_effect(c, context);
      ++report.estimated;
    }
  }
  report.seconds["effects"] = seconds_since(t);
  log::info("effects: {} commits measured, {} estimated", report.measured, report.estimated);

  // 4. The embedder and the distiller.
  t = Clock::now();
  const std::string embedder_kind = cfg.str("mine.embedder");
  std::unique_ptr<llm::Embedder> owned_embedder;
  std::unique_ptr<llm::HttpEmbedder> http_embedder;
  std::unique_ptr<llm::CachedEmbedder> cached_embedder;
  llm::Embedder* embedder = nullptr;
  std::vector<std::string>
      corpus;  // the commits' texts: what is embedded, and what the extractive distiller weighs terms by
  for (const auto& c : walk.commits) corpus.push_back(c.text());
  double delta = cfg.number("mine.delta");
  if (variant != PoolVariant::raw) {
    if (embedder_kind == "offline") {
      // The principles' words are fitted too, so that the initial thoughts land in the same space.
      std::vector<std::string> fit_texts = corpus;
      for (const auto& p : initial_principles()) fit_texts.push_back(p.description);
      rag::OfflineEmbedderOptions options;
      options.dim = static_cast<size_t>(cfg.integer("mine.embedding_dim"));
      owned_embedder = std::make_unique<rag::OfflineEmbedder>(rag::OfflineEmbedder::fit(fit_texts, options));
      embedder = owned_embedder.get();
      if (delta < 0) delta = kOfflineDelta;
    } else if (embedder_kind == "http") {
      const llm::LlmSettings s = llm::embedding_settings(cfg);
      http_embedder = std::make_unique<llm::HttpEmbedder>(s);
      cached_embedder = std::make_unique<llm::CachedEmbedder>(*http_embedder, s.base_url + " " + s.model,
                                                              req.workspace / "cache" / "embeddings");
      embedder = cached_embedder.get();
      if (delta < 0) delta = kPaperDelta;
    } else {
      throw ConfigError("mine.embedder must be offline or http, not '" + embedder_kind + "'");
    }
    report.embedder = embedder->describe();
    log::info("embedder: {}", report.embedder);
  }

  ExtractiveDistiller extractive(corpus);
  Distiller* distiller = &extractive;
  llm::LlmStats llm_stats;
  std::unique_ptr<llm::Llm> client;
  std::unique_ptr<llm::PromptLibrary> prompts;
  std::unique_ptr<LlmDistiller> llm_distiller;
  const std::string distiller_kind = cfg.str("mine.distiller");
  if (distiller_kind != "auto" && distiller_kind != "llm" && distiller_kind != "extractive") {
    throw ConfigError("mine.distiller must be auto, llm or extractive, not '" + distiller_kind + "'");
  }
  if (variant != PoolVariant::raw && distiller_kind != "extractive") {
    const llm::LlmChoice choice = llm::choose_llm(cfg);
    if (choice.settings) {
      client = llm::make_llm(*choice.settings, {}, req.workspace / "cache" / "llm", false, &llm_stats);
      prompts = std::make_unique<llm::PromptLibrary>(req.root / "prompts", LlmDistiller::required_prompts(),
                                                     LlmDistiller::placeholders());
      llm_distiller = std::make_unique<LlmDistiller>(*client, *prompts, extractive);
      distiller = llm_distiller.get();
      log::info("distiller: the LLM ({})", choice.why);
    } else if (distiller_kind == "llm") {
      throw ConfigError("mine.distiller = llm needs an LLM: " + choice.why);
    } else {
      log::info("distiller: extractive, no LLM ({}); thoughts quote their most representative commit", choice.why);
    }
  }
  report.distiller = variant == PoolVariant::raw ? "none (raw commits)" : distiller->describe();

  // 5. Two levels of abstraction (or the ablation variants).
  AbstractionOptions options;
  options.variant = variant;
  if (delta >= 0) options.delta = delta;
  options.max_rounds = static_cast<size_t>(cfg.integer("mine.rounds"));
  options.idea_count = static_cast<size_t>(cfg.integer("mine.ideas"));
  options.group_size = static_cast<size_t>(cfg.integer("mine.group_size"));
  options.seed = static_cast<uint64_t>(cfg.integer("mine.seed"));
  options.parallel = llm_distiller ? static_cast<size_t>(std::max<int64_t>(1, cfg.integer("llm.max_concurrency"))) : 2;
  StageProgress stage_progress(req.terminal);
  options.progress = [&](const AbstractionProgress& p) { stage_progress(p); };
  NoEmbedder no_embedder;
  Abstraction abstraction = abstract_commits(walk.commits, embedder ? *embedder : no_embedder, *distiller, options);
  stage_progress.finish();
  report.abstraction = abstraction.stats;
  report.seconds["abstraction"] = seconds_since(t);
  if (llm_distiller) {
    const auto counters = llm_distiller->counters();
    report.distiller_fallbacks = counters.reasons;
    const auto totals = llm_stats.totals();
    report.llm_calls = static_cast<size_t>(totals.calls);
    report.llm_cache_hits = static_cast<size_t>(totals.cache_hits);
  }
  if (cached_embedder) report.embedding_cache_hits = cached_embedder->hits();

  // 6. The pool file with its provenance, and the index of its example code.
  t = Clock::now();
  IdeaPool& pool = abstraction.pool;
  pool.source["repo"] = report.source.name;
  pool.source["branch"] = report.branch;
  pool.source["head"] = walk.summary.tip;
  pool.source["generated_at"] = utc_stamp("%Y-%m-%dT%H:%M:%SZ");
  pool.source["commits_seen"] = std::to_string(walk.summary.seen);
  pool.source["measured_commits"] = std::to_string(report.measured);
  if (report.perf) pool.source["perf_history"] = report.perf->summary();
  pool.description =
      report.source.name + " " + report.branch + " @ " + walk.summary.tip.substr(0, 10) + ", " + pool.description;

  std::optional<ExampleIndex> index;
  try {
    index = ExampleIndex::build(pool, http_embedder ? embedder : nullptr, http_embedder ? report.embedder : "");
    report.examples_indexed = index->size();
  } catch (const Error& e) {
    log::warn("no example index: {}", e.what());
  }
  const fs::path pools = req.workspace / "pools";
  report.pool_file = pools / (report.source.name + "-" + report.variant + "-" + utc_stamp("%Y%m%d-%H%M%S") + ".json");
  write_pool(pool, index ? &*index : nullptr, report.pool_file);
  report.latest_file = latest_pool_path(req.workspace);
  write_pool(pool, index ? &*index : nullptr, report.latest_file);
  if (req.out) {
    write_pool(pool, index ? &*index : nullptr, *req.out);
    report.out_file = *req.out;
  }
  report.seconds["write"] = seconds_since(t);
  report.seconds["total"] = seconds_since(t_start);
  return report;
}

}  // namespace eok::idea_pool
