// `eok mine` end to end: a kernel library's history -> an idea pool file (DESIGN.md section 1).
//
//   resolve the repository (repo_source.h) -> walk and filter its commits (commit_walk.h) -> effects:
//   measured from a performance history where one is given (perf_history.h), estimated for the rest
//   (effect_estimate.h) -> embed and abstract into thoughts and ideas (abstraction.h) -> write the pool
//   and the index of its example code (example_index.h).
//
// Contract: mine() writes only under the workspace (pools/, cache/, repos/) and to `out`; every file
// atomically, so a killed run leaves the previous pool in place. LLM replies (distillations) and HTTP
// embeddings are cached in the workspace: a rerun, or a run resumed after a kill, asks nothing twice.
// It logs and draws progress on stderr; it throws eok::Error subclasses with a message that says what to
// do (not a repository, a missing branch, an unreadable performance history, an unknown variant).
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "idea_pool/abstraction.h"
#include "idea_pool/commit_walk.h"
#include "idea_pool/perf_history.h"
#include "idea_pool/repo_source.h"
#include "src/common/config.h"

namespace eok::idea_pool {

struct MineRequest {
  std::string repo;                                   // a clone's path, or a library named in configs/repos.toml
  std::filesystem::path root;                         // the data root: configs/, prompts/
  std::filesystem::path workspace;                    // EOK_HOME: pools/, cache/, repos/
  Config config;                                      // mine.* and llm.* keys
  std::optional<std::filesystem::path> perf_history;  // asv results (a BLAS-Benchmarks gh-pages copy)
  std::optional<std::filesystem::path> out;           // a copy of the pool (and its example index) here too
  bool terminal = false;                              // progress bars redrawn on stderr, else log lines
};

struct MineReport {
  RepoSource source;
  std::string branch;
  WalkSummary walk;
  std::optional<PerfEffectsReport> perf;
  size_t perf_load_warnings = 0;
  size_t measured = 0, estimated = 0;  // commits by kind of effect
  AbstractionStats abstraction;
  std::string variant, embedder, distiller;
  std::map<std::string, size_t> distiller_fallbacks;  // LLM distiller: reason -> count
  size_t llm_calls = 0, llm_cache_hits = 0, embedding_cache_hits = 0;
  size_t examples_indexed = 0;
  std::filesystem::path pool_file;    // in the workspace
  std::filesystem::path latest_file;  // pools/latest.json, what eok search reads by default
  std::optional<std::filesystem::path> out_file;
  std::map<std::string, double> seconds;  // walk, effects, abstraction, write, total

  nlohmann::json to_json() const;
};

MineReport mine(const MineRequest& request);

}  // namespace eok::idea_pool
