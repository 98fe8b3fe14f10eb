#include "evaluator/cost_model/scoreboard.h"

#include <algorithm>

namespace eok::cost {

namespace {

// Busy-until times of every instance of every unit.
struct Units {
  std::array<std::vector<double>, 9> free_at;
  explicit Units(const ScoreboardConfig& cfg) {
    for (size_t u = 0; u < free_at.size(); ++u) free_at[u].assign(std::max(1u, cfg.instances[u]), 0.0);
  }
  // The instance of `unit` that frees first; ieu_any takes the earlier of ieu_a and ieu_b.
  double* pick(Unit unit) {
    if (unit == Unit::ieu_any) {
      double* a = &free_at[static_cast<size_t>(Unit::ieu_a)][0];
      double* b = &free_at[static_cast<size_t>(Unit::ieu_b)][0];
      return *b <= *a ? b : a;
    }
    auto& v = free_at[static_cast<size_t>(unit)];
    return &*std::min_element(v.begin(), v.end());
  }
};

}  // namespace

double steady_state_cycles(const std::vector<SbInsn>& block, const ScoreboardConfig& cfg) {
  if (block.empty()) return 0;
  // Eight copies: the first ones fill the pipeline; the difference between the issue times of copy 8 and
  // copy 4 divided by 4 is the steady-state cost, including loop-carried dependences.
  constexpr int kCopies = 8, kWarm = 4;
  std::array<double, kNumRegs> ready{}, whole{};
  Units units(cfg);
  const double issue_slot = 1.0 / std::max(1u, cfg.issue_width);
  double issue_free = 0, last_issue = 0;
  std::array<double, kCopies> copy_end{};
  for (int copy = 0; copy < kCopies; ++copy) {
    for (const SbInsn& in : block) {
      double t = std::max(last_issue, issue_free);
      for (uint8_t r : in.reads) t = std::max(t, in.whole_reads ? whole[r] : ready[r]);
      double* unit_free = in.unit == Unit::none ? nullptr : units.pick(in.unit);
      if (unit_free) t = std::max(t, *unit_free);
      last_issue = t;
      issue_free = t + issue_slot;
      if (unit_free) *unit_free = t + in.rthroughput;
      for (uint8_t w : in.writes) {
        ready[w] = t + in.latency;
        whole[w] = t + std::max(in.latency, in.whole_latency);
      }
    }
    copy_end[copy] = last_issue;
  }
  double per_copy = (copy_end[kCopies - 1] - copy_end[kWarm - 1]) / (kCopies - kWarm);
  // A block that issues without any stall still costs its issue slots.
  return std::max(per_copy, issue_slot * static_cast<double>(block.size()));
}

}  // namespace eok::cost
