// EOK_ASSERT holds in every build type and fails as an internal error that names the broken condition.
#include <gtest/gtest.h>

#include "src/common/error.h"
#include "src/common/text.h"

namespace eok {
namespace {

TEST(EokAssert, ABrokenInvariantIsAnInternalErrorNamingItsLine) {
  EXPECT_NO_THROW(EOK_ASSERT(1 + 1 == 2, "arithmetic"));
  try {
    EOK_ASSERT(1 + 1 == 3, "arithmetic");
    FAIL() << "no error";
  } catch (const InternalError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("assert_test.cc:"), std::string::npos) << what;
    EXPECT_NE(what.find("1 + 1 == 3 does not hold (arithmetic)"), std::string::npos) << what;
    EXPECT_EQ(e.exit_code(), 70);
    EXPECT_STREQ(e.kind(), "internal");
  }
  EXPECT_THROW(median({}), InternalError);
  EXPECT_DOUBLE_EQ(median({3, 1, 2, 10}), 2.5);
}

}  // namespace
}  // namespace eok
