#include "evaluator/case_inputs.h"

#include <cstdio>
#include <vector>

#include "evaluator/checker.h"
#include "evaluator/target/input_values.h"

namespace eok::evaluator {

std::string inputs_at(const Task& task, const PlannedCase& pc, const ArgSpec& output, int64_t index) {
  if (index < 0) return "";
  std::string out;
  for (size_t ai = 0; ai < task.args.size(); ++ai) {
    const ArgSpec& a = task.args[ai];
    if (!a.is_buffer || a.access == Access::out || a.len != output.len) continue;
    const PlacedBuffer* placed = nullptr;
    for (const auto& b : pc.buffers) {
      if (b.arg == ai) placed = &b;
    }
    if (!placed || static_cast<uint64_t>(index) >= placed->count) continue;
    const eok_input_spec spec = {static_cast<int>(a.type),
                                 static_cast<int>(a.dist),
                                 eval_dist_bound(a.lo, pc.sizes),
                                 eval_dist_bound(a.hi, pc.sizes),
                                 a.specials,
                                 placed->count};
    const size_t es = elem_size(a.type);
    std::vector<unsigned char> data(placed->count * es);
    if (eok_fill_input(&spec, data.data(), eok_input_seed(pc.seed, static_cast<int>(ai)), pc.timed || pc.warmup) != 0)
      continue;
    char value[64];
    const double v =
        element_value(a.type, reinterpret_cast<const char*>(data.data() + static_cast<size_t>(index) * es));
    std::snprintf(value, sizeof value, elem_is_float(a.type) ? "%.9g" : "%.0f", v);
    out += (out.empty() ? "" : ", ") + a.name + "[" + std::to_string(index) + "] = " + value;
  }
  return out;
}

}  // namespace eok::evaluator
