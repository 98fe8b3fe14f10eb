// A tool's --version is asked once per installed binary: the answer is kept in the workspace, believed
// only for the same file, and asked again when the file changes or the cache is damaged.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "evaluator/board.h"
#include "evaluator/tool_versions.h"
#include "evaluator/toolchain.h"
#include "src/common/fs_util.h"
#include "support/board_fixture.h"

namespace eok::evaluator {
namespace {

namespace fs = std::filesystem;

TEST(ToolVersions, AreKeptPerBinaryAndAskedAgainWhenTheBinaryChanges) {
  TempDir dir(fs::temp_directory_path(), "eok-tool-versions-");
  const fs::path cache = dir.path() / "tool-versions.json";
  const BoardProfile board = load_board(testing::source_root(), "k1");
  const Toolchain first = find_toolchain(board, cache);
  ASSERT_TRUE(fs::exists(cache));
  EXPECT_EQ(first.clang_version, find_toolchain(board).clang_version) << "the cache answers as the tool does";

  // An entry for another file (another identity) is not believed: the tool is asked again.
  auto j = nlohmann::json::parse(read_file(cache));
  ASSERT_EQ(j.size(), 2u) << j.dump();
  for (auto& [path, entry] : j.items()) {
    entry["identity"] = "0:0:0.0";
    entry["version"] = "a version no tool printed";
  }
  write_file_atomic(cache, j.dump());
  EXPECT_EQ(find_toolchain(board, cache).clang_version, first.clang_version);
  EXPECT_EQ(read_file(cache).find("a version no tool printed"), std::string::npos);

  // The same file: the kept answer is used (the tool is not run).
  j = nlohmann::json::parse(read_file(cache));
  for (auto& [path, entry] : j.items()) entry["version"] = "kept: " + entry["version"].get<std::string>();
  write_file_atomic(cache, j.dump());
  EXPECT_EQ(find_toolchain(board, cache).clang_version, "kept: " + first.clang_version);

  write_file_atomic(cache, "not json");
  EXPECT_EQ(find_toolchain(board, cache).qemu_version, first.qemu_version);
}

// Startup reads the file once: both tools are answered from what the cache held when it was made, even
// after the file changes under it.
TEST(ToolVersions, TheCacheFileIsReadOnceWhenTheCacheIsMade) {
  TempDir dir(fs::temp_directory_path(), "eok-tool-versions-");
  const fs::path file = dir.path() / "tool-versions.json";
  const Toolchain tools = find_toolchain(load_board(testing::source_root(), "k1"), file);
  auto j = nlohmann::json::parse(read_file(file));
  for (auto& [path, entry] : j.items()) entry["version"] = "kept: " + entry["version"].get<std::string>();
  write_file_atomic(file, j.dump());

  ToolVersionCache cache(file);
  write_file_atomic(file, "not json");
  EXPECT_EQ(cache.version_of(tools.clang), "kept: " + tools.clang_version);
  EXPECT_EQ(cache.version_of(tools.qemu), "kept: " + tools.qemu_version);
  EXPECT_EQ(read_file(file), "not json") << "nothing new was learned, so nothing is written";
}

TEST(ToolVersions, WithoutAFileEveryToolIsAskedAndAFailureIsEmpty) {
  TempDir dir(fs::temp_directory_path(), "eok-tool-versions-");
  const Toolchain tools = find_toolchain(load_board(testing::source_root(), "k1"));
  ToolVersionCache cache({});
  EXPECT_EQ(cache.version_of(tools.clang), tools.clang_version);
  EXPECT_EQ(cache.version_of(dir.path() / "no-such-tool"), "");
}

}  // namespace
}  // namespace eok::evaluator
