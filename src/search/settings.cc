#include "src/search/settings.h"

#include "src/search/rag_mode.h"

#include <algorithm>
#include <thread>

#include "src/common/error.h"

namespace eok::search {

namespace {
int at_least(const Config& c, const std::string& key, int64_t min) {
  const int64_t v = c.integer(key);
  if (v < min)
    throw ConfigError(key + " must be at least " + std::to_string(min) + " (it is " + std::to_string(v) + ", from " +
                      c.origin(key) + ")");
  return static_cast<int>(v);
}
}  // namespace

SearchSettings SearchSettings::from_config(const Config& c) {
  SearchSettings s;
  const std::string method = c.str("search.method");
  if (method != "auto") {
    s.method = parse_name<db::SearchMethod>(method);
    if (!s.method) throw ConfigError("search.method must be auto, eok, eoh or tuner (it is '" + method + "')");
  }
  s.iterations = at_least(c, "search.iterations", 1);
  s.parallel = at_least(c, "search.parallel", 1);
  s.population = at_least(c, "search.population", 1);
  s.generations = at_least(c, "search.generations", 0);
  s.offspring = at_least(c, "search.offspring", 1);
  s.top_k = at_least(c, "search.top_k", 1);
  s.seed = static_cast<uint64_t>(c.integer("search.seed"));
  const int64_t ec = c.integer("search.eval_concurrency");
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  s.eval_concurrency = ec > 0 ? static_cast<int>(ec) : std::max(1, cores / 2);
  const std::string sampling = c.str("search.thought_sampling");
  if (sampling != "softmax" && sampling != "uniform")
    throw ConfigError("search.thought_sampling must be softmax or uniform");
  s.thought_softmax = sampling == "softmax";
  const std::string idea_sampling = c.str("search.idea_sampling");
  if (idea_sampling != "effectiveness" && idea_sampling != "uniform") {
    throw ConfigError("search.idea_sampling must be effectiveness or uniform (the paper's), not '" + idea_sampling +
                      "'");
  }
  s.idea_softmax = idea_sampling == "effectiveness";
  s.idea_temperature = c.number("search.idea_temperature");
  s.rag = parse_rag_mode(c.str("search.rag"));
  s.rag_index = c.str("search.rag_index");
  s.thought_temperature = c.number("search.thought_temperature");
  s.parent_temperature = c.number("search.parent_temperature");
  s.parent_selection = c.str("search.parent_selection");
  if (s.parent_selection != "rank" && s.parent_selection != "softmax") {
    throw ConfigError("search.parent_selection must be rank (EoH's) or softmax, not '" + s.parent_selection + "'");
  }
  s.effectiveness_rate = c.number("search.effectiveness_rate");
  if (s.effectiveness_rate < 0 || s.effectiveness_rate > 1)
    throw ConfigError("search.effectiveness_rate must be in [0, 1]");
  s.llm_temperature = c.number("llm.temperature");
  s.llm_max_tokens = at_least(c, "llm.max_tokens", 16);
  s.tuner_max_evaluations = at_least(c, "tuner.max_evaluations", 1);
  return s;
}

int64_t SearchSettings::planned_proposals() const {
  return int64_t{iterations} * parallel * (population + int64_t{5} * offspring * generations);
}

}  // namespace eok::search
