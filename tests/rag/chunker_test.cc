#include "rag/chunker.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rag/document.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "support/shared_data.h"

namespace eok::rag {
namespace {

namespace fs = std::filesystem;

Document doc(DocumentKind kind, std::string text) {
  return {"notes/d", kind, std::move(text), {}};
}

// The first chunk whose text holds `needle`; fails the test when there is none.
const Chunk& find(const std::vector<Chunk>& chunks, const std::string& needle) {
  for (const Chunk& c : chunks) {
    if (c.text.find(needle) != std::string::npos) return c;
  }
  ADD_FAILURE() << "no chunk holds \"" << needle << "\"";
  static const Chunk none;
  return none;
}

size_t count(const std::string& haystack, const std::string& needle) {
  size_t n = 0;
  for (size_t pos = haystack.find(needle); pos != std::string::npos; pos = haystack.find(needle, pos + 1)) ++n;
  return n;
}

bool valid_utf8(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > s.size()) return false;
    for (size_t k = 1; k < len; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += len;
  }
  return true;
}

// Checks what every chunking promises: no empty chunk, the size cap, the same chunks on a second run.
void expect_contract(const Document& d, const ChunkOptions& options, const std::vector<Chunk>& chunks) {
  for (const Chunk& c : chunks) {
    EXPECT_FALSE(c.text.empty());
    EXPECT_EQ(c.source, d.source);
    EXPECT_GE(c.line, 1u);
    EXPECT_LE(c.text.size(), 2 * options.max_chars) << c.source << ":" << c.line;
    EXPECT_TRUE(valid_utf8(c.text)) << c.source << ":" << c.line;
  }
  const auto again = chunk_document(d, options);
  ASSERT_EQ(again.size(), chunks.size());
  for (size_t i = 0; i < chunks.size(); ++i) {
    EXPECT_EQ(again[i].text, chunks[i].text);
    EXPECT_EQ(again[i].section, chunks[i].section);
    EXPECT_EQ(again[i].line, chunks[i].line);
  }
}

// ---- AsciiDoc ----------------------------------------------------------------------------------------

TEST(Chunker, AsciiDocSectionsNestIntoPaths) {
  const std::string text =
      "= Guide\n"                             // 1
      ":toc: left\n"                          // 2
      "\n"                                    // 3
      "Preamble text.\n"                      // 4
      "\n"                                    // 5
      "== Loads\n"                            // 6
      "\n"                                    // 7
      "Unit-stride text.\n"                   // 8
      "\n"                                    // 9
      "[[sec-strided]]\n"                     // 10
      "=== Strided Loads\n"                   // 11
      "\n"                                    // 12
      "Strided text that says VLMAX\n"        // 13
      "= VLEN in a sentence, not a title.\n"  // 14
      "\n"                                    // 15
      "// a comment, not content\n"           // 16
      "===== Skipped a level\n"               // 17
      "\n"                                    // 18
      "Deep text.\n"                          // 19
      "\n"                                    // 20
      "== Stores ==\n"                        // 21
      "\n"                                    // 22
      "Store text.\n";                        // 23
  const Document d = doc(DocumentKind::asciidoc, text);
  const ChunkOptions options{.max_chars = 1000, .min_chars = 10};
  const auto chunks = chunk_document(d, options);
  expect_contract(d, options, chunks);
  EXPECT_EQ(find(chunks, "Preamble text.").section, "Guide");
  EXPECT_EQ(find(chunks, "Preamble text.").line, 4u);
  EXPECT_EQ(find(chunks, "Unit-stride text.").section, "Guide > Loads");
  const Chunk& strided = find(chunks, "Strided text");
  EXPECT_EQ(strided.section, "Guide > Loads > Strided Loads");
  EXPECT_NE(strided.text.find("= VLEN in a sentence"), std::string::npos);  // inside a paragraph: text
  EXPECT_EQ(strided.line, 13u);
  EXPECT_EQ(find(chunks, "Deep text.").section, "Guide > Loads > Strided Loads > Skipped a level");
  EXPECT_EQ(find(chunks, "Store text.").section, "Guide > Stores");  // closing marks dropped
  for (const Chunk& c : chunks) {
    EXPECT_EQ(c.text.find("[[sec-strided]]"), std::string::npos);  // a title's anchor is not content
    EXPECT_EQ(c.text.find(":toc:"), std::string::npos);            // nor are attribute entries
    EXPECT_EQ(c.text.find("a comment"), std::string::npos);
    EXPECT_EQ(c.text.find("== Loads"), std::string::npos);  // the heading line is not repeated
  }
}

TEST(Chunker, AsciiDocListingStaysWholeAndItsEqualsLinesAreNoTitles) {
  std::string listing = "[source,c]\n----\n";
  for (int i = 0; i < 30; ++i)
    listing += "x = __riscv_vfmacc_vf_f32m4(x, a, b, vl);  // step " + std::to_string(i) + "\n";
  listing += "\n== not a title inside a listing\n\n= nor this\n----\n";
  ASSERT_GT(listing.size(), 1000u);
  ASSERT_LT(listing.size(), 2000u);
  const std::string text = "= Spec\n\n== Loads\n\n" + std::string(600, 'p') + "\n\nFor example:\n\n" + listing +
                           "\n====\nAn example block.\n\n----\n====\n----\n====\n\n== Stores\n\nStore text.\n";
  const Document d = doc(DocumentKind::asciidoc, text);
  const ChunkOptions options{.max_chars = 1000, .min_chars = 100};
  const auto chunks = chunk_document(d, options);
  expect_contract(d, options, chunks);
  const Chunk& code = find(chunks, "step 0");
  EXPECT_EQ(code.section, "Spec > Loads");
  EXPECT_GT(code.text.size(), 1000u);  // over max_chars, kept whole
  EXPECT_NE(code.text.find("step 29"), std::string::npos);
  EXPECT_NE(code.text.find("== not a title inside a listing"), std::string::npos);
  EXPECT_NE(code.text.find("= nor this"), std::string::npos);
  EXPECT_EQ(code.text.rfind("For example:\n\n[source,c]\n----\n", 0), 0u);  // with its short lead-in
  EXPECT_EQ(code.text.substr(code.text.size() - 5), "\n----");
  EXPECT_EQ(find(chunks, "pppp").text, std::string(600, 'p'));
  // A `====` inside a listing nested in an example block does not end the example.
  const Chunk& example = find(chunks, "An example block.");
  EXPECT_EQ(example.section, "Spec > Loads");
  EXPECT_EQ(count(example.text, "===="), 3u);
  EXPECT_EQ(find(chunks, "Store text.").section, "Spec > Stores");
  for (const Chunk& c : chunks) EXPECT_NE(c.section, "Spec > not a title inside a listing");
}

// An AsciiDoc table with `rows` rows under a header, starting at line 1.
std::string adoc_table(int rows) {
  std::string t = "[cols=\"1,3\"]\n|===\n| Instruction | Meaning\n\n";
  for (int i = 0; i < rows; ++i)
    t += "| vop" + std::to_string(i) + ".vv | operation number " + std::to_string(i) + "\n";
  return t + "|===\n";
}

TEST(Chunker, TableStaysWholeWhenItFitsTwiceTheCap) {
  const std::string table = adoc_table(40);
  ASSERT_GT(table.size(), 1000u);
  ASSERT_LT(table.size(), 2000u);
  const Document d = doc(DocumentKind::asciidoc, "== Ops\n\n" + table + "\nAfter the table.\n");
  const ChunkOptions options{.max_chars = 1000, .min_chars = 100};
  const auto chunks = chunk_document(d, options);
  expect_contract(d, options, chunks);
  ASSERT_EQ(chunks.size(), 2u);
  EXPECT_EQ(chunks[0].text, table.substr(0, table.size() - 1));
  EXPECT_EQ(chunks[0].line, 3u);
  EXPECT_EQ(chunks[1].text, "After the table.");
}

TEST(Chunker, OversizedTableIsSplitAtRowsWithItsHeaderInEveryPart) {
  const int rows = 200;
  const Document d = doc(DocumentKind::asciidoc, adoc_table(rows));
  const ChunkOptions options{.max_chars = 1000, .min_chars = 100};
  const auto chunks = chunk_document(d, options);
  expect_contract(d, options, chunks);
  ASSERT_GT(chunks.size(), 5u);
  std::string all;
  size_t previous_line = 0;
  for (const Chunk& c : chunks) {
    EXPECT_LE(c.text.size(), 1000u);
    EXPECT_EQ(c.text.rfind("[cols=\"1,3\"]\n|===\n| Instruction | Meaning\n\n| vop", 0), 0u) << c.text;
    EXPECT_EQ(c.text.substr(c.text.size() - 5), "\n|===");
    EXPECT_GT(c.line, previous_line);
    previous_line = c.line;
    all += c.text + "\n";
  }
  EXPECT_EQ(chunks[0].line, 1u);
  // Each later part starts at the line of its first row: row i is on line 5 + i.
  for (size_t k = 1; k < chunks.size(); ++k) {
    const std::string& t = chunks[k].text;
    const size_t at = t.find("| vop") + 5;
    EXPECT_EQ(chunks[k].line, 5 + std::stoul(t.substr(at, t.find('.', at) - at)));
  }
  for (int i = 0; i < rows; ++i) EXPECT_EQ(count(all, "| vop" + std::to_string(i) + ".vv "), 1u) << "row " << i;
}

// ---- Markdown ----------------------------------------------------------------------------------------

TEST(Chunker, MarkdownHeadingsFencesAndPipeTables) {
  std::string table = "| op | cost |\n|---|---:|\n";
  for (int i = 0; i < 150; ++i) table += "| vop" + std::to_string(i) + " | " + std::to_string(i) + " |\n";
  const std::string text =
      "# Notes\n\nIntro.\n\n## Reductions\n\n```c\n# not a heading\nint x;\n```\n\n"
      "### Costs ###\n\n" +
      table + "\nSetext Title\n============\n\nUnder the setext title.\n\n~~~\n## not one either\n~~~\n";
  const Document d = doc(DocumentKind::markdown, text);
  const ChunkOptions options{.max_chars = 600, .min_chars = 10};
  const auto chunks = chunk_document(d, options);
  expect_contract(d, options, chunks);
  EXPECT_EQ(find(chunks, "Intro.").section, "Notes");
  const Chunk& fence = find(chunks, "# not a heading");
  EXPECT_EQ(fence.section, "Notes > Reductions");
  EXPECT_EQ(fence.text, "```c\n# not a heading\nint x;\n```");
  size_t table_chunks = 0;
  for (const Chunk& c : chunks) {
    EXPECT_LE(c.text.size(), 600u);
    if (c.section != "Notes > Reductions > Costs") continue;
    ++table_chunks;
    EXPECT_EQ(c.text.rfind("| op | cost |\n|---|---:|\n| vop", 0), 0u);  // the header in every part
  }
  EXPECT_GT(table_chunks, 3u);
  EXPECT_EQ(find(chunks, "| vop149 |").section, "Notes > Reductions > Costs");
  EXPECT_EQ(find(chunks, "Under the setext title.").section, "Setext Title");
  EXPECT_EQ(find(chunks, "## not one either").section, "Setext Title");
}

// ---- long lines, plain text, code --------------------------------------------------------------------

TEST(Chunker, AnOversizedLineIsCutAtTheCapNeverInsideACharacter) {
  std::string line;
  while (line.size() < 5000) line += "añadir ñandú ";
  line += std::string(3000, 'z');  // no space at all
  const Document d = doc(DocumentKind::text, line);
  const ChunkOptions options{.max_chars = 1000, .min_chars = 10};
  const auto chunks = chunk_document(d, options);
  expect_contract(d, options, chunks);
  ASSERT_GT(chunks.size(), 7u);
  size_t letters = 0;
  for (const Chunk& c : chunks) {
    EXPECT_LE(c.text.size(), 1000u);
    EXPECT_EQ(c.line, 1u);
    letters += c.text.size() - count(c.text, " ");
  }
  EXPECT_EQ(letters, line.size() - count(line, " "));  // only spaces lost at the cuts
}

TEST(Chunker, PlainTextIsSplitIntoParagraphsAndShortOnesAreMerged) {
  const std::string a(300, 'a'), b(300, 'b'), c(250, 'c');
  const std::string text = a + "\n\n" + b + "\nstill b\n\nShort one.\n\nShort two.\n\n" + c + "\n\nTail.\n";
  const Document d = doc(DocumentKind::text, text);
  const auto chunks = chunk_document(d);
  expect_contract(d, {}, chunks);
  ASSERT_EQ(chunks.size(), 3u);
  EXPECT_EQ(chunks[0].text, a);
  EXPECT_EQ(chunks[1].text, b + "\nstill b");
  EXPECT_EQ(chunks[1].line, 3u);
  EXPECT_EQ(chunks[2].text, "Short one.\n\nShort two.\n\n" + c + "\n\nTail.");  // short ones merged, tail too
  EXPECT_EQ(chunks[2].line, 6u);
  for (const Chunk& ch : chunks) EXPECT_EQ(ch.section, "");
}

TEST(Chunker, CSourceIsSplitByTopLevelBlocks) {
  const std::string c =
      "/*\n"
      " * File comment.\n"
      "\n"
      " * Its second paragraph.\n"
      " */\n"
      "\n"
      "#include <stddef.h>\n"
      "#include <riscv_vector.h>\n"
      "\n"
      "// Adds two vectors.\n"
      "static void add(float *y, const float *x,\n"
      "                size_t n) {\n"
      "  for (size_t i = 0; i < n; ++i) {\n"
      "    y[i] += x[i];\n"
      "\n"
      "    /* a brace in a comment: { */\n"
      "  }\n"
      "  const char *s = \"}\";\n"
      "  (void)s;\n"
      "}\n"
      "typedef struct {\n"
      "  int a;\n"
      "} pair_t;\n"
      "\n"
      "void mish(float *y, size_t n) { y[0] = (float)n; }\n";
  const Document d = doc(DocumentKind::code, c);
  const ChunkOptions options{.max_chars = 2000, .min_chars = 100};
  const auto chunks = chunk_document(d, options);
  expect_contract(d, options, chunks);
  ASSERT_EQ(chunks.size(), 5u);
  EXPECT_EQ(chunks[0].section, "");  // the file comment, on its own
  EXPECT_EQ(chunks[0].text, "/*\n * File comment.\n\n * Its second paragraph.\n */");
  EXPECT_EQ(chunks[1].section, "");
  EXPECT_EQ(chunks[1].text, "#include <stddef.h>\n#include <riscv_vector.h>");
  EXPECT_EQ(chunks[2].section, "static void add(float *y, const float *x, size_t n)");
  EXPECT_EQ(chunks[2].line, 10u);                                    // its comment belongs to it
  EXPECT_NE(chunks[2].text.find("(void)s;\n}"), std::string::npos);  // a blank line inside does not split it
  EXPECT_EQ(chunks[3].section, "typedef struct pair_t");
  EXPECT_EQ(chunks[3].line, 21u);
  EXPECT_EQ(chunks[4].section, "void mish(float *y, size_t n)");
}

TEST(Chunker, CppNamespacesAreLookedThrough) {
  const std::string cc =
      "#include <vector>\n\nnamespace eok::rag {\nnamespace {\n\nint one() {\n  return 1;\n}\n\n"
      "}  // namespace\n\nclass Box {\n public:\n  int v = 0;\n};\n\n}  // namespace eok::rag\n";
  const Document d = doc(DocumentKind::code, cc);
  const ChunkOptions options{.max_chars = 2000, .min_chars = 0};
  const auto chunks = chunk_document(d, options);
  expect_contract(d, options, chunks);
  EXPECT_EQ(find(chunks, "return 1;").section, "int one()");
  EXPECT_EQ(find(chunks, "int v = 0;").section, "class Box");
}

TEST(Chunker, OversizedFunctionIsSplitAtStatements) {
  std::string body = "void big(float *y) {\n";
  for (int i = 0; i < 200; ++i)
    body += "  y[" + std::to_string(i) + "] = __riscv_vfmv_f_s_f32m1_f32(v" + std::to_string(i) + ");\n";
  body += "}\n";
  const Document d = doc(DocumentKind::code, body);
  const ChunkOptions options{.max_chars = 1000, .min_chars = 100};
  const auto chunks = chunk_document(d, options);
  expect_contract(d, options, chunks);
  ASSERT_GT(chunks.size(), 5u);
  for (const Chunk& c : chunks) {
    EXPECT_LE(c.text.size(), 1000u);  // code is no listing: no allowance over max_chars
    EXPECT_EQ(c.section, "void big(float *y)");
    EXPECT_TRUE(c.text.back() == ';' || c.text.back() == '}') << c.text;
  }
}

// ---- loading -----------------------------------------------------------------------------------------

TEST(Documents, ListsSupportedFilesSortedAndSkipsHiddenOnes) {
  TempDir dir(fs::temp_directory_path(), "eok-chunker-");
  const fs::path& d = dir.path();
  for (const char* f : {"b.md", "a/z.adoc", "a/y.txt", "c.cc", "d.h", "e.RST", "f.markdown", ".hidden.md", ".git/x.md",
                        "image.png", "COPYING.CC", "LICENSE", "a/.cache/x.adoc"}) {
    write_file_atomic(d / f, "text\n");
  }
  std::vector<std::string> names;
  for (const fs::path& p : list_documents(d)) names.push_back(p.lexically_relative(d).generic_string());
  EXPECT_EQ(names, (std::vector<std::string>{"a/y.txt", "a/z.adoc", "b.md", "c.cc", "d.h", "e.RST", "f.markdown"}));
  EXPECT_EQ(list_documents(d / "b.md"), std::vector<fs::path>{d / "b.md"});
  EXPECT_EQ(list_documents(d / "LICENSE"), std::vector<fs::path>{d / "LICENSE"});  // named: read as text
  EXPECT_THROW(list_documents(d / "nope"), NotFoundError);
  EXPECT_EQ(document_kind("x.asciidoc"), DocumentKind::asciidoc);
  EXPECT_EQ(document_kind("x.cpp"), DocumentKind::code);
  EXPECT_FALSE(document_kind("x.pdf").has_value());
}

TEST(LoadDocument, InlinesIncludesAndSaysWhichAreMissingOrCircular) {
  TempDir dir(fs::temp_directory_path(), "eok-chunker-");
  const fs::path& d = dir.path();
  write_file_atomic(d / "main.adoc",
                    "= Main\n\ninclude::parts/part.adoc[]\n\ninclude::missing.adoc[]\n\ninclude::main.adoc[]\n\n"
                    "== Code\n\n----\ninclude::parts/code.c[lines=1..2]\n----\n");
  write_file_atomic(d / "parts/part.adoc", "== Part\n\nIncluded text.\n\ninclude::../loop.adoc[]\n");
  write_file_atomic(d / "loop.adoc", "Loop text.\n\ninclude::parts/part.adoc[]");  // no final newline
  write_file_atomic(d / "parts/code.c", "int x;\ninclude::not-a-directive-in-c[]\n");
  const auto main = load_document(d / "main.adoc", d);
  ASSERT_TRUE(main.has_value());
  EXPECT_EQ(main->source, "main.adoc");
  EXPECT_EQ(main->kind, DocumentKind::asciidoc);
  EXPECT_EQ(count(main->text, "Included text."), 1u);
  EXPECT_EQ(count(main->text, "Loop text.\n"), 1u);
  EXPECT_NE(main->text.find("(include missing.adoc not found)"), std::string::npos);
  EXPECT_EQ(count(main->text, "would include itself"), 2u);  // main.adoc itself, and part -> loop -> part
  EXPECT_NE(main->text.find("----\nint x;\ninclude::not-a-directive-in-c[]\n----"), std::string::npos);
  EXPECT_EQ(main->includes, (std::vector<std::string>{"parts/part.adoc", "loop.adoc", "parts/code.c"}));
  const auto chunks = chunk_document(*main);
  EXPECT_EQ(find(chunks, "Included text.").section, "Main > Part");
  EXPECT_EQ(find(chunks, "int x;").section, "Main > Code");
  // A file's source is relative to the root it is given.
  const auto part = load_document(d / "parts" / "part.adoc", d);
  ASSERT_TRUE(part.has_value());
  EXPECT_EQ(part->source, "parts/part.adoc");
  EXPECT_EQ(part->includes, (std::vector<std::string>{"loop.adoc"}));
}

TEST(LoadDocument, IncludesNestAtMostEightDeep) {
  TempDir dir(fs::temp_directory_path(), "eok-chunker-");
  for (int i = 0; i <= 10; ++i) {
    write_file_atomic(dir.path() / ("d" + std::to_string(i) + ".adoc"),
                      "Level " + std::to_string(i) + " text.\n\ninclude::d" + std::to_string(i + 1) + ".adoc[]\n");
  }
  const auto top = load_document(dir.path() / "d0.adoc", dir.path());
  ASSERT_TRUE(top.has_value());
  EXPECT_NE(top->text.find("Level 8 text."), std::string::npos);
  EXPECT_EQ(top->text.find("Level 9 text."), std::string::npos);
  EXPECT_NE(top->text.find("(include d9.adoc not inlined: includes nested more than 8 deep)"), std::string::npos);
}

TEST(LoadDocument, SkipsEmptyAndBinaryFilesAndReadsLatin1) {
  TempDir dir(fs::temp_directory_path(), "eok-chunker-");
  const fs::path& d = dir.path();
  write_file_atomic(d / "empty.md", "");
  write_file_atomic(d / "blank.md", "  \n\n\t\n");
  write_file_atomic(d / "nul.txt", std::string("text\0more", 9));
  std::string noise;  // no NUL, but nothing like text
  for (int i = 0; i < 4000; ++i) noise += static_cast<char>(1 + (i * 37) % 255);
  write_file_atomic(d / "noise.c", noise);
  write_file_atomic(d / "sub/latin1.txt", "caf\xe9 cr\xe8me\r\nsecond line\r\n");
  write_file_atomic(d / "bom.md", "\xEF\xBB\xBF# Title\n");
  EXPECT_FALSE(load_document(d / "empty.md", d).has_value());
  EXPECT_FALSE(load_document(d / "blank.md", d).has_value());
  EXPECT_FALSE(load_document(d / "nul.txt", d).has_value());
  EXPECT_FALSE(load_document(d / "noise.c", d).has_value());
  const auto latin1 = load_document(d / "sub" / "latin1.txt", d);
  ASSERT_TRUE(latin1.has_value());
  EXPECT_EQ(latin1->source, "sub/latin1.txt");
  EXPECT_EQ(latin1->kind, DocumentKind::text);
  EXPECT_EQ(latin1->text, "caf\u00e9 cr\u00e8me\nsecond line\n");
  EXPECT_EQ(load_document(d / "bom.md", d)->text, "# Title\n");
  EXPECT_THROW(load_document(d / "nope.md", d), NotFoundError);
  EXPECT_THROW(load_document(d / "sub", d), NotFoundError);
}

// ---- the real corpus -----------------------------------------------------------------------------------

// Every chunk of the real RVV documents keeps the size contract, with the default cap and a small one that
// splits many listings. Skipped without the team's shared data.
TEST(ChunkerSharedData, TheRealSpecsKeepTheSizeCap) {
  const fs::path corpus = ::eok::testing::shared_data("rag-corpus");
  SKIP_WITHOUT_SHARED_DATA(corpus / "riscv-v-spec" / "v-spec.adoc");
  for (const fs::path& file :
       {corpus / "riscv-v-spec" / "v-spec.adoc",
        corpus / "rvv-intrinsic-doc" / "intrinsic_funcs" / "05_vector_reduction_operations.adoc"}) {
    const auto d = load_document(file, corpus);
    ASSERT_TRUE(d.has_value()) << file;
    for (const ChunkOptions options : {ChunkOptions{}, ChunkOptions{.max_chars = 800, .min_chars = 100}}) {
      const auto chunks = chunk_document(*d, options);
      expect_contract(*d, options, chunks);
      EXPECT_GT(chunks.size(), 20u) << file;
      size_t previous = 0, sectioned = 0;
      for (const Chunk& c : chunks) {
        if (c.text.size() > options.max_chars) {  // only a listing or table kept whole
          EXPECT_TRUE(c.text.find("\n----") != std::string::npos || c.text.find("|===") != std::string::npos ||
                      c.text.find("\n....") != std::string::npos || c.text.find("\n```") != std::string::npos)
              << c.source << ":" << c.line;
        }
        EXPECT_GE(c.line, previous);  // document order
        previous = c.line;
        sectioned += !c.section.empty();
      }
      EXPECT_GE(sectioned + 2, chunks.size());  // all but a preamble sit under a heading
    }
  }
}

}  // namespace
}  // namespace eok::rag
