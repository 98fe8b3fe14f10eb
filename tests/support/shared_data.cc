#include "support/shared_data.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace eok::testing {

std::filesystem::path shared_data_dir() {
  if (const char* env = std::getenv("EOK_SHARED_DATA"); env && *env) return env;
  return std::filesystem::path(EOK_SOURCE_DIR).parent_path() / "shared" / "data";
}

std::filesystem::path shared_data(std::string_view relative) {
  return shared_data_dir() / std::string(relative);
}

void expect_shared_data_suite() {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  if (test == nullptr) return;
  const std::string suite = test->test_suite_name();  // "Prefix/Suite" for a parameterised one
  if (!suite.ends_with("SharedData"))
    ADD_FAILURE() << suite << "." << test->name() << " needs the shared data, so its suite must be named "
                  << suite.substr(suite.rfind('/') + 1) << "SharedData: ctest labels those shared-data "
                  << "(tests/CMakeLists.txt)";
}

}  // namespace eok::testing
