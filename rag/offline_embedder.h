// The built-in offline embedder: TF-IDF over code-aware terms, reduced by a truncated SVD (latent semantic
// analysis). It needs no model download and no network: it is fitted on the corpus it serves (a library's
// commit messages, a document collection), saved next to what it embedded, and loaded again so that later
// queries land in the same space.
//
// Contract: fit() and load() give a ready embedder; embed() is const in effect and thread-safe, returns
// dim() floats per text, l2-normalised, and never throws for ordinary text. A text with no term of the
// vocabulary (empty, or only unseen words) embeds to the zero vector: cosine 0 to everything. Everything is
// deterministic: the same corpus and options give the same model, bit for bit, on the same machine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "src/llm/llm.h"

namespace eok::rag {

// ---- terms ------------------------------------------------------------------------------------------

struct TokenizerOptions {
  bool bigrams = true;  // adjacent terms of one clause as extra terms ("strid load")
};

// The terms of `text`, in order: words and identifiers split on '_', '.' and camelCase, lower-cased and
// lightly stemmed (optimise, optimized and optimization all become "optimiz"); numbers, hex hashes, URLs,
// stop words and commit trailers (Signed-off-by: ...) dropped. RVV mnemonics and intrinsics are kept
// whole as extra terms next to their stem: "__riscv_vfmacc_vf_f32m8" gives "vfmacc", "vfmacc_vf_f32m8";
// "vle32.v" gives "vle", "vle32", "vle32_v".
std::vector<std::string> code_tokens(std::string_view text, const TokenizerOptions& options = {});

// The unigram terms of `text` (no bigrams, no whole intrinsic names) with the lower-cased word each came
// from, so that a caller can show "vectorized" rather than the term "vectoriz".
struct Word {
  std::string term, surface;
};
std::vector<Word> code_words(std::string_view text);

// ---- TF-IDF ------------------------------------------------------------------------------------------

struct SparseVector {
  std::vector<uint32_t> index;  // ascending term indices
  std::vector<float> value;
};

// A vocabulary with inverse document frequencies, and TF-IDF vectors over it: weight = (1 + ln tf) * idf,
// idf = ln((1 + N) / (1 + df)) + 1, the vector l2-normalised. Immutable once built; thread-safe.
class TfidfModel {
 public:
  TfidfModel() = default;
  // Rebuilds a model from its parts (what fit() produced, read back from a file).
  TfidfModel(std::vector<std::string> terms, std::vector<float> idf, size_t documents);

  // Terms of `docs` that occur in at least `min_df` documents; when more than `max_terms` qualify, the
  // most frequent ones (ties: alphabetical). The vocabulary is sorted alphabetically.
  static TfidfModel fit(const std::vector<std::vector<std::string>>& docs, size_t min_df, size_t max_terms);

  // Terms outside the vocabulary are ignored; no known term gives an empty vector.
  SparseVector transform(const std::vector<std::string>& terms) const;

  std::optional<uint32_t> find(std::string_view term) const;
  // The idf of `term`, or that of a term seen in no document when it is not in the vocabulary.
  float idf_of(std::string_view term) const;

  size_t size() const { return terms_.size(); }
  size_t documents() const { return documents_; }
  const std::vector<std::string>& terms() const { return terms_; }
  const std::vector<float>& idf() const { return idf_; }

 private:
  std::vector<std::string> terms_;
  std::vector<float> idf_;
  size_t documents_ = 0;
  std::unordered_map<std::string, uint32_t> index_;
};

// ---- the embedder ------------------------------------------------------------------------------------

struct OfflineEmbedderOptions {
  size_t dim = 128;  // at most; see texts_per_dim
  // At most one dimension per this many texts (or terms, when fewer): 61 commit messages on 6 themes get
  // 6 dimensions and their themes come out clean; with 61 dimensions each text keeps its own direction.
  size_t texts_per_dim = 10;
  size_t min_df = 2;         // a term must occur in this many texts; corpora under 50 texts use 1
  size_t max_terms = 50000;  // bounds the model's size on very large corpora
  bool bigrams = true;
  uint64_t seed = 20240601;     // the random projection of the randomized SVD
  size_t oversample = 16;       // extra random directions of the range finder (Halko et al.)
  size_t power_iterations = 3;  // sharpen the spectrum: better components for slowly decaying spectra
};

class OfflineEmbedder : public llm::Embedder {
 public:
  // Fits the vocabulary, the idf and the SVD on `corpus`. Throws eok::Error when the corpus has no usable
  // term at all (say which texts were given: empty, or only numbers and stop words).
  static OfflineEmbedder fit(const std::vector<std::string>& corpus, const OfflineEmbedderOptions& options = {});

  // Reads a model written by save(). Throws NotFoundError when `file` is missing, CorruptDataError when it
  // is damaged or of another format (the message says to fit it again).
  static OfflineEmbedder load(const std::filesystem::path& file);

  // Writes the model (binary: a JSON header with the vocabulary and idf, then the components as float32,
  // with a checksum) through a temporary file, so a reader never sees half a model.
  void save(const std::filesystem::path& file) const;

  std::vector<std::vector<float>> embed(const std::vector<std::string>& texts) override;
  size_t dim() const override { return dim_; }
  // "offline-tfidf-svd-128 (12,345 terms, fitted on 8,000 texts)"
  std::string describe() const override;

  // "offline-tfidf-svd-128": the model's kind, for provenance fields.
  std::string name() const;
  // A hash of the whole model: vectors from models with different fingerprints are not comparable.
  const std::string& fingerprint() const { return fingerprint_; }

  // One text, without the vector-of-vectors wrapping.
  std::vector<float> embed_one(std::string_view text) const;

  const TfidfModel& tfidf() const { return tfidf_; }
  const TokenizerOptions& tokenizer() const { return tokenizer_; }
  const std::vector<float>& singular_values() const { return singular_values_; }

 private:
  OfflineEmbedder() = default;
  void compute_fingerprint();

  TokenizerOptions tokenizer_;
  TfidfModel tfidf_;
  size_t dim_ = 0;
  std::vector<float> components_;  // terms x dim_, row-major: term j's coordinates in the latent space
  std::vector<float> singular_values_;
  uint64_t seed_ = 0;
  std::string fingerprint_;
};

}  // namespace eok::rag
