#include "rag/doc_index.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "support/shared_data.h"

namespace eok::rag {
namespace {

namespace fs = std::filesystem;

TEST(VectorIndex, ExactAndHnswFindTheNearestRowsAndPersist) {
  std::vector<std::vector<float>> rows;
  for (int i = 0; i < 256; ++i) {  // 256 distinct directions
    std::vector<float> v(16, 0.0f);
    v[static_cast<size_t>(i % 16)] = 1.0f;
    v[static_cast<size_t>((i / 16) % 16)] += 0.5f;
    rows.push_back(v);
  }
  TempDir dir(fs::temp_directory_path(), "eok-vec-");
  for (size_t limit : {size_t{1000}, size_t{10}}) {
    const VectorIndex ix = VectorIndex::build(rows, limit);
    EXPECT_EQ(ix.kind(), limit == 1000 ? "exact" : "hnsw");
    EXPECT_EQ(ix.size(), 256u);
    const auto hits = ix.search(rows[37], 3);
    ASSERT_EQ(hits.size(), 3u);
    EXPECT_EQ(hits[0].row, 37u);
    EXPECT_NEAR(hits[0].score, 1.0f, 1e-5);
    ix.save(dir.path() / "v.faiss");
    const VectorIndex back = VectorIndex::load(dir.path() / "v.faiss");
    EXPECT_EQ(back.kind(), ix.kind());
    EXPECT_EQ(back.search(rows[37], 1)[0].row, hits[0].row);
  }
  EXPECT_THROW(VectorIndex::build({{1, 2}, {1, 2, 3}}), Error);
  EXPECT_THROW(VectorIndex::load(dir.path() / "missing.faiss"), NotFoundError);
  write_file_atomic(dir.path() / "bad.faiss", "not an index");
  EXPECT_THROW(VectorIndex::load(dir.path() / "bad.faiss"), CorruptDataError);
}

TEST(LexicalIndex, FindsExactMnemonicsAndIntrinsicNames) {
  const std::vector<std::string> texts = {
      "The ordered sum reduction vfredosum.vs adds elements in element order.",
      "Unordered sum reduction vfredusum.vs may reassociate.",
      "Use __riscv_vsetvlmax_e32m4() to get VLMAX for SEW=32, LMUL=4.",
      "Loads and stores move data between memory and vector registers.",
  };
  const LexicalIndex ix(texts);
  EXPECT_EQ(ix.search("vfredosum", 2)[0].row, 0u);
  EXPECT_EQ(ix.search("vfredusum", 2)[0].row, 1u);
  EXPECT_EQ(ix.search("__riscv_vsetvlmax_e32m4", 2)[0].row, 2u);
  EXPECT_TRUE(ix.search("nonexistentword", 2).empty());
}

struct Corpus {
  TempDir dir{fs::temp_directory_path(), "eok-docs-"};
  fs::path docs = dir.path() / "notes";
  fs::path index = dir.path() / "index";

