#include "evaluator/eval_result.h"

#include "src/common/number_format.h"

namespace eok::evaluator {

namespace {

template <typename T>
nlohmann::json opt(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

}  // namespace

namespace {

nlohmann::json counters_json(const cost::MemoryCounters& m) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, value] : m.named()) j[name] = value;
  return j;
}

}  // namespace

nlohmann::json cost_json(const cost::CostReport& c) {
  nlohmann::json hot = nlohmann::json::array();
  for (const auto& b : c.hot_blocks) {
    char addr[32];
    std::snprintf(addr, sizeof addr, "0x%llx", static_cast<unsigned long long>(b.vaddr));
    hot.push_back({{"address", addr},
                   {"vtype", b.vtype},
                   {"executions", b.count},
                   {"cycles_per_execution", b.cycles_per_exec},
                   {"cycles", b.cycles},
                   {"instructions", b.disasm}});
  }
  return {{"compute_cycles", c.compute_cycles},
          {"load_stall_cycles", c.memory.stall_cycles},
          {"l2_cycles", c.memory.l2_cycles},
          {"dram_cycles", c.memory.dram_cycles},
          {"bound", c.bound},
          {"instructions", c.instructions},
          {"fallback_instructions", c.fallback_instructions},
          {"cycles_by_class", c.cycles_by_class},
          {"memory_traffic_bytes",
           {{"l2_read", c.memory.l2_read_bytes},
            {"l2_write", c.memory.l2_write_bytes},
            {"dram_read", c.memory.dram_read_bytes},
            {"dram_write", c.memory.dram_write_bytes}}},
          {"memory_counters", counters_json(c.counters)},
          {"hot_blocks", hot}};
}

std::string describe_cycles(const cost::CostReport& c) {
  return with_commas(c.cycles) + " modeled (compute " + with_commas(c.compute_cycles) + ", load stalls " +
         with_commas(c.memory.stall_cycles) + ", L2 " + with_commas(c.memory.l2_cycles) + ", DRAM " +
         with_commas(c.memory.dram_cycles) + ": " + c.bound + "-bound)";
}

nlohmann::json EvalResult::to_json() const {
  nlohmann::json mm = nlohmann::json::array();
  for (const auto& m : mismatches) {
    mm.push_back({{"case", m.case_index},
                  {"sizes", m.sizes},
                  {"output", m.arg},
                  {"index", m.index},
                  {"expected", m.expected},
                  {"got", m.got},
                  {"inputs", m.inputs}});
  }
  nlohmann::json j = {
      {"status", status_name(status)},
      {"message", message},
      {"task", task},
      {"board", board},
      {"kernel_hash", kernel_hash},
      {"seed", seed},
      {"cycles", opt(cycles)},
      {"baseline_cycles", opt(baseline_cycles)},
      {"timed_call_cycles", timed_call_cycles},
      {"speedup", opt(speedup)},
      {"evidence",
       {{"rule", rule.empty() ? nlohmann::json(nullptr) : nlohmann::json(rule)},
        {"compiler_output", compiler_output},
        {"mismatches", mm},
        {"run_log", run_log},
        {"tolerance_used", opt(tolerance_used)}}},
      {"roofline_cycles", opt(roofline_cycles)},
      {"sandbox", {{"seccomp", sandboxed}, {"network_isolated", network_isolated}}},
      {"timings_s",
       {{"compile", timings.compile},
        {"link", timings.link},
        {"run", timings.run},
        {"reference", timings.reference},
        {"model", timings.model},
        {"total", timings.total},
        {"eok_overhead", timings.overhead()}}},
  };
  j["profile"] = cost ? cost_json(*cost) : nlohmann::json(nullptr);
  if (modeled_cycles) j["modeled_cycles"] = *modeled_cycles;
  if (measurement) j["measurement"] = measurement->to_json();
  return j;
}

nlohmann::json BoardTiming::to_json() const {
  return {{"host", host},
          {"timer", timer},
          {"unit", unit},
          {"repeats", samples.size()},
          {"warmup", warmup},
          {"samples", samples},
          {"median", median},
          {"mad", mad},
          {"min", min},
          {"median_cycles", median_cycles},
          {"mad_cycles", mad_cycles},
          {"timer_overhead", timer_overhead},
          {"seccomp", seccomp},
          {"governor", governor},
          {"temperature_c", temperature_c ? nlohmann::json(*temperature_c) : nlohmann::json(nullptr)},
          {"notes", notes},
          {"seconds", seconds}};
}

}  // namespace eok::evaluator
