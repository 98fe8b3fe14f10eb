#include "idea_pool/gh_pages_log.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <sstream>
#include <tuple>

#include "src/common/error.h"
#include "src/common/fs_util.h"

namespace eok::idea_pool {

namespace fs = std::filesystem;

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

// How far a publication may come before a run's own finish (clocks differ) and after it (attach_builds).
constexpr int64_t kClockSlackMs = 2 * 60 * 1000;
constexpr int64_t kMaxDelayMs = 2 * 3600 * 1000;

}  // namespace

std::vector<LogEntry> read_gh_pages_log(const fs::path& file, std::vector<std::string>& warnings) {
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

}  // namespace eok::idea_pool
