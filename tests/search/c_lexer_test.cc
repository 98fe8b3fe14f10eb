// The lexer the LMUL knob relies on: only names in code are identifiers; comments, literals and numbers
// are never taken for names, and lines are counted across block comments and spliced // comments.
#include "src/search/c_lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace eok::search {
namespace {

struct Recorder final : CTokenVisitor {
  std::string_view source;
  std::vector<std::string> identifiers;  // "name@line"
  std::vector<std::string> comments;     // "text@line"
  std::string others;

  void identifier(size_t begin, size_t end, size_t line) override {
    identifiers.push_back(std::string(source.substr(begin, end - begin)) + "@" + std::to_string(line));
  }
  void comment(std::string_view text, size_t line, bool is_line_comment) override {
    comments.push_back(std::string(is_line_comment ? "line " : "block ") + std::string(text) + "@" +
                       std::to_string(line));
  }
  void other(char c) override { others.push_back(c); }
};

Recorder scan(std::string_view source) {
  Recorder r;
  r.source = source;
  scan_c_source(source, r);
  return r;
}

TEST(CLexer, NamesInCodeAndDirectivesAreIdentifiersWithTheirLines) {
  const Recorder r = scan("#define N 4\nvfloat32m4_t v = f(x, N);\n");
  EXPECT_EQ(r.identifiers, (std::vector<std::string>{"define@1", "N@1", "vfloat32m4_t@2", "v@2", "f@2", "x@2", "N@2"}));
  EXPECT_EQ(r.others, "#0=(,);");
}

TEST(CLexer, CommentsLiteralsAndNumbersAreNeverNames) {
  const Recorder r = scan("a /* vint8m1_t\n */ \"vint8m2_t\" 'v' 0x1.8p23f 1e-5 1'000 .5 b // vint8m4_t\nc");
  EXPECT_EQ(r.identifiers, (std::vector<std::string>{"a@1", "b@2", "c@3"}));
  EXPECT_EQ(r.comments, (std::vector<std::string>{"block /* vint8m1_t\n */@1", "line // vint8m4_t@2"}));
  EXPECT_EQ(r.others, "\"\"0000");
}

TEST(CLexer, ABackslashNewlineContinuesALineComment) {
  const Recorder r = scan("// one \\\n two\nx");
  ASSERT_EQ(r.comments.size(), 1u);
  EXPECT_EQ(r.comments[0], "line // one \\\n two@1");
  EXPECT_EQ(r.identifiers, (std::vector<std::string>{"x@3"}));
}

TEST(CLexer, UnterminatedLiteralsAndCommentsEndQuietly) {
  EXPECT_EQ(scan("\"open\nx").identifiers, (std::vector<std::string>{"x@2"}));
  EXPECT_EQ(scan("y /* open").comments, (std::vector<std::string>{"block /* open@1"}));
}

}  // namespace
}  // namespace eok::search
