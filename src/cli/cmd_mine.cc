// eok mine: turn a kernel library's git history into an idea pool (ideas -> thoughts -> commits, weighted by
// measured or estimated effectiveness) that seeds and steers eok search.
#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "idea_pool/miner.h"
#include "src/cli/cli.h"
#include "src/common/config.h"
#include "src/common/log.h"
#include "src/common/paths.h"

namespace eok::cli {

namespace {

struct MineOptions {
  std::string repo, perf_history, out, variant, branch, config_file, distiller, embedder;
  std::optional<double> delta;
  std::optional<int64_t> rounds, ideas;
  bool json = false;
};

void print_report(const idea_pool::MineReport& r) {
  const auto& w = r.walk;
  std::printf("repo      %s, branch %s at %.10s%s\n", r.source.name.c_str(), r.branch.c_str(), w.tip.c_str(),
              w.shallow ? " (shallow clone: older history missing)" : "");
  std::string dropped;
  for (const auto& [reason, n] : w.dropped)
    dropped += (dropped.empty() ? "" : ", ") + reason + " " + with_commas(static_cast<double>(n));
  std::printf("commits   %s seen, %s kept (kernel code), %s with a pull request title; dropped: %s\n",
              with_commas(static_cast<double>(w.seen)).c_str(), with_commas(static_cast<double>(w.kept)).c_str(),
              with_commas(static_cast<double>(w.pr_titles_joined)).c_str(), dropped.empty() ? "none" : dropped.c_str());
  if (r.perf) {
    std::printf("measured  %zu commits from the performance history (%s)\n", r.measured, r.perf->summary().c_str());
  } else {
    std::printf("measured  none (pass --perf-history DIR with asv results to measure effects)\n");
  }
  std::printf("estimated %zu commits (heuristic: message claims and signals, later reverts and fixes)\n", r.estimated);
  const auto& a = r.abstraction;
  std::printf("pool      %s: %zu ideas, %zu thoughts from %zu commits", r.variant.c_str(), a.ideas, a.thoughts,
              a.commits);
  if (r.variant == "two-level") {
    std::printf(" (%zu rounds%s, %zu of %zu commits within delta, %zu thoughts from initial principles)", a.rounds,
                a.converged ? ", converged"
                : a.stable  ? ", stable"
                            : ", round cap reached",
                a.within_delta, a.within_delta + a.beyond_delta, a.from_principles);
  }
  std::printf("\n");
  if (r.variant != "raw") {
    std::printf("embedder  %s\n", r.embedder.c_str());
    std::printf("distiller %s", r.distiller.c_str());
    if (r.llm_calls || r.llm_cache_hits)
      std::printf(" (%zu LLM calls, %zu from the cache)", r.llm_calls, r.llm_cache_hits);
    for (const auto& [why, n] : r.distiller_fallbacks) std::printf(", %zu extractive fallbacks (%s)", n, why.c_str());
    std::printf("\n");
  }
  std::printf("examples  %zu code examples indexed for retrieval\n", r.examples_indexed);
  std::printf("time      %.1f s (walk %.1f, effects %.1f, abstraction %.1f, write %.1f)\n", r.seconds.at("total"),
              r.seconds.at("walk"), r.seconds.at("effects"), r.seconds.at("abstraction"), r.seconds.at("write"));
  std::printf("written   %s\n          %s (eok search uses it by default)\n", r.pool_file.c_str(),
              r.latest_file.c_str());
  if (r.out_file) std::printf("          %s\n", r.out_file->c_str());
  std::printf("next      eok ideas | eok ideas --idea I1 | eok search --task mish\n");
}

int run_mine(const MineOptions& opt, const GlobalOptions& global) {
  log::set_level(global.log_level);
  idea_pool::MineRequest req;
  req.repo = opt.repo;
  req.root = find_project_root(global.root);
  const Workspace ws = Workspace::open();
  req.workspace = ws.root();
  req.config = Config::load(
      req.root, opt.config_file.empty() ? std::nullopt : std::optional<std::filesystem::path>(opt.config_file));
  if (!opt.variant.empty()) req.config.set("mine.variant", opt.variant, "flag");
  if (!opt.branch.empty()) req.config.set("mine.branch", opt.branch, "flag");
  if (!opt.distiller.empty()) req.config.set("mine.distiller", opt.distiller, "flag");
  if (!opt.embedder.empty()) req.config.set("mine.embedder", opt.embedder, "flag");
  if (opt.delta) req.config.set("mine.delta", std::to_string(*opt.delta), "flag");
  if (opt.rounds) req.config.set("mine.rounds", std::to_string(*opt.rounds), "flag");
  if (opt.ideas) req.config.set("mine.ideas", std::to_string(*opt.ideas), "flag");
  if (!opt.perf_history.empty()) req.perf_history = opt.perf_history;
  if (!opt.out.empty()) req.out = opt.out;
  req.terminal = isatty(STDERR_FILENO) != 0;
  const idea_pool::MineReport report = idea_pool::mine(req);
  if (opt.json) {
    std::cout << report.to_json().dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
  } else {
    print_report(report);
  }
  return 0;
}

}  // namespace

void add_mine_command(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  auto opt = std::make_shared<MineOptions>();
  CLI::App* cmd = app.add_subcommand(
      "mine",
      "Mine a kernel library's git history into an idea pool. Walks the branch with libgit2, keeps the commits\n"
      "that change kernel code (merges, reverts, formatting, version/build/CI/doc changes and imports are\n"
      "dropped and counted), gives each the title of the pull request that merged it, and weighs it by its\n"
      "effect: measured from periodic performance evaluations (--perf-history, asv results), estimated\n"
      "otherwise. Then the two-level abstraction (the paper's): commits join the nearest of 21 well-known\n"
      "optimisation principles within a cosine distance delta, K-means groups the rest, each group is distilled\n"
      "into one actionable thought (by the LLM when one is configured or found, else an extractive sentence that\n"
      "says so), and K-means over the thoughts gives general ideas with a stated principle.\n\n"
      "Offline by default: the built-in embedder (TF-IDF + truncated SVD) needs no model. The pool goes to the\n"
      "workspace (pools/, and pools/latest.json, which eok search uses), with an index of its example code;\n"
      "LLM replies and HTTP embeddings are cached there, so a rerun or a killed run resumed asks nothing twice.\n\n"
      "Examples:\n"
      "  eok mine --repo OpenBLAS                      the library named in configs/repos.toml (cloned when missing)\n"
      "  eok mine --repo ~/src/OpenBLAS --perf-history ~/BLAS-Benchmarks --out pool.json\n"
      "  eok mine --repo OpenBLAS --pool-variant raw   the ablation baseline: every commit its own idea\n"
      "  eok ideas                                     browse what was mined");
  cmd->add_option("--repo", opt->repo, "a clone's path (bare or not), or a library named in configs/repos.toml")
      ->required();
  cmd->add_option("--perf-history", opt->perf_history,
                  "asv results of the library (e.g. a BLAS-Benchmarks gh-pages copy): measured effects")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--out", opt->out, "also write the pool (and its example index) to this file");
  cmd->add_option("--pool-variant", opt->variant,
                  "two-level (default, the paper's), kmeans (one level), raw (commits as ideas)");
  cmd->add_option("--branch", opt->branch,
                  "branch or revision to mine (default: the library's branch in configs/repos.toml, else HEAD)");
  cmd->add_option("--distiller", opt->distiller, "auto (LLM when available), llm, extractive");
  cmd->add_option("--embedder", opt->embedder,
                  "offline (default) or http (llm.base_url /embeddings with mine.embedding_model)");
  cmd->add_option("--delta", opt->delta,
                  "cosine distance under which a commit joins a thought (default: 0.5 offline, 0.05 http)");
  cmd->add_option("--rounds", opt->rounds, "re-association rounds of two-level at most (mine.rounds)");
  cmd->add_option("--ideas", opt->ideas, "number of general ideas (default: about the square root of the thoughts)");
  cmd->add_option("--config", opt->config_file, "a TOML file of settings over configs/eok.toml");
  cmd->add_flag("--json", opt->json, "print the report as JSON");
  cmd->callback([opt, &global, &exit_code] { exit_code = run_mine(*opt, global); });
}

}  // namespace eok::cli
