#include "src/llm/prompt_library.h"

#include <algorithm>
#include <set>

#include "src/common/error.h"
#include "src/common/fs_util.h"

namespace eok::llm {

namespace fs = std::filesystem;

namespace {

// Finds the next "{{...}}" at or after `from`; returns npos when none.
size_t next_tag(const std::string& text, size_t from, std::string& inner, size_t& end) {
  size_t open = text.find("{{", from);
  if (open == std::string::npos) return open;
  size_t close = text.find("}}", open + 2);
  if (close == std::string::npos) return std::string::npos;
  inner = text.substr(open + 2, close - open - 2);
  end = close + 2;
  return open;
}

bool blank(const std::string& s) {
  return s.find_first_not_of(" \t\r\n") == std::string::npos;
}

}  // namespace

std::vector<std::string> template_placeholders(const std::string& text) {
  std::set<std::string> names;
  std::string inner;
  size_t end = 0;
  for (size_t pos = next_tag(text, 0, inner, end); pos != std::string::npos; pos = next_tag(text, end, inner, end)) {
    if (!inner.empty() && (inner[0] == '#' || inner[0] == '/')) inner.erase(0, 1);
    names.insert(inner);
  }
  return {names.begin(), names.end()};
}

std::string fill_template(const std::string& text, const PromptValues& values) {
  auto value = [&](const std::string& name) -> std::string {
    auto it = values.find(name);
    return it == values.end() ? "" : it->second;
  };
  std::string out;
  size_t pos = 0;
  std::string inner;
  size_t end = 0;
  for (size_t open = next_tag(text, pos, inner, end); open != std::string::npos;
       open = next_tag(text, pos, inner, end)) {
    out.append(text, pos, open - pos);
    if (!inner.empty() && inner[0] == '#') {
      const std::string name = inner.substr(1), closing = "{{/" + name + "}}";
      const size_t close = text.find(closing, end);
      if (close == std::string::npos) throw ConfigError("prompt section {{#" + name + "}} is never closed");
      if (!blank(value(name))) out += fill_template(text.substr(end, close - end), values);
      pos = close + closing.size();
      // A section that ends its line takes the line break with it.
      if (pos < text.size() && text[pos] == '\n') ++pos;
      continue;
    }
    out += value(inner);
    pos = end;
  }
  out.append(text, pos, std::string::npos);
  return out;
}

PromptLibrary::PromptLibrary(const fs::path& dir, const std::vector<std::string>& required,
                             const std::vector<std::string>& known_placeholders) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw NotFoundError("no prompts directory at " + dir.string());
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".txt") continue;
    const std::string name = e.path().stem().string();
    // Each user loads the prompts it renders; another command's prompts use other placeholders.
    if (!required.empty() && std::find(required.begin(), required.end(), name) == required.end()) continue;
    const std::string text = read_regular_file(e.path(), kSettingsFileMaxBytes, "prompt file");
    for (const auto& p : template_placeholders(text)) {
      if (std::find(known_placeholders.begin(), known_placeholders.end(), p) == known_placeholders.end()) {
        throw ConfigError(e.path().string() + ": unknown placeholder {{" + p + "}} (prompts/README.md lists them)");
      }
    }
    fill_template(text, {});  // checks that every section is closed
    texts_[name] = text;
  }
  for (const auto& r : required) {
    if (!texts_.count(r)) throw NotFoundError("prompt " + (dir / (r + ".txt")).string() + " is missing");
  }
}

std::string PromptLibrary::render(const std::string& name, const PromptValues& values) const {
  auto it = texts_.find(name);
  if (it == texts_.end()) throw NotFoundError("no prompt named " + name);
  return fill_template(it->second, values);
}

}  // namespace eok::llm
