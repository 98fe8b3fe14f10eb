// Prompt texts from prompts/NAME.txt with {{placeholder}} and {{#section}}...{{/section}} filling.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace eok::llm {

using PromptValues = std::map<std::string, std::string>;

class PromptLibrary {
 public:
  // Loads the `required` prompts (`dir`/NAME.txt; every *.txt there when `required` is empty). Throws
  // NotFoundError when the directory or a required prompt is missing, ConfigError when a loaded prompt uses
  // a placeholder outside `known_placeholders` or has an unbalanced section: a typo fails at load time.
  PromptLibrary(const std::filesystem::path& dir, const std::vector<std::string>& required,
                const std::vector<std::string>& known_placeholders);

  // The prompt `name` with `values` filled in; placeholders without a value become empty, and their
  // sections disappear.
  std::string render(const std::string& name, const PromptValues& values) const;

 private:
  std::map<std::string, std::string> texts_;
};

// The template engine on its own (for tests): fills `text`.
std::string fill_template(const std::string& text, const PromptValues& values);

// Placeholder names a template uses (both {{x}} and {{#x}}).
std::vector<std::string> template_placeholders(const std::string& text);

}  // namespace eok::llm
