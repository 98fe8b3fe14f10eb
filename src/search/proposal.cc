#include "src/search/proposal.h"

#include <cctype>
#include <regex>
#include <vector>


namespace eok::search {

namespace {

constexpr size_t kMaxReplyBytes = 256 * 1024;
constexpr size_t kMaxIdeaChars = 300;

bool valid_utf8(const std::string& s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return false;
    }
    i += n;
  }
  return true;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n*#>-");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n*");
  return s.substr(b, e - b + 1);
}

struct Block {
  size_t start = 0;  // offset of the opening fence in the reply
  std::string code;
  bool closed = false;
};

std::vector<Block> fenced_blocks(const std::string& reply) {
  std::vector<Block> blocks;
  size_t pos = 0;
  Block* open = nullptr;
  while (pos < reply.size()) {
    size_t eol = reply.find('\n', pos);
    if (eol == std::string::npos) eol = reply.size();
    const std::string line = reply.substr(pos, eol - pos);
    const size_t lead = line.find_first_not_of(" \t");
    const bool fence = lead != std::string::npos && line.compare(lead, 3, "```") == 0;
    if (fence) {
      if (open) {
        open->closed = true;
        open = nullptr;
      } else {
        blocks.push_back({pos, "", false});
        open = &blocks.back();
      }
    } else if (open) {
      open->code += line + "\n";
    }
    pos = eol + 1;
  }
  return blocks;
}

std::string idea_from(const std::string& prose) {
  static const std::regex idea_line(R"((^|\n)[ \t>*_#-]*idea[*_]*[ \t]*:[ \t]*([^\n]+))", std::regex::icase);
  std::smatch m;
  std::string idea;
  if (std::regex_search(prose, m, idea_line)) {
    idea = trim(m[2].str());
  } else {
    // The first sentence of the prose before the code.
    std::string text = trim(prose);
    size_t end = text.find_first_of(".\n");
    idea = trim(text.substr(0, end == std::string::npos ? text.size() : end + 1));
  }
  if (idea.size() > kMaxIdeaChars) idea = idea.substr(0, kMaxIdeaChars) + "...";
  return idea;
}

}  // namespace

Proposal parse_proposal(const std::string& reply, const std::string& entry) {
  Proposal p;
  if (reply.size() > kMaxReplyBytes) {
    p.reason = "reply too large (" + std::to_string(reply.size()) + " bytes; limit " + std::to_string(kMaxReplyBytes) + ")";
    return p;
  }
  if (!valid_utf8(reply)) {
    p.reason = "reply is not valid UTF-8";
    return p;
  }
  const auto blocks = fenced_blocks(reply);
  if (blocks.empty()) {
    p.reason = "no fenced code block in the reply";
    return p;
  }
  const std::regex definition("\\b" + entry + R"(\s*\([^;{}]*\)\s*\{)");
  const Block* found = nullptr;
  size_t defining = 0;
  for (const auto& b : blocks) {
    if (!std::regex_search(b.code, definition)) continue;
    ++defining;
    if (!found) found = &b;
  }
  if (defining == 0) {
    const bool truncated = !blocks.back().closed;
    p.reason = truncated ? "the code block is not closed (truncated reply?) and defines no " + entry
                         : "no code block defines " + entry + "()";
    return p;
  }
  if (defining > 1) {
    p.reason = std::to_string(defining) + " code blocks define " + entry + "(): which one is the kernel is ambiguous";
    return p;
  }
  if (!found->closed) {
    p.reason = "the code block is not closed (truncated reply?)";
    return p;
  }
  p.ok = true;
  p.code = found->code;
  p.idea = idea_from(reply.substr(0, found->start));
  return p;
}

}  // namespace eok::search
