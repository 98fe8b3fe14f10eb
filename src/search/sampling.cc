#include "src/search/sampling.h"

#include <algorithm>
#include <cmath>

namespace eok::search {

uint64_t derive_seed(uint64_t base, std::initializer_list<uint64_t> parts) {
  auto mix = [](uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  uint64_t h = mix(base);
  for (uint64_t p : parts) h = mix(h ^ mix(p));
  return h;
}

namespace {

size_t weighted_pick(const std::vector<double>& weights, Rng& rng) {
  double sum = 0;
  for (double w : weights) sum += w;
  double r = rng.uniform() * sum;
  for (size_t i = 0; i < weights.size(); ++i) {
    r -= weights[i];
    if (r < 0) return i;
  }
  return weights.size() - 1;
}

std::vector<double> rank_weights(size_t n) {
  std::vector<double> w(n);
  for (size_t i = 0; i < n; ++i) w[i] = 1.0 / static_cast<double>(i + 1 + n);
  return w;
}

}  // namespace

size_t softmax_pick(const std::vector<double>& scores, double temperature, Rng& rng) {
  if (scores.size() <= 1) return 0;
  const double top = *std::max_element(scores.begin(), scores.end());
  std::vector<double> weights(scores.size());
  for (size_t i = 0; i < scores.size(); ++i) {
    // Subtracting the maximum keeps exp() finite; a non-positive temperature means uniform.
    weights[i] = temperature > 0 ? std::exp((scores[i] - top) / temperature) : 1.0;
  }
  return weighted_pick(weights, rng);
}

std::vector<size_t> softmax_pick_distinct(const std::vector<double>& scores, size_t k, double temperature, Rng& rng) {
  std::vector<size_t> left(scores.size());
  for (size_t i = 0; i < left.size(); ++i) left[i] = i;
  std::vector<size_t> picked;
  while (picked.size() < k && !left.empty()) {
    std::vector<double> s;
    for (size_t i : left) s.push_back(scores[i]);
    const size_t j = softmax_pick(s, temperature, rng);
    picked.push_back(left[j]);
    left.erase(left.begin() + static_cast<std::ptrdiff_t>(j));
  }
  return picked;
}

size_t rank_pick(size_t n, Rng& rng) {
  return n <= 1 ? 0 : weighted_pick(rank_weights(n), rng);
}

std::vector<size_t> rank_pick_distinct(size_t n, size_t k, Rng& rng) {
  const std::vector<double> all = rank_weights(n);
  std::vector<size_t> left(n);
  for (size_t i = 0; i < n; ++i) left[i] = i;
  std::vector<size_t> picked;
  while (picked.size() < k && !left.empty()) {
    std::vector<double> w;
    for (size_t i : left) w.push_back(all[i]);
    const size_t j = weighted_pick(w, rng);
    picked.push_back(left[j]);
    left.erase(left.begin() + static_cast<std::ptrdiff_t>(j));
  }
  return picked;
}

}  // namespace eok::search
