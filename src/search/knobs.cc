#include "src/search/knobs.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <string_view>

#include "src/common/error.h"

namespace eok::search {

namespace {

constexpr std::string_view kTag = "eok-knob";
constexpr std::string_view kDeclarationForm = "// eok-knob: NAME = DEFAULT in {V1, V2, ...}";

bool is_ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::string in_quotes(std::string_view s) {
  return "'" + std::string(s) + "'";
}

// ---------------------------------------------------------------------------------------------------
// Lexing: just enough C to tell identifiers in code from comments, string and character literals and
// numbers (so that "0x1.8p23f" or a comment naming vfloat32m8_t is never rewritten). Macro bodies are
// code: the intrinsics inside them are rescaled like any other.

// Walks `src` and tells `visitor` about every token outside whitespace, with 1-based lines:
//   identifier(begin, end, line)         a name in code, or in a directive or macro body
//   comment(text, line, is_line_comment) a // or /* */ comment
//   other(c)                             anything else: punctuation (by its first character), a string
//                                        or character literal ('"'), a number ('0')
template <typename Visitor>
void scan_source(std::string_view src, Visitor& visitor) {
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
    } else if (is_space(c)) {
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
    } else if (is_digit(c) || (c == '.' && i + 1 < n && is_digit(src[i + 1]))) {
      // A preprocessing number: digits, letters, '.', exponent signs and C23 digit separators.
      for (++i; i < n; ++i) {
        const char d = src[i];
        if ((d == '+' || d == '-') && std::string_view("eEpP").find(src[i - 1]) != std::string_view::npos) continue;
        if (d == '\'' && i + 1 < n && is_ident_char(src[i + 1])) continue;
        if (!is_ident_char(d) && d != '.') break;
      }
      visitor.other('0');
    } else if (is_ident_start(c)) {
      const size_t start = i;
      while (i < n && is_ident_char(src[i])) ++i;
      visitor.identifier(start, i, line);
    } else {
      visitor.other(c);
      ++i;
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// LMUL arithmetic. An LMUL is kept as its log2: mf8 = -3, ..., m1 = 0, ..., m8 = 3. ELEN is 64 on every
// target eok knows (V requires it), so SEW/LMUL <= 64 means log2(LMUL) >= log2(SEW) - 6.

constexpr int kMinLog2Lmul = -3, kMaxLog2Lmul = 3, kLog2Elen = 6;

// "m4" for 2, "mf2" for -1; out-of-range values too ("m16"), for messages.
std::string lmul_text(int log2_lmul) {
  return log2_lmul >= 0 ? "m" + std::to_string(1 << log2_lmul) : "mf" + std::to_string(1 << -log2_lmul);
}

// k when `digits` spells 2^k with k <= max_log2 (no sign, no leading zeros), else nullopt.
std::optional<int> log2_of_power(std::string_view digits, int max_log2) {
  if (digits.empty() || digits.size() > 3 || digits[0] == '0') return std::nullopt;
  int value = 0;
  for (char c : digits) {
    if (!is_digit(c)) return std::nullopt;
    value = value * 10 + (c - '0');
  }
  for (int k = 0; k <= max_log2; ++k) {
    if (value == 1 << k) return k;
  }
  return std::nullopt;
}

// A knob value of LMUL: 1, 2, 4, 8, mf2, mf4, mf8.
std::optional<int> parse_lmul_value(std::string_view v) {
  if (v.starts_with("mf")) {
    auto k = log2_of_power(v.substr(2), 3);
    if (k && *k > 0) return -*k;
    return std::nullopt;
  }
  return log2_of_power(v, 3);
}

// "<SEW><LMUL>[x<NF>]" as spelled inside RVV names: "32m4", "16mf2", "32m1x3".
struct Shape {
  int log2_sew = 0;
  int log2_lmul = 0;
  int nf = 1;             // fields of a segment tuple type
  size_t lmul_begin = 0;  // where the LMUL text ("m4", "mf2") sits in the parsed text
  size_t lmul_end = 0;
};

std::optional<Shape> parse_shape(std::string_view s, bool allow_tuple) {
  Shape shape;
  size_t i = 0;
  while (i < s.size() && is_digit(s[i])) ++i;
  auto sew = log2_of_power(s.substr(0, i), 6);
  if (!sew || *sew < 3) return std::nullopt;  // SEW 8..64
  shape.log2_sew = *sew;
  if (i >= s.size() || s[i] != 'm') return std::nullopt;
  shape.lmul_begin = i++;
  const bool fractional = i < s.size() && s[i] == 'f';
  if (fractional) ++i;
  if (i >= s.size() || !is_digit(s[i])) return std::nullopt;
  auto lmul = log2_of_power(s.substr(i, 1), 3);
  if (!lmul || (fractional && *lmul == 0)) return std::nullopt;
  shape.log2_lmul = fractional ? -*lmul : *lmul;
  shape.lmul_end = ++i;
  if (i == s.size()) return shape;
  if (!allow_tuple || s[i] != 'x' || i + 2 != s.size() || s[i + 1] < '2' || s[i + 1] > '8') return std::nullopt;
  shape.nf = s[i + 1] - '0';
  return shape;
}

// vboolN / bN: N = SEW/LMUL in 1..64, kept as log2.
std::optional<int> parse_mask_ratio(std::string_view digits) {
  return log2_of_power(digits, 6);
}

// ---------------------------------------------------------------------------------------------------
// The LMUL rewrite. Every RVV spelling that carries an LMUL is rescaled by 2^shift:
//   types            vfloat32m4_t, vint16m2x3_t            (SEW and tuple fields kept)
//   masks            vbool8_t, the _b8 of intrinsics       (N = SEW/LMUL, so N scales inversely)
//   intrinsics       every type component after the operation name: __riscv_vle32_v_f32m4,
//                    __riscv_vfwcvt_f_f_v_f32m4, __riscv_vreinterpret_v_f32m4_i32m4,
//                    __riscv_vmseq_vv_i32m4_b8, __riscv_vget_v_f32m4_f32m1, policy and _rm forms alike
//   vsetvl           the e32m4 of __riscv_vsetvl_e32m4 / __riscv_vsetvlmax_e32m4
// Scaling every one of them keeps mixed-width code consistent (f16m2 widened into f32m4 becomes f16m4
// into f32m8). Where RVV itself fixes LMUL 1 the m1 stays:
//   - the scalar operand and result of reductions: __riscv_vfredmax_vs_f32m4_f32m1 -> ..._f32m8_f32m1;
//   - the m1 scalar moves that feed a reduction's scalar directly (an argument of the reduction call) or
//     read its result directly (the reduction call is their argument), so the usual inline idiom
//       __riscv_vfmv_f_s_f32m1_f32(__riscv_vfredmax_vs_f32m4_f32m1(v, __riscv_vfmv_s_f_f32m1(-INFINITY, 1), vl))
//     stays consistent; every other m1 scalar move (on an m1 data vector) scales with its operand;
//   - the vector side of mask reinterprets (__riscv_vreinterpret_v_i32m1_b8).
// A reduction scalar kept in a vfloat32m1_t variable is not recognised: its type scales and the variant
// fails to compile, which the kernel's knob test catches. Only reserved names are touched: no user
// identifier starts with __riscv_ or has the exact shape of an RVV type name.

struct Problem {
  size_t line = 0;
  std::string name;
  std::string reason;
};

// Up to 12 '_'-separated parts of an intrinsic name, enough for every v1.0 spelling.
constexpr size_t kMaxParts = 12;

bool is_reduction_op(std::string_view op) {
  return op.starts_with("vred") || op.starts_with("vwred") || op.starts_with("vfred") || op.starts_with("vfwred");
}

// __riscv_vfredmax_vs_f32m4_f32m1, __riscv_vredsum (overloaded) and the like.
bool is_reduction_name(std::string_view name) {
  constexpr std::string_view kPrefix = "__riscv_";
  if (!name.starts_with(kPrefix)) return false;
  name.remove_prefix(kPrefix.size());
  return is_reduction_op(name.substr(0, name.find('_')));
}

class LmulRewriter {
 public:
  explicit LmulRewriter(int shift) : shift_(shift) {}

  // Where an m1 scalar move sits relative to reductions (see above).
  struct Context {
    bool in_reduction_call = false;  // the innermost enclosing call is a reduction
    bool reads_reduction = false;    // the name is called with a reduction call as its first argument
  };

  // Appends `name` rescaled to *out (when out is set). Returns whether the name carries an LMUL; sets
  // problem_ and returns false at the first name the shift would make illegal.
  bool rewrite(std::string_view name, size_t line, Context context, std::string* out) {
    line_ = line;
    name_ = name;
    context_ = context;
    if (name.starts_with("__riscv_v")) return intrinsic(name, out);
    if (name.size() > 2 && name[0] == 'v' && name.ends_with("_t")) return type_name(name, out);
    if (out) out->append(name);
    return false;
  }

  const std::optional<Problem>& problem() const { return problem_; }

 private:
  bool fail(std::string reason) {
    problem_ = Problem{line_, std::string(name_), std::move(reason)};
    return false;
  }

  // Checks one rescaled vector shape; the new LMUL is shape.log2_lmul + shift.
  bool check_shape(const Shape& shape) {
    const int lmul = shape.log2_lmul + shift_;
    if (lmul < kMinLog2Lmul || lmul > kMaxLog2Lmul)
      return fail("it would need LMUL " + lmul_text(lmul) + ", outside RVV's mf8..m8");
    if (lmul < shape.log2_sew - kLog2Elen)
      return fail("SEW " + std::to_string(1 << shape.log2_sew) + " at LMUL " + lmul_text(lmul) +
                  " is not a legal RVV type (LMUL must be at least SEW/64 = " + lmul_text(shape.log2_sew - kLog2Elen) +
                  ")");
    if (shape.nf > 1 && (shape.nf << std::max(lmul, 0)) > 8)
      return fail("a tuple of " + std::to_string(shape.nf) + " fields at LMUL " + lmul_text(lmul) +
                  " would need more than 8 registers");
    return true;
  }

  bool check_mask(int log2_ratio) {
    const int ratio = log2_ratio - shift_;
    if (ratio < 0 || ratio > kLog2Elen)
      return fail("it would need the mask type vbool" +
                  (ratio < 0 ? "1/" + std::to_string(1 << -ratio) : std::to_string(1 << ratio)) +
                  ", but masks run from vbool1 to vbool64");
    return true;
  }

  void append_scaled(std::string_view text, const Shape& shape, std::string* out) const {
    if (!out) return;
    out->append(text.substr(0, shape.lmul_begin));
    out->append(lmul_text(shape.log2_lmul + shift_));
    out->append(text.substr(shape.lmul_end));
  }

  void append_mask(std::string_view prefix, int log2_ratio, std::string_view suffix, std::string* out) const {
    if (!out) return;
    out->append(prefix);
    out->append(std::to_string(1 << (log2_ratio - shift_)));
    out->append(suffix);
  }

  // vfloat32m4_t, vuint8mf2x4_t, vbool8_t.
  bool type_name(std::string_view name, std::string* out) {
    const std::string_view body = name.substr(0, name.size() - 2);
    if (body.starts_with("vbool")) {
      auto ratio = parse_mask_ratio(body.substr(5));
      if (!ratio) return copy(name, out);
      if (!check_mask(*ratio)) return false;
      append_mask("vbool", *ratio, "_t", out);
      return true;
    }
    for (std::string_view base : {"vint", "vuint", "vfloat", "vbfloat"}) {
      if (!body.starts_with(base)) continue;
      auto shape = parse_shape(body.substr(base.size()), true);
      if (!shape) break;
      if (!check_shape(*shape)) return false;
      shape->lmul_begin += base.size();
      shape->lmul_end += base.size();
      append_scaled(name, *shape, out);
      return true;
    }
    return copy(name, out);
  }

  bool copy(std::string_view name, std::string* out) const {
    if (out) out->append(name);
    return false;
  }

  enum class Kind { other, type, vtype, mask };
  struct Part {
    std::string_view text;
    Kind kind = Kind::other;
    Shape shape;          // type and vtype
    int mask_ratio = 0;   // mask
    bool pinned = false;  // an LMUL RVV fixes at 1
  };

  static Part classify(std::string_view text) {
    Part part;
    part.text = text;
    if (text.empty()) return part;
    const char c = text[0];
    if (c == 'i' || c == 'u' || c == 'f' || (c == 'b' && text.size() > 1 && text[1] == 'f')) {
      const size_t base = c == 'b' ? 2 : 1;
      if (auto shape = parse_shape(text.substr(base), true)) {
        part.kind = Kind::type;
        part.shape = *shape;
        part.shape.lmul_begin += base;
        part.shape.lmul_end += base;
      }
    } else if (c == 'e') {  // the SEW/LMUL of vsetvl: e32m4
      if (auto shape = parse_shape(text.substr(1), false)) {
        part.kind = Kind::vtype;
        part.shape = *shape;
        part.shape.lmul_begin += 1;
        part.shape.lmul_end += 1;
      }
    } else if (c == 'b') {
      if (auto ratio = parse_mask_ratio(text.substr(1))) {
        part.kind = Kind::mask;
        part.mask_ratio = *ratio;
      }
    }
    return part;
  }

  bool intrinsic(std::string_view name, std::string* out) {
    constexpr std::string_view kPrefix = "__riscv_";
    std::array<Part, kMaxParts> parts;
    size_t count = 0;
    for (std::string_view rest = name.substr(kPrefix.size());;) {
      if (count == kMaxParts) return copy(name, out);  // no RVV name is this long
      const size_t cut = rest.find('_');
      // parts[0] is the operation (vle32, vfwcvt, vsetvl), never a type
      if (count == 0)
        parts[0].text = rest.substr(0, cut);
      else
        parts[count] = classify(rest.substr(0, cut));
      ++count;
      if (cut == std::string_view::npos) break;
      rest.remove_prefix(cut + 1);
    }
    const std::string_view op = parts[0].text;

    bool any = false;
    for (size_t i = 1; i < count; ++i) any |= parts[i].kind != Kind::other;
    if (!any) return copy(name, out);

    // LMULs that RVV fixes at 1.
    const bool reduction = is_reduction_op(op);
    // vfmv_s_f / vmv_s_x write a scalar into element 0; vfmv_f_s / vmv_x_s read it.
    const bool writes_scalar = (op == "vfmv" || op == "vmv") && count > 2 && parts[1].text == "s";
    const bool reads_scalar =
        (op == "vfmv" || op == "vmv") && count > 2 && parts[1].text != "s" && parts[2].text == "s";
    const bool scalar_move =
        (writes_scalar && context_.in_reduction_call) || (reads_scalar && context_.reads_reduction);
    const bool mask_reinterpret =
        op == "vreinterpret" &&
        std::any_of(parts.begin() + 1, parts.begin() + count, [](const Part& p) { return p.kind == Kind::mask; });
    int types_seen = 0;
    for (size_t i = 1; i < count; ++i) {
      Part& p = parts[i];
      if (p.kind != Kind::type) continue;
      ++types_seen;
      const bool m1 = p.shape.log2_lmul == 0 && p.shape.nf == 1;
      if ((reduction && types_seen == 2) || (scalar_move && m1) || (mask_reinterpret && m1)) p.pinned = true;
    }

    // Every rescaled part must stay a legal RVV type, and so must the operands the name implies.
    const Part* first_type = nullptr;
    for (size_t i = 1; i < count; ++i) {
      const Part& p = parts[i];
      if (p.pinned) continue;
      if ((p.kind == Kind::type || p.kind == Kind::vtype) && !check_shape(p.shape)) return false;
      if (p.kind == Kind::mask && !check_mask(p.mask_ratio)) return false;
      if (p.kind == Kind::type && !first_type) first_type = &p;
    }
    if (first_type && !check_implied_operands(op, *first_type, count, parts)) return false;
    if (mask_reinterpret) {
      // The m1 side stays; RVV pairs an m1 of SEW bits only with masks vboolN where N >= SEW/8.
      const auto type =
          std::find_if(parts.begin() + 1, parts.begin() + count, [](const Part& p) { return p.kind == Kind::type; });
      const auto mask =
          std::find_if(parts.begin() + 1, parts.begin() + count, [](const Part& p) { return p.kind == Kind::mask; });
      if (type != parts.begin() + count && type->pinned && mask->mask_ratio - shift_ < type->shape.log2_sew - 3)
        return fail("RVV reinterprets an m1 of SEW " + std::to_string(1 << type->shape.log2_sew) +
                    " only to and from vbool" + std::to_string(1 << (type->shape.log2_sew - 3)) + "..vbool64");
    }

    if (out) {
      out->append(kPrefix);
      for (size_t i = 0; i < count; ++i) {
        if (i > 0) out->push_back('_');
        const Part& p = parts[i];
        if (p.pinned || p.kind == Kind::other)
          out->append(p.text);
        else if (p.kind == Kind::mask)
          append_mask("b", p.mask_ratio, "", out);
        else
          append_scaled(p.text, p.shape, out);
      }
    }
    return true;
  }

  // Operands that the name does not spell but that must exist at the new LMUL too.
  bool check_implied_operands(std::string_view op, const Part& named, size_t count,
                              const std::array<Part, kMaxParts>& parts) {
    const int lmul = named.shape.log2_lmul + shift_;
    // Narrowing ops name their narrow result; the source has twice the LMUL.
    if (op == "vnsrl" || op == "vnsra" || op == "vnclip" || op == "vnclipu" || op == "vncvt" || op == "vfncvt") {
      if (lmul + 1 > kMaxLog2Lmul)
        return fail("it narrows from a source at twice its LMUL, which would be " + lmul_text(lmul + 1));
    }
    // Indexed loads and stores (vloxei16, vsuxseg2ei8) and vrgatherei16: the offsets have EEW bits at
    // EMUL = EEW/SEW * LMUL.
    if (((op.starts_with("vl") || op.starts_with("vs")) && op.size() > 4 && (op[2] == 'o' || op[2] == 'u') &&
         op[3] == 'x') ||
        op == "vrgatherei16") {
      const size_t ei = op.find("ei");
      if (ei != std::string_view::npos) {
        if (auto eew = log2_of_power(op.substr(ei + 2), 6)) {
          const int emul = *eew - named.shape.log2_sew + lmul;
          const int lowest = std::max(kMinLog2Lmul, *eew - kLog2Elen);
          if (emul < lowest || emul > kMaxLog2Lmul)
            return fail("its " + std::to_string(1 << *eew) + "-bit offsets would need EMUL " + lmul_text(emul) +
                        ", outside " + lmul_text(lowest) + "..m8");
        }
      }
    }
    // vget, vset and vcreate move whole registers between groups: no fractional LMUL outside tuples.
    const bool has_tuple =
        std::any_of(parts.begin() + 1, parts.begin() + count, [](const Part& p) { return p.shape.nf > 1; });
    if ((op == "vget" || op == "vset" || op == "vcreate") && !has_tuple) {
      for (size_t i = 1; i < count; ++i) {
        const Part& p = parts[i];
        if (p.kind == Kind::type && p.shape.nf == 1 && p.shape.log2_lmul + shift_ < 0)
          return fail("vget, vset and vcreate take no fractional LMUL (" + lmul_text(p.shape.log2_lmul + shift_) + ")");
      }
    }
    return true;
  }

  int shift_;
  size_t line_ = 0;
  std::string_view name_;
  Context context_;
  std::optional<Problem> problem_;
};

struct RescaleResult {
  size_t names = 0;  // RVV names that carry an LMUL
  std::optional<Problem> problem;
};

// Feeds the identifiers of a source through an LmulRewriter, tracking which parentheses open reduction
// calls, and copies everything else.
class Rescaler {
 public:
  Rescaler(std::string_view source, int shift, std::string* out) : source_(source), rewriter_(shift), out_(out) {}

  RescaleResult run() {
    if (out_) out_->reserve(source_.size() + source_.size() / 16);
    scan_source(source_, *this);
    if (out_) out_->append(source_.substr(copied_));
    return std::move(result_);
  }

  void identifier(size_t begin, size_t end, size_t line) {
    const std::string_view name = source_.substr(begin, end - begin);
    last_was_reduction_ = is_reduction_name(name);
    if (result_.problem) return;
    // Only names that can be RVV spellings go through the rewriter; the rest is copied in bulk.
    if (!name.starts_with("__riscv_v") && !(name[0] == 'v' && name.ends_with("_t"))) return;
    if (out_) out_->append(source_.substr(copied_, begin - copied_));
    copied_ = end;
    LmulRewriter::Context context;
    context.in_reduction_call = !open_calls_.empty() && open_calls_.back();
    context.reads_reduction = called_on_reduction(end);
    if (rewriter_.rewrite(name, line, context, out_)) ++result_.names;
    result_.problem = rewriter_.problem();
  }

  void comment(std::string_view, size_t, bool) {}

  void other(char c) {
    if (c == '(') open_calls_.push_back(last_was_reduction_);
    if (c == ')' && !open_calls_.empty()) open_calls_.pop_back();
    last_was_reduction_ = false;
  }

 private:
  // Whether source_[at..] reads "( <reduction name>", i.e. the name just ended is called on a reduction.
  bool called_on_reduction(size_t at) const {
    auto skip_space = [&] {
      while (at < source_.size() && (is_space(source_[at]) || source_[at] == '\n')) ++at;
    };
    skip_space();
    if (at >= source_.size() || source_[at] != '(') return false;
    ++at;
    skip_space();
    const size_t begin = at;
    while (at < source_.size() && is_ident_char(source_[at])) ++at;
    return is_reduction_name(source_.substr(begin, at - begin));
  }

  std::string_view source_;
  LmulRewriter rewriter_;
  std::string* out_;
  size_t copied_ = 0;             // source_[0, copied_) is in *out_ already
  std::vector<bool> open_calls_;  // per open '(': whether it holds a reduction call's arguments
  bool last_was_reduction_ = false;
  RescaleResult result_;
};

// Rescales every LMUL in `source` by 2^shift, into *out when set (validation only otherwise).
RescaleResult rescale(std::string_view source, int shift, std::string* out) {
  return Rescaler(source, shift, out).run();
}

std::string describe_problem(const Problem& p) {
  return "line " + std::to_string(p.line) + ": " + in_quotes(p.name) + " cannot be rescaled: " + p.reason;
}

// ---------------------------------------------------------------------------------------------------
// Declarations.

bool is_identifier(std::string_view s) {
  return !s.empty() && is_ident_start(s[0]) && std::all_of(s.begin(), s.end(), is_ident_char);
}

// A value is one preprocessor token: a number or a name (64, 0x40, mf2, FAST).
bool is_value_token(std::string_view s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return is_ident_char(c) || c == '.' || c == '+' || c == '-'; });
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
  if (!head.ends_with("in") || (head.size() > 2 && !is_space(head[head.size() - 3])))
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
  while (i < line.size() && is_ident_char(line[i])) ++i;
  d.keyword = line.substr(0, i);
  line = trim(line.substr(i));
  i = 0;
  while (i < line.size() && is_ident_char(line[i])) ++i;
  d.name = line.substr(0, i);
  d.rest = trim(line.substr(i));
  return d;
}

// The first token of a #define's replacement text ("256  // why" -> "256").
std::string_view first_token(std::string_view rest) {
  size_t i = 0;
  while (i < rest.size() && !is_space(rest[i]) &&
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
struct DeclarationCollector {
  std::vector<Knob> knobs;
  std::vector<size_t> lines;

  void identifier(size_t, size_t, size_t) {}
  void other(char) {}
  void comment(std::string_view text, size_t line, bool is_line_comment) {
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
  scan_source(source, collector);
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
      const RescaleResult r = rescale(source, *parse_lmul_value(value) - from, nullptr);
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
      const RescaleResult r = rescale(source, shift, &body);
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
