// The well-known optimisation principles the two-level abstraction starts from: the first actionable
// thoughts, before any commit is seen (EoK section "idea pool": 21 initial principles). Commits close to
// one of them join it; the rest form new thoughts.
#pragma once

#include <string>
#include <vector>

namespace eok::idea_pool {

struct Principle {
  std::string id;           // short and stable: "fused-multiply-add"
  std::string category;     // memory, parallelism, instructions, control-flow, data-layout, work
  std::string description;  // one actionable sentence, written to be embedded and shown to an LLM
};

// The 21 initial principles, in a fixed order (ids unique).
const std::vector<Principle>& initial_principles();

}  // namespace eok::idea_pool
