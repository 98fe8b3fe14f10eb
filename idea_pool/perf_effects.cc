#include "idea_pool/perf_effects.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>
#include <unordered_map>

#include "idea_pool/build_commits.h"
#include "idea_pool/openblas_paths.h"
#include "idea_pool/perf_history.h"
#include "src/common/text.h"

namespace eok::idea_pool {

namespace {

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.2f %%", fraction * 100);
  return buf;
}

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
