#include "idea_pool/asv_results.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "src/common/error.h"
#include "src/common/fs_util.h"

namespace eok::idea_pool {

namespace fs = std::filesystem;
using nlohmann::json;

std::string BenchmarkResult::point_label(size_t i) const {
  std::vector<std::string> parts(params.size());
  for (size_t k = params.size(); k-- > 0;) {
    const size_t n = params[k].size();
    if (n == 0) continue;
    parts[k] = params[k][i % n];
    i /= n;
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

namespace {

// The columns asv 0.6 writes; a file's own `result_columns` takes precedence.
const std::vector<std::string> kDefaultColumns = {"result",     "params",        "version",       "started_at",
                                                  "duration",   "stats_ci_99_a", "stats_ci_99_b", "stats_q_25",
                                                  "stats_q_75", "stats_number",  "stats_repeat"};

std::vector<std::optional<double>> number_list(const json& j, size_t expected) {
  std::vector<std::optional<double>> out;
  if (!j.is_array() || j.size() != expected) return out;
  out.reserve(expected);
  for (const auto& v : j) out.push_back(v.is_number() ? std::optional<double>(v.get<double>()) : std::nullopt);
  return out;
}

// One row of `results`; nullopt (and a reason) when it cannot be used.
std::optional<BenchmarkResult> parse_benchmark(const json& row, const std::map<std::string, size_t>& col,
                                               std::string& why, int64_t& finished_ms) {
  if (!row.is_array()) {
    why = "not a list";
    return std::nullopt;
  }
  auto at = [&](const std::string& name) -> const json* {
    auto it = col.find(name);
    return it != col.end() && it->second < row.size() ? &row[it->second] : nullptr;
  };
  BenchmarkResult b;
  if (const json* v = at("version"); v && v->is_string()) b.version = v->get<std::string>();
  if (b.version.empty()) {
    why = "no benchmark version hash";
    return std::nullopt;
  }
  size_t points = 1;
  if (const json* p = at("params"); p && !p->is_null()) {
    if (!p->is_array()) {
      why = "params is not a list";
      return std::nullopt;
    }
    for (const auto& values : *p) {
      if (!values.is_array() || values.empty()) {
        why = "a parameter has no values";
        return std::nullopt;
      }
      std::vector<std::string> names;
      for (const auto& v : values) names.push_back(v.is_string() ? v.get<std::string>() : v.dump());
      points *= names.size();
      b.params.push_back(std::move(names));
    }
  }
  const json* result = at("result");
  if (!result || result->is_null()) {
    b.values.assign(points, std::nullopt);  // the benchmark failed or was skipped: every point is missing
  } else if (result->is_number() && points == 1) {
    b.values = {result->get<double>()};
  } else if (result->is_array() && result->size() == points) {
    b.values = number_list(*result, points);
  } else {
    why = "has " + std::to_string(result->is_array() ? result->size() : 1) + " results for " + std::to_string(points) +
          " parameter combinations";
    return std::nullopt;
  }
  if (const json* a = at("stats_ci_99_a")) b.ci_low = number_list(*a, points);
  if (const json* z = at("stats_ci_99_b")) b.ci_high = number_list(*z, points);
  if (b.ci_low.empty() || b.ci_high.empty()) b.ci_low.clear(), b.ci_high.clear();
  const json* started = at("started_at");
  const json* duration = at("duration");
  if (started && started->is_number()) {
    const double end =
        started->get<double>() + (duration && duration->is_number() ? duration->get<double>() * 1000 : 0);
    finished_ms = std::max(finished_ms, static_cast<int64_t>(end));
  }
  return b;
}

}  // namespace

bool is_asv_run_file(const fs::path& file) {
  const std::string name = file.filename().string();
  return file.extension() == ".json" && name != "machine.json" && name != "benchmarks.json";
}

std::optional<PerfRun> read_asv_run(const fs::path& file, const std::string& machine, const std::string& shown,
                                    std::vector<std::string>& warnings) {
  std::string text;
  try {
    text = read_regular_file(file, kDataFileMaxBytes, "asv result file");
  } catch (const Error& e) {
    warnings.push_back(shown + ": " + e.what() + " - skipped");
    return std::nullopt;
  }
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {
    warnings.push_back(shown + ": not valid JSON (" + std::string(e.what()) + ") - skipped");
    return std::nullopt;
  }
  if (!doc.is_object() || !doc.contains("results") || !doc["results"].is_object()) {
    warnings.push_back(shown + ": not an asv result file (no `results` object) - skipped");
    return std::nullopt;
  }
  if (!doc.contains("version") || doc["version"] != 2) {
    warnings.push_back(shown + ": asv result format " + (doc.contains("version") ? doc["version"].dump() : "unknown") +
                       ", only format 2 is read - skipped");
    return std::nullopt;
  }
  std::map<std::string, size_t> col;
  const json* columns = doc.contains("result_columns") ? &doc["result_columns"] : nullptr;
  if (columns && columns->is_array()) {
    for (size_t i = 0; i < columns->size(); ++i) {
      if ((*columns)[i].is_string()) col[(*columns)[i].get<std::string>()] = i;
    }
  } else {
    for (size_t i = 0; i < kDefaultColumns.size(); ++i) col[kDefaultColumns[i]] = i;
  }
  PerfRun run;
  run.machine = machine;
  run.file = file;
  if (doc.contains("commit_hash") && doc["commit_hash"].is_string())
    run.benchmark_commit = doc["commit_hash"].get<std::string>();
  if (run.benchmark_commit.empty())
    run.benchmark_commit = file.filename().string().substr(0, file.filename().string().find('-'));
  if (doc.contains("date") && doc["date"].is_number()) run.date_ms = doc["date"].get<int64_t>();
  run.finished_ms = run.date_ms;
  size_t bad = 0;
  std::string first_bad;
  for (const auto& [name, row] : doc["results"].items()) {
    std::string why;
    if (auto b = parse_benchmark(row, col, why, run.finished_ms)) {
      run.benchmarks.emplace(name, std::move(*b));
    } else if (bad++ == 0) {
      first_bad = name + " " + why;
    }
  }
  if (bad > 0) {
    warnings.push_back(shown + ": " + std::to_string(bad) + " benchmark" + (bad > 1 ? "s" : "") + " unusable (" +
                       first_bad + ")" + (run.benchmarks.empty() ? " - skipped" : " - the others are kept"));
  }
  if (run.benchmarks.empty()) {
    if (bad == 0) warnings.push_back(shown + ": no benchmark results - skipped");
    return std::nullopt;
  }
  return run;
}

}  // namespace eok::idea_pool
