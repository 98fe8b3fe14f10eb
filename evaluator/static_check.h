// Static checks on untrusted candidates, before anything of theirs runs (DESIGN.md section 7).
//
// Contract: each check returns the first rule the candidate breaks, with evidence a user can act on, or
// nothing. Checks never execute candidate code. They are a filter with readable messages, not the
// boundary (that is the sandbox, evaluator/sandbox/): the source checks read clang's own preprocessing of
// the source (no lexer of eok's), the object checks see what the compiler produced, and image_check.h
// sees what the linker made executable.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "evaluator/compiler.h"

namespace eok::evaluator {

struct Violation {
  std::string rule;    // short rule id: "inline-asm", "forbidden-include", "forbidden-symbol", ...
  std::string detail;  // what was found and where, and what to do instead
};

// The raw text, before clang reads it: size and NUL bytes.
std::optional<Violation> check_source(std::string_view source);

// The preprocessed source (`main_file`: the name the source had, e.g. "/eval/kernel.c"): the headers it
// includes must be standard ones, it may read no other file (#embed), and its own lines, macros expanded,
// may hold no inline assembly and no constructor, destructor or ifunc attributes.
std::optional<Violation> check_preprocessed(const Preprocessed& pp, const std::string& main_file);

// A kernel's identity: a hash of clang's layout-normalised preprocessing (-E -P -fminimize-whitespace), so
// two sources that differ only in comments or white space share it, and two that differ in any token
// (macros expanded, includes resolved by clang) do not.
std::string kernel_identity(const Preprocessed& pp);

struct ObjectVerdict {
  std::optional<Violation> violation;
  bool entry_defined = false;  // the entry function is a global function in an executable section
};

// Object file: sections by name and flags (no constructors, TLS, writable code or executable data),
// allocated size, ifunc symbols, undefined symbols against the allow-list, and every instruction of every
// executable section.
ObjectVerdict check_object(std::string_view object_bytes, const std::string& entry);

// The instruction rules for candidate code: every parcel decodes, no system instruction, fence.i, CSR
// access but the FP/vector ones, or measurement marker. `where` names the bytes in messages; `base` is
// the address of bytes[0] in them.
std::optional<Violation> check_instructions(std::span<const uint8_t> bytes, const std::string& where, uint64_t base);

// Undefined symbols a candidate may use (libm, memcpy/memset/memmove, compiler runtime helpers).
bool symbol_allowed(std::string_view name);

}  // namespace eok::evaluator
