#include "rag/chunker.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string_view>
#include <utility>

namespace eok::rag {

namespace {

using std::string_view;

// ---- lines and pieces --------------------------------------------------------------------------------

struct Line {
  string_view text;       // a view into Document::text, without the line end and trailing white space
  size_t number = 0;      // 1-based
  bool repeated = false;  // not new text: a split block's opening or closing repeated, a blank separator
};

// Bytes of `lines` joined with '\n'.
size_t joined_size(const std::vector<Line>& lines) {
  if (lines.empty()) return 0;
  size_t n = lines.size() - 1;
  for (const Line& l : lines) n += l.text.size();
  return n;
}

// Lines that stay together in a chunk: a paragraph, a delimited block with its attribute lines, a top-level
// unit of C/C++ code.
struct Piece {
  std::vector<Line> lines;
  bool blank_before = false;  // a blank line separated it from the piece before
  bool whole = false;         // a listing or table: kept whole up to 2 * max_chars
  size_t open = 0;            // leading lines that open the block: attributes, block title, delimiter, table header
  size_t close = 0;           // trailing lines that close it
  size_t size() const { return joined_size(lines); }
};

struct Section {
  std::string path;
  std::vector<Piece> pieces;
  bool loose = false;  // C/C++: a run of declarations between blocks, which the next declarations join
};

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

string_view rstrip(string_view s) {
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

string_view lstrip(string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  return s;
}

string_view strip(string_view s) {
  return lstrip(rstrip(s));
}

bool starts_with(string_view s, string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool all_of_char(string_view s, char c) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [c](char x) { return x == c; });
}

std::vector<Line> split_lines(string_view text) {
  std::vector<Line> lines;
  size_t pos = 0, number = 1;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == string_view::npos) end = text.size();
    lines.push_back({rstrip(text.substr(pos, end - pos)), number++, false});
    pos = end + 1;
  }
  return lines;
}

// ---- AsciiDoc and Markdown syntax --------------------------------------------------------------------

enum class Block { none, verbatim, table, compound, comment };

struct Delimiter {
  Block type = Block::none;
  string_view text;  // AsciiDoc: the line that closes the block; Markdown: the opening fence's run of ` or ~
};

// A line that opens an AsciiDoc delimited block. Listings, literals and passthroughs are verbatim (nothing
// inside them is syntax); examples, sidebars, quotes, open blocks and tables may hold nested blocks.
Delimiter adoc_delimiter(string_view t) {
  if (t == "--") return {Block::compound, t};
  if (t.size() == 4 && t.substr(1) == "===" && (t[0] == '|' || t[0] == ',' || t[0] == ':' || t[0] == '!')) {
    return {Block::table, t};
  }
  if (starts_with(t, "```")) return {Block::verbatim, "```"};
  if (t.size() < 4 || !all_of_char(t, t[0])) return {};
  switch (t[0]) {
    case '-':
    case '.':
    case '+':
      return {Block::verbatim, t};
    case '/':
      return {Block::comment, t};
    case '=':
    case '*':
    case '_':
      return {Block::compound, t};
    default:
      return {};
  }
}

// A Markdown fence: up to three spaces, then three or more ` or ~ (a ``` fence's info string has no `).
Delimiter md_fence(string_view line) {
  const string_view t = lstrip(line);
  if (line.size() - t.size() > 3 || t.size() < 3 || (t[0] != '`' && t[0] != '~')) return {};
  size_t n = 0;
  while (n < t.size() && t[n] == t[0]) ++n;
  if (n < 3 || (t[0] == '`' && t.find('`', n) != string_view::npos)) return {};
  return {Block::verbatim, t.substr(0, n)};
}

bool closes(const Delimiter& d, string_view line, bool markdown) {
  if (!markdown) return line == d.text;
  const string_view t = strip(line);
  return t.size() >= d.text.size() && all_of_char(t, d.text[0]) && line.size() - lstrip(line).size() <= 3;
}

