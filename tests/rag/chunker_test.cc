#include "rag/chunker.h"

#include <gtest/gtest.h>

#include "src/common/error.h"
#include "src/common/fs_util.h"

namespace eok::rag {
namespace {

namespace fs = std::filesystem;

Document doc(DocumentKind kind, std::string text) { return {"d", kind, std::move(text)}; }

const Chunk* find(const std::vector<Chunk>& chunks, const std::string& needle) {
  for (const auto& c : chunks) {
    if (c.text.find(needle) != std::string::npos) return &c;
  }
  return nullptr;
}

TEST(Chunker, AsciiDocSectionsNestAndListingsStayWhole) {
  std::string listing = "[source,c]\n----\n";
  for (int i = 0; i < 30; ++i) listing += "x = __riscv_vfmacc_vf_f32m4(x, a, b, vl); // step " + std::to_string(i) + "\n";
  listing += "== not a heading inside a listing\n----\n";
  const std::string text = "= Spec\n\nIntro text.\n\n== Loads\n\nUnit-stride loads.\n\n=== Strided\n\nvlse32 loads with a stride.\n"
                           "= VLEN continues a sentence, not a title\n\n" + listing + "\n== Stores\n\nStores text.\n";
  const auto chunks = chunk_document(doc(DocumentKind::asciidoc, text), {.max_chars = 1500, .min_chars = 10});
  const Chunk* strided = find(chunks, "vlse32");
  ASSERT_NE(strided, nullptr);
  EXPECT_EQ(strided->section, "Spec > Loads > Strided");
  EXPECT_NE(strided->text.find("= VLEN continues"), std::string::npos);  // a continuation line, not a title
  const Chunk* code = find(chunks, "step 0");
  ASSERT_NE(code, nullptr);
  EXPECT_NE(code->text.find("step 29"), std::string::npos);  // the listing is whole
  EXPECT_NE(code->text.find("== not a heading"), std::string::npos);
  EXPECT_EQ(find(chunks, "Stores text.")->section, "Spec > Stores");
  EXPECT_EQ(find(chunks, "Intro text.")->line, 3u);
}

TEST(Chunker, MarkdownHeadingsFencesAndLongTables) {
  std::string table = "| op | cost |\n|---|---|\n";
  for (int i = 0; i < 200; ++i) table += "| vop" + std::to_string(i) + " | " + std::to_string(i) + " |\n";
  const std::string text = "# Notes\n\n## Reductions\n\n```c\n# not a heading\nint x;\n```\n\n### Costs\n\n" + table;
  const auto chunks = chunk_document(doc(DocumentKind::markdown, text), {.max_chars = 600, .min_chars = 10});
  const Chunk* fence = find(chunks, "# not a heading");
  ASSERT_NE(fence, nullptr);
  EXPECT_EQ(fence->section, "Notes > Reductions");
  size_t table_chunks = 0;
  for (const auto& c : chunks) {
    EXPECT_LE(c.text.size(), 600u);
    EXPECT_FALSE(c.text.empty());
    if (c.section == "Notes > Reductions > Costs") ++table_chunks;
  }
  EXPECT_GT(table_chunks, 3u);  // an oversized table is split at rows
  EXPECT_NE(find(chunks, "vop199"), nullptr);
}

TEST(Chunker, CodeSplitsByTopLevelBlocksAndTextByParagraphs) {
  const std::string c = "/* file comment */\n\nstatic int helper(int x) {\n  int y = x;\n\n  return y;\n}\n\nvoid kernel(float* p) {\n  p[0] = 1;\n}\n";
  const auto chunks = chunk_document(doc(DocumentKind::code, c), {.max_chars = 2000, .min_chars = 0});
  ASSERT_EQ(chunks.size(), 3u);
  EXPECT_EQ(chunks[1].section, "static int helper(int x) {");
  EXPECT_NE(chunks[1].text.find("return y;"), std::string::npos);  // a blank line inside a function does not split it
  EXPECT_EQ(chunks[2].section, "void kernel(float* p) {");

  const std::string t = std::string(300, 'a') + "\n\n" + std::string(300, 'b') + "\n";
  EXPECT_EQ(chunk_document(doc(DocumentKind::text, t)).size(), 2u);
  const std::string huge_line(5000, 'z');
  for (const auto& ch : chunk_document(doc(DocumentKind::text, huge_line), {.max_chars = 1000})) EXPECT_LE(ch.text.size(), 1000u);
}

TEST(Documents, IncludesEmptyAndBinaryFiles) {
  TempDir dir(fs::temp_directory_path(), "eok-docs-");
  const fs::path d = dir.path();
  write_file_atomic(d / "main.adoc", "= Main\n\ninclude::part.adoc[]\n\ninclude::missing.adoc[]\n\ninclude::main.adoc[]\n");
  write_file_atomic(d / "part.adoc", "== Part\n\nIncluded text.\n");
  write_file_atomic(d / "empty.md", "  \n");
  write_file_atomic(d / "blob.txt", std::string("a\0b", 3));
  write_file_atomic(d / ".hidden.md", "# hidden\n");
  write_file_atomic(d / "image.png", "png");
  const auto files = list_documents(d);
  ASSERT_EQ(files.size(), 4u);  // blob.txt empty.md main.adoc part.adoc
  const auto main = load_document(d / "main.adoc", d);
  ASSERT_TRUE(main.has_value());
  EXPECT_EQ(main->source, "main.adoc");
  EXPECT_NE(main->text.find("Included text."), std::string::npos);
  EXPECT_NE(main->text.find("(include missing.adoc not found)"), std::string::npos);
  EXPECT_NE(main->text.find("circular"), std::string::npos);
  EXPECT_EQ(find(chunk_document(*main), "Included text.")->section, "Main > Part");
  EXPECT_FALSE(load_document(d / "empty.md", d).has_value());
  EXPECT_FALSE(load_document(d / "blob.txt", d).has_value());
  EXPECT_THROW(load_document(d / "nope.md", d), NotFoundError);
  EXPECT_THROW(list_documents(d / "nope"), NotFoundError);
}

// Every chunk of the real RVV spec respects the size contract. Skipped without the shared data.
TEST(Chunker, TheRealSpecRespectsTheSizeContract) {
  const fs::path spec = fs::path(EOK_SOURCE_DIR) / ".." / "shared" / "data" / "rag-corpus" / "riscv-v-spec";
  if (!fs::exists(spec)) GTEST_SKIP() << "no shared rag-corpus";
  const ChunkOptions options;
  size_t chunks = 0;
  for (const auto& f : list_documents(spec)) {
    const auto d = load_document(f, spec);
    if (!d) continue;
    for (const auto& c : chunk_document(*d, options)) {
      EXPECT_LE(c.text.size(), 2 * options.max_chars) << c.source << ":" << c.line;
      EXPECT_FALSE(c.text.empty());
      ++chunks;
    }
  }
  EXPECT_GT(chunks, 100u);
}

}  // namespace
}  // namespace eok::rag
