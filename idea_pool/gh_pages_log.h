// BLAS-Benchmarks' gh-pages log: which OpenBLAS build each publication of asv results measured, and the
// matching of run files to those publications (the log names no run file).
//
// Contract: a log that cannot be read, an entry with an unreadable date and a run no entry published are
// warnings, never errors. attach_builds fills in the build fields of the runs it can tie (build_version,
// build_number, build_config, core) and leaves build_number -1 on the others. Both are deterministic,
// print nothing and never write.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "idea_pool/asv_results.h"

namespace eok::idea_pool {

// The build one machine measured, as a log entry names it.
struct LogBuild {
  std::string version;  // the wheel: "0.3.27.206"
  std::string config;   // "OpenBLAS 0.3.27.dev DYNAMIC_ARCH NO_AFFINITY SkylakeX MAX_THREADS=64"
};

// One "add results for" commit of the gh-pages branch.
struct LogEntry {
  std::string sha;
  int64_t time_ms = 0;                       // its commit time (ms since the epoch)
  std::map<std::string, LogBuild> machines;  // machine -> the build it measured
};

// `git log --format='%H%x09%cI%x09%s%n%b'` of the gh-pages branch, oldest entry first: a header line per
// commit, then for an "add results for <sha>" commit, "<machine>:" lines each followed by
// "version=<wheel> - <config>". Other commits are left out.
std::vector<LogEntry> read_gh_pages_log(const std::filesystem::path& file, std::vector<std::string>& warnings);

// Ties every run to the log entry that published it, and so to its build; `dir` is the history folder
// that warnings name files relative to. The log does not name run files: the file is named after the
// BLAS-Benchmarks commit asv ran, the log after the gh-pages commit that published it. One workflow run
// measures one BLAS-Benchmarks commit on every machine and publishes all of them in one "add results"
// commit a minute or so after the slowest machine finishes. So: runs are grouped by benchmark commit,
// and, oldest group first, each group gets the first unclaimed entry published no earlier than its finish
// (less 2 minutes of clock slack) and no later than 2 hours after, whose machines include the group's.
// Without such an entry, the entry in that window sharing most machines is taken (a machine's version
// line can be missing). Checked on the 2024 data: all 92 groups match an entry with exactly their
// machines, 10 to 50 s after their finish.
void attach_builds(std::vector<PerfRun>& runs, const std::vector<LogEntry>& log, std::vector<std::string>& warnings,
                   const std::filesystem::path& dir);

}  // namespace eok::idea_pool
