// `eok doctor --board B` for a real board: every board of the profile reached with its key, a vector probe
// program run there through exec_prefix (an emulating host's /proc/cpuinfo says nothing about RVV), the
// timers the board harness can use, the CPU governor and the temperature sensor. Absent sensors are
// warnings, not failures.
#pragma once

#include <filesystem>
#include <vector>

#include "evaluator/board.h"
#include "evaluator/toolchain.h"

namespace eok::evaluator::remote {

// Never throws: every problem is a failed check with its fix.
std::vector<DoctorCheck> check_real_board(const BoardProfile& board, const std::filesystem::path& clang,
                                          const std::filesystem::path& scratch_dir);

}  // namespace eok::evaluator::remote
