#include "src/common/eval_status.h"

#include <array>

#include <nlohmann/json.hpp>

#include "src/common/enum_names.h"

namespace eok {

namespace {
constexpr std::array kNames = {"ok",           "compile_error", "rejected",   "runtime_error",
                               "wrong_answer", "timeout",       "infra_error"};
}  // namespace

const char* status_name(EvalStatus status) {
  return enum_name(kNames, status);
}

std::optional<EvalStatus> parse_eval_status(std::string_view name) {
  return enum_from_name<EvalStatus>(kNames, name);
}

void to_json(nlohmann::json& j, EvalStatus status) {
  j = status_name(status);
}

}  // namespace eok
