#include "src/db/record_json.h"

#include <nlohmann/json.hpp>

namespace eok::db {

namespace {

using nlohmann::json;

// Stored JSON text as a value; text that does not parse (an older writer's bug) stays a string, so that an
// export never fails on one bad field.
json embedded(const std::string& text) {
  if (text.empty()) return nullptr;
  json parsed = json::parse(text, nullptr, /*allow_exceptions=*/false);
  return parsed.is_discarded() ? json(text) : parsed;
}

template <class T>
json optional_value(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

}  // namespace

void to_json(json& j, const RunRecord& r) {
  j = json{{"id", r.id},
           {"task", r.task},
           {"board", r.board},
           {"state", r.state},
           {"method", r.method},
           {"config", embedded(r.config_json)},
           {"seed", r.seed},
           {"toolchain", r.toolchain},
           {"model", r.model},
           {"started_at", r.started_at},
           {"updated_at", r.updated_at},
           {"summary", embedded(r.summary_json)},
           {"progress", embedded(r.progress_json)}};
}

void to_json(json& j, const KernelRecord& k) {
  j = json{{"id", k.id},
           {"run_id", k.run_id},
           {"task", k.task},
           {"board", k.board},
           {"hash", k.hash},
           {"source", k.source},
           {"description", k.description},
           {"parents", k.parents},
           {"op", k.op},
           {"idea_id", k.idea_id},
           {"thought_id", k.thought_id},
           {"iteration", k.iteration},
           {"search", k.search},
           {"generation", k.generation},
           {"created_at", k.created_at}};
}

void to_json(json& j, const EvaluationRecord& e) {
  j = json{{"kernel_id", e.kernel_id},
           {"status", e.status},
           {"message", e.message},
           {"evidence", embedded(e.evidence_json)},
           {"cycles", optional_value(e.cycles)},
           {"baseline_cycles", optional_value(e.baseline_cycles)},
           {"speedup", optional_value(e.speedup)},
           {"seed", e.seed},
           {"seconds", e.seconds},
           {"setup", e.setup},
           {"created_at", e.created_at}};
}

void to_json(json& j, const LlmCallRecord& c) {
  j = json{{"id", c.id},
           {"run_id", c.run_id},
           {"kernel_id", optional_value(c.kernel_id)},
           {"op", c.op},
           {"request_hash", c.request_hash},
           {"model", c.model},
           {"ok", c.ok},
           {"error", c.error},
           {"prompt_tokens", c.prompt_tokens},
           {"completion_tokens", c.completion_tokens},
           {"latency_seconds", c.latency_seconds},
           {"cost", c.cost},
           {"cache_hit", c.cache_hit},
           {"attempts", c.attempts},
           {"retrieved_context", c.retrieved_context},
           {"created_at", c.created_at}};
}

void to_json(json& j, const IdeaUpdateRecord& u) {
  j = json{{"run_id", u.run_id}, {"iteration", u.iteration}, {"idea_id", u.idea_id},      {"before", u.before},
           {"after", u.after},   {"samples", u.samples},     {"created_at", u.created_at}};
}

void to_json(json& j, const KernelRow& row) {
  j = row.kernel;
  j["evaluation"] = row.evaluation ? json(*row.evaluation) : json(nullptr);
}

void to_json(json& j, const LeaderboardRow& row) {
  json counts = json::object();
  for (const auto& [status, count] : row.counts_by_status) counts[status_name(status)] = count;
  j = json{{"task", row.task},
           {"board", row.board},
           {"best_kernel_id", row.best_kernel_id},
           {"best_run_id", row.best_run_id},
           {"best_cycles", row.best_cycles},
           {"best_speedup", row.best_speedup},
           {"baseline_cycles", row.baseline_cycles},
           {"counts_by_status", counts}};
}

void to_json(json& j, const RunTotals& t) {
  j = json{{"kernels", t.kernels},
           {"evaluations", t.evaluations},
           {"llm_calls", t.llm_calls},
           {"llm_failures", t.llm_failures},
           {"cache_hits", t.cache_hits},
           {"prompt_tokens", t.prompt_tokens},
           {"completion_tokens", t.completion_tokens},
           {"cost", t.cost},
           {"unusable_replies", t.unusable_replies},
           {"repeats", t.repeats}};
}

}  // namespace eok::db
