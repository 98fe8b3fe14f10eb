#include "evaluator/cost_model/scoreboard.h"

#include <algorithm>

namespace eok::cost {

namespace {

// Busy-until times of every instance of every unit.
struct Units {
  std::array<std::vector<double>, kUnitCount> free_at;
  explicit Units(const ScoreboardConfig& cfg) {
    for (size_t u = 0; u < free_at.size(); ++u) free_at[u].assign(std::max(1u, cfg.instances[u]), 0.0);
  }
  // The instance of `unit` that frees first. ieu_any takes ieu_b when it is free by `at` (ieu_a also runs
  // the branches), else whichever of the two frees first.
  double* pick(Unit unit, double at) {
    if (unit == Unit::ieu_any) {
      double* a = &free_at[static_cast<size_t>(Unit::ieu_a)][0];
      double* b = &free_at[static_cast<size_t>(Unit::ieu_b)][0];
      if (*b <= at) return b;
      return *a <= *b ? a : b;
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
  std::array<double, kNumRegs> cascade_from{};  // issue time of a cascading producer; -1: none
  cascade_from.fill(-1);
  Units units(cfg);
  const unsigned width = std::max(1u, cfg.issue_width);
  // Issue groups: up to `width` instructions, in order, issue at one time when their operands and units
  // are ready then; a group is closed by a full group, a later issue time, or the block's taken branch
  // back to its start. So an instruction that waited for an operand takes the next one along with it
  // (memset's `sb; addi` after `mv` pair), where a fixed slot per instruction would not.
  double group_time = 0, last_issue = 0;
  unsigned group_size = width;  // closed: the first instruction opens a group
  std::array<double, kCopies> copy_end{};
  for (int copy = 0; copy < kCopies; ++copy) {
    for (const SbInsn& in : block) {
      double t = last_issue;
      for (uint8_t r : in.reads) {
        // A cascading operand produced in the open group is there for a cascading reader in the same group.
        const bool same_group = in.cascades && cascade_from[r] == group_time && group_size < width;
        t = std::max(t, same_group ? group_time : in.whole_reads ? whole[r] : ready[r]);
      }
      double* unit_free = in.unit == Unit::none ? nullptr : units.pick(in.unit, t);
      if (unit_free) t = std::max(t, *unit_free);
      if (group_size >= width) t = std::max(t, group_time + 1);  // a full or closed group: a later cycle
      if (t > group_time) {
        group_time = t;
        group_size = 0;
      }
      ++group_size;
      last_issue = t;
      if (unit_free) *unit_free = t + in.rthroughput;
      for (uint8_t w : in.writes) {
        ready[w] = t + in.latency;
        whole[w] = t + std::max(in.latency, in.whole_latency);
        cascade_from[w] = in.cascades ? t : -1;
      }
    }
    group_size = width;  // the loop's taken branch ends the group
    copy_end[copy] = last_issue;
  }
  double per_copy = (copy_end[kCopies - 1] - copy_end[kWarm - 1]) / (kCopies - kWarm);
  // A block that issues without any stall still costs its issue slots.
  return std::max(per_copy, static_cast<double>(block.size()) / width);
}

}  // namespace eok::cost
