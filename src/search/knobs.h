// Tuning knobs that a kernel declares, and the source variants they produce: the search space of the
// non-LLM tuner (the "Kernel Tuner" baseline).
//
// Convention (documented in kernels/README.md): a kernel declares each knob on a comment line of its own
//   // eok-knob: NAME = DEFAULT in {V1, V2, ...}
// Two kinds:
//   - LMUL (the name is exactly LMUL): the register-group multiplier the kernel is written at. A value
//     rescales every LMUL in the RVV names of the code (intrinsics, vector and mask types, vsetvl
//     suffixes; never comments, literals or other identifiers) by value/DEFAULT, so that mixed-width code
//     (e.g. f16m2 widened into f32m4) stays consistent; mask types vboolN scale inversely (N = SEW/LMUL).
//     The m1 that RVV fixes for reduction scalars stays m1. No code support needed, but every declared
//     value must give legal names: mf8..m8, LMUL >= SEW/64, at most 8 registers per tuple, and the
//     operands a name implies (the wide source of a narrowing op, the offsets of an indexed access).
//   - any other NAME: a preprocessor constant. The kernel wraps its default in
//       #ifndef NAME
//       #define NAME DEFAULT
//       #endif
//     and a variant is the source with "#define NAME VALUE" put in front.
// The default of every knob reproduces the kernel as written; apply_knobs() returns it unchanged.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace eok::search {

struct Knob {
  std::string name;
  std::string default_value;
  std::vector<std::string> values;  // includes the default
  bool is_lmul() const { return name == "LMUL"; }
};

using KnobValues = std::map<std::string, std::string>;

// Knobs declared in `source`, in order. Throws ConfigError with the line when a declaration is malformed
// (missing default, default not among the values, a value listed twice, a knob declared twice, an LMUL
// value that is not 1/2/4/8 or mf2/mf4/mf8, a define knob without its #ifndef guard or whose guard
// defines another default) or when a declared LMUL value cannot rescale the source.
std::vector<Knob> parse_knobs(const std::string& source);

// `source` with `values` applied (missing names keep their default; defines go in front in declaration
// order). Throws ConfigError when a name or value is not declared, or when rescaling would make an RVV
// name illegal (e.g. m8 * 2, or e64 at mf2), naming the line.
std::string apply_knobs(const std::string& source, const std::vector<Knob>& knobs, const KnobValues& values);

// "LMUL=8 UNROLL=1" (only the names given, sorted by name; "" for none).
std::string describe(const KnobValues& values);

}  // namespace eok::search
