// A document corpus made searchable: chunks (chunker.h) of every document under the given folders, embedded
// by the offline embedder fitted on them, in a VectorIndex, with a BM25 index beside it for exact names.
// Persisted in one folder (the workspace's rag/<name>/):
//   manifest.json  schema, inputs, per source its content hash and chunk count, embedder, index kind
//   chunks.json    every chunk: source, section, line, text
//   vectors.f32    the chunk vectors, row after row (float32), so an update embeds only what changed
//   embedder.model the offline embedder (offline_embedder.h)
//   vectors.faiss  the FAISS index over those vectors
//
// Contract: build() updates an existing index incrementally: unchanged files (same content hash) keep
// their chunks and vectors; changed and new files are chunked and embedded with the existing model while
// they are a small part of the corpus, else the model is fitted again and everything re-embedded. Every
// file is written atomically, the manifest last, so an interrupted build leaves the previous index usable.
// load() throws NotFoundError when no index was built there (saying how to build one), CorruptDataError
// when the files disagree. query() is const and thread-safe.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rag/chunker.h"
#include "rag/lexical_index.h"
#include "rag/offline_embedder.h"
#include "rag/vector_index.h"

namespace eok::rag {

struct DocIndexOptions {
  ChunkOptions chunk;
  OfflineEmbedderOptions embedder;
  size_t exact_limit = VectorIndex::kDefaultExactLimit;
  double refit_fraction = 0.2;  // more new chunks than this share of the corpus: fit the embedder again
  bool rebuild = false;         // ignore what was built before
  std::function<void(const std::string& stage, size_t done, size_t total)> progress = {};
};

struct DocBuildReport {
  size_t files = 0, files_reused = 0, files_chunked = 0, files_skipped = 0, files_removed = 0;
  size_t chunks = 0, chunks_embedded = 0;
  bool refitted = false;
  std::string embedder, index_kind;
  std::vector<std::string> skipped;  // "path: empty or binary", "path: <why it cannot be read>"
  double seconds = 0;
};

struct DocHit {
  Chunk chunk;
  float score = 0;          // the fused score: reciprocal-rank fusion of the two rankings
  float vector_score = 0;   // cosine similarity (0 when the vector ranking did not reach it)
  float lexical_score = 0;  // BM25 (0 when no query term occurs in it)
};

class DocIndex {
 public:
  // Indexes the documents under `inputs` (folders or single files) into `dir`. A source is named by the
  // input's folder name and the path below it ("rag-corpus/riscv-v-spec/v-spec.adoc"). Throws NotFoundError
  // for a missing input, Error when no input holds a supported document.
  static DocBuildReport build(const std::vector<std::filesystem::path>& inputs, const std::filesystem::path& dir,
                              const DocIndexOptions& options = {});
  static DocIndex load(const std::filesystem::path& dir);
  static bool exists(const std::filesystem::path& dir);
  // The inputs the index in `dir` was last built from (absolute paths); empty when there is none or its
  // manifest cannot be read.
  static std::vector<std::filesystem::path> indexed_inputs(const std::filesystem::path& dir);

  // The k chunks best matching `text`: vector and lexical rankings fused, at most two of one section. Short
  // queries (one or two words, typically a mnemonic or intrinsic name) lean on the lexical ranking.
  std::vector<DocHit> query(const std::string& text, size_t k) const;

  const std::vector<Chunk>& chunks() const { return *chunks_; }
  const std::string& embedder_name() const { return embedder_name_; }
  std::string index_kind() const { return vectors_->kind(); }

 private:
  std::shared_ptr<const std::vector<Chunk>> chunks_;
  std::shared_ptr<const OfflineEmbedder> embedder_;
  std::shared_ptr<const VectorIndex> vectors_;
  std::shared_ptr<const LexicalIndex> lexical_;
  std::string embedder_name_;
};

// The text a chunk is embedded and matched as: its section path, then its text.
std::string chunk_text_for_index(const Chunk& c);

}  // namespace eok::rag
