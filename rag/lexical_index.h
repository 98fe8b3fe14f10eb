// BM25 over code-aware terms (rag::code_tokens): the lexical half of hybrid retrieval. It finds what
// embeddings blur: an exact mnemonic or intrinsic name (vfredosum, __riscv_vsetvlmax_e32m4) occurring in a
// few chunks of a large corpus.
//
// Contract: immutable after construction, thread-safe. Deterministic: ties go to the lower row.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace eok::rag {

struct LexicalHit {
  size_t row = 0;
  float score = 0;  // BM25
};

class LexicalIndex {
 public:
  // Standard BM25 parameters; k1 a little lower than usual because chunks repeat names in listings.
  explicit LexicalIndex(const std::vector<std::string>& texts, float k1 = 1.2f, float b = 0.75f);

  std::vector<LexicalHit> search(std::string_view query, size_t k) const;
  size_t size() const { return lengths_.size(); }

 private:
  struct Posting {
    uint32_t row;
    uint32_t tf;
  };
  std::unordered_map<std::string, std::vector<Posting>> postings_;
  std::vector<uint32_t> lengths_;
  double average_length_ = 0;
  float k1_, b_;
};

}  // namespace eok::rag
