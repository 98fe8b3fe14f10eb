#include "src/search/knobs.h"

#include <algorithm>
#include <optional>
#include <string_view>

#include "src/common/error.h"
#include "src/search/c_lexer.h"
#include "src/search/lmul_rescale.h"

namespace eok::search {

namespace {

constexpr std::string_view kTag = "eok-knob";
constexpr std::string_view kDeclarationForm = "// eok-knob: NAME = DEFAULT in {V1, V2, ...}";

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_c_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_c_blank(s.back())) s.remove_suffix(1);
  return s;
}

std::string in_quotes(std::string_view s) {
  return "'" + std::string(s) + "'";
}

bool is_identifier(std::string_view s) {
  return !s.empty() && is_c_ident_start(s[0]) && std::all_of(s.begin(), s.end(), is_c_ident_char);
}

// A value is one preprocessor token: a number or a name (64, 0x40, mf2, FAST).
bool is_value_token(std::string_view s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return is_c_ident_char(c) || c == '.' || c == '+' || c == '-'; });
}

std::string join(const std::vector<std::string>& values) {
  std::string out;
  for (const auto& v : values) {
    if (!out.empty()) out += ", ";
    out += v;
  }
  return out;
}

// Parses the comment body after "eok-knob" ("eok-knob: NAME = DEFAULT in {V1, V2}") at `line`.
Knob parse_declaration(std::string_view comment, size_t line) {
  const std::string where = "line " + std::to_string(line) + ": ";
  auto malformed = [&](const std::string& why) -> ConfigError {
    return ConfigError(where + "malformed knob declaration " + in_quotes(trim(comment)) + " (" + why +
                       "); write it as " + in_quotes(kDeclarationForm));
  };
  std::string_view s = comment;
  s.remove_prefix(s.find(kTag) + kTag.size());
  if (s.empty() || s[0] != ':') throw malformed("no ':' after eok-knob");
  s = trim(s.substr(1));

  const size_t eq = s.find('=');
  if (eq == std::string_view::npos) throw malformed("no '=' and default value");
  Knob knob;
  knob.name = std::string(trim(s.substr(0, eq)));
  if (!is_identifier(knob.name)) throw malformed("the name " + in_quotes(knob.name) + " is not a C identifier");
  s = trim(s.substr(eq + 1));

  const size_t open = s.find('{');
  if (open == std::string_view::npos) throw malformed("no value list in braces");
  std::string_view head = trim(s.substr(0, open));
  if (!head.ends_with("in") || (head.size() > 2 && !is_c_blank(head[head.size() - 3])))
    throw malformed("expected 'in' before the value list");
  head = trim(head.substr(0, head.size() - 2));
  if (head.empty()) throw malformed("missing default value");
  knob.default_value = std::string(head);
  if (!is_value_token(knob.default_value))
    throw malformed("the default " + in_quotes(knob.default_value) + " is not a single number or name");

  const size_t close = s.find('}', open);
  if (close == std::string_view::npos) throw malformed("no closing '}'");
  if (!trim(s.substr(close + 1)).empty()) throw malformed("text after the closing '}'");
  std::string_view list = s.substr(open + 1, close - open - 1);
  while (true) {
    const size_t comma = list.find(',');
    const std::string_view value = trim(list.substr(0, comma));
    if (!is_value_token(value)) throw malformed("value " + in_quotes(value) + " is not a single number or name");
    if (std::find(knob.values.begin(), knob.values.end(), value) != knob.values.end())
      throw malformed("value " + std::string(value) + " is listed twice");
    knob.values.emplace_back(value);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  if (std::find(knob.values.begin(), knob.values.end(), knob.default_value) == knob.values.end())
    throw ConfigError(where + "knob " + knob.name + " has default " + knob.default_value +
                      " but it is not among its values {" + join(knob.values) + "}; add it to the list");
  if (knob.is_lmul()) {
    for (const auto& v : knob.values) {
      if (!parse_lmul_value(v))
        throw ConfigError(where + "LMUL value " + in_quotes(v) + " is not an LMUL; use 1, 2, 4, 8, mf2, mf4 or mf8");
    }
  }
  return knob;
}

// A preprocessor directive on a line: "#  ifndef NAME" -> {"ifndef", "NAME", rest}.
struct Directive {
  std::string_view keyword, name, rest;
};

std::optional<Directive> parse_directive(std::string_view line) {
  line = trim(line);
  if (line.empty() || line[0] != '#') return std::nullopt;
  line = trim(line.substr(1));
  Directive d;
  size_t i = 0;
  while (i < line.size() && is_c_ident_char(line[i])) ++i;
  d.keyword = line.substr(0, i);
  line = trim(line.substr(i));
  i = 0;
  while (i < line.size() && is_c_ident_char(line[i])) ++i;
  d.name = line.substr(0, i);
  d.rest = trim(line.substr(i));
  return d;
}

// The first token of a #define's replacement text ("256  // why" -> "256").
std::string_view first_token(std::string_view rest) {
  size_t i = 0;
  while (i < rest.size() && !is_c_blank(rest[i]) &&
         !(rest[i] == '/' && i + 1 < rest.size() && (rest[i + 1] == '/' || rest[i + 1] == '*')))
    ++i;
  return rest.substr(0, i);
}

// A define knob needs "#ifndef NAME" followed by "#define NAME DEFAULT" (blank and // comment lines may sit
// between), so that a variant's "#define NAME VALUE" in front wins and the kernel alone still builds.
void check_guard(std::string_view source, const Knob& knob, size_t decl_line) {
  const std::string where = "line " + std::to_string(decl_line) + ": ";
  bool after_ifndef = false;
  size_t ifndef_line = 0, line = 0;
  for (size_t pos = 0; pos <= source.size();) {
    const size_t end = std::min(source.find('\n', pos), source.size());
    const std::string_view text = source.substr(pos, end - pos);
    ++line;
    pos = end + 1;
    if (trim(text).empty() || trim(text).starts_with("//")) continue;
    auto d = parse_directive(text);
    if (after_ifndef) {
      if (!d || d->keyword != "define" || d->name != knob.name)
        throw ConfigError("line " + std::to_string(ifndef_line) + ": '#ifndef " + knob.name +
                          "' must be followed directly by '#define " + knob.name + " " + knob.default_value + "'");
      if (first_token(d->rest) != knob.default_value)
        throw ConfigError("line " + std::to_string(line) + ": the guard defines " + knob.name + " as " +
                          in_quotes(first_token(d->rest)) + " but its declaration on line " +
                          std::to_string(decl_line) + " says the default is " + knob.default_value +
                          "; make them agree");
      return;
    }
    if (d && d->keyword == "ifndef" && d->name == knob.name) {
      after_ifndef = true;
      ifndef_line = line;
    }
  }
  throw ConfigError(where + "knob " + knob.name + " has no guard; put '#ifndef " + knob.name + "', '#define " +
                    knob.name + " " + knob.default_value + "', '#endif' in the kernel so that a variant can set it");
}

// Collects the "// eok-knob:" declarations of a source, in order, with their lines.
struct DeclarationCollector final : CTokenVisitor {
  std::vector<Knob> knobs;
  std::vector<size_t> lines;

  void identifier(size_t, size_t, size_t) override {}
  void other(char) override {}
  void comment(std::string_view text, size_t line, bool is_line_comment) override {
    const std::string_view body = trim(text.substr(2));
    if (!is_line_comment) {
      if (body.find(kTag) != std::string_view::npos)
        throw ConfigError("line " + std::to_string(line) +
                          ": a knob declaration must be a // comment of its own: " + in_quotes(kDeclarationForm));
      return;
    }
    if (!body.starts_with(kTag)) return;
    Knob knob = parse_declaration(body, line);
    for (size_t i = 0; i < knobs.size(); ++i) {
      if (knobs[i].name == knob.name)
        throw ConfigError("line " + std::to_string(line) + ": knob " + knob.name +
                          " is declared twice (first on line " + std::to_string(lines[i]) + "); keep one declaration");
    }
    knobs.push_back(std::move(knob));
    lines.push_back(line);
  }
};

}  // namespace

