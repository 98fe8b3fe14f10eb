// The repository's own promises: CI runs exactly the README's test command.
#include <gtest/gtest.h>

#include <regex>

#include "src/common/fs_util.h"

namespace eok {
namespace {

TEST(Repository, CiRunsTheReadmesTestCommand) {
  const std::string root = EOK_SOURCE_DIR;
  const std::string readme = read_file(root + "/README.md");
  const std::string ci = read_file(root + "/.ci/run");
  std::regex block("```sh\n([^\n]*)\n```");
  std::vector<std::string> commands;
  for (auto it = std::sregex_iterator(readme.begin(), readme.end(), block); it != std::sregex_iterator(); ++it) {
    commands.push_back((*it)[1]);
  }
  ASSERT_GE(commands.size(), 2u) << "the README starts with the main command and the test command";
  EXPECT_NE(commands[0].find("build/eok "), std::string::npos) << "the first command runs the program";
  EXPECT_NE(commands[1].find("ctest"), std::string::npos) << "the second command runs the tests";
  EXPECT_EQ(readme.find("```sh"), readme.find(commands[0]) - 6) << "the main command comes first";
  EXPECT_NE(ci.find("\n" + commands[1] + "\n"), std::string::npos) << ".ci/run must run the README's test command";
}

}  // namespace
}  // namespace eok
