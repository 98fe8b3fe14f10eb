#include "src/db/record_json.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/db/db_test_support.h"

namespace eok::db::testing {
namespace {

using nlohmann::json;

TEST(RecordJson, EmbedsStoredJsonAndKeepsWhatDoesNotParse) {
  RunRecord run = make_run("r1");
  run.summary_json = "";
  run.progress_json = "{not json";
  const json j = run;
  EXPECT_EQ(j["id"], "r1");
  EXPECT_EQ(j["config"]["iterations"], 4);
  EXPECT_TRUE(j["summary"].is_null());
  EXPECT_EQ(j["progress"], "{not json");
  EXPECT_EQ(j["seed"], 42u);
}

TEST(RecordJson, KernelRowCarriesItsEvaluationOrNull) {
  KernelRow row{make_kernel("r1", "h"), std::nullopt};
  row.kernel.parents = {3, 1};
  json j = row;
  EXPECT_EQ(j["hash"], "h");
  EXPECT_EQ(j["parents"], json::array({3, 1}));
  EXPECT_TRUE(j["evaluation"].is_null());

  row.evaluation = make_evaluation(5, EvalStatus::ok, 12.5);
  j = row;
  EXPECT_EQ(j["evaluation"]["status"], "ok");
  EXPECT_EQ(j["evaluation"]["cycles"], 12.5);
  EXPECT_TRUE(j["evaluation"]["speedup"].is_null());
  EXPECT_EQ(j["evaluation"]["evidence"]["rule"], "none");
}

TEST(RecordJson, LeaderboardCountsAreKeyedByStatus) {
  LeaderboardRow row;
  row.task = "relu_f32";
  row.counts_by_status = {{EvalStatus::ok, 3}, {EvalStatus::wrong_answer, 1}};
  const json j = row;
  EXPECT_EQ(j["counts_by_status"]["ok"], 3);
  EXPECT_EQ(j["counts_by_status"]["wrong_answer"], 1);
  const json calls = make_call("r1", false);
  EXPECT_TRUE(calls["kernel_id"].is_null());
  EXPECT_EQ(calls["ok"], false);
}

}  // namespace
}  // namespace eok::db::testing
