// Just enough C lexing for the knob tuner: tells identifiers in code from comments, string and character
// literals and numbers, so that "0x1.8p23f" or a comment naming vfloat32m8_t is never rewritten. Macro
// bodies and directives are code: the names inside them are identifiers like any other.
//
// Contract: scan_c_source never fails and never allocates; it reports every token outside whitespace in
// source order with 1-based lines (a backslash-newline inside a // comment continues it; an unterminated
// literal or comment ends at the end of its line or of the source).
#pragma once

#include <cctype>
#include <cstddef>
#include <string_view>

namespace eok::search {

inline bool is_c_ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
inline bool is_c_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
inline bool is_c_digit(char c) {
  return c >= '0' && c <= '9';
}
// Whitespace within a line (a newline is not blank: it ends directives and // comments).
inline bool is_c_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

// What scan_c_source reports.
class CTokenVisitor {
 public:
  virtual ~CTokenVisitor() = default;
  // A name in code, or in a directive or macro body: source[begin, end).
  virtual void identifier(size_t begin, size_t end, size_t line) = 0;
  // A // or /* */ comment, delimiters included.
  virtual void comment(std::string_view text, size_t line, bool is_line_comment) = 0;
  // Anything else: punctuation (by its first character), a string or character literal ('"'), a
  // number ('0').
  virtual void other(char c) = 0;
};

void scan_c_source(std::string_view src, CTokenVisitor& visitor);

}  // namespace eok::search
