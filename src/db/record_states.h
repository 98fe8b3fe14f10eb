// The states and methods that run and bench records carry, and the text the database stores for each.
// The names below are the stored text and never change (databases written before these enumerations read
// unchanged). A stored text that none of them spells is a damaged record: the database's readers throw
// CorruptDataError for it (record_columns.h); the parse functions only say nullopt.
#pragma once

#include <optional>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace eok::db {

// Where a search run is. stopped (Ctrl-C, the budget, a failing board or disk) and a run left running by a
// kill continue with `eok search --resume`; failed means the search learned nothing (or ker0 fails).
enum class RunState { running, finished, stopped, failed };

// Where a bench is: incomplete means every task ended and some failed.
enum class BenchState { running, finished, stopped, incomplete };

// How a run searches: EoK (LLM + idea pool), plain EoH (LLM, no pool), or the knob tuner (no LLM).
enum class SearchMethod { eok, eoh, tuner };

inline constexpr RunState kRunStates[] = {RunState::running, RunState::finished, RunState::stopped, RunState::failed};
inline constexpr BenchState kBenchStates[] = {BenchState::running, BenchState::finished, BenchState::stopped,
                                              BenchState::incomplete};
inline constexpr SearchMethod kSearchMethods[] = {SearchMethod::eok, SearchMethod::eoh, SearchMethod::tuner};

// "running", "finished", "stopped", "failed"
const char* run_state_name(RunState state);
std::optional<RunState> parse_run_state(std::string_view name);
// "running", "finished", "stopped", "incomplete"
const char* bench_state_name(BenchState state);
std::optional<BenchState> parse_bench_state(std::string_view name);
// "eok", "eoh", "tuner"
const char* search_method_name(SearchMethod method);
std::optional<SearchMethod> parse_search_method(std::string_view name);

// JSON carries the names (nlohmann::json finds these by ADL: `json j = run.state;`).
void to_json(nlohmann::json& j, RunState state);
void to_json(nlohmann::json& j, BenchState state);
void to_json(nlohmann::json& j, SearchMethod method);

}  // namespace eok::db
