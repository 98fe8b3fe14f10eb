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
    // The first sentence of the prose before the code: up to a line end, or a full stop followed by a space
    // (not the point of "1.5x" or "e.g").
    std::string text = trim(prose);
    size_t end = std::string::npos;
    for (size_t i = 0; i < text.size() && end == std::string::npos; ++i) {
      if (text[i] == '\n' ||
          (text[i] == '.' && (i + 1 == text.size() || std::isspace(static_cast<unsigned char>(text[i + 1])))))
        end = i;
    }
    idea = trim(text.substr(0, end == std::string::npos ? text.size() : end + 1));
  }
  if (idea.size() > kMaxIdeaChars) idea = idea.substr(0, kMaxIdeaChars) + "...";
  return idea;
}

}  // namespace

Proposal parse_proposal(const std::string& reply, const std::string& entry) {
  Proposal p;
  if (reply.size() > kMaxReplyBytes) {
    p.reason =
        "reply too large (" + std::to_string(reply.size()) + " bytes; limit " + std::to_string(kMaxReplyBytes) + ")";
    return p;
  }
  if (!valid_utf8(reply)) {
    p.reason = "reply is not valid UTF-8";
    return p;
  }
  // A reasoning model drafts inside <think>...</think> before its answer: only the answer counts.
  std::string answer = reply;
  if (const size_t close = reply.rfind("</think>"); close != std::string::npos) {
    answer = reply.substr(close + 8);
  } else if (reply.find("<think>") != std::string::npos) {
    p.reason = "the reply ends inside <think>: the model ran out of tokens while reasoning (raise llm.max_tokens)";
    return p;
  }
  const auto blocks = fenced_blocks(answer);
  if (blocks.empty()) {
    p.reason = "no fenced code block in the reply";
    return p;
  }
  const std::regex definition("\\b" + entry + R"(\s*\([^;{}]*\)\s*\{)");
  // The last complete block that defines the entry is the kernel: a reply that revises a draft ends with
  // the revision.
  const Block* found = nullptr;
  size_t defining = 0;
  for (const auto& b : blocks) {
    if (!std::regex_search(b.code, definition)) continue;
    ++defining;
    if (b.closed) found = &b;
  }
  if (defining == 0) {
    const bool truncated = !blocks.back().closed;
    p.reason = truncated ? "the code block is not closed (truncated reply?) and defines no " + entry
                         : "no code block defines " + entry + "()";
    return p;
  }
  if (!found) {
    p.reason = "the code block is not closed (truncated reply?)";
    return p;
  }
  p.ok = true;
  p.code = found->code;
  p.idea = idea_from(answer.substr(0, found->start));
  return p;
}

}  // namespace eok::search
