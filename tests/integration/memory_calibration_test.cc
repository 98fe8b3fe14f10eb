// The shipped memory model against the measured X60: our calibration programs run through `eok measure`
// (evaluator/cost_model/calibration/run_calibration.py) and checked by fit_memory_model.py against
// rvv-bench's memcpy and memset results on the board, at one size per level of the memory hierarchy.
// The whole calibration set (every fourth measured size) is evaluator/README.md's re-run; this keeps CI
// fast and still fails when the model, the plugin or the programs drift from the measured figures.
//
// The bounds are what the shipped model achieves, as a guard against regressions: every size within
// [0.8, 1.25] of the measured speed and a mean rank correlation of 0.75. Issue 12's goal for the whole set
// (15% and 0.9 at every size) is not reached yet: near-ties among implementations that the board separates
// by a few percent swap places. `fit_memory_model.py check` prints where, and how well the board's own two
// runs of the same implementations agree per working-set band (beyond L1 they do not reach 0.9 either).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/board_fixture.h"
#include "support/shared_data.h"

namespace eok::testing {
namespace {

namespace fs = std::filesystem;

// Sizes of the measured data (bytes): L1, L2 and beyond L2 for memcpy (two buffers) and memset.
constexpr const char* kSizes = "1623,4216,106143,2608828";

ProcessResult run(const std::vector<std::string>& argv, double seconds) {
  ProcessSpec spec;
  spec.argv = argv;
  spec.limits.wall_seconds = seconds;
  return run_process(spec);
}

TEST(MemoryCalibrationSharedData, ShippedModelAgreesWithTheMeasuredX60AtEveryLevel) {
  const fs::path root = source_root();
  const fs::path data = ::eok::testing::shared_data("x60/rvv-bench-x60-kernels.json");
  SKIP_WITHOUT_SHARED_DATA(data);
  if (run({"python3", "--version"}, 10).exit_code != 0) GTEST_SKIP() << "python3 is not installed";
  TempDir dir(fs::temp_directory_path(), "eok-calibration-");
  const fs::path runs = dir.path() / "runs.jsonl";
  const fs::path cal = root / "evaluator" / "cost_model";
  ProcessResult r = run({"python3", (cal / "calibration" / "run_calibration.py").string(), "--chart", "base", "--sizes",
                         kSizes, "--timed", "3", "--eok", (fs::path(EOK_BINARY_DIR) / "eok").string(), "--build-dir",
                         dir.path().string(), "--out", runs.string()},
                        1200);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  r = run({"python3", (cal / "fit_memory_model.py").string(), "check", "--runs", runs.string(), "--json"}, 300);
  // 3: the script's formula and eok's cost model disagree, so the fit would fit something eok does not run.
  ASSERT_NE(r.exit_code, 3) << r.err;
  const auto rows = nlohmann::json::parse(r.out);
  ASSERT_EQ(rows.size(), 8u) << r.out;  // 2 benchmarks x 4 sizes
  double rho_sum = 0;
  for (const auto& row : rows) {
    const std::string what = row["bench"].get<std::string>() + " at " + std::to_string(row["n"].get<long>()) + " bytes";
    EXPECT_GE(row["ratio"].get<double>(), 0.8) << what << ": modeled/measured speed (geometric mean)";
    EXPECT_LE(row["ratio"].get<double>(), 1.25) << what << ": modeled/measured speed (geometric mean)";
    ASSERT_FALSE(row["spearman"].is_null()) << what;
    EXPECT_GT(row["spearman"].get<double>(), 0.4) << what << ": rank correlation across implementations";
    rho_sum += row["spearman"].get<double>();
  }
  EXPECT_GE(rho_sum / static_cast<double>(rows.size()), 0.75) << "mean rank correlation";
}

// The held-out programs (calibration/check_heldout.py: memreverse, byteswap, utf8_count, LUT4) build, check
// their own results in every untimed call and end the regions the check maps to implementations, at an L1
// and an L2 size. Judging them needs rvv-bench's X60 pages, which are not part of the shared data: the
// figures are evaluator/README.md's, this keeps the programs runnable.
TEST(MemoryCalibration, HeldOutProgramsBuildRunAndCheckTheirResults) {
  if (run({"python3", "--version"}, 10).exit_code != 0) GTEST_SKIP() << "python3 is not installed";
  TempDir dir(fs::temp_directory_path(), "eok-heldout-");
  const fs::path script = source_root() / "evaluator" / "cost_model" / "calibration" / "check_heldout.py";
  const ProcessResult r = run({"python3", script.string(), "--smoke", "--eok",
                               (fs::path(EOK_BINARY_DIR) / "eok").string(), "--build-dir", dir.path().string()},
                              600);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  for (const char* program : {"memreverse", "byteswap", "utf8_count", "LUT4"}) {
    EXPECT_NE(r.out.find(std::string(program) + " n="), std::string::npos) << program << " did not run\n" << r.out;
  }
}

}  // namespace
}  // namespace eok::testing
