// The search's view of the configuration (keys declared in src/common/config_keys.cc).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "src/common/config.h"
#include "src/db/record_states.h"
#include "src/search/rag_mode.h"

namespace eok::search {

struct SearchSettings {
  // nullopt is auto (run_search resolves it: eok with an LLM and an idea pool, eoh with an LLM, else the
  // tuner); set once a run starts.
  std::optional<db::SearchMethod> method;
  int iterations = 2, parallel = 2, population = 4, generations = 2, top_k = 8;
  int offspring = 1;  // children per EoH operator per generation
  uint64_t seed = 0;
  int eval_concurrency = 1;
  bool thought_softmax = true;
  bool idea_softmax = true;  // ideas by learned effectiveness (false: uniform, as the paper)
  double idea_temperature = 0.1;
  RagMode rag = RagMode::both;  // what retrieval puts into prompts (rag_mode.h)
  std::string rag_index = "default";
  double thought_temperature = 0.05, parent_temperature = 0.1, effectiveness_rate = 0.3;
  // How EoH draws parents: "rank" (EoH's reference implementation: scale-free weights by rank) or "softmax"
  // (over speedups, with parent_temperature: near-uniform for 1.00 vs 1.02, near-greedy for 1.0 vs 1.5).
  std::string parent_selection = "rank";
  double llm_temperature = 0.8;
  int llm_max_tokens = 4096;
  int tuner_max_evaluations = 48;

  // Throws ConfigError for out-of-range values (iterations < 1, unknown method ...).
  static SearchSettings from_config(const Config& config);

  // LLM proposals one run makes at most: iterations * parallel * (population + 5 * offspring * generations).
  int64_t planned_proposals() const;
};

}  // namespace eok::search
