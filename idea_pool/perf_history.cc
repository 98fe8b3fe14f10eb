#include "idea_pool/perf_history.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>
#include <unordered_map>

#include "src/common/error.h"
#include "src/common/text.h"
#include "src/common/fs_util.h"

namespace eok::idea_pool {

namespace fs = std::filesystem;
using nlohmann::json;

// ---------------------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------------------

namespace {

bool all_digits(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep)) parts.push_back(part);
  return parts;
}

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.2f %%", fraction * 100);
  return buf;
}

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

// "2024-08-08T05:15:39+00:00" (git's %cI) to ms since the epoch.
std::optional<int64_t> parse_iso8601_ms(const std::string& s) {
  int y, mo, d, h, mi, sec;
  char sep;
  if (std::sscanf(s.c_str(), "%4d-%2d-%2d%c%2d:%2d:%2d", &y, &mo, &d, &sep, &h, &mi, &sec) != 7) return std::nullopt;
  if (sep != 'T' && sep != ' ') return std::nullopt;
  int64_t offset_s = 0;
  const size_t zone = s.find_first_of("Z+-", 19);
  if (zone != std::string::npos && s[zone] != 'Z') {
    int oh = 0, om = 0;
    if (std::sscanf(s.c_str() + zone + 1, "%2d:%2d", &oh, &om) < 1) return std::nullopt;
    offset_s = (s[zone] == '-' ? -1 : 1) * (oh * 3600 + om * 60);
  }
  const int64_t days = days_from_civil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
  return ((days * 86400 + h * 3600 + mi * 60 + sec) - offset_s) * 1000;
}

}  // namespace

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

// ---------------------------------------------------------------------------------------------------------
// asv run files (format version 2)
// ---------------------------------------------------------------------------------------------------------

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

// One run file. Adds to `warnings` what it could not use; nullopt when nothing of it is usable.
std::optional<PerfRun> read_run(const fs::path& file, const std::string& machine, const std::string& shown,
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

// ---------------------------------------------------------------------------------------------------------
// The gh-pages log: which OpenBLAS build each publication of results measured
// ---------------------------------------------------------------------------------------------------------

struct LogBuild {
  std::string version, config;
};

struct LogEntry {
  std::string sha;
  int64_t time_ms = 0;
  std::map<std::string, LogBuild> machines;  // machine -> the build it measured
};

// `git log --format='%H%x09%cI%x09%s%n%b'` of the gh-pages branch: a header line per commit, then for an
// "add results for <sha>" commit, "<machine>:" lines each followed by "version=<wheel> - <config>".
std::vector<LogEntry> read_log(const fs::path& file, std::vector<std::string>& warnings) {
  std::vector<LogEntry> entries;
  std::istringstream in;
  try {
    in.str(read_regular_file(file, kDataFileMaxBytes, "gh-pages log"));
  } catch (const Error& e) {
    warnings.push_back(std::string(e.what()) + " - runs cannot be tied to OpenBLAS builds");
    return entries;
  }
  std::string line, machine;
  LogEntry* current = nullptr;
  size_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto fields = split(line, '\t');
    if (fields.size() >= 3 && fields[0].size() == 40 && std::all_of(fields[0].begin(), fields[0].end(), [](char c) {
          return std::isxdigit(static_cast<unsigned char>(c)) != 0;
        })) {
      current = nullptr;
      machine.clear();
      if (!fields[2].starts_with("add results for")) continue;
      auto time = parse_iso8601_ms(fields[1]);
      if (!time) {
        warnings.push_back(file.filename().string() + ":" + std::to_string(line_no) + ": unreadable date '" +
                           fields[1] + "' - entry skipped");
        continue;
      }
      entries.push_back({fields[0], *time, {}});
      current = &entries.back();
      continue;
    }
    if (!current) continue;
    if (line.size() > 1 && line.back() == ':' && line.find(' ') == std::string::npos) {
      machine = line.substr(0, line.size() - 1);
    } else if (line.starts_with("version=") && !machine.empty()) {
      const size_t dash = line.find(" - ");
      LogBuild b;
      b.version = line.substr(8, dash == std::string::npos ? std::string::npos : dash - 8);
      if (dash != std::string::npos) b.config = line.substr(dash + 3);
      current->machines[machine] = b;
    }
  }
  std::sort(entries.begin(), entries.end(), [](const LogEntry& a, const LogEntry& b) { return a.time_ms < b.time_ms; });
  return entries;
}

