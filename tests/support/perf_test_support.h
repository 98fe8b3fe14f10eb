// Test support for the performance-history tests: a synthetic git repository written with libgit2, and
// synthetic asv result files and gh-pages logs in the BLAS-Benchmarks layout.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

struct git_repository;

namespace eok::idea_pool::testing {

// A bare repository in `dir` whose commits are made from file maps. Each commit's tree is its first
// parent's tree with `changes` applied (an empty content deletes the file). Times are unix seconds.
class PerfTestRepo {
 public:
  explicit PerfTestRepo(const std::filesystem::path& dir);
  ~PerfTestRepo();
  PerfTestRepo(const PerfTestRepo&) = delete;
  PerfTestRepo& operator=(const PerfTestRepo&) = delete;

  std::string commit(const std::string& message, const std::map<std::string, std::string>& changes,
                     const std::vector<std::string>& parents, int64_t time);
  void branch(const std::string& name, const std::string& sha);
  void tag(const std::string& name, const std::string& sha);  // a lightweight tag
  const std::filesystem::path& path() const { return dir_; }

 private:
  std::filesystem::path dir_;
  git_repository* repo_ = nullptr;
  std::map<std::string, std::map<std::string, std::string>> trees_;  // commit -> its files
};

// One benchmark of a synthetic run: values flat over the product of params (nullopt writes null).
struct PerfTestBenchmark {
  std::string version = "v1";
  std::vector<std::vector<std::string>> params;
  std::vector<std::optional<double>> values;
};

// Writes results/<machine>/<commit[0:8]>-virtualenv-py3.12.json (asv format 2) under `root`, with the
// run's benchmarks started from `started_ms` one second apart, each lasting one second. Returns the file.
std::filesystem::path write_asv_run(const std::filesystem::path& root, const std::string& machine,
                                    const std::string& commit, int64_t started_ms,
                                    const std::map<std::string, PerfTestBenchmark>& benchmarks);

// One "add results for" commit of the gh-pages log: machine -> "version=..." line.
struct PerfTestLogEntry {
  int64_t time_ms;
  std::map<std::string, std::string>
      versions;  // machine -> "0.3.27.206 - OpenBLAS 0.3.27.dev DYNAMIC_ARCH SkylakeX MAX_THREADS=64"
};

// Writes `root`/gh-pages-log.txt in git log's format (newest first).
void write_gh_pages_log(const std::filesystem::path& root, const std::vector<PerfTestLogEntry>& entries);

// "0.3.27.N - OpenBLAS 0.3.27.dev DYNAMIC_ARCH NO_AFFINITY <core> MAX_THREADS=64"
std::string perf_build_line(int64_t n, const std::string& core);

}  // namespace eok::idea_pool::testing
