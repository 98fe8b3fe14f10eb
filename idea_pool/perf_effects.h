// The measured effect of the commits merged between two evaluated OpenBLAS builds: consecutive builds a
// machine measured are compared point by point, and the improvement is shared among the commits between
// them that can move that machine's numbers.
//
// Contract: measured_effects is deterministic, reads the repository, prints nothing and never writes. A
// history that matches no commit is a warning in the report, not an error.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "idea_pool/git_repo.h"
#include "idea_pool/mined_commit.h"

namespace eok::idea_pool {

struct PerfHistory;  // perf_history.h

// One comparison of two consecutive builds on one machine.
struct BuildComparison {
  std::string machine, arch;               // arch: "x86_64", "arm64" ... ("" when the core is unknown)
  int64_t from_build = -1, to_build = -1;  // N
  std::string from_version, to_version;    // as the log names them: "0.3.27.206"
  std::string from_sha, to_sha;
  size_t from_runs = 0, to_runs = 0;           // runs combined for each build
  size_t points = 0;                           // points both builds measured with equal benchmark versions
  double improvement = 0;                      // geometric mean of old/new time over those points, minus 1
  std::map<std::string, double> by_benchmark;  // the same per benchmark (which kernels moved)
  double noise = 0;                            // standard error of log(1 + improvement), from repeated runs
  double confidence = 0;                       // of the measurement alone (before sharing among commits)
  size_t commits = 0;                          // non-merge commits reachable from to_sha and not from from_sha
  size_t relevant_commits = 0;                 // of those, the ones whose paths can move this machine's numbers
};

// What measured_effects did, for the miner's report.
struct PerfEffectsReport {
  size_t runs_loaded = 0;
  size_t load_warnings = 0;
  std::map<int64_t, std::string> builds;  // N -> commit sha, for every build that could be mapped
  std::set<int64_t> unmapped_builds;
  std::map<std::string, double> machine_noise;  // run-to-run noise of a run's geometric mean (log scale)
  std::vector<BuildComparison> comparisons;
  size_t commits_with_effect = 0;
  std::vector<std::string> warnings;  // this step's own (the load's stay in PerfHistory)

  size_t comparisons_on(const std::string& machine) const;
  // "92 runs (3 warnings), 8/8 builds mapped, 15 comparisons, 160 commits with a measured effect"
  std::string summary() const;
};

struct PerfEffectsOptions {
  size_t min_points = 5;          // fewer common points than this: the pair is not compared
  double reference_noise = 0.01;  // noise at which a measurement's confidence is 0.5 (1 % on the log scale)
  bool path_relevance = true;     // share a machine's effects only among commits that can touch its kernels
};

// The measured effect of each commit on `branch`, keyed by full sha. Builds map to the first-parent
// commits C of the branch with count_between(base_tag, C) == N (build_commits.h); per machine,
// consecutive mapped builds A -> B are compared and the result is given to every non-merge commit
// reachable from B and not from A whose changed paths can affect that machine's architecture
// (openblas_paths.h); a commit's results from several machines are combined. Throws NotFoundError when
// `branch` names nothing.
std::map<std::string, Effect> measured_effects(const PerfHistory& history, const GitRepo& repo,
                                               const std::string& branch, const std::string& base_tag = "v0.3.27",
                                               PerfEffectsReport* report = nullptr,
                                               const PerfEffectsOptions& options = {});

}  // namespace eok::idea_pool
