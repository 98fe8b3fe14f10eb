// The verdict of evaluating one candidate kernel. Shared by the evaluator, which gives it, and the kernel
// database, which stores it as its name: the names below are the stored text and never change.
#pragma once

#include <optional>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace eok {

// A bad kernel is a status, never an exception. infra_error means eok or the board failed, and is never
// held against the kernel. The order is the order listings count statuses in.
enum class EvalStatus { ok, compile_error, rejected, runtime_error, wrong_answer, timeout, infra_error };

inline constexpr EvalStatus kEvalStatuses[] = {
    EvalStatus::ok,           EvalStatus::compile_error, EvalStatus::rejected,   EvalStatus::runtime_error,
    EvalStatus::wrong_answer, EvalStatus::timeout,       EvalStatus::infra_error};

// "ok", "compile_error", "rejected", "runtime_error", "wrong_answer", "timeout", "infra_error".
const char* status_name(EvalStatus status);
// The status `name` spells, or nullopt for any other text (the caller says what to do about it).
std::optional<EvalStatus> parse_eval_status(std::string_view name);

// JSON carries the name (nlohmann::json finds this by ADL: `json j = status;`).
void to_json(nlohmann::json& j, EvalStatus status);

}  // namespace eok
