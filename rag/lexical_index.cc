#include "rag/lexical_index.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "rag/offline_embedder.h"

namespace eok::rag {

namespace {

// Unigrams and whole intrinsic names; bigrams would double the index for little gain in recall.
std::vector<std::string> terms_of(std::string_view text) {
  return code_tokens(text, {.bigrams = false});
}

}  // namespace

LexicalIndex::LexicalIndex(const std::vector<std::string>& texts, float k1, float b) : k1_(k1), b_(b) {
  lengths_.reserve(texts.size());
  double total = 0;
  for (uint32_t row = 0; row < texts.size(); ++row) {
    std::map<std::string, uint32_t> tf;
    const auto terms = terms_of(texts[row]);
    for (const auto& t : terms) ++tf[t];
    for (const auto& [term, n] : tf) postings_[term].push_back({row, n});
    lengths_.push_back(static_cast<uint32_t>(terms.size()));
    total += static_cast<double>(terms.size());
  }
  average_length_ = texts.empty() ? 1 : std::max(1.0, total / static_cast<double>(texts.size()));
}

std::vector<LexicalHit> LexicalIndex::search(std::string_view query, size_t k) const {
  std::set<std::string> terms;
  for (auto& t : terms_of(query)) terms.insert(std::move(t));
  std::unordered_map<uint32_t, float> score;
  const double n = static_cast<double>(lengths_.size());
  for (const auto& term : terms) {
    auto it = postings_.find(term);
    if (it == postings_.end()) continue;
    const double df = static_cast<double>(it->second.size());
    const double idf = std::log(1.0 + (n - df + 0.5) / (df + 0.5));
    for (const Posting& p : it->second) {
      const double norm = k1_ * (1.0 - b_ + b_ * lengths_[p.row] / average_length_);
      score[p.row] += static_cast<float>(idf * (p.tf * (k1_ + 1.0)) / (p.tf + norm));
    }
  }
  std::vector<LexicalHit> hits;
  hits.reserve(score.size());
  for (const auto& [row, s] : score) hits.push_back({row, s});
  k = std::min(k, hits.size());
  std::partial_sort(
      hits.begin(), hits.begin() + static_cast<std::ptrdiff_t>(k), hits.end(),
      [](const LexicalHit& a, const LexicalHit& b) { return a.score != b.score ? a.score > b.score : a.row < b.row; });
  hits.resize(k);
  return hits;
}

}  // namespace eok::rag
