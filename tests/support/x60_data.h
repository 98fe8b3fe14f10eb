// Test support: the committed X60 cost table (evaluator/cost_model/x60_table.json) and the rvv-bench figures
// measured on the X60 that it copies (../shared/data/x60/ beside the checkout, absent on some machines), by
// path, and the table loaded once per test program.
#pragma once

#include <filesystem>

#include <nlohmann/json.hpp>

#include "evaluator/cost_model/x60_cost_model.h"
#include "evaluator/cost_model/x60_table.h"

namespace eok::testing::x60 {

std::filesystem::path table_path();       // evaluator/cost_model/x60_table.json
std::filesystem::path throughput_path();  // measured: rvv-bench-x60-throughput.json (may be absent)
std::filesystem::path kernels_path();     // measured: rvv-bench-x60-kernels.json (may be absent)

nlohmann::json read_json(const std::filesystem::path& p);  // throws on a missing or malformed file

const nlohmann::json& committed_table();  // table_path() as JSON, parsed once
const cost::X60Table& table();            // table_path() loaded once
const cost::X60CostModel& model();        // a model over table(), default options, built once

}  // namespace eok::testing::x60
