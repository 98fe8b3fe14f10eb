// One asv result file (format 2, as BLAS-Benchmarks publishes them for OpenBLAS): one machine measuring
// one build, a value per point of each benchmark's parameter product.
//
// Contract: read_asv_run never throws for a bad file: it adds one warning per file (or per unusable
// benchmark, summarised) and returns nullopt when nothing of the file is usable. It prints nothing and
// never writes. Tying a run to its OpenBLAS build is gh_pages_log.h's work.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

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

// Whether `file` is a run file of results/<machine>/ (a .json that is not asv's machine.json or
// benchmarks.json).
bool is_asv_run_file(const std::filesystem::path& file);

// Reads the run `file` that `machine` measured; `shown` names the file in warnings (its path relative to
// the history). The build fields stay unset.
std::optional<PerfRun> read_asv_run(const std::filesystem::path& file, const std::string& machine,
                                    const std::string& shown, std::vector<std::string>& warnings);

}  // namespace eok::idea_pool
