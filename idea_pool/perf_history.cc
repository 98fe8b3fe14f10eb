#include "idea_pool/perf_history.h"

#include <algorithm>
#include <tuple>

#include "idea_pool/gh_pages_log.h"
#include "src/common/error.h"

namespace eok::idea_pool {

namespace fs = std::filesystem;

PerfHistory load_perf_history(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw NotFoundError(
        "performance history folder " + dir.string() +
        " does not exist: pass a copy of BLAS-Benchmarks' gh-pages branch (results/ and gh-pages-log.txt)");
  }
  PerfHistory h;
  h.dir = dir;
  const fs::path results = fs::is_directory(dir / "results", ec) ? dir / "results" : dir;
  fs::path log_file = results.parent_path() / "gh-pages-log.txt";
  if (results == dir)
    log_file =
        fs::exists(dir / "gh-pages-log.txt", ec) ? dir / "gh-pages-log.txt" : dir.parent_path() / "gh-pages-log.txt";

  // results/<machine>/<hash8>-<env>.json, in a fixed order so that warnings and ties are reproducible.
  std::vector<std::pair<std::string, fs::path>> files;
  for (const auto& m : fs::directory_iterator(results, ec)) {
    if (!m.is_directory()) continue;
    for (const auto& f : fs::directory_iterator(m.path(), ec)) {
      if (f.is_regular_file() && is_asv_run_file(f.path())) files.emplace_back(m.path().filename().string(), f.path());
    }
  }
  std::sort(files.begin(), files.end());
  h.files_seen = files.size();
  if (files.empty()) {
    throw NotFoundError(dir.string() +
                        " holds no asv results (results/<machine>/<commit>-<env>.json): pass a copy of "
                        "BLAS-Benchmarks' gh-pages branch");
  }
  for (const auto& [machine, file] : files) {
    if (auto run = read_asv_run(file, machine, fs::relative(file, dir, ec).string(), h.warnings))
      h.runs.push_back(std::move(*run));
  }
  if (h.runs.empty()) {
    throw CorruptDataError("none of the " + std::to_string(files.size()) + " asv result files in " + dir.string() +
                           " could be read (first problem: " + h.warnings.front() + "); fetch the results again");
  }

  if (fs::exists(log_file, ec)) {
    const auto log = read_gh_pages_log(log_file, h.warnings);
    h.log_entries = log.size();
    attach_builds(h.runs, log, h.warnings, dir);
  } else {
    h.warnings.push_back(
        "no gh-pages-log.txt next to " + results.string() +
        ": runs cannot be tied to OpenBLAS builds; write it with git log --format='%H%x09%cI%x09%s%n%b' gh-pages");
  }
  std::sort(h.runs.begin(), h.runs.end(), [](const PerfRun& a, const PerfRun& b) {
    return std::tie(a.machine, a.finished_ms, a.file) < std::tie(b.machine, b.finished_ms, b.file);
  });
  return h;
}

}  // namespace eok::idea_pool
