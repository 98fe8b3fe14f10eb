#include "rag/vector_index.h"

#include <faiss/IndexFlat.h>
#include <faiss/IndexHNSW.h>
#include <faiss/impl/FaissException.h>
#include <faiss/index_io.h>

#include <cmath>

#include "src/common/error.h"

namespace eok::rag {

namespace fs = std::filesystem;

namespace {

void normalise(std::vector<float>& v) {
  double n = 0;
  for (float x : v) n += static_cast<double>(x) * x;
  if (n <= 0) return;
  const float inv = static_cast<float>(1.0 / std::sqrt(n));
  for (float& x : v) x *= inv;
}

}  // namespace

VectorIndex VectorIndex::build(std::vector<std::vector<float>> rows, size_t exact_limit) {
  const size_t d = rows.empty() ? 1 : rows[0].size();
  std::vector<float> flat;
  flat.reserve(rows.size() * d);
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].size() != d) {
      throw Error("vector " + std::to_string(i) + " has " + std::to_string(rows[i].size()) + " values, vector 0 has " +
                  std::to_string(d) + ": vectors of different embedders cannot share an index");
    }
    normalise(rows[i]);
    flat.insert(flat.end(), rows[i].begin(), rows[i].end());
  }
  VectorIndex ix;
  if (rows.size() > exact_limit) {
    // 32 links per node and a wide search beam: recall close to exact on text embeddings.
    auto hnsw = std::make_shared<faiss::IndexHNSWFlat>(static_cast<int>(d), 32, faiss::METRIC_INNER_PRODUCT);
    hnsw->hnsw.efConstruction = 80;
    hnsw->hnsw.efSearch = 128;
    ix.index_ = hnsw;
  } else {
    ix.index_ = std::make_shared<faiss::IndexFlatIP>(static_cast<faiss::Index::idx_t>(d));
  }
  if (!rows.empty()) ix.index_->add(static_cast<faiss::Index::idx_t>(rows.size()), flat.data());
  return ix;
}

VectorIndex VectorIndex::load(const fs::path& file) {
  if (!fs::exists(file)) throw NotFoundError("no vector index at " + file.string());
  VectorIndex ix;
  try {
    ix.index_.reset(faiss::read_index(file.c_str()));
  } catch (const faiss::FaissException& e) {
    throw CorruptDataError(file.string() + " is not a readable FAISS index (" + e.what() + "): build it again");
  }
  if (auto* hnsw = dynamic_cast<faiss::IndexHNSW*>(ix.index_.get())) hnsw->hnsw.efSearch = 128;
  return ix;
}

void VectorIndex::save(const fs::path& file) const {
  const fs::path tmp = file.string() + ".tmp";
  try {
    faiss::write_index(index_.get(), tmp.c_str());
  } catch (const faiss::FaissException& e) {
    throw Error("cannot write the vector index " + file.string() + ": " + e.what());
  }
  fs::rename(tmp, file);
}

std::vector<VectorHit> VectorIndex::search(std::vector<float> query, size_t k) const {
  if (query.size() != dim()) {
    throw Error("a query of " + std::to_string(query.size()) + " dimensions for an index of " + std::to_string(dim()) +
                ": embed queries with the index's own embedder");
  }
  normalise(query);
  k = std::min(k, size());
  std::vector<float> scores(k);
  std::vector<faiss::Index::idx_t> ids(k);
  if (k > 0) index_->search(1, query.data(), static_cast<faiss::Index::idx_t>(k), scores.data(), ids.data());
  std::vector<VectorHit> hits;
  for (size_t i = 0; i < k; ++i) {
    if (ids[i] >= 0) hits.push_back({static_cast<size_t>(ids[i]), scores[i]});
  }
  return hits;
}

size_t VectorIndex::size() const {
  return static_cast<size_t>(index_->ntotal);
}
size_t VectorIndex::dim() const {
  return static_cast<size_t>(index_->d);
}
std::string VectorIndex::kind() const {
  return dynamic_cast<faiss::IndexHNSW*>(index_.get()) ? "hnsw" : "exact";
}

}  // namespace eok::rag
