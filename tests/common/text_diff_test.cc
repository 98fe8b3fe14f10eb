#include "src/common/text_diff.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace eok {
namespace {

TEST(TextDiff, EqualTextsHaveNoDiff) {
  EXPECT_EQ(unified_diff("a\nb\n", "a\nb\n", "x", "y"), "");
}

TEST(TextDiff, ChangedLineWithContext) {
  const std::string a = "1\n2\n3\n4\n5\n6\n7\n8\n", b = "1\n2\n3\n4\nfive\n6\n7\n8\n";
  EXPECT_EQ(unified_diff(a, b, "old", "new", 2), "--- old\n+++ new\n@@ -3,5 +3,5 @@\n 3\n 4\n-5\n+five\n 6\n 7\n");
}

TEST(TextDiff, FarApartChangesMakeTwoHunksAndInsertionsCount) {
  std::string a, b;
  for (int i = 1; i <= 20; ++i) {
    a += std::to_string(i) + "\n";
    b += std::to_string(i) + "\n";
    if (i == 2) b += "inserted\n";
  }
  b.replace(b.find("\n18\n"), 4, "\neighteen\n");
  const std::string d = unified_diff(a, b, "a", "b", 1);
  EXPECT_NE(d.find("@@ -2,2 +2,3 @@\n 2\n+inserted\n 3\n"), std::string::npos) << d;
  EXPECT_NE(d.find("-18\n+eighteen\n"), std::string::npos) << d;
  EXPECT_EQ(std::count(d.begin(), d.end(), '@'), 8) << d;  // two hunk headers
}

}  // namespace
}  // namespace eok