// The index of the line that closes the block opened at lines[i], following nested blocks inside compound
// ones; nullopt when it is never closed (then the opening line was no delimiter, only text that looks like
// one). When a nested "block" never closes, the outer one is looked for again without nesting.
std::optional<size_t> block_end(const std::vector<Line>& lines, size_t i, Delimiter d, bool markdown) {
  for (const bool nesting : {true, false}) {
    std::vector<Delimiter> open{d};
    for (size_t j = i + 1; j < lines.size(); ++j) {
      const string_view t = lines[j].text;
      if (closes(open.back(), t, markdown)) {
        open.pop_back();
        if (open.empty()) return j;
        continue;
      }
      const Block type = open.back().type;
      if (nesting && !markdown && (type == Block::compound || type == Block::table)) {
        if (const Delimiter inner = adoc_delimiter(t); inner.type != Block::none) open.push_back(inner);
      }
    }
    if (markdown) break;
  }
  return std::nullopt;
}

// An attribute list, anchor or block title line: `[source,c]`, `[[sec-x]]`, `.Title`. It belongs to the
// block or section right below it.
bool adoc_block_meta(string_view t) {
  if (t.size() >= 2 && t.front() == '[' && t.back() == ']') return true;
  return t.size() >= 2 && t[0] == '.' && t[1] != '.' && t[1] != ' ';
}

// `// a comment` (but not a `////` block delimiter).
bool adoc_comment(string_view t) {
  return starts_with(t, "//") && !(t.size() >= 4 && all_of_char(t, '/'));
}

// `:name: value`, `:name!:`: document attributes, not content.
bool adoc_attribute_entry(string_view t) {
  if (t.size() < 3 || t[0] != ':' || !(std::isalnum(static_cast<unsigned char>(t[1])) || t[1] == '_')) return false;
  size_t k = 2;
  while (k < t.size() && (std::isalnum(static_cast<unsigned char>(t[k])) || t[k] == '_' || t[k] == '-')) ++k;
  if (k < t.size() && t[k] == '!') ++k;
  return k < t.size() && t[k] == ':' && (k + 1 == t.size() || t[k + 1] == ' ' || t[k + 1] == '\t');
}

// ifdef::x[], ifndef::x[], ifeval::[...], endif::[]: preprocessor directives, not content.
bool adoc_conditional(string_view t) {
  return (starts_with(t, "ifdef::") || starts_with(t, "ifndef::") || starts_with(t, "ifeval::") ||
          starts_with(t, "endif::")) &&
         t.back() == ']';
}

struct Heading {
  size_t level = 1;  // 1 for AsciiDoc `=` (the document title) and Markdown `#`
  std::string title;
};

// `== Title` (and `= Title =`, whose closing marks are dropped).
std::optional<Heading> adoc_title(string_view t) {
  size_t n = 0;
  while (n < t.size() && t[n] == '=') ++n;
  if (n == 0 || n > 6 || n >= t.size() || (t[n] != ' ' && t[n] != '\t')) return std::nullopt;
  string_view title = strip(t.substr(n));
  size_t e = title.size();
  while (e > 0 && title[e - 1] == '=') --e;
  if (e < title.size() && e > 0 && is_space(title[e - 1])) title = rstrip(title.substr(0, e));
  if (title.empty()) return std::nullopt;
  return Heading{n, std::string(title)};
}

// `## Title ##`, indented by up to three spaces.
std::optional<Heading> md_atx(string_view line) {
  const string_view t = lstrip(line);
  if (line.size() - t.size() > 3) return std::nullopt;
  size_t n = 0;
  while (n < t.size() && t[n] == '#') ++n;
  if (n == 0 || n > 6 || (n < t.size() && t[n] != ' ' && t[n] != '\t')) return std::nullopt;
  string_view title = strip(t.substr(n));
  size_t e = title.size();
  while (e > 0 && title[e - 1] == '#') --e;
  if (e == 0 || is_space(title[e - 1])) title = rstrip(title.substr(0, e));
  return Heading{n, std::string(title)};
}

