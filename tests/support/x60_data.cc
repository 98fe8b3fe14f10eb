#include "support/x60_data.h"

#include <fstream>
#include "support/shared_data.h"

#ifndef EOK_SOURCE_DIR
#error "EOK_SOURCE_DIR (the repository root) must be defined by the build"
#endif

namespace eok::testing::x60 {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

fs::path measured_dir() {
  return ::eok::testing::shared_data("x60");
}

}  // namespace

fs::path table_path() {
  return fs::path(EOK_SOURCE_DIR) / "evaluator" / "cost_model" / "x60_table.json";
}
fs::path throughput_path() {
  return measured_dir() / "rvv-bench-x60-throughput.json";
}
fs::path kernels_path() {
  return measured_dir() / "rvv-bench-x60-kernels.json";
}

json read_json(const fs::path& p) {
  std::ifstream in(p);
  return json::parse(in);
}

const json& committed_table() {
  static const json doc = read_json(table_path());
  return doc;
}

const cost::X60Table& table() {
  static const cost::X60Table t = cost::X60Table::load(table_path());
  return t;
}

const cost::X60CostModel& model() {
  static const cost::X60CostModel m(cost::X60Table::load(table_path()), {});
  return m;
}

}  // namespace eok::testing::x60
