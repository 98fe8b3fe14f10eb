#include "src/llm/prompt_library.h"

#include <gtest/gtest.h>

#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "src/search/llm_generator.h"

namespace eok::search {
namespace {

namespace fs = std::filesystem;

TEST(PromptTemplate, FillsValuesAndDropsEmptySections) {
  const std::string t = "Task {{task}}.\n{{#feedback}}Last time: {{feedback}}\n{{/feedback}}Go.";
  EXPECT_EQ(llm::fill_template(t, {{"task", "relu"}}), "Task relu.\nGo.");
  EXPECT_EQ(llm::fill_template(t, {{"task", "relu"}, {"feedback", "wrong_answer"}}),
            "Task relu.\nLast time: wrong_answer\nGo.");
  EXPECT_THROW(llm::fill_template("{{#x}} never closed", {{"x", "1"}}), ConfigError);
  EXPECT_EQ(llm::template_placeholders(t), (std::vector<std::string>{"feedback", "task"}));
}

TEST(PromptLibrary, TheShippedPromptsLoadAndUseOnlyKnownPlaceholders) {
  llm::PromptLibrary lib(fs::path(EOK_SOURCE_DIR) / "prompts", LlmGenerator::required_prompts(),
                         LlmGenerator::placeholders());
  const std::string m1 = lib.render("m1", {{"task_name", "ReLU"}, {"parent", "PARENT"}, {"feedback", "it crashed"}});
  EXPECT_NE(m1.find("ReLU"), std::string::npos);
  EXPECT_NE(m1.find("PARENT"), std::string::npos);
  EXPECT_NE(m1.find("it crashed"), std::string::npos);
  EXPECT_EQ(lib.render("m1", {}).find("{{"), std::string::npos);
}

TEST(PromptLibrary, ATypoInAPromptIsCaughtAtLoad) {
  TempDir dir(fs::temp_directory_path(), "eok-prompts-");
  write_file_atomic(dir.path() / "m1.txt", "Improve {{parnet}}.");
  try {
    llm::PromptLibrary lib(dir.path(), {}, {"parent"});
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown placeholder {{parnet}}"), std::string::npos);
  }
  EXPECT_THROW(llm::PromptLibrary(dir.path(), {"system"}, {"parnet"}), NotFoundError);
}

}  // namespace
}  // namespace eok::search