// The level of a setext underline (`===` under a title: 1, `---`: 2), or 0.
size_t md_setext_level(string_view line) {
  const string_view t = strip(line);
  if (line.size() - lstrip(line).size() > 3) return 0;
  if (all_of_char(t, '=')) return 1;
  if (t.size() >= 3 && all_of_char(t, '-')) return 2;
  return 0;
}

// A line that a setext underline can make a title: not a list item, quote, table row or heading.
bool md_setext_title(string_view line) {
  const string_view t = lstrip(line);
  if (t.empty() || line.size() - t.size() > 3) return false;
  if (t[0] == '>' || t[0] == '|' || t[0] == '#' || t[0] == '<') return false;
  return !((t[0] == '-' || t[0] == '*' || t[0] == '+') && (t.size() == 1 || t[1] == ' '));
}

// The delimiter row of a pipe table: `|---|:--:|`, `--- | ---`.
bool md_table_rule(string_view line) {
  const string_view t = strip(line);
  bool pipe = false, dash = false;
  for (char c : t) {
    if (c == '|') {
      pipe = true;
    } else if (c == '-') {
      dash = true;
    } else if (c != ':' && !is_space(c)) {
      return false;
    }
  }
  return pipe && dash;
}

// How many lines after a table's opening delimiter (lines[first] onwards, before `end`) are its header: the
// first row when a blank line follows it within four lines, or, with a `header` option, the first line.
size_t adoc_table_header(const std::vector<Line>& lines, size_t first, size_t end, const std::vector<Line>& meta) {
  for (size_t k = first; k < end && k < first + 4; ++k) {
    if (lines[k].text.empty()) return k == first ? 0 : k - first + 1;  // the header rows and the blank line
  }
  for (const Line& m : meta) {
    if (m.text.find("header") != string_view::npos && first < end) return 1;
  }
  return 0;
}

std::string path_of(const std::vector<std::string>& titles) {
  std::string path;
  for (const std::string& t : titles) {
    if (t.empty()) continue;
    if (!path.empty()) path += " > ";
    path += t;
  }
  return path;
}

// ---- sections --------------------------------------------------------------------------------------

