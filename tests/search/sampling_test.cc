#include "src/search/sampling.h"

#include <gtest/gtest.h>

#include <set>

namespace eok::search {
namespace {

TEST(Sampling, SameSeedSameChoices) {
  Rng a(derive_seed(7, {1, 2})), b(derive_seed(7, {1, 2})), c(derive_seed(7, {1, 3}));
  std::vector<double> s = {0.1, 0.2, 0.3};
  std::vector<size_t> ra, rb, rc;
  for (int i = 0; i < 20; ++i) {
    ra.push_back(softmax_pick(s, 0.1, a));
    rb.push_back(softmax_pick(s, 0.1, b));
    rc.push_back(softmax_pick(s, 0.1, c));
  }
  EXPECT_EQ(ra, rb);
  EXPECT_NE(ra, rc);
}

TEST(Sampling, SoftmaxFavoursHigherScoresAndTemperatureFlattens) {
  Rng rng(1);
  const std::vector<double> s = {0.0, 0.2};
  int sharp = 0, flat = 0;
  for (int i = 0; i < 4000; ++i) {
    sharp += softmax_pick(s, 0.05, rng) == 1;  // e^4 : 1 -> about 98 %
    flat += softmax_pick(s, 0.0, rng) == 1;    // uniform
  }
  EXPECT_GT(sharp, 3800);
  EXPECT_GT(flat, 1800);
  EXPECT_LT(flat, 2200);
}

TEST(Sampling, DistinctPicksNeverRepeat) {
  Rng rng(3);
  auto picks = softmax_pick_distinct({1, 2, 3, 4}, 3, 1.0, rng);
  EXPECT_EQ(picks.size(), 3u);
  EXPECT_EQ(std::set<size_t>(picks.begin(), picks.end()).size(), 3u);
  EXPECT_EQ(softmax_pick_distinct({1, 2}, 5, 1.0, rng).size(), 2u);
}

TEST(Sampling, RankPicksFollowEohsWeightsWhateverTheScores) {
  // n = 4: weights 1/5, 1/6, 1/7, 1/8 -> 0.3152, 0.2627, 0.2252, 0.1970 of the draws.
  Rng rng(5);
  std::vector<int> count(4, 0);
  const int draws = 40000;
  for (int i = 0; i < draws; ++i) count[rank_pick(4, rng)]++;
  const double expected[] = {0.3152, 0.2627, 0.2252, 0.1970};
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(static_cast<double>(count[i]) / draws, expected[i], 0.01) << "rank " << i;
  auto picks = rank_pick_distinct(5, 2, rng);
  EXPECT_EQ(picks.size(), 2u);
  EXPECT_NE(picks[0], picks[1]);
  EXPECT_EQ(rank_pick_distinct(2, 5, rng).size(), 2u);
  EXPECT_EQ(rank_pick(1, rng), 0u);
}

}  // namespace
}  // namespace eok::search