std::vector<Knob> parse_knobs(const std::string& source) {
  DeclarationCollector collector;
  scan_c_source(source, collector);
  const std::vector<Knob>& knobs = collector.knobs;
  const std::vector<size_t>& lines = collector.lines;

  for (size_t i = 0; i < knobs.size(); ++i) {
    const Knob& knob = knobs[i];
    const std::string where = "line " + std::to_string(lines[i]) + ": ";
    if (!knob.is_lmul()) {
      check_guard(source, knob, lines[i]);
      continue;
    }
    // Every declared LMUL must rescale the whole kernel to legal RVV names: the tuner never meets a
    // value that cannot apply.
    const int from = *parse_lmul_value(knob.default_value);
    for (const auto& value : knob.values) {
      const RescaleResult r = rescale_lmul(source, *parse_lmul_value(value) - from, nullptr);
      if (r.problem)
        throw ConfigError(where + "LMUL value " + value + " (default " + knob.default_value + ") cannot apply: " +
                          describe_problem(*r.problem) + "; remove " + value + " from the declared values");
      if (r.names == 0)
        throw ConfigError(where +
                          "knob LMUL is declared but the kernel spells no RVV type or intrinsic with an LMUL; "
                          "remove the declaration");
    }
  }
  return knobs;
}

std::string apply_knobs(const std::string& source, const std::vector<Knob>& knobs, const KnobValues& values) {
  std::vector<std::string> declared;
  for (const auto& k : knobs) {
    declared.push_back(k.name);
    if (!k.is_lmul()) continue;
    for (const auto& v : k.values) {
      if (!parse_lmul_value(v))
        throw ConfigError("LMUL value " + in_quotes(v) + " is not an LMUL; use 1, 2, 4, 8, mf2, mf4 or mf8");
    }
  }
  for (const auto& [name, value] : values) {
    auto it = std::find_if(knobs.begin(), knobs.end(), [&](const Knob& k) { return k.name == name; });
    if (it == knobs.end())
      throw ConfigError("unknown knob " + in_quotes(name) + "; the kernel declares " +
                        (declared.empty() ? std::string("none") : join(declared)));
    if (std::find(it->values.begin(), it->values.end(), value) == it->values.end())
      throw ConfigError("knob " + name + " has no value " + in_quotes(value) + "; its declared values are {" +
                        join(it->values) + "}");
  }

  std::string prefix;
  std::string body;
  bool rescaled = false;
  for (const auto& knob : knobs) {
    auto it = values.find(knob.name);
    if (it == values.end() || it->second == knob.default_value) continue;
    if (knob.is_lmul()) {
      const int shift = *parse_lmul_value(it->second) - *parse_lmul_value(knob.default_value);
      const RescaleResult r = rescale_lmul(source, shift, &body);
      if (r.problem)
        throw ConfigError("cannot apply LMUL=" + it->second + " (the kernel is written at " + knob.default_value +
                          "): " + describe_problem(*r.problem) + "; choose an LMUL closer to " + knob.default_value);
      rescaled = true;
    } else {
      prefix += "#define " + knob.name + " " + it->second + "\n";
    }
  }
  if (!rescaled) return prefix.empty() ? source : prefix + source;
  return prefix.empty() ? body : prefix + body;
}

std::string describe(const KnobValues& values) {
  std::string out;
  for (const auto& [name, value] : values) {
    if (!out.empty()) out += ' ';
    out += name + "=" + value;
  }
  return out;
}

}  // namespace eok::search
