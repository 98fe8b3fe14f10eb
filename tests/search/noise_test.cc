// On a real board a kernel beats another only by more than the measured noise; on the virtual board
// (deterministic model) any cycle counts.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "src/search/evaluation_service.h"

namespace eok::testing {
namespace {

search::ScoredKernel scored(double cycles, std::optional<double> mad_cycles) {
  search::ScoredKernel k;
  k.eval.status = EvalStatus::ok;
  k.eval.cycles = cycles;
  nlohmann::json e = {{"evidence", nlohmann::json::object()}};
  // A timer in nanoseconds at 1.6 GHz: the board timer gives the MAD in cycles too.
  if (mad_cycles) {
    e["measurement"] = {
        {"median", cycles / 1.6}, {"median_cycles", cycles}, {"mad", *mad_cycles / 1.6}, {"mad_cycles", *mad_cycles}};
  }
  k.eval.evidence_json = e.dump();
  return k;
}

TEST(NoiseAwareComparison, OnARealBoardOnlyADifferenceBeyondBothNoisesCounts) {
  EXPECT_TRUE(scored(1000, 10).measured_on_board());
  EXPECT_NEAR(scored(1000, 10).noise(), 10, 1e-9);
  EXPECT_FALSE(search::clearly_faster(scored(985, 10), scored(1000, 10)));  // 15 < 10 + 10
  EXPECT_TRUE(search::clearly_faster(scored(975, 10), scored(1000, 10)));   // 25 > 20
  EXPECT_FALSE(search::clearly_faster(scored(1000, 10), scored(975, 10)));
}

TEST(NoiseAwareComparison, OnTheVirtualBoardEveryCycleCounts) {
  EXPECT_FALSE(scored(1000, std::nullopt).measured_on_board());
  EXPECT_EQ(scored(1000, std::nullopt).noise(), 0);
  EXPECT_TRUE(search::clearly_faster(scored(999, std::nullopt), scored(1000, std::nullopt)));
  EXPECT_FALSE(search::clearly_faster(scored(1000, std::nullopt), scored(1000, std::nullopt)));
}

}  // namespace
}  // namespace eok::testing