// AsciiDoc, Markdown and plain text: sections by headings, pieces by blank lines and delimited blocks.
std::vector<Section> document_sections(DocumentKind kind, const std::vector<Line>& lines) {
  const bool adoc = kind == DocumentKind::asciidoc, md = kind == DocumentKind::markdown;
  std::vector<Section> sections(1);
  std::vector<std::string> titles;  // by level; "" for a level skipped
  std::vector<Line> run;            // the paragraph being read
  bool run_blank = false;           // a blank line came before `run`
  bool blank = false;               // a blank line came since the last piece
  bool may_title = true;            // AsciiDoc: a title may start here (after a blank line or a block)
  auto push = [&](Piece p) { sections.back().pieces.push_back(std::move(p)); };
  auto run_is_meta = [&] {
    return adoc && std::all_of(run.begin(), run.end(), [](const Line& l) { return adoc_block_meta(l.text); });
  };
  auto flush = [&] {
    if (run.empty()) return;
    if (run_is_meta()) {  // attribute lists and anchors above nothing: not content
      run.clear();
      return;
    }
    Piece p;
    p.lines = std::move(run);
    p.blank_before = run_blank;
    run.clear();
    push(std::move(p));
  };

  for (size_t i = 0; i < lines.size(); ++i) {
    const Line& l = lines[i];
    const string_view t = l.text;
    if (t.empty()) {
      flush();
      blank = true;
      may_title = true;
      continue;
    }
    if (adoc && (adoc_comment(t) || adoc_attribute_entry(t) || adoc_conditional(t))) continue;

    std::optional<Heading> heading;
    if (adoc && may_title) {
      heading = adoc_title(t);
    } else if (md) {
      heading = md_atx(t);
      if (!heading && run.empty() && i + 1 < lines.size() && md_setext_title(t)) {
        if (const size_t level = md_setext_level(lines[i + 1].text)) {
          heading = Heading{level, std::string(strip(t))};
          ++i;  // the underline
        }
      }
    }
    if (heading) {
      flush();  // (the title's own anchors and attributes are dropped there)
      titles.resize(heading->level - 1);
      titles.push_back(std::move(heading->title));
      sections.push_back({path_of(titles), {}, false});
      blank = false;
      may_title = true;
      continue;
    }

    const Delimiter d = adoc ? adoc_delimiter(t) : md ? md_fence(t) : Delimiter{};
    const std::optional<size_t> end = d.type != Block::none ? block_end(lines, i, d, md) : std::nullopt;
    if (end) {
      // The attribute and title lines right above a block go with it; text right above it is a piece of its own.
      size_t meta = 0;
      while (adoc && meta < run.size() && adoc_block_meta(run[run.size() - 1 - meta].text)) ++meta;
      Piece p;
      p.blank_before = run.empty() ? blank : meta == run.size() ? run_blank : false;
      p.lines.assign(run.end() - static_cast<std::ptrdiff_t>(meta), run.end());
      run.resize(run.size() - meta);
      flush();
      p.lines.insert(p.lines.end(), lines.begin() + static_cast<std::ptrdiff_t>(i),
                     lines.begin() + static_cast<std::ptrdiff_t>(*end) + 1);
      p.open = meta + 1;
      p.close = 1;
      p.whole = d.type == Block::verbatim || d.type == Block::table;
      if (d.type == Block::table) {
        const std::vector<Line> attrs(p.lines.begin(), p.lines.begin() + static_cast<std::ptrdiff_t>(meta));
        p.open += adoc_table_header(lines, i + 1, *end, attrs);
      }
      if (d.type != Block::comment) push(std::move(p));
      blank = false;
      may_title = true;
      i = *end;
      continue;
    }

    if (md && t.find('|') != string_view::npos && i + 1 < lines.size() && md_table_rule(lines[i + 1].text)) {
      Piece p;
      p.blank_before = run.empty() ? blank : false;
      flush();
      size_t j = i;
      while (j < lines.size() && lines[j].text.find('|') != string_view::npos) p.lines.push_back(lines[j++]);
      p.open = 2;  // the header row and the delimiter row
      p.whole = true;
      push(std::move(p));
      blank = false;
      i = j - 1;
      continue;
    }

    if (run.empty()) {
      run_blank = blank;
      blank = false;
    }
    run.push_back(l);
    may_title = may_title && adoc && adoc_block_meta(t);
  }
  flush();
  return sections;
}

// `namespace x {`, `extern "C" {`: braces that wrap the file's blocks rather than form one.
bool transparent_head(string_view head) {
  head = strip(head);
  if (starts_with(head, "inline ")) head = lstrip(head.substr(7));
  if (starts_with(head, "export ")) head = lstrip(head.substr(7));
  if (head == "namespace" || starts_with(head, "namespace ")) return true;
  return head == "extern \"C\"" || head == "extern \"C++\"";
}

// A block's section name: its declaration without the `=` of an initialiser, at most 160 bytes.
std::string block_name(string_view head, const Piece& unit) {
  head = strip(head);
  if (!head.empty() && head.back() == '=') head = rstrip(head.substr(0, head.size() - 1));
  if (head.empty()) {
    for (const Line& l : unit.lines) {
      if (!strip(l.text).empty()) {
        head = strip(l.text);
        break;
      }
    }
  }
  size_t n = std::min<size_t>(head.size(), 160);
  while (n < head.size() && n > 0 && (static_cast<unsigned char>(head[n]) & 0xC0) == 0x80) --n;
  return std::string(head.substr(0, n));
}

