// The Retriever seam: context for a search prompt, from RISC-V reference documents and the example code
// of the sampled thoughts (src/search/context_retriever.h is the implementation; NoRetriever retrieves
// nothing, and the search logs it).
#pragma once

#include <string>
#include <vector>

namespace eok::rag {

struct RetrievalQuery {
  std::string strategy;                       // "init", "E1", "E2", "M1", "M2", "M3"
  std::vector<std::string> descriptions;      // the parent kernels' ideas
  std::vector<std::string> code;              // the parent kernels' sources
  std::string thought;                        // the search's idea or thought, in words ("" for plain EoH)
  std::vector<std::string> thought_examples;  // example changes of the search's thoughts, ready to show
};

struct Retrieved {
  std::string text;    // what goes into the prompt ("" when nothing)
  std::string source;  // where it came from, for the record
};

// Contract: retrieve() returns context within `token_budget` (approximate tokens) and never throws for
// an empty index; it is thread-safe.
class Retriever {
 public:
  virtual ~Retriever() = default;
  virtual std::vector<Retrieved> retrieve(const RetrievalQuery& query, size_t token_budget) = 0;
  virtual std::string describe() const = 0;
};

class NoRetriever : public Retriever {
 public:
  std::vector<Retrieved> retrieve(const RetrievalQuery&, size_t) override { return {}; }
  std::string describe() const override { return "no retrieval (the RAG index is not built yet)"; }
};

}  // namespace eok::rag
