#include "src/search/lmul_rescale.h"

#include <algorithm>
#include <array>
#include <vector>

#include "src/search/c_lexer.h"

namespace eok::search {

namespace {

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
    if (!is_c_digit(c)) return std::nullopt;
    value = value * 10 + (c - '0');
  }
  for (int k = 0; k <= max_log2; ++k) {
    if (value == 1 << k) return k;
  }
  return std::nullopt;
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
  while (i < s.size() && is_c_digit(s[i])) ++i;
  auto sew = log2_of_power(s.substr(0, i), 6);
  if (!sew || *sew < 3) return std::nullopt;  // SEW 8..64
  shape.log2_sew = *sew;
  if (i >= s.size() || s[i] != 'm') return std::nullopt;
  shape.lmul_begin = i++;
  const bool fractional = i < s.size() && s[i] == 'f';
  if (fractional) ++i;
  if (i >= s.size() || !is_c_digit(s[i])) return std::nullopt;
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

  const std::optional<RescaleProblem>& problem() const { return problem_; }

 private:
  bool fail(std::string reason) {
    problem_ = RescaleProblem{line_, std::string(name_), std::move(reason)};
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
  std::optional<RescaleProblem> problem_;
};

// Feeds the identifiers of a source through an LmulRewriter, tracking which parentheses open reduction
// calls, and copies everything else.
class Rescaler final : public CTokenVisitor {
 public:
  Rescaler(std::string_view source, int shift, std::string* out) : source_(source), rewriter_(shift), out_(out) {}

  RescaleResult run() {
    if (out_) out_->reserve(source_.size() + source_.size() / 16);
    scan_c_source(source_, *this);
    if (out_) out_->append(source_.substr(copied_));
    return std::move(result_);
  }

  void identifier(size_t begin, size_t end, size_t line) override {
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

  void comment(std::string_view, size_t, bool) override {}

  void other(char c) override {
    if (c == '(') open_calls_.push_back(last_was_reduction_);
    if (c == ')' && !open_calls_.empty()) open_calls_.pop_back();
    last_was_reduction_ = false;
  }

 private:
  // Whether source_[at..] reads "( <reduction name>", i.e. the name just ended is called on a reduction.
  bool called_on_reduction(size_t at) const {
    auto skip_space = [&] {
      while (at < source_.size() && (is_c_blank(source_[at]) || source_[at] == '\n')) ++at;
    };
    skip_space();
    if (at >= source_.size() || source_[at] != '(') return false;
    ++at;
    skip_space();
    const size_t begin = at;
    while (at < source_.size() && is_c_ident_char(source_[at])) ++at;
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

}  // namespace

// A knob value of LMUL: 1, 2, 4, 8, mf2, mf4, mf8.
std::optional<int> parse_lmul_value(std::string_view v) {
  if (v.starts_with("mf")) {
    auto k = log2_of_power(v.substr(2), 3);
    if (k && *k > 0) return -*k;
    return std::nullopt;
  }
  return log2_of_power(v, 3);
}

RescaleResult rescale_lmul(std::string_view source, int shift, std::string* out) {
  return Rescaler(source, shift, out).run();
}

std::string describe_problem(const RescaleProblem& p) {
  return "line " + std::to_string(p.line) + ": '" + p.name + "' cannot be rescaled: " + p.reason;
}

}  // namespace eok::search
