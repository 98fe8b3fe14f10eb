// The LLM-driven Generator: builds the operator's prompt (prompts/), asks retrieval for context, calls the
// LLM, parses the reply, and records the call.
#pragma once

#include <map>
#include <mutex>
#include <string>

#include "evaluator/board.h"
#include "evaluator/task.h"
#include "rag/retriever.h"
#include "src/db/kernel_db.h"
#include "src/llm/llm.h"
#include "src/search/generator.h"
#include "src/llm/prompt_library.h"
#include "src/search/settings.h"

namespace eok::search {

class LlmGenerator : public Generator {
 public:
  // `run_id`'s recorded calls are loaded: on a resumed run, a request already recorded is answered from
  // that record (a success from the response cache, a failure as recorded) and never sent again.
  LlmGenerator(llm::Llm& llm, const llm::PromptLibrary& prompts, rag::Retriever& retriever, db::KernelDb& db,
               const evaluator::Task& task, const evaluator::BoardProfile& board, std::string run_id,
               const SearchSettings& settings);

  GeneratedKernel propose(const ProposalRequest& req) override;
  void attach(int64_t llm_call_id, int64_t kernel_id) override;

  // The placeholders the prompts may use (checked when prompts load).
  static const std::vector<std::string>& placeholders();
  static const std::vector<std::string>& required_prompts();

 private:
  llm::ChatRequest build_request(const ProposalRequest& req, std::string* context) const;

  llm::Llm& llm_;
  const llm::PromptLibrary& prompts_;
  rag::Retriever& retriever_;
  db::KernelDb& db_;
  const evaluator::Task& task_;
  const evaluator::BoardProfile& board_;
  std::string run_id_;
  const SearchSettings& settings_;
  const std::string specification_;  // the task's ref.c, read once
  std::mutex mutex_;
  std::map<std::string, db::LlmCallRecord> recorded_;  // by request identity
};

// Identity of a request within a run: its messages, sampling parameters and seed.
std::string request_identity(const llm::ChatRequest& req);

}  // namespace eok::search
