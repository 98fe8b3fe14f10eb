// The LMUL rewrite behind the tuner's LMUL knob: every RVV spelling in a C source that carries an LMUL
// (vector, tuple and mask types, intrinsic names, vsetvl suffixes) rescaled by 2^shift, so that
// mixed-width code stays consistent; comments, literals and other identifiers are never touched.
//
// Contract: rescale_lmul is a pure function of its arguments; it never throws for a source it cannot
// rescale, it reports the first RVV name the shift would make illegal (LMUL outside mf8..m8, below
// SEW/64, a tuple over 8 registers, a mask outside vbool1..vbool64, an operand the name implies) and
// then copies nothing more. The LMULs RVV fixes at 1 stay m1: reduction scalars, the scalar moves that
// feed or read them directly, the vector side of mask reinterprets (lmul_rescale.cc lists every spelling).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace eok::search {

// An RVV name the rewrite could not rescale.
struct RescaleProblem {
  size_t line = 0;  // 1-based
  std::string name;
  std::string reason;
};

struct RescaleResult {
  size_t names = 0;  // RVV names that carry an LMUL
  std::optional<RescaleProblem> problem;
};

// A knob value of LMUL (1, 2, 4, 8, mf2, mf4, mf8) as its log2 (mf8 = -3 ... m8 = 3); nullopt otherwise.
std::optional<int> parse_lmul_value(std::string_view v);

// Rescales every LMUL in `source` by 2^shift, into *out when set (validation only otherwise). With a
// problem, *out holds an incomplete source.
RescaleResult rescale_lmul(std::string_view source, int shift, std::string* out);

// "line 7: '__riscv_vle32_v_f32m8' cannot be rescaled: it would need LMUL m16, outside RVV's mf8..m8".
std::string describe_problem(const RescaleProblem& p);

}  // namespace eok::search
