#include "src/search/c_lexer.h"

#include <algorithm>

namespace eok::search {

void scan_c_source(std::string_view src, CTokenVisitor& visitor) {
  const size_t n = src.size();
  size_t i = 0, line = 1;
  auto spliced_newline = [&](size_t at) {  // backslash-newline continues a // comment
    return src[at] == '\\' && at + 1 < n &&
           (src[at + 1] == '\n' || (src[at + 1] == '\r' && at + 2 < n && src[at + 2] == '\n'));
  };
  while (i < n) {
    const char c = src[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (is_c_blank(c)) {
      ++i;
    } else if (c == '/' && i + 1 < n && src[i + 1] == '/') {
      const size_t start = i, start_line = line;
      while (i < n && src[i] != '\n') {
        if (spliced_newline(i)) {
          i = src.find('\n', i) + 1;
          ++line;
        } else {
          ++i;
        }
      }
      visitor.comment(src.substr(start, i - start), start_line, true);
    } else if (c == '/' && i + 1 < n && src[i + 1] == '*') {
      const size_t start = i, start_line = line;
      i += 2;
      while (i < n && !(src[i] == '*' && i + 1 < n && src[i + 1] == '/')) line += src[i++] == '\n';
      i = std::min(n, i + 2);
      visitor.comment(src.substr(start, i - start), start_line, false);
    } else if (c == '"' || c == '\'') {
      for (++i; i < n && src[i] != c && src[i] != '\n'; ++i) {
        if (src[i] == '\\' && i + 1 < n) line += src[++i] == '\n';
      }
      if (i < n && src[i] == c) ++i;
      visitor.other('"');
    } else if (is_c_digit(c) || (c == '.' && i + 1 < n && is_c_digit(src[i + 1]))) {
      // A preprocessing number: digits, letters, '.', exponent signs and C23 digit separators.
      for (++i; i < n; ++i) {
        const char d = src[i];
        if ((d == '+' || d == '-') && std::string_view("eEpP").find(src[i - 1]) != std::string_view::npos) continue;
        if (d == '\'' && i + 1 < n && is_c_ident_char(src[i + 1])) continue;
        if (!is_c_ident_char(d) && d != '.') break;
      }
      visitor.other('0');
    } else if (is_c_ident_start(c)) {
      const size_t start = i;
      while (i < n && is_c_ident_char(src[i])) ++i;
      visitor.identifier(start, i, line);
    } else {
      visitor.other(c);
      ++i;
    }
  }
}

}  // namespace eok::search
