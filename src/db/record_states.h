// The states and methods that run and bench records carry. The file holds their names (enum_names.h:
// name_of, parse_name), the same text as before they were enumerations, so databases written earlier read
// unchanged. A stored text that none of them spells is a damaged record: the database's readers throw
// CorruptDataError naming the row (record_columns.h); parse_name only says nullopt.
#pragma once

#include <array>

#include "src/common/enum_names.h"

namespace eok::db {

// Where a search run is. stopped (Ctrl-C, the budget, a failing board or disk) and a run left running by a
// kill continue with `eok search --resume`; failed means the search learned nothing (or ker0 fails).
enum class RunState { running, finished, stopped, failed };

// Where a bench is: incomplete means every task ended and some failed.
enum class BenchState { running, finished, stopped, incomplete };

// How a run searches: EoK (LLM + idea pool), plain EoH (LLM, no pool), or the knob tuner (no LLM).
enum class SearchMethod { eok, eoh, tuner };

}  // namespace eok::db

namespace eok {

template <>
struct EnumNames<db::RunState> {
  static constexpr std::array names = {"running", "finished", "stopped", "failed"};
};
template <>
struct EnumNames<db::BenchState> {
  static constexpr std::array names = {"running", "finished", "stopped", "incomplete"};
};
template <>
struct EnumNames<db::SearchMethod> {
  static constexpr std::array names = {"eok", "eoh", "tuner"};
};

}  // namespace eok
