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

}  // namespace
}  // namespace eok::search