// C and C++: top-level units (lines between blank lines at brace depth 0; a braced block ends its unit).
// A unit with a block is a section of its own; the units between blocks form loose sections.
std::vector<Section> code_sections(const std::vector<Line>& lines) {
  std::vector<Section> sections;
  Piece unit;
  std::string head, name;  // the code of the declaration being read (at depth 0, since the last ';'); the block's
  bool blank = false, has_block = false, code = false, first = true;
  bool in_comment = false, continued = false;  // inside /* */; a preprocessor line continued with '\'
  int depth = 0, transparent = 0;
  auto end_unit = [&] {
    if (unit.lines.empty()) return;
    unit.blank_before = blank;
    if (has_block) {
      std::string n = block_name(name, unit);
      sections.push_back({std::move(n), {std::move(unit)}, false});
    } else if (first && !code) {
      sections.push_back({"", {std::move(unit)}, false});  // the file comment: a chunk of its own
    } else {
      if (sections.empty() || !sections.back().loose) sections.push_back({"", {}, true});
      sections.back().pieces.push_back(std::move(unit));
    }
    unit = {};
    head.clear();
    name.clear();
    has_block = code = first = blank = false;
  };

  for (const Line& l : lines) {
    const string_view t = l.text;
    if (t.empty() && depth == 0 && !in_comment && !continued) {
      end_unit();
      blank = true;
      continue;
    }
    unit.lines.push_back(l);
    if (continued || (!in_comment && starts_with(lstrip(t), "#"))) {  // preprocessor: no braces counted
      continued = !t.empty() && t.back() == '\\';
      code = true;
      continue;
    }
    bool closed = false;
    for (size_t k = 0; k < t.size(); ++k) {
      const char c = t[k];
      const char next = k + 1 < t.size() ? t[k + 1] : '\0';
      if (in_comment) {
        if (c == '*' && next == '/') in_comment = false, ++k;
        continue;
      }
      if (c == '/' && next == '/') break;
      if (c == '/' && next == '*') {
        in_comment = true, ++k;
        continue;
      }
      if (is_space(c)) {
        if (depth == 0 && !head.empty() && head.back() != ' ') head += ' ';
        continue;
      }
      code = true;
      if (c == '"' || (c == '\'' && (k == 0 || !std::isalnum(static_cast<unsigned char>(t[k - 1]))))) {
        const size_t from = k;
        for (++k; k < t.size() && t[k] != c; ++k) {
          if (t[k] == '\\') ++k;
        }
        if (depth == 0) head.append(t.substr(from, std::min(k + 1, t.size()) - from));
        continue;
      }
      if (c == '{') {
        if (depth == 0 && transparent_head(head)) {
          ++transparent;
          head.clear();
          continue;
        }
        if (depth == 0 && !has_block) has_block = true, name = head;
        ++depth;
        continue;
      }
      if (c == '}') {
        if (depth > 0) {
          closed = --depth == 0;
        } else if (transparent > 0) {
          --transparent;
        }
        continue;
      }
      if (depth > 0) continue;
      if (c == ';') {
        if (has_block && starts_with(name, "typedef")) name = head;  // typedef struct { ... } name_t;
        head.clear();
      } else {
        head += c;
      }
    }
    if (closed && depth == 0) end_unit();
  }
  end_unit();
  return sections;
}

// ---- splitting and packing -------------------------------------------------------------------------

