#include "idea_pool/example_index.h"

#include <nlohmann/json.hpp>

#include "idea_pool/clustering.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"

namespace eok::idea_pool {

namespace fs = std::filesystem;

namespace {

constexpr const char* kSchema = "eok-example-index/1";
constexpr size_t kMaxCodeChars = 3000;  // of a diff, embedded: the start of a change says what it is about

fs::path with_suffix(const fs::path& pool_file, const char* suffix) {
  fs::path p = pool_file;
  p.replace_extension(suffix);
  return p;
}

}  // namespace

fs::path ExampleIndex::vectors_path(const fs::path& pool_file) {
  return with_suffix(pool_file, ".examples.faiss");
}
fs::path ExampleIndex::entries_path(const fs::path& pool_file) {
  return with_suffix(pool_file, ".examples.json");
}
fs::path ExampleIndex::model_path(const fs::path& pool_file) {
  return with_suffix(pool_file, ".examples.model");
}

std::string ExampleIndex::example_text(const Thought& t, const CodeExample& e) {
  std::string title;
  for (const auto& c : t.commits) {
    if (c.sha == e.commit) title = c.title;
  }
  return t.description + "\n" + title + "\n" + e.file + "\n" + e.code.substr(0, kMaxCodeChars);
}

ExampleIndex ExampleIndex::build(const IdeaPool& pool, llm::Embedder* embedder, const std::string& embedder_name,
                                 const rag::OfflineEmbedderOptions& offline) {
  ExampleIndex ix;
  std::vector<std::string> texts;
  for (const auto& idea : pool.ideas) {
    for (const auto& t : idea.thoughts) {
      for (const auto& e : t.examples) {
        ix.entries_.push_back({t.id, e.commit, e.file});
        texts.push_back(example_text(t, e));
      }
    }
  }
  if (texts.empty()) throw Error("the pool holds no example code to index (its commits have no kernel diff)");
  std::vector<Embedding> vectors;
  if (embedder) {
    vectors = embedder->embed(texts);
    ix.embedder_name_ = embedder_name.empty() ? embedder->describe() : embedder_name;
  } else {
    ix.offline_ = std::make_shared<rag::OfflineEmbedder>(rag::OfflineEmbedder::fit(texts, offline));
    vectors = ix.offline_->embed(texts);
    ix.embedder_name_ = ix.offline_->name();
  }
  ix.index_ = std::make_shared<rag::VectorIndex>(rag::VectorIndex::build(std::move(vectors)));
  return ix;
}

void ExampleIndex::save(const fs::path& pool_file) const {
  nlohmann::json doc = {{"schema", kSchema},
                        {"embedder", embedder_name_},
                        {"offline", offline_ != nullptr},
                        {"dim", index_->dim()},
                        {"entries", nlohmann::json::array()}};
  for (const auto& e : entries_)
    doc["entries"].push_back({{"thought", e.thought}, {"commit", e.commit}, {"file", e.file}});
  index_->save(vectors_path(pool_file));
  if (offline_) offline_->save(model_path(pool_file));
  write_file_atomic(entries_path(pool_file), doc.dump(1));
}

ExampleIndex ExampleIndex::load(const fs::path& pool_file) {
  const fs::path entries = entries_path(pool_file);
  if (!fs::exists(entries)) {
    throw NotFoundError("the pool " + pool_file.string() + " has no example index (" + entries.filename().string() +
                        "): mine it again with eok mine");
  }
  ExampleIndex ix;
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(read_regular_file(entries, kDataFileMaxBytes, "example index"));
    if (doc.at("schema") != kSchema) throw CorruptDataError("schema is " + doc.at("schema").dump());
    ix.embedder_name_ = doc.at("embedder").get<std::string>();
    for (const auto& e : doc.at("entries")) ix.entries_.push_back({e.at("thought"), e.at("commit"), e.at("file")});
  } catch (const nlohmann::json::exception& e) {
    throw CorruptDataError(entries.string() + " is damaged (" + e.what() + "): mine the pool again");
  }
  ix.index_ = std::make_shared<rag::VectorIndex>(rag::VectorIndex::load(vectors_path(pool_file)));
  if (ix.index_->size() != ix.entries_.size()) {
    throw CorruptDataError(vectors_path(pool_file).string() + " does not match " + entries.string() +
                           ": mine the pool again");
  }
  if (doc.value("offline", false)) {
    ix.offline_ = std::make_shared<rag::OfflineEmbedder>(rag::OfflineEmbedder::load(model_path(pool_file)));
  }
  return ix;
}

std::vector<ExampleHit> ExampleIndex::search(const std::string& text, size_t k, llm::Embedder* embedder) const {
  std::vector<float> q;
  if (offline_) {
    q = offline_->embed_one(text);
  } else {
    if (!embedder) {
      throw ConfigError("this example index was built with the embedding model " + embedder_name_ +
                        ": configure it (mine.embedder = http, mine.embedding_model) to query it");
    }
    q = embedder->embed({text}).at(0);
  }
  if (q.size() != index_->dim()) {
    throw ConfigError("the query embedder gives " + std::to_string(q.size()) + " dimensions, the index holds " +
                      std::to_string(index_->dim()) + " (made by " + embedder_name_ + ")");
  }
  std::vector<ExampleHit> hits;
  for (const rag::VectorHit& h : index_->search(std::move(q), k)) hits.push_back({entries_[h.row], h.score});
  return hits;
}

}  // namespace eok::idea_pool
