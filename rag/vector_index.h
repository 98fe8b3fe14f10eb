// The VectorIndex seam on FAISS: nearest neighbours by inner product over l2-normalised vectors (cosine).
// Exact (IndexFlatIP) for small corpora, where a scan is a few hundred microseconds and recall is perfect;
// HNSW above `exact_limit` vectors, where a scan would dominate a query.
//
// Contract: build() and load() give a ready index; search() is const and thread-safe. save() writes
// atomically. load() throws NotFoundError for a missing file, CorruptDataError for a damaged one.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace faiss {
struct Index;
}

namespace eok::rag {

struct VectorHit {
  size_t row = 0;
  float score = 0;  // inner product: cosine similarity for unit vectors
};

class VectorIndex {
 public:
  static constexpr size_t kDefaultExactLimit = 20000;

  // Rows must have equal length (throws eok::Error naming the row otherwise); they are l2-normalised here.
  static VectorIndex build(std::vector<std::vector<float>> rows, size_t exact_limit = kDefaultExactLimit);
  static VectorIndex load(const std::filesystem::path& file);
  void save(const std::filesystem::path& file) const;

  // The k best rows for `query` (normalised here), best first; fewer when the index is smaller.
  std::vector<VectorHit> search(std::vector<float> query, size_t k) const;

  size_t size() const;
  size_t dim() const;
  std::string kind() const;  // "exact" or "hnsw"

 private:
  std::shared_ptr<faiss::Index> index_;
};

}  // namespace eok::rag
