// Distillation: one sentence for a group of commits (an actionable thought) or for a group of thoughts
// (the general principle of an idea). LlmDistiller asks the LLM (prompts/distill_thought.txt and
// distill_idea.txt); ExtractiveDistiller needs no LLM and quotes the group instead.
//
// Contract: thought() and principle() return one non-empty line (at most a few hundred characters) for a
// non-empty group, never throw for anything an LLM or the text does, and are deterministic for the same
// input. They are thread-safe: the miner distils several groups at once. An empty group throws eok::Error
// (a caller bug).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "idea_pool/mined_commit.h"
#include "rag/offline_embedder.h"
#include "src/llm/llm.h"
#include "src/llm/prompt_library.h"

namespace eok::idea_pool {

class Distiller {
 public:
  virtual ~Distiller() = default;
  // One concise, actionable optimisation that the commits of `group` have in common.
  virtual std::string thought(const std::vector<const MinedCommit*>& group) = 0;
  // The general principle behind `thoughts` (descriptions of thoughts of one idea).
  virtual std::string principle(const std::vector<std::string>& thoughts) = 0;
  // "extractive", "llm (vLLM at ..., model ...)": for the pool's provenance.
  virtual std::string describe() const = 0;
};

// Every extractive sentence starts with this, so a reader (and the search's prompts) can tell a quote
// from a distilled statement.
inline constexpr const char* kExtractivePrefix = "Extractive: ";

struct ExtractiveOptions {
  size_t key_terms = 3;  // distinctive terms named in a sentence
  size_t max_title_chars = 140;
  size_t max_chars = 300;
};

// Distils without an LLM: the group's representative text (closest to the group's TF-IDF centroid) and its
// distinctive terms (frequent in the group, rare in the corpus), e.g.
//   Extractive: Optimize sgemv_t with strided segment loads (12 commits: vlse, gemv, segment).
class ExtractiveDistiller : public Distiller {
 public:
  // `corpus`: the texts of every commit being mined; it sets how rare each term is.
  explicit ExtractiveDistiller(const std::vector<std::string>& corpus, ExtractiveOptions options = {});

  std::string thought(const std::vector<const MinedCommit*>& group) override;
  std::string principle(const std::vector<std::string>& thoughts) override;
  std::string describe() const override { return "extractive"; }

  // Indices of `texts`, most representative first (cosine to their TF-IDF centroid; ties: lower index).
  std::vector<size_t> representatives(const std::vector<std::string>& texts) const;
  // The `n` most distinctive terms of `texts` against the corpus, as the words the texts use.
  std::vector<std::string> distinctive_terms(const std::vector<std::string>& texts, size_t n) const;

 private:
  rag::TfidfModel tfidf_;  // unigrams of the corpus, every term kept
  ExtractiveOptions options_;
};

struct LlmDistillerOptions {
  double temperature = 0.2;
  int max_tokens = 200;
  uint64_t seed = 1;
  size_t max_commits = 12;         // commits shown per group, the most representative first
  size_t max_message_chars = 600;  // of each commit's message
  size_t max_diff_chars = 1200;    // of the most representative commit's diff; 0 shows none
  size_t max_thoughts = 30;        // thoughts shown per idea
  size_t max_reply_chars = 320;    // the sentence kept from a reply is cut (at a word) to this
};

// Distils with the LLM. A reply is parsed defensively: code fences, labels ("Thought:"), bullets and quotes
// are removed, and its first sentence is kept. A failed call or an unusable reply falls back to the
// extractive sentence; counters() says how often and why.
class LlmDistiller : public Distiller {
 public:
  // `prompts` must hold distill_thought and distill_idea (required_prompts()); `fallback` serves failures.
  // All three must outlive the distiller.
  LlmDistiller(llm::Llm& llm, const llm::PromptLibrary& prompts, ExtractiveDistiller& fallback,
               LlmDistillerOptions options = {});

  std::string thought(const std::vector<const MinedCommit*>& group) override;
  std::string principle(const std::vector<std::string>& thoughts) override;
  std::string describe() const override;

  struct Counters {
    size_t calls = 0;                       // chat requests made
    size_t distilled = 0;                   // replies used
    size_t fallbacks = 0;                   // extractive sentences given instead
    std::map<std::string, size_t> reasons;  // fallback reason -> count ("timeout", "empty reply" ...)
  };
  Counters counters() const;

  static const std::vector<std::string>& required_prompts();  // distill_thought, distill_idea
  static const std::vector<std::string>& placeholders();      // the placeholders those prompts use

 private:
  std::string ask(const std::string& prompt, const std::string& purpose, const std::string& fallback);

  llm::Llm& llm_;
  const llm::PromptLibrary& prompts_;
  ExtractiveDistiller& fallback_;
  LlmDistillerOptions options_;
  mutable std::mutex mutex_;
  Counters counters_;
};

// The first usable sentence of an LLM reply (see LlmDistiller), at most `max_chars`; "" when there is none.
std::string first_sentence(const std::string& reply, size_t max_chars);

}  // namespace eok::idea_pool
