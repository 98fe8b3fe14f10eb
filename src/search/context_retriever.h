// What a search prompt is shown beyond the task and its parents (the paper's RAG, Table 5): passages of
// RISC-V reference documents (rag/doc_index.h) and example code of the idea pool (idea_pool/
// example_index.h), retrieved with the operator's intent, the search's thought, the parents' descriptions
// and a few intrinsics their code uses. Example code (the query's own thought examples first, then the
// index's hits, RVV C before assembly, cleaned by idea_pool/example_code.h) gets at most
// kCodeSharePercent of the budget when documents are available; documents get the rest; whole passages
// are preferred to cut ones.
//
// Contract: retrieve() never throws for a query, stays within the token budget (4 characters a token),
// and is thread-safe. describe() says what it draws from, for the run log.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "idea_pool/example_index.h"
#include "idea_pool/pool.h"
#include "rag/doc_index.h"
#include "rag/retriever.h"
#include "src/search/rag_mode.h"

namespace eok::search {

class ContextRetriever : public rag::Retriever {
 public:
  static constexpr size_t kCodeSharePercent = 40;

  // Either source may be absent (no index built, a pool without example index): the other one serves.
  // `pool` (may be null) must outlive this; it gives the code of the examples the index names.
  ContextRetriever(std::optional<rag::DocIndex> docs, std::optional<idea_pool::ExampleIndex> code,
                   const idea_pool::IdeaPool* pool);

  std::vector<rag::Retrieved> retrieve(const rag::RetrievalQuery& query, size_t token_budget) override;
  std::string describe() const override;

  // The retrieval text for a query: the operator's intent, the parents' descriptions, their intrinsics.
  static std::string query_text(const rag::RetrievalQuery& query);

 private:
  std::optional<rag::DocIndex> docs_;
  std::optional<idea_pool::ExampleIndex> code_;
  const idea_pool::IdeaPool* pool_;
};

}  // namespace eok::search
