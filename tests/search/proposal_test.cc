#include "src/search/proposal.h"

#include <gtest/gtest.h>

namespace eok::search {
namespace {

const char* kGood = R"(Idea: two strips per iteration so loads overlap the arithmetic.

```c
#include <riscv_vector.h>
void relu_f32(float *x, size_t n) {
  for (size_t i = 0; i < n; ++i) x[i] = x[i] > 0 ? x[i] : 0;
}
```
)";

TEST(Proposal, ReadsTheCodeAndTheIdea) {
  Proposal p = parse_proposal(kGood, "relu_f32");
  ASSERT_TRUE(p.ok) << p.reason;
  EXPECT_EQ(p.idea, "two strips per iteration so loads overlap the arithmetic.");
  EXPECT_NE(p.code.find("void relu_f32(float *x, size_t n) {"), std::string::npos);
  EXPECT_EQ(p.code.find("```"), std::string::npos);
}

TEST(Proposal, IdeaFallsBackToTheFirstSentenceAndMarkdownIsTolerated) {
  Proposal p = parse_proposal("**Idea:** use LMUL 8.\n```cpp\nvoid k(int *a) { a[0] = 1; }\n```\n", "k");
  ASSERT_TRUE(p.ok);
  EXPECT_EQ(p.idea, "use LMUL 8.");
  p = parse_proposal("This kernel fuses the passes. It is faster.\n```\nvoid k(int *a) { a[0] = 1; }\n```", "k");
  ASSERT_TRUE(p.ok);
  EXPECT_EQ(p.idea, "This kernel fuses the passes.");
}

TEST(Proposal, ExtraBlocksThatDoNotDefineTheEntryAreIgnored) {
  Proposal p = parse_proposal("```c\nvoid k(int *a) { a[0] = 1; }\n```\nUsage:\n```c\nk(buf);\n```\n", "k");
  EXPECT_TRUE(p.ok) << p.reason;
}

TEST(Proposal, UnusableRepliesSayWhy) {
  EXPECT_EQ(parse_proposal("I cannot help with that.", "k").reason, "no fenced code block in the reply");
  EXPECT_EQ(parse_proposal("```c\nint other(void) { return 0; }\n```", "k").reason, "no code block defines k()");
  EXPECT_NE(parse_proposal("```c\nvoid k(int *a) { a[0] = 1; }\n```\n```c\nvoid k(int *a) { a[0] = 2; }\n```", "k").reason.find("2 code blocks define k()"),
            std::string::npos);
  EXPECT_NE(parse_proposal("```c\nvoid k(int *a) { a[0] = 1;", "k").reason.find("not closed (truncated reply?)"), std::string::npos);
  EXPECT_EQ(parse_proposal("```c\nvoid k(int *a) { a[0] = '\xff'; }\n```", "k").reason, "reply is not valid UTF-8");
  EXPECT_NE(parse_proposal(std::string(300 * 1024, 'x'), "k").reason.find("reply too large"), std::string::npos);
  // A call is not a definition.
  EXPECT_FALSE(parse_proposal("```c\nvoid g(int *a) { k(a); }\n```", "k").ok);
}

}  // namespace
}  // namespace eok::search
