#include "evaluator/static_check.h"

#include <elf.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "evaluator/elf_object.h"
#include "evaluator/riscv/decoder.h"
#include "evaluator/target/eok_markers.h"
#include "src/common/text.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "src/common/hash.h"

namespace eok::evaluator {

namespace {

// Macros expanded and headers included: the standard headers come to a few hundred KiB.
constexpr size_t kMaxPreprocessedBytes = 8u << 20;
// Everything a kernel brings into memory (code, tables, static data): generous for lookup tables, and
// far from what it would take to ship precomputed answers.
constexpr uint64_t kMaxAllocatedBytes = 16ull << 20;

constexpr std::array kAllowedHeaders = {"riscv_vector.h", "stddef.h", "stdint.h", "stdbool.h",  "math.h",
                                        "string.h",       "float.h",  "limits.h", "stdalign.h", "inttypes.h"};

// CSRs a numeric kernel may touch: FP flags/rounding, vector state, vlenb.
bool csr_allowed(uint16_t csr) {
  switch (csr) {
    case 0x001:
    case 0x002:
    case 0x003:  // fflags, frm, fcsr
    case 0x008:
    case 0x009:
    case 0x00a:
    case 0x00f:  // vstart, vxsat, vxrm, vcsr
    case 0xc20:
    case 0xc21:
    case 0xc22:  // vl, vtype, vlenb
      return true;
    default:
      return false;
  }
}

// What a section of a candidate object may be, by name and flags: code is only .text* and is never
// writable; data is never executable; anything else the loader or the C runtime would act on
// (.init_array, .ctors, .preinit_array, TLS, custom sections) is refused.
std::optional<std::string> section_problem(const ElfSection& s) {
  const auto starts = [&](const char* p) { return s.name.rfind(p, 0) == 0; };
  const bool alloc = s.flags & SHF_ALLOC, write = s.flags & SHF_WRITE, exec = s.flags & SHF_EXECINSTR;
  if (s.flags & SHF_TLS) return "thread-local storage";
  if (exec && write) return "writable code";
  if (starts(".text")) {
    if (!exec) return "a .text section that is not code (the linker would map its bytes executable)";
    return std::nullopt;
  }
  if (exec) return "executable code outside .text";
  if (starts(".rodata") || starts(".srodata") || starts(".eh_frame")) {
    return write ? std::optional<std::string>("writable read-only data") : std::nullopt;
  }
  if (starts(".data") || starts(".sdata") || starts(".bss") || starts(".sbss")) return std::nullopt;
  // Sections the linker reads or drops and never maps.
  static const char* unmapped[] = {".rela",   ".debug_", ".note.GNU-stack", ".comment",      ".riscv.attributes",
                                   ".symtab", ".strtab", ".shstrtab",       ".llvm_addrsig", ".group"};
  for (const char* p : unmapped) {
    if (starts(p)) return alloc ? std::optional<std::string>("a mapped " + std::string(p) + " section") : std::nullopt;
  }
  if (s.name.empty() && s.type == SHT_NULL) return std::nullopt;
  return "a section the loader or the C runtime acts on (constructors, initialisers) or a custom section";
}

// Identifiers of one line of preprocessed C (minimised white space, no comments or directives), with
// string, character and number literals skipped: enough to find keywords that clang would compile.
template <typename F>
void for_each_identifier(std::string_view line, F&& f) {
  for (size_t i = 0; i < line.size();) {
    const char c = line[i];
    if (c == '"' || c == '\'') {
      for (++i; i < line.size() && line[i] != c; ++i) {
        if (line[i] == '\\') ++i;
      }
      ++i;
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && i + 1 < line.size() && std::isdigit(static_cast<unsigned char>(line[i + 1])))) {
      for (++i; i < line.size(); ++i) {  // a pp-number: digits, letters, '.', and exponent signs
        const char d = line[i];
        if ((d == '+' || d == '-') && std::strchr("eEpP", line[i - 1])) continue;
        if (!std::isalnum(static_cast<unsigned char>(d)) && d != '.' && d != '_' && d != '\'') break;
      }
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const size_t start = i;
      while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_')) ++i;
      f(line.substr(start, i - start));
    } else {
      ++i;
    }
  }
}

// A clang line marker: # <line> "<file>" [flags]. Returns the file, or nullopt for an ordinary line.
std::optional<std::string> line_marker_file(std::string_view line) {
  if (line.size() < 5 || line[0] != '#' || line[1] != ' ' || !std::isdigit(static_cast<unsigned char>(line[2])))
    return std::nullopt;
  const size_t q = line.find('"');
  const size_t e = q == std::string_view::npos ? q : line.find('"', q + 1);
  if (e == std::string_view::npos) return std::nullopt;
  return std::string(line.substr(q + 1, e - q - 1));
}

}  // namespace