// `l` cut into parts of at most `room` bytes: at the last space in the last quarter of a part when there is
// one, never inside a UTF-8 sequence.
void cut_line(const Line& l, size_t room, std::vector<Line>& out) {
  string_view rest = l.text;
  while (rest.size() > room) {
    size_t cut = room;
    while (cut > room / 2 && (static_cast<unsigned char>(rest[cut]) & 0xC0) == 0x80) --cut;
    const size_t space = rest.substr(0, cut + 1).find_last_of(" \t");
    if (space != string_view::npos && space > 0 && space >= cut - cut / 4) cut = space;
    string_view part = rstrip(rest.substr(0, cut));
    if (part.empty()) part = rest.substr(0, cut);
    out.push_back({part, l.number, l.repeated});
    rest = lstrip(rest.substr(cut));
  }
  if (!rest.empty()) out.push_back({rest, l.number, l.repeated});
}

// Whether a part may end between body[k - 1] and body[k]: at a blank line, after a line that ends a
// statement, block or sentence, or before a table row or list item; never between the parts of a cut line.
bool good_break(const std::vector<Line>& body, size_t k) {
  const string_view prev = body[k - 1].text, next = lstrip(body[k].text);
  if (prev.empty() || next.empty()) return true;
  if (body[k - 1].number == body[k].number) return false;
  const char e = prev.back();
  if (e == ';' || e == '}' || e == '{' || e == '.' || e == ':') return true;
  return next[0] == '|' || starts_with(next, "* ") || starts_with(next, "- ") || starts_with(next, ". ");
}

// A piece too long for one chunk in parts of at most `max` bytes. A block's opening lines (attributes,
// delimiter, table header) and closing line are repeated in every part, so that each reads as a listing or
// table of its own, unless they would take more than half of a part.
std::vector<Piece> split_piece(const Piece& p, size_t max) {
  const auto from = p.lines.begin();
  std::vector<Line> open(from, from + static_cast<std::ptrdiff_t>(p.open));
  std::vector<Line> close(p.lines.end() - static_cast<std::ptrdiff_t>(p.close), p.lines.end());
  size_t first = p.open, last = p.lines.size() - p.close;
  size_t frame = (open.empty() ? 0 : joined_size(open) + 1) + (close.empty() ? 0 : joined_size(close) + 1);
  if (frame > max / 2 || first >= last) {
    open.clear(), close.clear();
    frame = 0, first = 0, last = p.lines.size();
  }
  const size_t room = max - frame;
  std::vector<Line> body;
  for (size_t k = first; k < last; ++k) cut_line(p.lines[k], room, body);

  std::vector<Piece> parts;
  size_t start = 0;
  while (true) {
    while (start < body.size() && body[start].text.empty()) ++start;
    if (start == body.size()) break;
    size_t end = start, size = 0;
    while (end < body.size()) {
      const size_t next = (end == start ? 0 : size + 1) + body[end].text.size();
      if (next > room) break;
      size = next, ++end;
    }
    if (end < body.size()) {  // full: end at a good break in the last third rather than mid-statement
      for (size_t k = end, s = size; k > start + 1 && s * 3 >= room * 2; s -= body[--k].text.size() + 1) {
        if (good_break(body, k)) {
          end = k;
          break;
        }
      }
    }
    size_t stop = end;
    while (stop > start && body[stop - 1].text.empty()) --stop;
    Piece part;
    part.blank_before = parts.empty() && p.blank_before;
    for (const Line& l : open) part.lines.push_back({l.text, l.number, l.repeated || !parts.empty()});
    part.lines.insert(part.lines.end(), body.begin() + static_cast<std::ptrdiff_t>(start),
                      body.begin() + static_cast<std::ptrdiff_t>(stop));
    for (const Line& l : close) part.lines.push_back({l.text, l.number, end < body.size()});
    part.open = open.size(), part.close = close.size();
    parts.push_back(std::move(part));
    start = end;
  }
  return parts;
}

// `p` appended to `chunk`, after a blank line when one separated them in the document.
void append(Piece& chunk, const Piece& p) {
  if (chunk.lines.empty()) {
    chunk.blank_before = p.blank_before;
  } else if (p.blank_before) {
    chunk.lines.push_back({"", p.lines.front().number, true});
  }
  chunk.lines.insert(chunk.lines.end(), p.lines.begin(), p.lines.end());
}