// N of "0.3.27.N" or "0.3.27.N.0"; -1 when the version has no fourth number.
int64_t build_number_of(const std::string& version) {
  const auto parts = split(version, '.');
  return parts.size() >= 4 && all_digits(parts[3]) && parts[3].size() < 12 ? std::stoll(parts[3]) : -1;
}

// OpenBLAS's config string names the core it picked just before MAX_THREADS=
// ("OpenBLAS 0.3.27.dev DYNAMIC_ARCH NO_AFFINITY SkylakeX MAX_THREADS=64").
std::string core_of(const std::string& config) {
  std::vector<std::string> tokens;
  std::istringstream in(config);
  for (std::string t; in >> t;) tokens.push_back(t);
  for (size_t i = 1; i < tokens.size(); ++i) {
    if (tokens[i].starts_with("MAX_THREADS=")) return tokens[i - 1];
  }
  return tokens.size() > 2 && tokens.back().find('=') == std::string::npos ? tokens.back() : "";
}

// The log does not name run files: the file is named after the BLAS-Benchmarks commit asv ran, the log
// after the gh-pages commit that published it. One workflow run measures one BLAS-Benchmarks commit on
// every machine and publishes all of them in one "add results" commit a minute or so after the slowest
// machine finishes. So: group runs by benchmark commit, and, oldest group first, give each group the first
// unclaimed entry published no earlier than its finish (less clock slack) and no later than kMaxDelay,
// whose machines include the group's. Without such an entry, the entry in that window sharing most
// machines is taken (a machine's version line can be missing). Checked on the 2024 data: all 92 groups match
// an entry with exactly their machines, 10 to 50 s after their finish.
constexpr int64_t kClockSlackMs = 2 * 60 * 1000;
constexpr int64_t kMaxDelayMs = 2 * 3600 * 1000;

void attach_builds(std::vector<PerfRun>& runs, const std::vector<LogEntry>& log, std::vector<std::string>& warnings,
                   const fs::path& dir) {
  std::map<std::string, std::vector<PerfRun*>> groups;
  for (auto& r : runs) groups[r.benchmark_commit].push_back(&r);
  struct Group {
    int64_t finished;
    std::string commit;
    std::vector<PerfRun*> runs;
  };
  std::vector<Group> order;
  for (auto& [commit, members] : groups) {
    int64_t finished = 0;
    for (const PerfRun* r : members) finished = std::max(finished, r->finished_ms);
    order.push_back({finished, commit, members});
  }
  std::sort(order.begin(), order.end(), [](const Group& a, const Group& b) {
    return std::tie(a.finished, a.commit) < std::tie(b.finished, b.commit);
  });
  std::vector<bool> claimed(log.size(), false);
  for (const Group& g : order) {
    long best = -1;
    size_t best_overlap = 0;
    for (size_t i = 0; i < log.size(); ++i) {
      if (claimed[i] || log[i].time_ms < g.finished - kClockSlackMs) continue;
      if (log[i].time_ms > g.finished + kMaxDelayMs) break;
      size_t overlap = 0;
      for (const PerfRun* r : g.runs) overlap += log[i].machines.count(r->machine);
      if (overlap == g.runs.size()) {
        best = static_cast<long>(i);
        break;
      }
      if (overlap > best_overlap) best = static_cast<long>(i), best_overlap = overlap;
    }
    for (PerfRun* r : g.runs) {
      std::error_code ec;
      const std::string shown = fs::relative(r->file, dir, ec).string();
      if (best < 0) {
        warnings.push_back(shown +
                           ": no gh-pages log entry published it - its OpenBLAS build is unknown, not compared");
        continue;
      }
      auto it = log[best].machines.find(r->machine);
      if (it == log[best].machines.end()) {
        warnings.push_back(shown + ": log entry " + log[best].sha.substr(0, 8) + " has no version line for " +
                           r->machine + " - its OpenBLAS build is unknown, not compared");
        continue;
      }
      r->build_version = it->second.version;
      r->build_config = it->second.config;
      r->build_number = build_number_of(it->second.version);
      r->core = core_of(it->second.config);
      if (r->build_number < 0) {
        warnings.push_back(shown + ": build version '" + it->second.version +
                           "' has no commit count (0.3.27.N) - not compared");
      }
    }
    if (best >= 0) claimed[best] = true;
  }
}

