#include "src/common/hash.h"

#include <gtest/gtest.h>

namespace eok {
namespace {

TEST(Hash, StableAndBoundaryAware) {
  EXPECT_EQ(content_hash("abc"), content_hash("abc"));
  EXPECT_NE(content_hash("abc"), content_hash("abd"));
  EXPECT_EQ(content_hash("abc").size(), 32u);
  EXPECT_NE(Hasher().add("ab").add("c").hex(), Hasher().add("a").add("bc").hex());
}

}  // namespace
}  // namespace eok
