#include <gtest/gtest.h>

#include "src/common/build_id.h"

namespace eok {
namespace {

TEST(BuildId, TheProgramKnowsItsLinkersBuildId) {
  // The build links every program with --build-id=sha1 (CMakeLists.txt): 20 bytes, 40 hex digits.
  const std::string id = program_build_id();
  ASSERT_EQ(id.size(), 40u) << id;
  EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos) << id;
  EXPECT_EQ(program_build_id(), id);
}

}  // namespace
}  // namespace eok
