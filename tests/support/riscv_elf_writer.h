// Test support: small RISC-V ELF files written byte by byte, for tests that need a compiled kernel object
// or a linked program without clang or lld (fake_toolchain.h writes them where a real compiler would).
// They are well-formed as far as evaluator/elf_object.h, the object checks and the image checks read them.
#pragma once

#include <string>
#include <vector>

namespace eok::testing {

// A relocatable object (what `clang -c` makes) defining `entry` as a global function of one `ret` in
// .text, and referencing each of `undefined` as a global undefined symbol (a call the object would make).
std::string riscv_kernel_object(const std::string& entry, const std::vector<std::string>& undefined = {});

// A static executable (what the link makes) with one read+execute segment: the harness's
// eok_harness_call in .text, holding each measurement marker once; with `with_candidate`, the candidate
// section the candidate link script creates (image_check.h, kCandidateSection), holding one `ret`.
std::string riscv_harness_program(bool with_candidate);

}  // namespace eok::testing
