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

TEST(Proposal, TheLastCompleteDefinitionWins) {
  Proposal p = parse_proposal(
      "Draft:\n```c\nvoid k(int *a) { a[0] = 1; }\n```\nBetter:\n```c\nvoid k(int *a) { a[0] = 2; }\n```", "k");
  ASSERT_TRUE(p.ok) << p.reason;
  EXPECT_NE(p.code.find("a[0] = 2"), std::string::npos);
  // A revision cut off by the token limit: the complete draft before it is the kernel.
  p = parse_proposal("```c\nvoid k(int *a) { a[0] = 1; }\n```\n```c\nvoid k(int *a) { a[0] = 2;", "k");
  ASSERT_TRUE(p.ok) << p.reason;
  EXPECT_NE(p.code.find("a[0] = 1"), std::string::npos);
}

TEST(Proposal, AReasoningModelsThinkingIsSkipped) {
  // The draft inside <think> defines the entry too; the answer after it is the kernel.
  const std::string reply =
      "<think>Maybe LMUL 4?\n```c\nvoid k(int *a) { a[0] = 1; }\n```\nNo, LMUL 8 is better.</think>\n"
      "Idea: LMUL 8 with 1.5x fewer vsetvli.\n```c\nvoid k(int *a) { a[0] = 8; }\n```\n";
  Proposal p = parse_proposal(reply, "k");
  ASSERT_TRUE(p.ok) << p.reason;
  EXPECT_NE(p.code.find("a[0] = 8"), std::string::npos);
  EXPECT_EQ(p.idea, "LMUL 8 with 1.5x fewer vsetvli.");
  p = parse_proposal("<think>Let me consider the strip-mining loop and", "k");
  EXPECT_FALSE(p.ok);
  EXPECT_NE(p.reason.find("raise llm.max_tokens"), std::string::npos) << p.reason;
}

TEST(Proposal, TheIdeaSentenceIsNotCutAtADecimalPoint) {
  Proposal p =
      parse_proposal("Unrolling by 2.5x hides the latency. Then more.\n```c\nvoid k(int *a) { a[0] = 1; }\n```", "k");
  ASSERT_TRUE(p.ok);
  EXPECT_EQ(p.idea, "Unrolling by 2.5x hides the latency.");
}

TEST(Proposal, UnusableRepliesSayWhy) {
  EXPECT_EQ(parse_proposal("I cannot help with that.", "k").reason, "no fenced code block in the reply");
  EXPECT_EQ(parse_proposal("```c\nint other(void) { return 0; }\n```", "k").reason, "no code block defines k()");
  EXPECT_NE(parse_proposal("```c\nvoid k(int *a) { a[0] = 1;", "k").reason.find("not closed (truncated reply?)"),
            std::string::npos);
  EXPECT_EQ(parse_proposal("```c\nvoid k(int *a) { a[0] = '\xff'; }\n```", "k").reason, "reply is not valid UTF-8");
  EXPECT_NE(parse_proposal(std::string(300 * 1024, 'x'), "k").reason.find("reply too large"), std::string::npos);
  // A call is not a definition.
  EXPECT_FALSE(parse_proposal("```c\nvoid g(int *a) { k(a); }\n```", "k").ok);
}

}  // namespace
}  // namespace eok::search
