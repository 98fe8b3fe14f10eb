// The verdict of evaluating one candidate kernel. Shared by the evaluator, which gives it, and the kernel
// database, which stores it by name (enum_names.h: name_of, parse_name; the names never change).
#pragma once

#include <array>

#include "src/common/enum_names.h"

namespace eok {

// A bad kernel is a status, never an exception. infra_error means eok or the board failed, and is never
// held against the kernel. The order is the order listings count statuses in.
enum class EvalStatus { ok, compile_error, rejected, runtime_error, wrong_answer, timeout, infra_error };

template <>
struct EnumNames<EvalStatus> {
  static constexpr std::array names = {"ok",           "compile_error", "rejected",   "runtime_error",
                                       "wrong_answer", "timeout",       "infra_error"};
};

// "ok", "compile_error" ... (the evaluator's and the search's name for name_of).
inline const char* status_name(EvalStatus status) {
  return name_of(status);
}

}  // namespace eok
