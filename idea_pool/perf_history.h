// A kernel library's periodic performance evaluations (asv results, as BLAS-Benchmarks publishes them for
// OpenBLAS), and the measured effect of the commits merged between two evaluated builds. The entry point
// of the miner's measured effects; the pieces are asv_results.h (run files), gh_pages_log.h (runs to
// builds), build_commits.h (builds to commits), openblas_paths.h (which changes can move which numbers)
// and perf_effects.h (the comparison of builds and the effects).
//
// Contract: load_perf_history reads every run it can and records what it could not as a warning (a damaged
// or partial file never stops the load); it throws only when the folder holds no asv results at all.
// measured_effects ties each run's build (wheel version 0.3.27.N) to a commit on the branch and shares each
// pair of consecutive builds' measured improvement among the commits merged between them. Both are
// deterministic, print nothing, and never write.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "idea_pool/asv_results.h"
#include "idea_pool/build_commits.h"
#include "idea_pool/openblas_paths.h"
#include "idea_pool/perf_effects.h"

namespace eok::idea_pool {

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

}  // namespace eok::idea_pool