size_t joined_size(const Piece& chunk, size_t chunk_size, const Piece& p) {
  return chunk.lines.empty() ? p.size() : chunk_size + (p.blank_before ? 2 : 1) + p.size();
}

// A section's pieces packed into chunks (as pieces): greedily up to `max`, or for plain text until a chunk
// reaches `min`. A listing or table over `max` (kept whole) takes a chunk of its own, or one with the short
// lead-in right above it ("For example:"), which also moves to a listing or table that the chunk before cannot
// take. A short last chunk joins the one before when they fit together.
std::vector<Piece> pack(std::vector<Piece> pieces, size_t max, size_t min, bool paragraphs) {
  std::vector<Piece> parts;  // the pieces, each within its limit
  for (Piece& piece : pieces) {
    const size_t n = piece.size();
    if (n <= max || (piece.whole && n <= 2 * max)) {
      parts.push_back(std::move(piece));
    } else {
      for (Piece& part : split_piece(piece, max)) parts.push_back(std::move(part));
    }
  }
  std::vector<Piece> chunks;
  Piece cur;
  size_t cur_size = 0;
  auto emit = [&] {
    if (!cur.lines.empty()) chunks.push_back(std::move(cur));
    cur = {}, cur_size = 0;
  };
  for (size_t i = 0; i < parts.size(); ++i) {
    const Piece& p = parts[i];
    const size_t size = p.size();
    size_t together = joined_size(cur, cur_size, p);
    if (size > max) {
      if (!cur.lines.empty() && !(cur_size < min && together <= 2 * max)) emit();
      append(cur, p);
      emit();
      continue;
    }
    bool lead_in = false;
    if (!cur.lines.empty() && size < min && i + 1 < parts.size() && parts[i + 1].whole) {
      const Piece& next = parts[i + 1];
      const size_t gap = next.blank_before ? 2 : 1, next_size = next.size();
      lead_in = together + gap + next_size > max && size + gap + next_size <= (next_size > max ? 2 * max : max);
    }
    if (!cur.lines.empty() && (together > max || lead_in || (paragraphs && cur_size >= min))) {
      emit();
      together = size;
    }
    append(cur, p);
    cur_size = together;
  }
  emit();
  if (chunks.size() >= 2) {
    const Piece& last = chunks.back();
    Piece& prev = chunks[chunks.size() - 2];
    const size_t prev_size = prev.size();
    if (last.size() < min && prev_size <= max && joined_size(prev, prev_size, last) <= max) {
      append(prev, last);
      chunks.pop_back();
    }
  }
  return chunks;
}

std::string join(const std::vector<Line>& lines) {
  std::string s;
  s.reserve(joined_size(lines));
  for (const Line& l : lines) {
    if (&l != &lines.front()) s += '\n';
    s.append(l.text);
  }
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  return s;
}

}  // namespace

std::vector<Chunk> chunk_document(const Document& doc, const ChunkOptions& options) {
  const size_t max = std::max<size_t>(options.max_chars, 64);
  const size_t min = std::min(options.min_chars, max);
  const std::vector<Line> lines = split_lines(doc.text);
  std::vector<Section> sections =
      doc.kind == DocumentKind::code ? code_sections(lines) : document_sections(doc.kind, lines);
  std::vector<Chunk> out;
  for (Section& s : sections) {
    for (const Piece& c : pack(std::move(s.pieces), max, min, doc.kind == DocumentKind::text)) {
      std::string text = join(c.lines);
      if (strip(text).empty()) continue;
      const auto fresh = std::find_if(c.lines.begin(), c.lines.end(), [](const Line& l) { return !l.repeated; });
      const size_t line = fresh != c.lines.end() ? fresh->number : c.lines.front().number;
      out.push_back({doc.source, s.path, std::move(text), line});
    }
  }
  return out;
}

}  // namespace eok::rag
