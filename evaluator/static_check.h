// Static checks on untrusted candidates, before anything of theirs runs (DESIGN.md section 7).
//
// Contract: each check returns the first rule the candidate breaks, with evidence a user can act on, or
// nothing. Checks never execute candidate code. The source checks give early, readable messages; the
// object checks are the authority (they see what the compiler actually produced).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace eok::evaluator {

struct Violation {
  std::string rule;    // short rule id: "inline-asm", "forbidden-include", "forbidden-symbol", ...
  std::string detail;  // what was found and where, and what to do instead
};

// Source text: size, NUL bytes, #include of anything but the allowed standard headers, inline assembly.
std::optional<Violation> check_source(std::string_view source);

struct ObjectVerdict {
  std::optional<Violation> violation;
  bool entry_defined = false;  // the entry function is a global function in an executable section
};

// Object file: sections (no constructors, TLS or extra executable sections), static data size, undefined
// symbols against the allow-list, and every instruction of every executable section (no ecall/ebreak,
// no CSR access but the FP/vector ones, no fence.i, no measurement markers, nothing undecodable).
ObjectVerdict check_object(std::string_view object_bytes, const std::string& entry);

// Undefined symbols a candidate may use (libm, memcpy/memset/memmove, compiler runtime helpers).
bool symbol_allowed(std::string_view name);

}  // namespace eok::evaluator
