#include "evaluator/static_check.h"

#include <elf.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>

#include "evaluator/elf_object.h"
#include "evaluator/riscv/decoder.h"
#include "evaluator/target/eok_markers.h"
#include "src/common/error.h"

namespace eok::evaluator {

namespace {

constexpr size_t kMaxSourceBytes = 256 * 1024;
constexpr uint64_t kMaxStaticDataBytes = 64ull << 20;

constexpr std::array kAllowedHeaders = {"riscv_vector.h", "stddef.h", "stdint.h", "stdbool.h", "math.h",
                                        "string.h",       "float.h",  "limits.h", "stdalign.h", "inttypes.h"};

// Joins backslash-continued lines as the preprocessor does. The removed line breaks are emitted after the
// logical line, so every later line keeps its number.
std::string join_continuations(std::string_view src) {
  std::string out;
  out.reserve(src.size());
  size_t pending = 0;
  for (size_t i = 0; i < src.size(); ++i) {
    if (src[i] == '\\' && i + 1 < src.size() && src[i + 1] == '\n') {
      ++pending;
      ++i;
      continue;
    }
    out += src[i];
    if (src[i] == '\n') out.append(pending, '\n'), pending = 0;
  }
  return out;
}

// Replaces comments and string/char literals with spaces, character for character, so that token
// searches see only code and positions still match the input.
std::string strip_comments_and_literals(std::string_view src) {
  std::string out;
  out.reserve(src.size());
  enum { code, line_comment, block_comment, str, chr } state = code;
  for (size_t i = 0; i < src.size(); ++i) {
    const char c = src[i], next = i + 1 < src.size() ? src[i + 1] : '\0';
    switch (state) {
      case code:
        if (c == '/' && next == '/') { state = line_comment; out += ' '; }
        else if (c == '/' && next == '*') { state = block_comment; out += ' '; ++i; out += ' '; }
        else if (c == '"') { state = str; out += '"'; }
        else if (c == '\'') { state = chr; out += '\''; }
        else out += c;
        break;
      case line_comment:
        if (c == '\n') { state = code; out += '\n'; } else out += ' ';
        break;
      case block_comment:
        if (c == '*' && next == '/') { state = code; out += "  "; ++i; }
        else out += c == '\n' ? '\n' : ' ';
        break;
      case str:
      case chr: {
        const char quote = state == str ? '"' : '\'';
        if (c == '\\' && i + 1 < src.size()) { out += "  "; ++i; }
        else if (c == quote) { state = code; out += quote; }
        else out += c == '\n' ? '\n' : ' ';
        break;
      }
    }
  }
  return out;
}

bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Position of identifier `word` as a whole token in `text`, or npos.
size_t find_token(const std::string& text, std::string_view word, size_t from = 0) {
  for (size_t pos = text.find(word, from); pos != std::string::npos; pos = text.find(word, pos + 1)) {
    bool left = pos == 0 || !is_ident(text[pos - 1]);
    bool right = pos + word.size() >= text.size() || !is_ident(text[pos + word.size()]);
    if (left && right) return pos;
  }
  return std::string::npos;
}

size_t line_of(const std::string& text, size_t pos) {
  return static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n')) + 1;
}

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// CSRs a numeric kernel may touch: FP flags/rounding, vector state, vlenb.
bool csr_allowed(uint16_t csr) {
  switch (csr) {
    case 0x001: case 0x002: case 0x003:  // fflags, frm, fcsr
    case 0x008: case 0x009: case 0x00a: case 0x00f:  // vstart, vxsat, vxrm, vcsr
    case 0xc20: case 0xc21: case 0xc22:  // vl, vtype, vlenb
      return true;
    default:
      return false;
  }
}

bool section_allowed(const std::string& name) {
  static const char* prefixes[] = {".text", ".rodata", ".srodata", ".data", ".sdata", ".bss", ".sbss",
                                   ".rela", ".debug_", ".note.GNU-stack", ".comment", ".riscv.attributes",
                                   ".eh_frame", ".symtab", ".strtab", ".shstrtab", ".llvm_addrsig", ".group"};
  if (name.empty()) return true;
  for (const char* p : prefixes) {
    if (name.rfind(p, 0) == 0) return true;
  }
  return false;
}

}  // namespace

bool symbol_allowed(std::string_view name) {
  static const std::array<std::string_view, 3> memory = {"memcpy", "memset", "memmove"};
  // libm: the C99 functions, float and double forms.
  static const std::array<std::string_view, 58> math = {
      "exp",   "exp2",  "expm1", "log",   "log2",  "log10", "log1p", "pow",   "sqrt",  "cbrt",
      "sin",   "cos",   "tan",   "asin",  "acos",  "atan",  "atan2", "sinh",  "cosh",  "tanh",
      "asinh", "acosh", "atanh", "erf",   "erfc",  "fabs",  "floor", "ceil",  "round", "trunc",
      "rint",  "nearbyint", "lrint", "llrint", "lround", "llround", "fmod", "remainder", "fmin", "fmax",
      "fma",   "hypot", "ldexp", "frexp", "scalbn", "modf", "copysign", "nextafter", "tgamma", "lgamma",
      "exp10", "logb",  "ilogb", "fdim",  "sincos", "remquo", "significand", "nan"};
  // Compiler runtime helpers clang may call for fp16/fp128 conversions and wide arithmetic.
  static const std::array<std::string_view, 14> runtime = {
      "__extendhfsf2", "__truncsfhf2", "__truncdfhf2", "__extendhfdf2", "__extendsftf2", "__trunctfsf2",
      "__extenddftf2", "__trunctfdf2", "__multf3",     "__addtf3",      "__subtf3",     "__divtf3",
      "__popcountdi2", "__clzdi2"};
  if (std::find(memory.begin(), memory.end(), name) != memory.end()) return true;
  if (std::find(runtime.begin(), runtime.end(), name) != runtime.end()) return true;
  std::string_view base = name;
  if (!base.empty() && base.back() == 'f') base.remove_suffix(1);
  return std::find(math.begin(), math.end(), base) != math.end() || std::find(math.begin(), math.end(), name) != math.end();
}

std::optional<Violation> check_source(std::string_view source) {
  if (source.size() > kMaxSourceBytes) {
    return Violation{"source-size", "the kernel source is " + std::to_string(source.size()) + " bytes; the limit is " +
                                        std::to_string(kMaxSourceBytes)};
  }
  if (source.find('\0') != std::string_view::npos) return Violation{"binary-source", "the kernel source contains NUL bytes"};
  const std::string joined = join_continuations(source);
  const std::string code = strip_comments_and_literals(joined);

  for (size_t pos = code.find('#'); pos != std::string::npos; pos = code.find('#', pos + 1)) {
    size_t p = pos + 1;
    while (p < code.size() && (code[p] == ' ' || code[p] == '\t')) ++p;
    size_t end = p;
    while (end < code.size() && is_ident(code[end])) ++end;
    const std::string directive = code.substr(p, end - p);
    if (directive != "include" && directive != "include_next" && directive != "import" && directive != "embed") continue;
    // The header name is in the joined text (string literals were blanked in `code`).
    const size_t eol = joined.find('\n', end);
    std::string rest = joined.substr(end, eol == std::string::npos ? std::string::npos : eol - end);
    rest.erase(0, rest.find_first_not_of(" \t"));
    std::string header;
    if (directive == "include" && rest.size() > 2 && rest.front() == '<' && rest.find('>') != std::string::npos) {
      header = rest.substr(1, rest.find('>') - 1);
    }
    if (std::find(kAllowedHeaders.begin(), kAllowedHeaders.end(), header) == kAllowedHeaders.end()) {
      std::string allowed;
      for (const char* h : kAllowedHeaders) allowed += std::string(allowed.empty() ? "" : ", ") + "<" + h + ">";
      return Violation{"forbidden-include", "line " + std::to_string(line_of(code, pos)) + ": #" + directive + " " + rest +
                                                ": kernels may include only " + allowed};
    }
  }
  for (const char* word : {"asm", "__asm__", "__asm"}) {
    if (size_t pos = find_token(code, word); pos != std::string::npos) {
      return Violation{"inline-asm", "line " + std::to_string(line_of(code, pos)) +
                                         ": inline assembly is not allowed; use the RVV intrinsics of <riscv_vector.h>"};
    }
  }
  for (const char* word : {"constructor", "destructor", "ifunc"}) {
    if (size_t pos = find_token(code, word); pos != std::string::npos) {
      return Violation{"code-outside-call", "line " + std::to_string(line_of(code, pos)) + ": '" + word +
                                                "' attributes run code outside the kernel call; not allowed"};
    }
  }
  return std::nullopt;
}

ObjectVerdict check_object(std::string_view object_bytes, const std::string& entry) {
  ObjectVerdict verdict;
  std::optional<ElfObject> obj;
  try {
    obj.emplace(object_bytes);
  } catch (const Error& e) {
    verdict.violation = Violation{"bad-object", std::string("the compiled object is malformed: ") + e.what()};
    return verdict;
  }
  uint64_t static_bytes = 0;
  for (const auto& s : obj->sections()) {
    if (!section_allowed(s.name)) {
      verdict.violation = Violation{"forbidden-section", "section " + s.name +
                                                             " (constructors, thread-local storage and custom sections are not allowed)"};
      return verdict;
    }
    if ((s.flags & SHF_EXECINSTR) && s.name.rfind(".text", 0) != 0) {
      verdict.violation = Violation{"forbidden-section", "executable section " + s.name};
      return verdict;
    }
    if ((s.flags & SHF_ALLOC) && (s.flags & SHF_WRITE)) static_bytes += s.size;
  }
  if (static_bytes > kMaxStaticDataBytes) {
    verdict.violation = Violation{"static-data-size", "static data of " + std::to_string(static_bytes >> 20) +
                                                          " MiB; the limit is " + std::to_string(kMaxStaticDataBytes >> 20) + " MiB"};
    return verdict;
  }
  const auto& sections = obj->sections();
  for (const auto& sym : obj->symbols()) {
    if (sym.name.empty() || sym.type == STT_SECTION || sym.type == STT_FILE) continue;
    if (sym.undefined() && sym.bind != STB_LOCAL) {
      if (!symbol_allowed(sym.name)) {
        verdict.violation = Violation{"forbidden-symbol", "calls or references '" + sym.name +
                                                              "': kernels may use only libm functions and memcpy/memset/memmove"};
        return verdict;
      }
      continue;
    }
    if (sym.name == entry && sym.bind == STB_GLOBAL && sym.type == STT_FUNC && sym.shndx < sections.size() &&
        (sections[sym.shndx].flags & SHF_EXECINSTR)) {
      verdict.entry_defined = true;
    }
  }
  for (const auto& s : sections) {
    if (!(s.flags & SHF_EXECINSTR)) continue;
    const auto* bytes = reinterpret_cast<const uint8_t*>(s.data.data());
    for (size_t off = 0; off < s.data.size();) {
      const riscv::Insn insn = riscv::decode({bytes + off, s.data.size() - off});
      const std::string where = s.name + "+" + hex(off);
      auto reject = [&](const std::string& rule, const std::string& what) {
        verdict.violation = Violation{rule, where + ": " + what};
        return verdict;
      };
      if (insn.cls == riscv::InsnClass::unknown) return reject("undecodable", "not a valid RV64GCV instruction (" + hex(insn.raw) + ")");
      if (insn.cls == riscv::InsnClass::system) return reject("system-instruction", std::string(insn.mnemonic) + " is not allowed in a kernel");
      if (insn.mnemonic == "fence.i") return reject("system-instruction", "fence.i is not allowed in a kernel");
      if (insn.cls == riscv::InsnClass::csr && !csr_allowed(insn.csr)) {
        return reject("forbidden-csr", std::string(insn.mnemonic) + " of CSR " + hex(insn.csr) +
                                           " (kernels may access only fflags/frm/fcsr and the vector CSRs)");
      }
      if (insn.length == 4 && (insn.raw == EOK_MARK_BEGIN_INSN || insn.raw == EOK_MARK_END_INSN)) {
        return reject("measurement-marker", "contains the harness's measurement marker instruction");
      }
      off += insn.length ? insn.length : 2;
    }
  }
  return verdict;
}

}  // namespace eok::evaluator
