#include "evaluator/size_expr.h"

#include <cctype>

#include "src/common/error.h"

namespace eok::evaluator {

namespace {

// Recursive descent: expr := term (('+'|'-') term)*; term := unary (('*'|'/') unary)*;
// unary := '-' unary | primary; primary := number | name | '(' expr ')'.
class Parser {
 public:
  Parser(std::string_view text, const SizeParams& params) : text_(text), params_(params) {}

  int64_t parse() {
    int64_t v = expr();
    skip_space();
    if (pos_ != text_.size()) fail("unexpected '" + std::string(1, text_[pos_]) + "'");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw ConfigError("size expression '" + std::string(text_) + "': " + why);
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  int64_t expr() {
    int64_t v = term();
    for (;;) {
      if (eat('+')) {
        if (__builtin_add_overflow(v, term(), &v)) fail("overflow");
      } else if (eat('-')) {
        if (__builtin_sub_overflow(v, term(), &v)) fail("overflow");
      } else {
        return v;
      }
    }
  }
  int64_t term() {
    int64_t v = unary();
    for (;;) {
      if (eat('*')) {
        if (__builtin_mul_overflow(v, unary(), &v)) fail("overflow");
      } else if (eat('/')) {
        int64_t d = unary();
        if (d == 0) fail("division by zero");
        v /= d;
      } else {
        return v;
      }
    }
  }
  int64_t unary() {
    if (eat('-')) return -unary();
    return primary();
  }
  int64_t primary() {
    skip_space();
    if (eat('(')) {
      int64_t v = expr();
      if (!eat(')')) fail("missing ')'");
      return v;
    }
    if (pos_ >= text_.size()) fail("unexpected end");
    const char c = text_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      int64_t v = 0;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, text_[pos_] - '0', &v)) fail("overflow");
        ++pos_;
      }
      return v;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t start = pos_;
      while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
        ++pos_;
      std::string name(text_.substr(start, pos_ - start));
      auto it = params_.find(name);
      if (it == params_.end()) fail("unknown size parameter '" + name + "'");
      return it->second;
    }
    fail("unexpected '" + std::string(1, c) + "'");
  }

  std::string_view text_;
  const SizeParams& params_;
  size_t pos_ = 0;
};

}  // namespace

int64_t eval_size_expr(std::string_view expr, const SizeParams& params) {
  return Parser(expr, params).parse();
}

std::string format_sizes(const SizeParams& params) {
  std::string out;
  for (const auto& [name, value] : params) {
    if (!out.empty()) out += ' ';
    out += name + "=" + std::to_string(value);
  }
  return out;
}

}  // namespace eok::evaluator
