#include "rag/chunker.h"

#include <algorithm>
#include <regex>

namespace eok::rag {

namespace {

struct Line {
  std::string text;
  size_t number;  // 1-based
};

struct Piece {
  std::vector<Line> lines;
  bool block = false;  // a delimited block (listing, table, fence)
  size_t chars() const {
    size_t n = 0;
    for (const auto& l : lines) n += l.text.size() + 1;
    return n;
  }
};

struct Section {
  std::string path;
  std::vector<Line> lines;
};

bool is_blank(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
}

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  size_t b = 0;
  while (b < s.size() && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  return s.substr(b);
}

// The delimiter a line opens (or closes) a block with; "" when it is not one.
std::string block_delimiter(const std::string& line, DocumentKind kind) {
  const std::string t = trim(line);
  if (kind == DocumentKind::markdown) {
    if (t.rfind("```", 0) == 0) return "```";
    if (t.rfind("~~~", 0) == 0) return "~~~";
    return "";
  }
  if (kind != DocumentKind::asciidoc) return "";
  if (t == "|===" || t == ",===" || t == ":===") return t;
  static const std::regex delim(R"(^(-{4,}|\.{4,}|={4,}|\*{4,}|\+{4,}|_{4,})$)");
  if (std::regex_match(t, delim)) return t;
  return "";
}

bool attribute_line(const std::string& t) {
  return (t.size() >= 2 && t.front() == '[' && t.back() == ']') || (t.size() > 1 && t[0] == '.' && t[1] != '.');
}

std::vector<Line> split_lines(const std::string& text) {
  std::vector<Line> lines;
  size_t pos = 0, number = 1;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string l = text.substr(pos, end - pos);
    if (!l.empty() && l.back() == '\r') l.pop_back();
    lines.push_back({std::move(l), number++});
    if (end == text.size()) break;
    pos = end + 1;
  }
  return lines;
}

// Sections by headings (AsciiDoc, Markdown), by top-level blocks (code) or one section (text).
std::vector<Section> sections_of(const Document& doc, const std::vector<Line>& lines) {
  std::vector<Section> out(1);
  std::vector<std::string> stack;  // titles by level
  static const std::regex adoc_title(R"(^(={1,6})\s+(\S.*)$)");
  static const std::regex md_title(R"(^(#{1,6})\s+(\S.*?)\s*#*\s*$)");
  std::string open;  // the delimiter of the block we are in
  bool after_break = true;  // the previous significant line was blank, an attribute line, or the start
  for (const Line& l : lines) {
    const std::string d = block_delimiter(l.text, doc.kind);
    if (!open.empty()) {
      if (d == open || (doc.kind == DocumentKind::markdown && !d.empty() && d.substr(0, 3) == open)) open.clear();
      out.back().lines.push_back(l);
      continue;
    }
    std::smatch m;
    const bool title = (doc.kind == DocumentKind::asciidoc && after_break && std::regex_match(l.text, m, adoc_title)) ||
                       (doc.kind == DocumentKind::markdown && std::regex_match(l.text, m, md_title));
    if (title) {
      const size_t level = m[1].str().size();
      stack.resize(level - 1 < stack.size() ? level - 1 : stack.size());
      while (stack.size() < level - 1) stack.push_back("");
      stack.push_back(trim(m[2].str()));
      std::string path;
      for (const auto& s : stack) {
        if (s.empty()) continue;
        path += (path.empty() ? "" : " > ") + s;
      }
      out.push_back({path, {}});
      after_break = true;
      continue;
    }
    if (!d.empty()) open = d;
    out.back().lines.push_back(l);
    const std::string t = trim(l.text);
    after_break = t.empty() || attribute_line(t) || (t.rfind("[[", 0) == 0);
  }
  return out;
}

// Pieces of a section: runs of lines between blank lines; a delimited block stays one piece.
std::vector<Piece> pieces_of(const std::vector<Line>& lines, DocumentKind kind) {
  std::vector<Piece> out;
  Piece cur;
  std::string open;
  int depth = 0;  // braces, for code: blank lines inside a function do not split it
  auto flush = [&] {
    if (!cur.lines.empty()) out.push_back(std::move(cur));
    cur = {};
  };
  for (const Line& l : lines) {
    if (!open.empty()) {
      cur.lines.push_back(l);
      const std::string d = block_delimiter(l.text, kind);
      if (d == open || (kind == DocumentKind::markdown && !d.empty() && d.substr(0, 3) == open)) open.clear();
      continue;
    }
    if (is_blank(l.text) && depth <= 0) {
      flush();
      continue;
    }
    const std::string d = block_delimiter(l.text, kind);
    if (!d.empty()) {
      open = d;
      cur.block = true;
    }
    if (kind == DocumentKind::code) {
      for (char c : l.text) depth += c == '{' ? 1 : c == '}' ? -1 : 0;
    }
    cur.lines.push_back(l);
  }
  flush();
  return out;
}

// A piece too long for one chunk, cut at line boundaries (a line longer than max at max).
std::vector<Piece> split_piece(const Piece& p, size_t max) {
  std::vector<Piece> out(1);
  for (const Line& l : p.lines) {
    std::string rest = l.text;
    do {
      std::string part = rest.substr(0, max);
      rest = rest.size() > max ? rest.substr(max) : "";
      if (!out.back().lines.empty() && out.back().chars() + part.size() + 1 > max) out.emplace_back();
      out.back().lines.push_back({part, l.number});
    } while (!rest.empty());
  }
  return out;
}

std::string join(const std::vector<Line>& lines) {
  std::string s;
  for (const auto& l : lines) s += l.text + "\n";
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

// For code: a section per top-level block, named by its first meaningful line.
std::vector<Section> code_sections(const std::vector<Line>& lines) {
  std::vector<Section> out;
  for (Piece& p : pieces_of(lines, DocumentKind::code)) {
    std::string name;
    for (const auto& l : p.lines) {
      const std::string t = trim(l.text);
      if (t.empty() || t.rfind("//", 0) == 0 || t.rfind("/*", 0) == 0 || t.rfind("*", 0) == 0 || t.rfind("#", 0) == 0) continue;
      name = t.substr(0, 100);
      break;
    }
    out.push_back({name, std::move(p.lines)});
  }
  return out;
}

}  // namespace

std::vector<Chunk> chunk_document(const Document& doc, const ChunkOptions& options) {
  const size_t max = std::max<size_t>(options.max_chars, 64);
  const std::vector<Line> lines = split_lines(doc.text);
  const std::vector<Section> sections = doc.kind == DocumentKind::code ? code_sections(lines) : sections_of(doc, lines);
  std::vector<Chunk> out;
  for (const Section& s : sections) {
    std::vector<Piece> pieces;
    for (Piece& p : pieces_of(s.lines, doc.kind == DocumentKind::code ? DocumentKind::text : doc.kind)) {
      const size_t n = p.chars();
      if (n <= max || (p.block && n <= 2 * max)) {
        pieces.push_back(std::move(p));
      } else {
        for (Piece& part : split_piece(p, max)) pieces.push_back(std::move(part));
      }
    }
    // Pack neighbouring pieces while they fit; plain text keeps one paragraph a chunk unless it is short.
    Piece cur;
    auto emit = [&] {
      std::string text = join(cur.lines);
      if (!is_blank(text)) out.push_back({doc.source, s.path, std::move(text), cur.lines.front().number});
      cur = {};
    };
    for (Piece& p : pieces) {
      const bool fits = cur.chars() + p.chars() <= max;
      const bool paragraph_mode = doc.kind == DocumentKind::text && cur.chars() >= options.min_chars;
      if (!cur.lines.empty() && (!fits || paragraph_mode)) emit();
      const bool oversized = p.chars() > max;
      if (!cur.lines.empty()) cur.lines.push_back({"", p.lines.front().number});
      cur.lines.insert(cur.lines.end(), p.lines.begin(), p.lines.end());
      if (oversized) emit();
    }
    if (!cur.lines.empty()) emit();
  }
  return out;
}

}  // namespace eok::rag
