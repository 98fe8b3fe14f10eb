// A kernel library's periodic performance evaluations (asv results, as BLAS-Benchmarks publishes them for
// OpenBLAS), and the measured effect of the commits merged between two evaluated builds.
//
// Contract: load_perf_history reads every run it can and records what it could not as a warning (a damaged
// or partial file never stops the load); it throws only when the folder holds no asv results at all.
// measured_effects ties each run's build (wheel version 0.3.27.N) to a commit on the branch and shares each
// pair of consecutive builds' measured improvement among the commits merged between them. Both are
// deterministic, print nothing, and never write.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "idea_pool/git_repo.h"
#include "idea_pool/mined_commit.h"

namespace eok::idea_pool {

// One benchmark in one run: a value per point of the product of its parameters.
struct BenchmarkResult {
  std::string version;                           // the benchmark's version hash: compare runs only where equal
  std::vector<std::vector<std::string>> params;  // each parameter's values; empty for an unparameterised one
  std::vector<std::optional<double>> values;     // seconds, flat over the product (last parameter fastest)
  std::vector<std::optional<double>> ci_low;     // asv's 99 % interval per point; empty when the run has none
  std::vector<std::optional<double>> ci_high;

  // The parameter values of point `i`, e.g. "100, 'd'".
  std::string point_label(size_t i) const;
};

// One asv run: one machine measuring one OpenBLAS build.
struct PerfRun {
  std::string machine;           // "gha-aws-skylake" (the results/ sub-folder)
  std::filesystem::path file;    // the run file
  std::string benchmark_commit;  // the BLAS-Benchmarks commit asv ran; the file is named after it
  int64_t date_ms = 0;           // `date`: that commit's time (ms since the epoch)
  int64_t finished_ms = 0;       // when the run's last benchmark ended (ms since the epoch)
  std::string build_version;     // "0.3.27.206", from the gh-pages log; "" when the log does not say
  int64_t build_number = -1;     // N of 0.3.27.N; -1 when unknown
  std::string build_config;      // "OpenBLAS 0.3.27.dev DYNAMIC_ARCH NO_AFFINITY SkylakeX MAX_THREADS=64"
  std::string core;              // the core OpenBLAS picked at run time: "SkylakeX", "Zen", "neoversev1"
  std::map<std::string, BenchmarkResult> benchmarks;  // by benchmark name
};

struct PerfHistory {
  std::filesystem::path dir;
  std::vector<PerfRun> runs;          // by machine, then by finishing time
  std::vector<std::string> warnings;  // one line per file or entry that could not be used fully
  size_t files_seen = 0;              // run files found (loaded or not)
  size_t log_entries = 0;             // "add results for" entries of the gh-pages log
};

// Reads `dir`: a BLAS-Benchmarks gh-pages copy (results/<machine>/<hash8>-<env>.json, asv format 2, and
// gh-pages-log.txt), or its results/ folder with the log next to it. A run is tied to its build through
// the log; a run the log does not name keeps build_number -1 and adds a warning.
// Throws NotFoundError when `dir` does not exist or holds no run files, CorruptDataError when no run
// file could be read.
PerfHistory load_perf_history(const std::filesystem::path& dir);

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
// commits C of the branch with count_between(base_tag, C) == N; per machine, consecutive mapped builds
// A -> B are compared and the result is given to every non-merge commit reachable from B and not from A
// whose changed paths can affect that machine's architecture; a commit's results from several machines are
// combined. A history that matches no commit is a warning in `report`, not an error. Throws NotFoundError
// when `branch` names nothing.
std::map<std::string, Effect> measured_effects(const PerfHistory& history, const GitRepo& repo,
                                               const std::string& branch, const std::string& base_tag = "v0.3.27",
                                               PerfEffectsReport* report = nullptr,
                                               const PerfEffectsOptions& options = {});

// Build numbers to commits: for each N, the first-parent commit C of `branch` with
// count_between(base_tag, C) == N. Numbers that no such commit has are left out (and named in `warnings`).
// Costs one walk of the range base_tag..branch plus one small walk per first-parent step down to min(N).
std::map<int64_t, std::string> map_builds(const GitRepo& repo, const std::string& branch, const std::string& base_tag,
                                          const std::set<int64_t>& numbers,
                                          std::vector<std::string>* warnings = nullptr);

// The instruction-set architecture of an OpenBLAS core name ("SkylakeX" -> "x86_64", "neoversev1" ->
// "arm64", "x280" -> "riscv64"); "" when unknown.
std::string arch_of_core(const std::string& core);

// Whether a change to `path` (relative to the OpenBLAS root) can change the speed of a library built for
// `arch`. False for files that are not built (docs, CI, tests) and for another architecture's kernels and
// build files; true for everything shared (interface/, driver/, lapack-netlib/, param.h, kernel/generic ...).
bool path_affects_arch(const std::string& path, const std::string& arch);

}  // namespace eok::idea_pool
