#include "src/search/kernel_brief.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <vector>

#include "src/common/text_diff.h"

namespace eok::search {

namespace {

std::string first_lines(const std::string& text, size_t n) {
  std::istringstream in(text);
  std::string line, out;
  for (size_t i = 0; i < n && std::getline(in, line); ++i) out += "    " + line + "\n";
  return out;
}

nlohmann::json evidence(const ScoredKernel& k) {
  auto j = nlohmann::json::parse(k.eval.evidence_json, nullptr, false);
  return j.is_discarded() ? nlohmann::json::object() : j;
}

}  // namespace

std::string kernel_brief(const ScoredKernel& k, bool with_profile) {
  std::ostringstream out;
  out << "Idea: " << (k.kernel.description.empty() ? "(not stated)" : k.kernel.description) << "\n";
  char perf[160];
  std::snprintf(perf, sizeof perf, "Performance: %.0f modeled cycles, %.2fx the baseline", k.cycles(), k.speedup());
  out << perf;
  const auto j = evidence(k);
  const auto& profile = j.contains("profile") ? j["profile"] : nlohmann::json();
  if (profile.is_object()) out << ", " << profile.value("bound", "compute") << "-bound";
  out << "\n";
  if (const std::string roof = roofline_line(k); !roof.empty()) out << roof << "\n";
  if (j.contains("evidence") && j["evidence"].value("tolerance_used", nlohmann::json()).is_number()) {
    std::snprintf(perf, sizeof perf, "Accuracy: its worst element used %.0f%% of the tolerance\n",
                  100 * j["evidence"]["tolerance_used"].get<double>());
    out << perf;
  }
  if (profile.is_object()) {
    if (with_profile && profile.contains("cycles_by_class")) {
      std::vector<std::pair<double, std::string>> classes;
      for (const auto& [name, cyc] : profile["cycles_by_class"].items()) classes.emplace_back(cyc.get<double>(), name);
      std::sort(classes.rbegin(), classes.rend());
      const double total = std::max(1.0, profile.value("compute_cycles", 1.0));
      out << "Time by instruction class:";
      for (size_t i = 0; i < classes.size() && i < 5; ++i) {
        std::snprintf(perf, sizeof perf, " %s %.0f%%", classes[i].second.c_str(), 100 * classes[i].first / total);
        out << perf;
      }
      out << "\n";
      if (profile.contains("hot_blocks") && !profile["hot_blocks"].empty()) {
        const auto& hot = profile["hot_blocks"][0];
        std::snprintf(perf, sizeof perf, "Hottest block: %.0f%% of the time, %.1f cycles per execution, vtype %s:\n",
                      100 * hot.value("cycles", 0.0) / total, hot.value("cycles_per_execution", 0.0),
                      hot.value("vtype", "?").c_str());
        out << perf;
        size_t shown = 0;
        for (const auto& insn : hot["instructions"]) {
          if (shown++ == 32) break;
          out << "    " << insn.get<std::string>() << "\n";
        }
      }
    }
  }
  out << "Code:\n```c\n" << k.kernel.source;
  if (!k.kernel.source.empty() && k.kernel.source.back() != '\n') out << "\n";
  out << "```\n";
  return out.str();
}

namespace {

// The task's roofline in cycles, as the evaluation recorded it (0: none).
double roofline_of(const ScoredKernel& k) {
  const auto j = evidence(k);
  const auto roof = j.value("roofline_cycles", nlohmann::json());
  return roof.is_number() ? roof.get<double>() : 0;
}

bool within_bound(double cycles, double roof) {
  return roof > 0 && cycles > 0 && cycles <= kAtRooflineFactor * roof;
}

}  // namespace

std::string roofline_line(const ScoredKernel& k) {
  const double roof = roofline_of(k);
  if (roof <= 0 || k.cycles() <= 0) return "";
  char buf[256];
  if (within_bound(k.cycles(), roof)) {
    std::snprintf(
        buf, sizeof buf,
        "Roofline: no kernel can take fewer than about %.0f cycles here, and this one takes %.2fx that: it is "
        "at its bound, so little is left to gain; only a change that removes memory traffic or work can help",
        roof, k.cycles() / roof);
  } else {
    std::snprintf(buf, sizeof buf,
                  "Roofline: no kernel can take fewer than about %.0f cycles here; this one takes %.2fx that", roof,
                  k.cycles() / roof);
  }
  return buf;
}

bool at_roofline(const ScoredKernel& k) {
  return within_bound(k.cycles(), roofline_of(k));
}

std::string repeat_notice(const ScoredKernel& repeated) {
  char buf[96];
  std::snprintf(buf, sizeof buf, ", %.2fx the baseline", repeated.speedup());
  return "The last proposal from this kernel was a repeat of kernel #" + std::to_string(repeated.kernel.id) +
         ", already evaluated (" + status_name(repeated.eval.status) + (repeated.ok() ? buf : "") +
         "; its idea: " + (repeated.kernel.description.empty() ? "not stated" : repeated.kernel.description) +
         "). Propose something that differs from it.\n";
}

std::string failure_feedback(const ScoredKernel& failed, const ScoredKernel* parent) {
  if (failed.infra_error()) return "";
  std::ostringstream out;
  out << "Its idea: " << (failed.kernel.description.empty() ? "(not stated)" : failed.kernel.description) << "\n";
  out << "Its status was " << status_name(failed.eval.status) << ": " << failed.eval.message << "\n";
  // Its change as a diff; a rewrite (a diff longer than the code) as its code.
  const std::string diff =
      parent ? unified_diff(parent->kernel.source, failed.kernel.source, "kernel", "failed attempt", 2) : "";
  const bool rewrite = diff.empty() || diff.size() > failed.kernel.source.size();
  std::istringstream lines(rewrite ? failed.kernel.source : diff);
  std::string line, kept;
  size_t n = 0;
  while (std::getline(lines, line) && n++ < 40) kept += "    " + line + "\n";
  if (n > 40) kept += "    [... the rest is omitted]\n";
  if (!kept.empty()) out << (rewrite ? "Its code:\n" : "Its change to the kernel:\n") << kept;
  const auto j = evidence(failed);
  if (!j.contains("evidence")) return out.str();
  const auto& ev = j["evidence"];
  if (ev.contains("compiler_output") && failed.eval.status == EvalStatus::compile_error) {
    out << "Compiler output:\n" << first_lines(ev["compiler_output"].get<std::string>(), 15);
  }
  if (ev.contains("mismatches") && !ev["mismatches"].empty()) {
    out << "First mismatches (sizes, output[index]: expected, got, and the input there):\n";
    size_t n = 0;
    for (const auto& m : ev["mismatches"]) {
      if (n++ == 4) break;
      out << "    " << m.value("sizes", "") << ", " << m.value("output", "") << "[" << m.value("index", -1)
          << "]: " << m.value("expected", "") << ", " << m.value("got", "");
      const std::string inputs = m.value("inputs", "");
      if (!inputs.empty()) out << " (input " << inputs << ")";
      out << "\n";
    }
  }
  return out.str();
}

}  // namespace eok::search