std::optional<Violation> check_source(std::string_view source) {
  if (source.size() > kKernelSourceMaxBytes) {
    return Violation{"source-size", "the kernel source is " + byte_size_text(source.size()) + "; the limit is " +
                                        byte_size_text(kKernelSourceMaxBytes)};
  }
  if (source.find('\0') != std::string_view::npos)
    return Violation{"binary-source", "the kernel source contains NUL bytes"};
  return std::nullopt;
}

std::optional<Violation> check_preprocessed(const Preprocessed& pp, const std::string& main_file) {
  if (pp.text.size() > kMaxPreprocessedBytes) {
    return Violation{"source-size", "preprocessed (macros expanded), the source is " +
                                        std::to_string(pp.text.size() >> 20) + " MiB; the limit is " +
                                        std::to_string(kMaxPreprocessedBytes >> 20) + " MiB"};
  }
  std::string allowed;
  for (const char* h : kAllowedHeaders) allowed += std::string(allowed.empty() ? "" : ", ") + "<" + h + ">";
  for (const auto& header : pp.direct_headers) {
    const std::string name = std::filesystem::path(header).filename().string();
    const bool system = header.rfind("/eval/", 0) != 0;
    if (!system || std::find(kAllowedHeaders.begin(), kAllowedHeaders.end(), name) == kAllowedHeaders.end()) {
      return Violation{"forbidden-include", "includes " + name + ": kernels may include only " + allowed};
    }
  }
  // Every file read is the source, eok's prelude or a header clang included; anything else was embedded.
  for (const auto& file : pp.files_read) {
    const std::string name = std::filesystem::path(file).filename().string();
    if (file == main_file || name == "task_prototype.h") continue;
    if (pp.text.find("\"" + file + "\"") != std::string::npos) continue;  // entered as a header (line markers)
    return Violation{"forbidden-embed",
                     "reads the file " + name + " into the program (#embed); kernels may read no file"};
  }
  std::string_view text = pp.text;
  bool in_main = false;
  size_t line_no = 0;
  for (size_t pos = 0; pos < text.size();) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    const std::string_view line = text.substr(pos, eol - pos);
    pos = eol + 1;
    if (auto file = line_marker_file(line)) {
      in_main = *file == main_file;
      line_no = std::strtoull(line.data() + 2, nullptr, 10);
      continue;
    }
    if (!in_main) continue;
    std::optional<Violation> found;
    for_each_identifier(line, [&](std::string_view id) {
      if (found) return;
      if (id == "asm" || id == "__asm__" || id == "__asm") {
        found =
            Violation{"inline-asm", "line " + std::to_string(line_no) +
                                        ": inline assembly is not allowed; use the RVV intrinsics of <riscv_vector.h>"};
      } else if (id == "constructor" || id == "destructor" || id == "ifunc" || id == "__constructor__" ||
                 id == "__destructor__" || id == "__ifunc__") {
        found = Violation{"code-outside-call", "line " + std::to_string(line_no) + ": '" + std::string(id) +
                                                   "' attributes run code outside the kernel call; not allowed"};
      }
    });
    if (found) return found;
    ++line_no;
  }
  return std::nullopt;
}

std::string kernel_identity(const Preprocessed& pp) {
  return content_hash(pp.normalized);
}

