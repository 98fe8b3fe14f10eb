// Which OpenBLAS changes can move which machine's numbers: the architecture of a core OpenBLAS reports,
// and whether a changed path is built into the library for that architecture.
//
// Contract: pure functions of their arguments (OpenBLAS's layout on develop, 2024, is built in); they
// never throw and never touch the disk. When in doubt a path counts as relevant: a commit wrongly kept
// only dilutes a measured effect, a commit wrongly dropped loses it.
#pragma once

#include <string>

namespace eok::idea_pool {

// The instruction-set architecture of an OpenBLAS core name ("SkylakeX" -> "x86_64", "neoversev1" ->
// "arm64", "x280" -> "riscv64"); "" when unknown.
std::string arch_of_core(const std::string& core);

// Whether a change to `path` (relative to the OpenBLAS root) can change the speed of a library built for
// `arch`. False for files that are not built (docs, CI, tests) and for another architecture's kernels and
// build files; true for everything shared (interface/, driver/, lapack-netlib/, param.h, kernel/generic ...).
bool path_affects_arch(const std::string& path, const std::string& arch);

}  // namespace eok::idea_pool