  Corpus() {
    fs::create_directories(docs);
    write_file_atomic(
        docs / "reductions.md",
        "# Reductions\n\n## Ordered sums\n\nvfredosum adds in element order: reproducible but slow on in-order "
        "cores.\n\n"
        "## Unordered sums\n\nvfredusum may reassociate the additions; accumulate in a vector and reduce once.\n");
    write_file_atomic(docs / "memory.md",
                      "# Memory\n\n## Strided loads\n\nvlse32 loads elements a constant byte stride apart.\n\n"
                      "## Segment loads\n\nvlseg2e32 splits interleaved pairs into two registers.\n");
    write_file_atomic(docs / "lmul.adoc",
                      "= LMUL\n\n== Register groups\n\nLMUL=4 groups four registers; VLMAX = LMUL * VLEN / SEW.\n");
  }
};

TEST(DocIndex, BuildsQueriesAndUpdatesOnlyWhatChanged) {
  Corpus c;
  const DocBuildReport first = DocIndex::build({c.docs}, c.index);
  EXPECT_EQ(first.files, 3u);
  EXPECT_EQ(first.files_chunked, 3u);
  EXPECT_TRUE(first.refitted);
  EXPECT_EQ(first.index_kind, "exact");
  EXPECT_GE(first.chunks, 5u);

  const DocIndex ix = DocIndex::load(c.index);
  const auto hits = ix.query("vfredosum", 3);
  ASSERT_FALSE(hits.empty());
  EXPECT_EQ(hits[0].chunk.source, "notes/reductions.md");
  EXPECT_NE(hits[0].chunk.section.find("Ordered sums"), std::string::npos) << hits[0].chunk.section;
  EXPECT_GT(hits[0].lexical_score, 0);
  EXPECT_EQ(
      ix.query("interleaved pairs into two registers", 1)[0].chunk.section.find("Segment loads") != std::string::npos,
      true);

  // Nothing changed: nothing is read again.
  const DocBuildReport same = DocIndex::build({c.docs}, c.index);
  EXPECT_EQ(same.files_reused, 3u);
  EXPECT_EQ(same.chunks_embedded, 0u);
  EXPECT_FALSE(same.refitted);

  // One file changed among many unchanged ones: only it is chunked (the corpus here is tiny, so the
  // embedder is fitted again; the reuse of the other files' chunks is what counts).
  write_file_atomic(c.docs / "lmul.adoc", "= LMUL\n\n== Register groups\n\nLMUL=8 groups eight registers.\n");
  const DocBuildReport changed = DocIndex::build({c.docs}, c.index);
  EXPECT_EQ(changed.files_reused, 2u);
  EXPECT_EQ(changed.files_chunked, 1u);
  EXPECT_NE(DocIndex::load(c.index).query("LMUL=8 eight registers", 1)[0].chunk.text.find("eight"), std::string::npos);

  // Empty and binary files are skipped and counted; a removed file leaves the index.
  write_file_atomic(c.docs / "empty.md", "");
  write_file_atomic(c.docs / "blob.txt", std::string("\0\1\2binary", 9));
  fs::remove(c.docs / "memory.md");
  const DocBuildReport after = DocIndex::build({c.docs}, c.index);
  EXPECT_EQ(after.files_removed, 1u);
  EXPECT_EQ(after.files_skipped, 2u);
  const DocIndex reloaded = DocIndex::load(c.index);  // held: chunks() refers into it
  for (const auto& ch : reloaded.chunks()) EXPECT_NE(ch.source, "notes/memory.md");
}

TEST(DocIndex, ErrorsSayWhatToDo) {
  Corpus c;
  EXPECT_THROW(DocIndex::load(c.index), NotFoundError);
  EXPECT_THROW(DocIndex::build({c.dir.path() / "missing"}, c.index), NotFoundError);
  TempDir empty(fs::temp_directory_path(), "eok-empty-");
  EXPECT_THROW(DocIndex::build({empty.path()}, c.index), Error);
  DocIndex::build({c.docs}, c.index);
  write_file_atomic(c.index / "chunks.json", "[{\"source\": 1}]");
  EXPECT_THROW(DocIndex::load(c.index), CorruptDataError);
  // A damaged index is rebuilt from scratch by the next build.
  EXPECT_NO_THROW(DocIndex::build({c.docs}, c.index));
  EXPECT_NO_THROW(DocIndex::load(c.index));
}

TEST(DocIndex, WhatIsNotARegularDocumentIsRefusedWhenNamedAndSkippedInAFolder) {
  Corpus c;
  // A /proc file calls itself regular; what it holds is made up when read (and may be the host's secrets).
  fs::create_symlink("/proc/self/status", c.docs / "status.md");
  const DocBuildReport r = DocIndex::build({c.docs}, c.index);
  EXPECT_EQ(r.files_chunked, 3u);
  EXPECT_EQ(r.files_skipped, 1u);
  ASSERT_EQ(r.skipped.size(), 1u);
  EXPECT_NE(r.skipped[0].find("status.md"), std::string::npos) << r.skipped[0];
  EXPECT_NE(r.skipped[0].find("/proc or /sys"), std::string::npos) << r.skipped[0];
  const DocIndex reloaded = DocIndex::load(c.index);  // held: chunks() refers into it
  for (const auto& ch : reloaded.chunks()) EXPECT_NE(ch.source, "notes/status.md");
  // Named on its own, it is an error that says what is wrong.
  EXPECT_THROW(DocIndex::build({c.docs / "status.md"}, c.index), ConfigError);
}

// The retrieval set of tests/fixtures/rag/retrieval_set.json over the shared RVV corpus: recall@5 with the
// offline embedder must be at least 0.8 (the goal). Skipped without the shared data.
TEST(RetrievalSetSharedData, RecallAtFiveOverTheSharedCorpus) {
  const fs::path corpus = ::eok::testing::shared_data("rag-corpus");
  SKIP_WITHOUT_SHARED_DATA(corpus);
  TempDir dir(fs::temp_directory_path(), "eok-ragset-");
  DocIndex::build({corpus}, dir.path() / "index");
  const DocIndex ix = DocIndex::load(dir.path() / "index");
  const auto set =
      nlohmann::json::parse(read_file(fs::path(EOK_TEST_DATA_DIR) / "fixtures" / "rag" / "retrieval_set.json"));
  auto lower = [](std::string s) {
    for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
  };
  size_t found = 0, total = 0;
  for (const auto& q : set["queries"]) {
    ++total;
    bool hit = false;
    for (const auto& h : ix.query(q["query"], 5)) {
      hit |= h.chunk.source.find(q["source"].get<std::string>()) != std::string::npos &&
             lower(h.chunk.section).find(lower(q["section"])) != std::string::npos;
    }
    found += hit;
    if (!hit) std::printf("  missed: %s\n", q["query"].get<std::string>().c_str());
  }
  const double recall = static_cast<double>(found) / static_cast<double>(total);
  std::printf("recall@5 = %zu/%zu = %.3f\n", found, total, recall);
  EXPECT_GE(total, 30u);
  EXPECT_GE(recall, 0.8);
}

}  // namespace
}  // namespace eok::rag
