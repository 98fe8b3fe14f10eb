// The retrieval index of a pool's example code: one entry per example of every thought (the thought, the
// commit's title and the diff), embedded and kept in a rag::VectorIndex, so that a search
// prompt (and `eok ideas --query`) can find the past changes closest to what it is about to write.
//
// Files, next to the pool file P.json: P.examples.faiss (the vectors), P.examples.json (what each row is,
// and which embedder made the vectors) and, for the offline embedder, P.examples.model (that embedder,
// fitted on the examples themselves so that code identifiers such as vfmacc are in its vocabulary).
//
// Contract: build() and load() give a ready index; search() is const and thread-safe. save() writes every
// file atomically. load() throws NotFoundError when the pool has no index (mined before it existed, or
// written by hand), CorruptDataError when a file is damaged or the files disagree.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "idea_pool/pool.h"
#include "rag/offline_embedder.h"
#include "rag/vector_index.h"
#include "src/llm/llm.h"

namespace eok::idea_pool {

struct ExampleEntry {
  std::string thought, commit, file;
};

struct ExampleHit {
  ExampleEntry entry;
  float score = 0;  // cosine similarity to the query
};

class ExampleIndex {
 public:
  // Embeds every example of `pool` with the offline embedder fitted on them (`offline` options), or with
  // `embedder` when it is given (an HTTP model; `embedder_name` records which). Throws eok::Error when the
  // pool holds no example code.
  static ExampleIndex build(const IdeaPool& pool, llm::Embedder* embedder = nullptr,
                            const std::string& embedder_name = "", const rag::OfflineEmbedderOptions& offline = {});
  static ExampleIndex load(const std::filesystem::path& pool_file);
  void save(const std::filesystem::path& pool_file) const;

  // The text an example is embedded as.
  static std::string example_text(const Thought& t, const CodeExample& e);

  // The k entries closest to `text` (embedded with the index's own offline model, or with `embedder` for
  // an index built with an HTTP model: pass the same model, or a ConfigError says which one is needed).
  std::vector<ExampleHit> search(const std::string& text, size_t k, llm::Embedder* embedder = nullptr) const;

  size_t size() const { return entries_.size(); }
  const std::vector<ExampleEntry>& entries() const { return entries_; }
  const std::string& embedder_name() const { return embedder_name_; }

  static std::filesystem::path vectors_path(const std::filesystem::path& pool_file);
  static std::filesystem::path entries_path(const std::filesystem::path& pool_file);
  static std::filesystem::path model_path(const std::filesystem::path& pool_file);

 private:
  std::vector<ExampleEntry> entries_;
  std::string embedder_name_;                      // the offline model's name, or the HTTP model's
  std::shared_ptr<rag::OfflineEmbedder> offline_;  // null for an HTTP-built index
  std::shared_ptr<rag::VectorIndex> index_;
};

}  // namespace eok::idea_pool
