#include "evaluator/eval_result.h"

namespace eok::evaluator {

const char* status_name(EvalStatus s) {
  switch (s) {
    case EvalStatus::ok: return "ok";
    case EvalStatus::compile_error: return "compile_error";
    case EvalStatus::rejected: return "rejected";
    case EvalStatus::runtime_error: return "runtime_error";
    case EvalStatus::wrong_answer: return "wrong_answer";
    case EvalStatus::timeout: return "timeout";
    case EvalStatus::infra_error: return "infra_error";
  }
  return "infra_error";
}

namespace {

template <typename T>
nlohmann::json opt(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

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
          {"memory_cycles", c.memory.cycles},
          {"bound", c.bound},
          {"instructions", c.instructions},
          {"fallback_instructions", c.fallback_instructions},
          {"cycles_by_class", c.cycles_by_class},
          {"memory_traffic_bytes",
           {{"l2_fill", c.memory.l2_fill_bytes},
            {"l2_writeback", c.memory.l2_writeback_bytes},
            {"dram_fill", c.memory.dram_fill_bytes},
            {"dram_writeback", c.memory.dram_writeback_bytes}}},
          {"hot_blocks", hot}};
}

}  // namespace

nlohmann::json EvalResult::to_json() const {
  nlohmann::json mm = nlohmann::json::array();
  for (const auto& m : mismatches) {
    mm.push_back({{"case", m.case_index}, {"sizes", m.sizes}, {"output", m.arg}, {"index", m.index},
                  {"expected", m.expected}, {"got", m.got}});
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
      {"speedup", opt(speedup)},
      {"evidence",
       {{"rule", rule.empty() ? nlohmann::json(nullptr) : nlohmann::json(rule)},
        {"compiler_output", compiler_output},
        {"mismatches", mm},
        {"run_log", run_log}}},
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
  return j;
}

}  // namespace eok::evaluator
