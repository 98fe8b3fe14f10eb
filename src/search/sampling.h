// Seeded randomness for the search: every random choice draws from an Rng derived from the run's seed and
// the choice's place (iteration, search, generation), so a run replays exactly.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <random>
#include <vector>

namespace eok::search {

class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(seed) {}
  uint64_t next() { return engine_(); }
  double uniform() { return std::uniform_real_distribution<double>(0.0, 1.0)(engine_); }
  size_t index(size_t n) { return static_cast<size_t>(std::uniform_int_distribution<uint64_t>(0, n - 1)(engine_)); }

 private:
  std::mt19937_64 engine_;
};

// A seed for one place in the run: mixes `base` with every part (splitmix64 steps).
uint64_t derive_seed(uint64_t base, std::initializer_list<uint64_t> parts);

// Index drawn with probability proportional to exp(score / temperature); uniform when temperature <= 0
// would divide by zero or every score is equal. `scores` must not be empty.
size_t softmax_pick(const std::vector<double>& scores, double temperature, Rng& rng);

// `k` distinct indices drawn by softmax without replacement (all of them, in drawn order, when k >= n).
std::vector<size_t> softmax_pick_distinct(const std::vector<double>& scores, size_t k, double temperature, Rng& rng);

// Index of a population sorted best first, drawn by rank as EoH's reference implementation draws parents:
// the i-th (0-based) with probability proportional to 1 / (i + 1 + n). It does not depend on how far apart
// the scores are (a 2% and a 50% lead weigh the same), and the best is at most twice as likely as the worst.
size_t rank_pick(size_t n, Rng& rng);

// `k` distinct indices drawn by rank without replacement (all of them, in drawn order, when k >= n).
std::vector<size_t> rank_pick_distinct(size_t n, size_t k, Rng& rng);

}  // namespace eok::search
