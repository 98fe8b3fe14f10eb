#include "rag/doc_index.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "rag/document.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "src/common/hash.h"

namespace eok::rag {

namespace fs = std::filesystem;

namespace {

constexpr const char* kSchema = "eok-doc-index/1";
constexpr double kFusionK = 60;  // reciprocal-rank fusion's damping: a rank's weight is 1 / (60 + rank)

struct Stored {
  std::map<std::string, std::string> hashes;        // source -> content hash
  std::map<std::string, std::vector<size_t>> rows;  // source -> its chunk rows
  std::vector<Chunk> chunks;
  std::vector<std::vector<float>> vectors;
  std::unique_ptr<OfflineEmbedder> embedder;
};

nlohmann::json chunk_json(const Chunk& c) {
  return {{"source", c.source}, {"section", c.section}, {"line", c.line}, {"text", c.text}};
}

std::vector<Chunk> read_chunks(const fs::path& file) {
  std::vector<Chunk> chunks;
  for (const auto& j : nlohmann::json::parse(read_file(file))) {
    Chunk c;
    c.source = j.at("source");
    c.section = j.at("section");
    c.line = j.at("line");
    c.text = j.at("text");
    chunks.push_back(std::move(c));
  }
  return chunks;
}

std::vector<std::vector<float>> read_vectors(const fs::path& file, size_t rows, size_t dim) {
  const std::string bytes = read_file(file);
  if (bytes.size() != rows * dim * sizeof(float)) {
    throw CorruptDataError(file.string() + " holds " + std::to_string(bytes.size()) + " bytes, not " +
                           std::to_string(rows) + " vectors of " + std::to_string(dim) +
                           ": build the index again (eok rag build --rebuild)");
  }
  std::vector<std::vector<float>> out(rows, std::vector<float>(dim));
  for (size_t r = 0; r < rows; ++r)
    std::memcpy(out[r].data(), bytes.data() + r * dim * sizeof(float), dim * sizeof(float));
  return out;
}

// What an earlier build left in `dir`, when it is complete and consistent; nothing otherwise.
Stored read_stored(const fs::path& dir) {
  Stored s;
  try {
    const auto manifest = nlohmann::json::parse(read_file(dir / "manifest.json"));
    if (manifest.at("schema") != kSchema) return {};
    s.chunks = read_chunks(dir / "chunks.json");
    s.embedder = std::make_unique<OfflineEmbedder>(OfflineEmbedder::load(dir / "embedder.model"));
    s.vectors = read_vectors(dir / "vectors.f32", s.chunks.size(), s.embedder->dim());
    for (const auto& [source, entry] : manifest.at("files").items()) s.hashes[source] = entry.at("hash");
    for (size_t r = 0; r < s.chunks.size(); ++r) s.rows[s.chunks[r].source].push_back(r);
  } catch (const std::exception&) {
    return {};  // missing or damaged: build from scratch
  }
  return s;
}

struct Input {
  fs::path file, root;
  std::string prefix;  // the input folder's name
  bool named = false;  // named by the user itself, not found in a named folder
};

std::vector<Input> list_inputs(const std::vector<fs::path>& inputs) {
  std::vector<Input> out;
  for (const auto& in : inputs) {
    if (!fs::exists(in)) throw NotFoundError("no document folder or file at " + in.string());
    const fs::path abs = fs::weakly_canonical(fs::absolute(in));
    const fs::path root = fs::is_directory(abs) ? abs : abs.parent_path();
    const bool named = !fs::is_directory(abs);
    for (const auto& f : list_documents(abs)) out.push_back({f, root, root.filename().string(), named});
  }
  return out;
}

}  // namespace

std::string chunk_text_for_index(const Chunk& c) {
  return c.section.empty() ? c.text : c.section + "\n" + c.text;
}

bool DocIndex::exists(const fs::path& dir) {
  return fs::exists(dir / "manifest.json");
}

DocBuildReport DocIndex::build(const std::vector<fs::path>& inputs, const fs::path& dir,
                               const DocIndexOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  auto progress = [&](const std::string& stage, size_t done, size_t total) {
    if (options.progress) options.progress(stage, done, total);
  };
  DocBuildReport report;
  Stored old = options.rebuild ? Stored{} : read_stored(dir);
  const std::vector<Input> files = list_inputs(inputs);
  if (files.empty())
    throw Error("no supported document (AsciiDoc, Markdown, text, C/C++) under the given --docs folders");

  std::vector<Chunk> chunks;
  std::vector<std::vector<float>> vectors;  // for reused chunks; new ones are embedded below
  std::vector<bool> fresh;
  std::map<std::string, std::string> hashes;
  std::map<std::string, size_t> chunk_counts;
  for (size_t i = 0; i < files.size(); ++i) {
    progress("read", i, files.size());
    const Input& in = files[i];
    const std::string source = in.prefix + "/" + fs::relative(in.file, in.root).generic_string();
    // A file the user named must be readable; one found in a named folder that is not (a FIFO, a device,
    // too large for a document) is skipped with the reason.
    std::string hash;
    try {
      hash = content_hash(read_regular_file(in.file, kDocumentMaxBytes, "document"));
    } catch (const ConfigError& e) {
      if (in.named) throw;
      report.skipped.push_back(source + ": " + e.what());
      ++report.files_skipped;
      continue;
    }
    if (hashes.count(source)) continue;  // the same file named twice
    hashes[source] = hash;
    if (auto it = old.hashes.find(source); it != old.hashes.end() && it->second == hash && old.embedder) {
      for (size_t r : old.rows[source]) {
        chunks.push_back(old.chunks[r]);
        vectors.push_back(old.vectors[r]);
        fresh.push_back(false);
      }
      chunk_counts[source] = old.rows[source].size();
      ++report.files_reused;
      continue;
    }
    std::optional<Document> doc = load_document(in.file, in.root);
    if (!doc) {
      report.skipped.push_back(source + ": empty or binary");
      ++report.files_skipped;
      hashes.erase(source);
      continue;
    }
    doc->source = source;
    size_t n = 0;
    for (Chunk& c : chunk_document(*doc, options.chunk)) {
      chunks.push_back(std::move(c));
      vectors.emplace_back();
      fresh.push_back(true);
      ++n;
    }
    chunk_counts[source] = n;
    ++report.files_chunked;
  }
  progress("read", files.size(), files.size());
  for (const auto& [source, hash] : old.hashes) report.files_removed += hashes.count(source) == 0;
  if (chunks.empty()) throw Error("the documents under the given --docs folders hold no text to index");
  report.files = hashes.size();
  report.chunks = chunks.size();

  // Embed: the new chunks with the existing model while they are few, else fit the model again.
  const size_t new_chunks = static_cast<size_t>(std::count(fresh.begin(), fresh.end(), true));
  std::unique_ptr<OfflineEmbedder> embedder = std::move(old.embedder);
  const bool refit =
      !embedder || new_chunks > options.refit_fraction * static_cast<double>(chunks.size()) || report.files_removed > 0;
  std::vector<std::string> texts;
  texts.reserve(chunks.size());
  for (const auto& c : chunks) texts.push_back(chunk_text_for_index(c));
  if (refit) {
    progress("fit", 0, 1);
    embedder = std::make_unique<OfflineEmbedder>(OfflineEmbedder::fit(texts, options.embedder));
    std::fill(fresh.begin(), fresh.end(), true);
    report.refitted = true;
  }
  size_t done = 0;
  for (size_t r = 0; r < chunks.size(); ++r) {
    if (!fresh[r]) continue;
    vectors[r] = embedder->embed_one(texts[r]);
    if (++done % 256 == 0) progress("embed", done, chunks.size());
  }
  report.chunks_embedded = done;
  progress("embed", done, done);
  const VectorIndex index = VectorIndex::build(vectors, options.exact_limit);

  // Write: everything else first, the manifest last (it is what makes the folder an index).
  fs::create_directories(dir);
  nlohmann::json chunk_doc = nlohmann::json::array();
  for (const auto& c : chunks) chunk_doc.push_back(chunk_json(c));
  write_file_atomic(dir / "chunks.json", chunk_doc.dump());
  std::string flat;
  flat.reserve(vectors.size() * embedder->dim() * sizeof(float));
  for (const auto& v : vectors) flat.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
  write_file_atomic(dir / "vectors.f32", flat);
  embedder->save(dir / "embedder.model");
  index.save(dir / "vectors.faiss");
  nlohmann::json manifest = {{"schema", kSchema},       {"embedder", embedder->describe()},
                             {"dim", embedder->dim()},  {"index", index.kind()},
                             {"chunks", chunks.size()}, {"files", nlohmann::json::object()}};
  for (const auto& in : inputs) manifest["inputs"].push_back(fs::absolute(in).string());
  for (const auto& [source, hash] : hashes)
    manifest["files"][source] = {{"hash", hash}, {"chunks", chunk_counts[source]}};
  write_file_atomic(dir / "manifest.json", manifest.dump(1));
  report.embedder = embedder->describe();
  report.index_kind = index.kind();
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report;
}

DocIndex DocIndex::load(const fs::path& dir) {
  if (!exists(dir))
    throw NotFoundError("no document index at " + dir.string() + ": build one with eok rag build [--docs DIR]");
  DocIndex ix;
  std::vector<Chunk> chunks;
  try {
    const auto manifest = nlohmann::json::parse(read_file(dir / "manifest.json"));
    if (manifest.at("schema") != kSchema) {
      throw CorruptDataError(dir.string() + " holds an index of another format: eok rag build --rebuild");
    }
    chunks = read_chunks(dir / "chunks.json");
  } catch (const nlohmann::json::exception& e) {
    throw CorruptDataError(dir.string() + " is damaged (" + e.what() + "): eok rag build --rebuild");
  }
  auto embedder = std::make_shared<OfflineEmbedder>(OfflineEmbedder::load(dir / "embedder.model"));
  auto vectors = std::make_shared<VectorIndex>(VectorIndex::load(dir / "vectors.faiss"));
  if (vectors->size() != chunks.size() || vectors->dim() != embedder->dim()) {
    throw CorruptDataError(dir.string() + ": the vectors do not match the chunks: eok rag build --rebuild");
  }
  std::vector<std::string> texts;
  texts.reserve(chunks.size());
  for (const auto& c : chunks) texts.push_back(chunk_text_for_index(c));
  ix.lexical_ = std::make_shared<LexicalIndex>(texts);
  ix.embedder_name_ = embedder->name();
  ix.embedder_ = std::move(embedder);
  ix.vectors_ = std::move(vectors);
  ix.chunks_ = std::make_shared<std::vector<Chunk>>(std::move(chunks));
  return ix;
}

std::vector<DocHit> DocIndex::query(const std::string& text, size_t k) const {
  if (k == 0 || chunks_->empty()) return {};
  const size_t depth = std::max<size_t>(50, 5 * k);
  const std::vector<VectorHit> by_vector = vectors_->search(embedder_->embed_one(text), depth);
  const std::vector<LexicalHit> by_terms = lexical_->search(text, depth);
  // One or two words are most likely a name to look up: the lexical ranking counts double.
  size_t words = 0;
  for (size_t i = 0; i < text.size(); ++i)
    words += !std::isspace(static_cast<unsigned char>(text[i])) &&
             (i == 0 || std::isspace(static_cast<unsigned char>(text[i - 1])));
  const double lexical_weight = words <= 2 ? 2.0 : 1.0;
  std::unordered_map<size_t, DocHit> hits;
  for (size_t rank = 0; rank < by_vector.size(); ++rank) {
    DocHit& h = hits[by_vector[rank].row];
    h.vector_score = by_vector[rank].score;
    h.score += static_cast<float>(1.0 / (kFusionK + static_cast<double>(rank)));
  }
  for (size_t rank = 0; rank < by_terms.size(); ++rank) {
    DocHit& h = hits[by_terms[rank].row];
    h.lexical_score = by_terms[rank].score;
    h.score += static_cast<float>(lexical_weight / (kFusionK + static_cast<double>(rank)));
  }
  std::vector<std::pair<size_t, DocHit>> ranked(hits.begin(), hits.end());
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.second.score != b.second.score ? a.second.score > b.second.score : a.first < b.first;
  });
  // At most two chunks of one section: the parts of a long listing would otherwise fill the whole answer.
  std::vector<DocHit> out;
  std::map<std::pair<std::string, std::string>, int> per_section;
  for (size_t i = 0; i < ranked.size() && out.size() < k; ++i) {
    const Chunk& c = (*chunks_)[ranked[i].first];
    if (++per_section[{c.source, c.section}] > 2) continue;
    DocHit h = ranked[i].second;
    h.chunk = c;
    out.push_back(std::move(h));
  }
  return out;
}

std::vector<fs::path> DocIndex::indexed_inputs(const fs::path& dir) {
  std::vector<fs::path> out;
  try {
    const auto manifest = nlohmann::json::parse(read_file(dir / "manifest.json"));
    for (const auto& in : manifest.value("inputs", nlohmann::json::array())) out.emplace_back(in.get<std::string>());
  } catch (const std::exception&) {
    out.clear();  // no index, or one whose manifest says nothing usable: nothing to keep
  }
  return out;
}

}  // namespace eok::rag
