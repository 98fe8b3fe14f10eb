// The paper's results table: per suite, per method, Mean / Max / 75% / 50% / 25% speedup, the number of
// tasks with a correct kernel and the number with speedup > 1.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "src/bench/bench_results.h"

namespace eok::bench {

enum class TableFormat { text, markdown };

// One block per suite (general, nn), one row per method; "" when there are no results.
std::string format_table(const std::vector<MethodResults>& results, TableFormat format);

// {"methods": [{"label", "method", "suites": {"general": {...stats}, "nn": ..., "all": ...}, "tasks": [...]}]}
nlohmann::json table_json(const std::vector<MethodResults>& results);

}  // namespace eok::bench