std::optional<Violation> check_instructions(std::span<const uint8_t> bytes, const std::string& where, uint64_t base) {
  for (size_t off = 0; off < bytes.size();) {
    const riscv::Insn insn = riscv::decode({bytes.data() + off, bytes.size() - off});
    const std::string at = where + "+" + hex_address(base + off);
    auto reject = [&](const std::string& rule, const std::string& what) { return Violation{rule, at + ": " + what}; };
    if (insn.cls == riscv::InsnClass::unknown)
      return reject("undecodable", "not a valid RV64GCV instruction (" + hex_address(insn.raw) + ")");
    if (insn.cls == riscv::InsnClass::system)
      return reject("system-instruction", std::string(insn.mnemonic) + " is not allowed in a kernel");
    if (insn.mnemonic == "fence.i") return reject("system-instruction", "fence.i is not allowed in a kernel");
    if (insn.cls == riscv::InsnClass::csr && !csr_allowed(insn.csr)) {
      return reject("forbidden-csr", std::string(insn.mnemonic) + " of CSR " + hex_address(insn.csr) +
                                         " (kernels may access only fflags/frm/fcsr and the vector CSRs)");
    }
    if (insn.length == 4 && (insn.raw == EOK_MARK_BEGIN_INSN || insn.raw == EOK_MARK_END_INSN)) {
      return reject("measurement-marker", "contains the harness's measurement marker instruction");
    }
    off += insn.length ? insn.length : 2;
  }
  return std::nullopt;
}

bool symbol_allowed(std::string_view name) {
  static const std::array<std::string_view, 3> memory = {"memcpy", "memset", "memmove"};
  // libm: the C99 functions, float and double forms.
  static const std::array<std::string_view, 58> math = {
      "exp",   "exp2",      "expm1", "log",    "log2",   "log10",   "log1p",       "pow",       "sqrt",   "cbrt",
      "sin",   "cos",       "tan",   "asin",   "acos",   "atan",    "atan2",       "sinh",      "cosh",   "tanh",
      "asinh", "acosh",     "atanh", "erf",    "erfc",   "fabs",    "floor",       "ceil",      "round",  "trunc",
      "rint",  "nearbyint", "lrint", "llrint", "lround", "llround", "fmod",        "remainder", "fmin",   "fmax",
      "fma",   "hypot",     "ldexp", "frexp",  "scalbn", "modf",    "copysign",    "nextafter", "tgamma", "lgamma",
      "exp10", "logb",      "ilogb", "fdim",   "sincos", "remquo",  "significand", "nan"};
  // Compiler runtime helpers clang may call for fp16/fp128 conversions and wide arithmetic.
  static const std::array<std::string_view, 14> runtime = {
      "__extendhfsf2", "__truncsfhf2",  "__truncdfhf2",  "__extendhfdf2", "__extendsftf2",
      "__trunctfsf2",  "__extenddftf2", "__trunctfdf2",  "__multf3",      "__addtf3",
      "__subtf3",      "__divtf3",      "__popcountdi2", "__clzdi2"};
  if (std::find(memory.begin(), memory.end(), name) != memory.end()) return true;
  if (std::find(runtime.begin(), runtime.end(), name) != runtime.end()) return true;
  std::string_view base = name;
  if (!base.empty() && base.back() == 'f') base.remove_suffix(1);
  return std::find(math.begin(), math.end(), base) != math.end() ||
         std::find(math.begin(), math.end(), name) != math.end();
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
  uint64_t allocated = 0;
  for (const auto& s : obj->sections()) {
    if (auto problem = section_problem(s)) {
      verdict.violation = Violation{"forbidden-section", "section " + s.name + ": " + *problem};
      return verdict;
    }
    if (s.flags & SHF_ALLOC) allocated += s.size;
  }
  if (allocated > kMaxAllocatedBytes) {
    verdict.violation =
        Violation{"static-data-size", "code and static data of " + std::to_string(allocated >> 20) +
                                          " MiB; the limit is " + std::to_string(kMaxAllocatedBytes >> 20) + " MiB"};
    return verdict;
  }
  const auto& sections = obj->sections();
  for (const auto& sym : obj->symbols()) {
    if (sym.name.empty() || sym.type == STT_SECTION || sym.type == STT_FILE) continue;
    if (sym.type == STT_GNU_IFUNC) {
      verdict.violation = Violation{"code-outside-call",
                                    "'" + sym.name + "' is an ifunc: its resolver would run before the kernel call"};
      return verdict;
    }
    if (sym.undefined() && sym.bind != STB_LOCAL) {
      if (!symbol_allowed(sym.name)) {
        verdict.violation =
            Violation{"forbidden-symbol", "calls or references '" + sym.name +
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
    if (auto v = check_instructions({bytes, s.data.size()}, s.name, 0)) {
      verdict.violation = v;
      return verdict;
    }
  }
  return verdict;
}

}  // namespace eok::evaluator
