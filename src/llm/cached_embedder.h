// An on-disk cache in front of an Embedder, so that a rerun of `eok mine` (or one that resumes after a
// kill) embeds nothing twice: a model server is asked only for texts it has not embedded before.
//
// Layout: DIR/<first 2 hex digits>/<hash>.f32, one file per text: the vector as little-endian float32,
// written atomically. The hash covers `model_key` and the text, so vectors of different models never mix.
//
// Contract: thread-safe, safe across processes sharing DIR. A damaged entry (wrong size) is ignored and
// embedded again. Vectors come back in input order; the inner embedder sees only the misses, in one call.
#pragma once

#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

#include "src/llm/llm.h"

namespace eok::llm {

class CachedEmbedder : public Embedder {
 public:
  // `inner` must outlive this. `model_key` names what makes vectors comparable ("http://host/v1 Qwen3-Embedding-8B").
  CachedEmbedder(Embedder& inner, std::string model_key, std::filesystem::path directory);

  std::vector<std::vector<float>> embed(const std::vector<std::string>& texts) override;
  size_t dim() const override { return inner_.dim(); }
  std::string describe() const override { return inner_.describe(); }

  size_t hits() const { return hits_; }
  size_t misses() const { return misses_; }

 private:
  std::filesystem::path entry_path(const std::string& text) const;

  Embedder& inner_;
  const std::string model_key_;
  const std::filesystem::path directory_;
  std::atomic<size_t> hits_{0}, misses_{0};
};

}  // namespace eok::llm
