// The shared-data label follows the suite name: a test that needs the shared data and is named otherwise
// fails, so that `ctest -L shared-data` never misses one.
#include "support/shared_data.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

namespace eok::testing {
namespace {

TEST(SharedDataLabel, ATestNamedOtherwiseFailsWhenItAsksForTheSharedData) {
  EXPECT_NONFATAL_FAILURE(expect_shared_data_suite(), "its suite must be named SharedDataLabelSharedData");
}

TEST(SharedDataLabelSharedData, ASuiteNamedForTheLabelMayAskForIt) {
  expect_shared_data_suite();  // no failure
  EXPECT_EQ(shared_data("x60"), shared_data_dir() / "x60");
}

}  // namespace
}  // namespace eok::testing
