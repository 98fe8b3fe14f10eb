#include "idea_pool/example_code.h"

#include <algorithm>
#include <regex>
#include <sstream>

#include "idea_pool/distiller.h"

namespace eok::idea_pool {

namespace {

struct Hunk {
  std::vector<std::string> lines;  // with their ' ', '+', '-' marks; the "@@" line first when there is one
};

bool is_change(const std::string& l) {
  return !l.empty() && (l[0] == '+' || l[0] == '-');
}

std::string body(const std::string& l) {
  return l.empty() ? l : l.substr(1);
}

// For each line of the hunk: does it hold nothing but comment text (or nothing)? Block comments are
// followed across lines, so the plain-text lines of a licence header count as comment.
std::vector<bool> comment_only(const std::vector<std::string>& lines) {
  std::vector<bool> out;
  bool in_block = false;
  for (const auto& line : lines) {
    if (line.starts_with("@@")) {
      out.push_back(false);
      continue;
    }
    const std::string t = body(line);
    bool code = false;
    for (size_t i = 0; i < t.size(); ++i) {
      if (in_block) {
        if (t.compare(i, 2, "*/") == 0) in_block = false, ++i;
      } else if (t.compare(i, 2, "/*") == 0) {
        in_block = true, ++i;
      } else if (t.compare(i, 2, "//") == 0) {
        break;
      } else if (t[i] != ' ' && t[i] != '\t') {
        code = true;
      }
    }
    out.push_back(!code);
  }
  return out;
}

bool is_licence_text(const std::string& text) {
  static const std::regex words(
      R"(Copyright|COPYRIGHT|Redistribution|LICENSE|License|WARRANTIES|WARRANTY|LIABILITY|THIS SOFTWARE|All rights reserved|provided that|SPDX)");
  return std::regex_search(text, words);
}

std::vector<Hunk> split_hunks(const std::string& code) {
  std::vector<Hunk> hunks(1);
  std::istringstream in(code);
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with("diff --git") || line.starts_with("index ") || line.starts_with("--- ") ||
        line.starts_with("+++ ")) {
      continue;
    }
    if (line.starts_with("@@")) {
      if (!hunks.back().lines.empty()) hunks.emplace_back();
      hunks.back().lines.push_back(line);
      continue;
    }
    hunks.back().lines.push_back(line.empty() ? " " : line);
  }
  return hunks;
}

// The hunk without licence comment blocks, its unchanged lines kept only within `context` of a change.
Hunk trim(const Hunk& h, size_t context) {
  // Drop every comment block (a run of comment lines) that mentions a licence.
  std::vector<bool> keep(h.lines.size(), true);
  const std::vector<bool> comment = comment_only(h.lines);
  for (size_t i = 0; i < h.lines.size();) {
    if (h.lines[i].starts_with("@@") || !comment[i]) {
      ++i;
      continue;
    }
    size_t j = i;
    bool licence = false;
    while (j < h.lines.size() && !h.lines[j].starts_with("@@") && comment[j]) {
      licence = licence || is_licence_text(h.lines[j]);
      ++j;
    }
    if (licence) std::fill(keep.begin() + static_cast<long>(i), keep.begin() + static_cast<long>(j), false);
    i = j;
  }
  std::vector<size_t> changes;
  for (size_t i = 0; i < h.lines.size(); ++i) {
    if (keep[i] && is_change(h.lines[i]) && !comment[i]) changes.push_back(i);
  }
  Hunk out;
  if (changes.empty()) return out;  // only comments (or licence text) changed
  size_t last = 0;
  bool any = false;
  for (size_t i = 0; i < h.lines.size(); ++i) {
    if (!keep[i]) continue;
    if (h.lines[i].starts_with("@@")) {
      out.lines.push_back(h.lines[i]);
      continue;
    }
    const auto near = std::lower_bound(changes.begin(), changes.end(), i > context ? i - context : 0);
    const bool close = near != changes.end() && *near <= i + context;
    if (!is_change(h.lines[i]) && !close) continue;
    if (any && i > last + 1 && !out.lines.empty() && out.lines.back() != " ...") out.lines.push_back(" ...");
    out.lines.push_back(h.lines[i]);
    last = i;
    any = true;
  }
  return out;
}

}  // namespace

std::string clean_example_code(const std::string& code, size_t max_chars, size_t context) {
  std::string out;
  for (const Hunk& h : split_hunks(code)) {
    const Hunk t = trim(h, context);
    if (t.lines.empty()) continue;
    std::string text;
    for (const auto& l : t.lines) text += l + "\n";
    if (out.size() + text.size() > max_chars) {
      if (!out.empty()) break;
      text = text.substr(0, max_chars);
      text = text.substr(0, text.rfind('\n') + 1) + "[...]\n";
    }
    out += text;
  }
  return out;
}

int example_relevance(const CodeExample& e) {
  static const std::regex rvv(R"(__riscv_|vsetvli?|vfloat|vint|vuint|vbool|riscv_vector\.h)");
  static const std::regex assembler(
      R"((^|\n)[+\- ]\s*(\.macro|\.endm|\.align|ld1|st1|fmla|vfmacc\.v|vle32\.v|vse32\.v|ldr|str|vmovups|vfmadd|movq)\b)");
  const std::string f = e.file;
  const bool asm_file = f.ends_with(".S") || f.ends_with(".s") || f.ends_with(".asm");
  const bool c_file = f.ends_with(".c") || f.ends_with(".h") || f.ends_with(".cc") || f.ends_with(".cpp");
  int score = 0;
  if (std::regex_search(e.code, rvv)) score += 4;
  if (c_file) score += 2;
  if (asm_file || std::regex_search(e.code, assembler)) score -= 3;
  return score;
}

std::vector<const CodeExample*> examples_by_relevance(const Thought& t) {
  std::vector<const CodeExample*> out;
  for (const auto& e : t.examples) out.push_back(&e);
  std::stable_sort(out.begin(), out.end(), [](const CodeExample* a, const CodeExample* b) {
    return example_relevance(*a) > example_relevance(*b);
  });
  return out;
}

bool pool_is_extractive(const IdeaPool& pool) {
  auto it = pool.source.find("distiller");
  if (it != pool.source.end() && it->second.find("extractive") != std::string::npos) return true;
  for (const auto& idea : pool.ideas) {
    for (const auto& t : idea.thoughts) {
      if (t.description.starts_with(kExtractivePrefix)) return true;
    }
  }
  return false;
}

}  // namespace eok::idea_pool