bool is_run_file(const fs::path& p) {
  const std::string name = p.filename().string();
  return p.extension() == ".json" && name != "machine.json" && name != "benchmarks.json";
}

}  // namespace

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
      if (f.is_regular_file() && is_run_file(f.path())) files.emplace_back(m.path().filename().string(), f.path());
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
    if (auto run = read_run(file, machine, fs::relative(file, dir, ec).string(), h.warnings))
      h.runs.push_back(std::move(*run));
  }
  if (h.runs.empty()) {
    throw CorruptDataError("none of the " + std::to_string(files.size()) + " asv result files in " + dir.string() +
                           " could be read (first problem: " + h.warnings.front() + "); fetch the results again");
  }

  if (fs::exists(log_file, ec)) {
    const auto log = read_log(log_file, h.warnings);
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

// ---------------------------------------------------------------------------------------------------------
// Which changes can move which machine's numbers
// ---------------------------------------------------------------------------------------------------------

std::string arch_of_core(const std::string& core) {
  const std::string c = ascii_lower(core);
  if (c.empty()) return "";
  static const std::vector<std::pair<std::string, std::vector<std::string>>> kPrefixes = {
      {"x86_64", {"skylakex",   "cooperlake", "sapphirerapids", "haswell",     "sandybridge", "zen",     "nehalem",
                  "core2",      "penryn",     "dunnington",     "atom",        "prescott",    "opteron", "barcelona",
                  "bobcat",     "bulldozer",  "piledriver",     "steamroller", "excavator",   "nano",    "katmai",
                  "coppermine", "northwood",  "banias",         "athlon"}},
      {"arm64",
       {"armv8", "armv9", "cortexa5", "cortexa7", "cortexx", "cortexa510", "cortexa710", "neoverse", "thunderx",
        "tsv110", "falkor", "emag", "a64fx", "vortex", "ampere", "ft2000"}},
      {"riscv64", {"riscv64", "rv64", "c910", "c920", "x280", "x60"}},
      {"power", {"power", "ppc", "cell"}},
      {"arm", {"armv6", "armv7", "armv5", "cortexa9", "cortexa15"}},
      {"loongarch64", {"loongson3r5", "loongsongeneric", "la64", "la264", "la464", "loongson2k1000"}},
      {"mips64", {"loongson3", "sicortex", "i6400", "p6600", "i6500", "mips64"}},
      {"zarch", {"z13", "z14", "zarch"}},
  };
  for (const auto& [arch, prefixes] : kPrefixes) {
    for (const auto& p : prefixes) {
      if (c.starts_with(p)) return arch;
    }
  }
  return "";
}

namespace {

const std::set<std::string> kArchNames = {"alpha",  "arm",   "arm64",   "csky",  "e2k", "ia64",   "loongarch64", "mips",
                                          "mips64", "power", "riscv64", "sparc", "x86", "x86_64", "zarch"};

// kernel/<dir>/ directories whose code a library for `arch` compiles, besides the shared ones. From
// `git grep '\.\./<dir>/' -- kernel/<arch>` on develop (2024): riscv64 reuses arm64 files, mips64 mips
// files; kernel/arm, kernel/generic and kernel/simd are C kernels that every architecture includes
// (x86_64 and arm64 pick up ../arm/*.c), so they count as shared.
std::set<std::string> kernel_dirs_of(const std::string& arch) {
  if (arch == "riscv64") return {"riscv64", "arm64"};
  if (arch == "mips64") return {"mips64", "mips"};
  return {arch};
}

// Files that never end up in the library: documentation, CI, the test and benchmark programs.
bool never_built(const std::string& path) {
  static const std::vector<std::string> kDirs = {".github/",
                                                 "doc/",
                                                 "docs/",
                                                 "test/",
                                                 "ctest/",
                                                 "utest/",
                                                 "benchmark/",
                                                 "lapack-netlib/TESTING/",
                                                 "lapack-netlib/CBLAS/testing/",
                                                 ".ci/",
                                                 "ci/"};
  for (const auto& d : kDirs) {
    if (path.starts_with(d)) return true;
  }
  const std::string name = fs::path(path).filename().string();
  const std::string ext = ascii_lower(fs::path(path).extension().string());
  if (ext == ".md" || ext == ".rst" || ext == ".yml" || ext == ".yaml") return true;
  const bool top_level = path.find('/') == std::string::npos;
  if (top_level && ext == ".txt" && name != "CMakeLists.txt") return true;  // Changelog.txt, GotoBLAS_*.txt ...
  return top_level &&
         (name.starts_with("Jenkinsfile") || name == ".gitignore" || name == "LICENSE" || name == ".mailmap");
}

// "<prefix><arch><suffix>" file names that only one architecture builds: Makefile.arm64, common_x86_64.h,
// cpuid_x86.c, driver/others/dynamic_arm64.c. Returns the architecture, or "" when the name is shared.
std::string arch_file(const std::string& path) {
  const std::string name = fs::path(path).filename().string();
  const std::string stem = fs::path(path).stem().string();
  const bool top_level = path.find('/') == std::string::npos;
  auto tail_arch = [&](const std::string& prefix, const std::string& s) -> std::string {
    if (!s.starts_with(prefix)) return "";
    const std::string a = s.substr(prefix.size());
    return kArchNames.count(a) ? a : "";
  };
  if (top_level) {
    if (auto a = tail_arch("Makefile.", name); !a.empty()) return a;
    if (auto a = tail_arch("common_", stem); !a.empty()) return a;
    if (auto a = tail_arch("cpuid_", stem); !a.empty()) return a;
  }
  if (path.starts_with("driver/others/")) {
    if (name == "dynamic.c") return "x86";  // the x86 and x86_64 core dispatch
    if (auto a = tail_arch("dynamic_", stem); !a.empty()) return a;
  }
  return "";
}

}  // namespace

bool path_affects_arch(const std::string& path, const std::string& arch) {
  if (never_built(path)) return false;
  if (arch.empty()) return true;  // unknown machine: nothing can be ruled out
  if (path.starts_with("kernel/")) {
    const size_t slash = path.find('/', 7);
    if (slash == std::string::npos) return true;  // kernel/Makefile.L3, kernel/setparam-ref.c ...
    const std::string dir = path.substr(7, slash - 7);
    if (!kArchNames.count(dir) || dir == "arm") return true;  // kernel/generic, kernel/simd, kernel/arm: shared
    return kernel_dirs_of(arch).count(dir) > 0;
  }
  const std::string a = arch_file(path);
  if (a.empty()) return true;
  // cpuid_x86.c, common_x86.h's sibling rules: getarch and dynamic.c serve x86 and x86_64 alike, while
  // Makefile.x86 and common_x86.h are only for 32-bit builds.
  if (a == "x86" && arch == "x86_64") {
    const std::string name = fs::path(path).filename().string();
    return name == "cpuid_x86.c" || name == "dynamic.c";
  }
  return a == arch;
}

// ---------------------------------------------------------------------------------------------------------
// Builds to commits
// ---------------------------------------------------------------------------------------------------------

std::map<int64_t, std::string> map_builds(const GitRepo& repo, const std::string& branch, const std::string& base_tag,
                                          const std::set<int64_t>& numbers, std::vector<std::string>* warnings) {
  std::map<int64_t, std::string> out;
  if (numbers.empty()) return out;
  auto warn = [&](const std::string& w) {
    if (warnings) warnings->push_back(w);
  };
  const std::string tip = repo.resolve(branch);  // a missing branch is the caller's error: it throws
  std::string base;
  try {
    base = repo.resolve(base_tag);
  } catch (const NotFoundError&) {
    warn("base tag " + base_tag + " is not in " + repo.path().string() + ": no build can be tied to a commit");
    return out;
  }
  // count(C) = rev-list --count base..C. Down the first-parent chain each step loses exactly the commits
  // that C brings in over its first parent, so one full count and one small walk per step give them all.
  const int64_t total = static_cast<int64_t>(repo.count_between(base, tip));
  int64_t count = total;
  const int64_t lowest = *numbers.begin();
  std::string cur = tip;
  while (true) {
    if (numbers.count(count)) out[count] = cur;
    if (count <= lowest || count <= 0) break;
    const CommitInfo info = repo.commit(cur);
    if (info.parents.empty()) break;
    const std::string parent = info.parents.front();
    int64_t brought = 0;
    repo.walk(cur, {parent, base}, [&](const CommitInfo&) {
      ++brought;
      return true;
    });
    count -= brought;
    cur = parent;
  }
  for (int64_t n : numbers) {
    if (out.count(n)) continue;
    if (n > total) {
      warn("build " + std::to_string(n) + " is newer than " + branch + " (" + std::to_string(total) +
           " commits after " + base_tag + "): update the clone");
    } else {
      warn("no first-parent commit of " + branch + " is " + std::to_string(n) + " commits after " + base_tag +
           ": that build came from another branch");
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Measured effects
// ---------------------------------------------------------------------------------------------------------

namespace {

// A point of the suite: benchmark, its version hash, and its parameter values. Not the index in the
// product: asv's version hash covers the benchmark's code, not its parameter lists, and BLAS-Benchmarks
// changed sizes (100..1000 in 6 steps vs 100 and 1000) under one hash in June 2024.
using PointKey = std::tuple<std::string, std::string, std::string>;

std::map<PointKey, double> log_times(const PerfRun& run) {
  std::map<PointKey, double> out;
  for (const auto& [name, b] : run.benchmarks) {
    for (size_t i = 0; i < b.values.size(); ++i) {
      if (b.values[i] && *b.values[i] > 0) out[{name, b.version, b.point_label(i)}] = std::log(*b.values[i]);
    }
  }
  return out;
}

// One build as a machine measured it: per point the median of its runs' log times.
struct BuildMeasure {
  std::vector<std::map<PointKey, double>> runs;
  std::map<PointKey, double> value;
  std::map<PointKey, size_t> samples;
};

BuildMeasure combine_runs(const std::vector<const PerfRun*>& runs) {
  BuildMeasure m;
  std::map<PointKey, std::vector<double>> by_point;
  for (const PerfRun* r : runs) {
    m.runs.push_back(log_times(*r));
    for (const auto& [k, v] : m.runs.back()) by_point[k].push_back(v);
  }
  for (auto& [k, v] : by_point) {
    m.samples[k] = v.size();
    m.value[k] = median(v);
  }
  return m;
}

// Run-to-run noise of one run's geometric mean, on the log scale. A run's offset is the mean over its
// points of (its log time - the build's median); cloud runners drift as a whole, so this offset, not the
// per-point scatter, is what limits a comparison of two builds. Pooled over every build measured more
// than once (degrees of freedom: runs - 1 per build). Without repeats, asv's 99 % intervals stand in
// (they see only noise within a run, so they understate it); without those, the 2 % from the data's README.
double run_noise(const std::vector<BuildMeasure>& builds, const std::vector<const PerfRun*>& all_runs) {
  double ss = 0;
  size_t dof = 0;
  for (const auto& b : builds) {
    std::vector<double> offsets;
    for (const auto& run : b.runs) {
      double sum = 0;
      size_t n = 0;
      for (const auto& [k, v] : run) {
        if (b.samples.at(k) < 2) continue;
        sum += v - b.value.at(k);
        ++n;
      }
      if (n > 0) offsets.push_back(sum / static_cast<double>(n));
    }
    if (offsets.size() < 2) continue;
    double mean = 0;
    for (double o : offsets) mean += o;
    mean /= static_cast<double>(offsets.size());
    for (double o : offsets) ss += (o - mean) * (o - mean);
    dof += offsets.size() - 1;
  }
  if (dof > 0) return std::max(std::sqrt(ss / static_cast<double>(dof)), 1e-4);
  std::vector<double> from_ci;
  for (const PerfRun* r : all_runs) {
    double s2 = 0;
    size_t n = 0;
    for (const auto& [name, b] : r->benchmarks) {
      for (size_t i = 0; i < b.ci_low.size(); ++i) {
        if (b.ci_low[i] && b.ci_high[i] && *b.ci_low[i] > 0 && *b.ci_high[i] > *b.ci_low[i]) {
          const double s = (std::log(*b.ci_high[i]) - std::log(*b.ci_low[i])) / (2 * 2.576);
          s2 += s * s;
          ++n;
        }
      }
    }
    if (n > 0) from_ci.push_back(std::sqrt(s2 / static_cast<double>(n)));
  }
  return from_ci.empty() ? 0.02 : std::max(median(from_ci), 1e-4);
}

// Non-merge commits reachable from `to` and not from `from`, newest first. A merge's own diff repeats
// the commits it merges, so merges get no share of their own.
std::vector<CommitInfo> commits_between(const GitRepo& repo, const std::string& from, const std::string& to) {
  std::vector<CommitInfo> out;
  repo.walk(to, {from}, [&](const CommitInfo& c) {
    if (!c.is_merge()) out.push_back(c);
    return true;
  });
  return out;
}

// ", most: benchmarks.gemm.time_gemm -4.10 %": the benchmark that moved most, when it moved more than the
// whole (where to look for the kernel that changed).
std::string largest_mover(const BuildComparison& c) {
  const std::pair<const std::string, double>* most = nullptr;
  for (const auto& entry : c.by_benchmark) {
    if (!most || std::abs(entry.second) > std::abs(most->second)) most = &entry;
  }
  if (!most || c.by_benchmark.size() < 2 || std::abs(most->second) <= std::abs(c.improvement)) return "";
  return ", most: " + most->first + " " + percent(most->second);
}

struct Share {
  size_t comparison;
  double confidence;  // of this commit's share: the measurement's, divided by sqrt(relevant commits)
};

}  // namespace

size_t PerfEffectsReport::comparisons_on(const std::string& machine) const {
  return static_cast<size_t>(std::count_if(comparisons.begin(), comparisons.end(),
                                           [&](const BuildComparison& c) { return c.machine == machine; }));
}

std::string PerfEffectsReport::summary() const {
  std::set<std::string> machines;
  for (const auto& c : comparisons) machines.insert(c.machine);
  std::string per_machine;
  for (const auto& m : machines)
    per_machine += (per_machine.empty() ? "" : ", ") + m + " " + std::to_string(comparisons_on(m));
  return std::to_string(runs_loaded) + " runs (" + std::to_string(load_warnings) + " load warnings), " +
         std::to_string(builds.size()) + "/" + std::to_string(builds.size() + unmapped_builds.size()) +
         " builds mapped, " + std::to_string(comparisons.size()) + " comparisons" +
         (per_machine.empty() ? "" : " (" + per_machine + ")") + ", " + std::to_string(commits_with_effect) +
         " commits with a measured effect" +
         (warnings.empty() ? "" : ", " + std::to_string(warnings.size()) + " warnings");
}

std::map<std::string, Effect> measured_effects(const PerfHistory& history, const GitRepo& repo,
                                               const std::string& branch, const std::string& base_tag,
                                               PerfEffectsReport* report_out, const PerfEffectsOptions& options) {
  PerfEffectsReport report;
  report.runs_loaded = history.runs.size();
  report.load_warnings = history.warnings.size();

  std::set<int64_t> numbers;
  for (const auto& r : history.runs) {
    if (r.build_number >= 0) numbers.insert(r.build_number);
  }
  // The wheel version is "<base version>.N": a history of another base cannot be counted from base_tag.
  const std::string base_version = base_tag.starts_with("v") ? base_tag.substr(1) : base_tag;
  for (const auto& r : history.runs) {
    if (r.build_number >= 0 && !r.build_version.starts_with(base_version + ".")) {
      report.warnings.push_back("run " + r.file.filename().string() + " measured " + r.build_version +
                                ", not a build after " + base_tag + ": its count is not from " + base_tag);
      break;
    }
  }
  report.builds = map_builds(repo, branch, base_tag, numbers, &report.warnings);
  for (int64_t n : numbers) {
    if (!report.builds.count(n)) report.unmapped_builds.insert(n);
  }
  if (report.builds.empty()) {
    report.warnings.push_back("the performance history matches no commit of " + branch + " in " + repo.path().string() +
                              ": no measured effects (is it the library the history measured?)");
  }

  // Runs by machine and build.
  std::map<std::string, std::map<int64_t, std::vector<const PerfRun*>>> by_machine;
  for (const auto& r : history.runs) {
    if (report.builds.count(r.build_number)) by_machine[r.machine][r.build_number].push_back(&r);
  }

  std::unordered_map<std::string, std::vector<FileChange>> changed;  // sha -> files, read once for all machines
  std::map<std::string, std::vector<Share>> shares;                  // sha -> its shares, one per comparison
  for (const auto& [machine, builds] : by_machine) {
    // The machine's architecture from the cores its runs report (the most frequent one).
    std::map<std::string, size_t> arch_votes;
    std::vector<const PerfRun*> all_runs;
    for (const auto& [n, runs] : builds) {
      for (const PerfRun* r : runs) ++arch_votes[arch_of_core(r->core)], all_runs.push_back(r);
    }
    std::string arch;
    size_t best_votes = 0;
    for (const auto& [a, v] : arch_votes) {
      if (v > best_votes) arch = a, best_votes = v;
    }
    if (arch.empty() && options.path_relevance) {
      report.warnings.push_back(machine + ": unknown core, so every commit counts as relevant to its numbers");
    }

    std::vector<int64_t> order;
    std::vector<BuildMeasure> measures;
    for (const auto& [n, runs] : builds) {
      order.push_back(n);
      measures.push_back(combine_runs(runs));
    }
    const double noise_per_run = run_noise(measures, all_runs);
    report.machine_noise[machine] = noise_per_run;

    for (size_t i = 1; i < order.size(); ++i) {
      const BuildMeasure& a = measures[i - 1];
      const BuildMeasure& b = measures[i];
      BuildComparison c;
      c.machine = machine;
      c.arch = arch;
      c.from_build = order[i - 1];
      c.to_build = order[i];
      c.from_sha = report.builds.at(c.from_build);
      c.to_sha = report.builds.at(c.to_build);
      c.from_version = builds.at(c.from_build).front()->build_version;
      c.to_version = builds.at(c.to_build).front()->build_version;
      c.from_runs = a.runs.size();
      c.to_runs = b.runs.size();
      // Geometric mean of old/new over the points both measured with the same benchmark version.
      double sum = 0;
      std::map<std::string, std::pair<double, size_t>> per_benchmark;
      for (const auto& [k, old_log] : a.value) {
        auto it = b.value.find(k);
        if (it == b.value.end()) continue;
        sum += old_log - it->second;
        ++c.points;
        auto& [bsum, bn] = per_benchmark[std::get<0>(k)];
        bsum += old_log - it->second;
        ++bn;
      }
      for (const auto& [name, sn] : per_benchmark)
        c.by_benchmark[name] = std::exp(sn.first / static_cast<double>(sn.second)) - 1;
      if (c.points < options.min_points) {
        report.warnings.push_back(machine + " " + std::to_string(c.from_build) + " -> " + std::to_string(c.to_build) +
                                  ": " + std::to_string(c.points) +
                                  " common points (benchmark versions differ) - not compared");
        continue;
      }
      const double mean_log = sum / static_cast<double>(c.points);
      c.improvement = std::exp(mean_log) - 1;
      c.noise =
          noise_per_run * std::sqrt(1.0 / static_cast<double>(c.from_runs) + 1.0 / static_cast<double>(c.to_runs));
      // 1 when the noise is far below the reference, 0.5 at it, towards 0 above it.
      const double r = c.noise / options.reference_noise;
      c.confidence = 1 / (1 + r * r);

      const auto between = commits_between(repo, c.from_sha, c.to_sha);
      c.commits = between.size();
      std::vector<const CommitInfo*> relevant;
      for (const auto& commit : between) {
        if (!options.path_relevance || arch.empty()) {
          relevant.push_back(&commit);
          continue;
        }
        auto it = changed.find(commit.sha);
        if (it == changed.end()) it = changed.emplace(commit.sha, repo.changed_files(commit, false)).first;
        if (std::any_of(it->second.begin(), it->second.end(),
                        [&](const FileChange& f) { return path_affects_arch(f.path, arch); })) {
          relevant.push_back(&commit);
        }
      }
      c.relevant_commits = relevant.size();
      const size_t index = report.comparisons.size();
      report.comparisons.push_back(c);
      // Every relevant commit carries the pair's improvement (the paper's rule); how much of it is really
      // the commit's own is unknown, so its confidence falls with the number of commits sharing it.
      const double share_confidence =
          c.confidence / std::sqrt(static_cast<double>(std::max<size_t>(1, relevant.size())));
      for (const CommitInfo* commit : relevant) shares[commit->sha].push_back({index, share_confidence});
    }
  }

  // Across machines: the confidence-weighted mean improvement, and the best single confidence (machines
  // run different kernels, so agreement between them is not independent evidence of one effect).
  std::map<std::string, Effect> out;
  for (const auto& [sha, list] : shares) {
    Effect e;
    e.measured = true;
    double weight = 0, weighted = 0;
    std::string evidence;
    for (const Share& s : list) {
      const BuildComparison& c = report.comparisons[s.comparison];
      weight += s.confidence;
      weighted += s.confidence * c.improvement;
      e.confidence = std::max(e.confidence, s.confidence);
      char noise[32];
      std::snprintf(noise, sizeof noise, "%.2f", c.noise * 100);
      evidence += (evidence.empty() ? "" : "; ") + c.machine + " runs " + c.from_version + " -> " + c.to_version +
                  ": " + std::to_string(c.points) + " points, geo-mean " + percent(c.improvement) + " (noise " + noise +
                  " %" + largest_mover(c) + "), shared by " + std::to_string(c.relevant_commits) + " commits";
    }
    e.improvement = weight > 0 ? weighted / weight : 0;
    e.evidence = evidence;
    out.emplace(sha, std::move(e));
  }
  report.commits_with_effect = out.size();
  if (report_out) *report_out = std::move(report);
  return out;
}

}  // namespace eok::idea_pool
