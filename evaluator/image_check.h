// Checks on the final linked program, the image the board actually maps: what the object checks cannot
// see (the linker decides which bytes become executable), and the facts the board's plugin needs to
// watch the run (where the harness's markers and the candidate's code are).
//
// Contract: check_image() never executes anything and never throws for a hostile image. A violation is
// the candidate's (status rejected); `infra` is set when eok cannot read its own link (a broken
// toolchain), which is never held against the kernel.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "evaluator/static_check.h"

namespace eok::evaluator {

struct ImageFacts {
  uint64_t begin_marker = 0, end_marker = 0;                  // the harness's two marker instructions
  std::vector<std::pair<uint64_t, uint64_t>> candidate_code;  // [lo, hi): candidate bytes in executable pages
};

struct ImageVerdict {
  std::optional<Violation> violation;
  std::string infra;  // non-empty: eok could not analyse its own link
  ImageFacts facts;
};

// The output section the link puts every .text* input section of the candidate in (kCandidateLinkScript),
// so that the image itself says where the candidate's code is. It starts on a page of its own: where a
// kernel's loops cross a page (and QEMU splits their blocks) depends on the kernel alone, not on the size
// of the C library linked before it.
inline constexpr const char* kCandidateSection = ".eok_candidate";
inline constexpr const char* kCandidateLinkScript =
    "SECTIONS { .eok_candidate ALIGN(4096) : { *candidate.o(.text .text.*) } } INSERT AFTER .text;\n";

// `exe`: the static executable; `with_candidate`: it was linked with kCandidateLinkScript.
// Rules: no segment is both writable and executable, the stack is not executable; executable pages hold
// only the harness's and the C library's known code sections and the candidate's section, whose every
// byte (whatever its input section's flags said) decodes to an instruction a kernel may use; the marker
// instructions occur exactly once each, inside the harness's eok_harness_call, and nowhere else in any
// executable page.
ImageVerdict check_image(std::string_view exe, bool with_candidate);

}  // namespace eok::evaluator
