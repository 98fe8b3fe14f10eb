#include "src/db/record_states.h"

#include <array>

#include <nlohmann/json.hpp>

#include "src/common/enum_names.h"

namespace eok::db {

namespace {
constexpr std::array kRunStateNames = {"running", "finished", "stopped", "failed"};
constexpr std::array kBenchStateNames = {"running", "finished", "stopped", "incomplete"};
constexpr std::array kSearchMethodNames = {"eok", "eoh", "tuner"};
}  // namespace

const char* run_state_name(RunState state) {
  return enum_name(kRunStateNames, state);
}
std::optional<RunState> parse_run_state(std::string_view name) {
  return enum_from_name<RunState>(kRunStateNames, name);
}

const char* bench_state_name(BenchState state) {
  return enum_name(kBenchStateNames, state);
}
std::optional<BenchState> parse_bench_state(std::string_view name) {
  return enum_from_name<BenchState>(kBenchStateNames, name);
}

const char* search_method_name(SearchMethod method) {
  return enum_name(kSearchMethodNames, method);
}
std::optional<SearchMethod> parse_search_method(std::string_view name) {
  return enum_from_name<SearchMethod>(kSearchMethodNames, name);
}

void to_json(nlohmann::json& j, RunState state) {
  j = run_state_name(state);
}
void to_json(nlohmann::json& j, BenchState state) {
  j = bench_state_name(state);
}
void to_json(nlohmann::json& j, SearchMethod method) {
  j = search_method_name(method);
}

}  // namespace eok::db
