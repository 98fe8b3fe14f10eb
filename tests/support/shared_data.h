// The team's shared data (../shared/data beside the checkout, or $EOK_SHARED_DATA): real measurements and
// corpora that some tests compare against. It is absent on some machines; a test that needs it skips and
// says which file it missed (SKIP_WITHOUT_SHARED_DATA), so a skip is never silent. Such a test belongs to a
// suite named *SharedData: tests/CMakeLists.txt gives those the ctest label shared-data.
#pragma once

#include <filesystem>
#include <string_view>

namespace eok::testing {

// The shared data folder, and a file or folder under it ("x60/rvv-bench-x60-kernels.json").
std::filesystem::path shared_data_dir();
std::filesystem::path shared_data(std::string_view relative);

// Fails the current test unless its suite is named *SharedData (the name the shared-data label follows).
void expect_shared_data_suite();

}  // namespace eok::testing

// Skips the current test, naming what it needed, when `path` does not exist.
#define SKIP_WITHOUT_SHARED_DATA(path)                                                                  \
  do {                                                                                                  \
    ::eok::testing::expect_shared_data_suite();                                                         \
    if (!std::filesystem::exists(path))                                                                 \
      GTEST_SKIP() << "[shared-data] " << (path).string() << " is missing (set EOK_SHARED_DATA to the " \
                   << "folder that holds the team's shared data)";                                      \
  } while (false)
