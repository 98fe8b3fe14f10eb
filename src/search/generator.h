// The Generator seam: proposes one kernel for an EoH operator applied to parent kernels.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "idea_pool/pool.h"
#include "src/search/evaluation_service.h"

namespace eok::search {

// EoH's prompt strategies, plus the initial application of a thought ("init") and plain EoH's first
// population ("i1").
constexpr const char* kOperators[] = {"E1", "E2", "M1", "M2", "M3"};

struct ProposalRequest {
  std::string op;                         // "init", "i1", "E1", "E2", "M1", "M2", "M3"
  std::vector<ScoredKernel> parents;      // one for init/i1/M*, two or more for E*
  const idea_pool::Idea* idea = nullptr;  // the search's idea (null for plain EoH)
  // init only: the sampled thought applied to the parent
  const idea_pool::Thought* thought = nullptr;
  std::string feedback;  // why the last attempt from this parent failed ("" if none)
  uint64_t seed = 0;     // sent with the request; part of its identity
};

struct GeneratedKernel {
  bool ok = false;
  std::string reason;     // why there is no kernel: the LLM failed, or the reply was unusable
  bool stop_run = false;  // nothing more can be generated in this run (budget spent, replay miss)
  std::string source, idea;
  int64_t llm_call_id = 0;  // the recorded LLM call (0: none)
  bool called = false;      // an LLM call was made or replayed (false when the budget stopped it)
  bool call_ok = false;     // the LLM answered (whatever the reply held)
  bool cache_hit = false;   // the answer came from the response cache or the run's record
};

// Contract: propose() never throws for anything the LLM does; every call it makes is recorded in the
// kernel database with its outcome. Thread-safe.
class Generator {
 public:
  virtual ~Generator() = default;
  virtual GeneratedKernel propose(const ProposalRequest& req) = 0;
  // Links the recorded call to the kernel its reply became.
  virtual void attach(int64_t llm_call_id, int64_t kernel_id) = 0;
};

}  // namespace eok::search
