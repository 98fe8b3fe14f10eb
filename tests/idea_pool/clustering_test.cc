#include "idea_pool/clustering.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "src/common/error.h"

namespace eok::idea_pool {
namespace {

// `blobs` tight groups of `per_blob` unit vectors in `dim` dimensions, around orthogonal directions; the
// true blob of each point in *truth.
std::vector<Embedding> blobs(size_t blobs, size_t per_blob, size_t dim, std::vector<size_t>* truth) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> noise(-0.15f, 0.15f);
  std::vector<Embedding> points;
  for (size_t p = 0; p < per_blob; ++p) {
    for (size_t b = 0; b < blobs; ++b) {  // interleaved, so that the order gives nothing away
      Embedding v(dim);
      for (auto& x : v) x = noise(rng);
      v[b] += 1.0f;
      l2_normalise(v);
      points.push_back(std::move(v));
      truth->push_back(b);
    }
  }
  return points;
}

// True when `found` partitions the points exactly like `truth` (up to the clusters' names).
bool same_partition(const std::vector<size_t>& found, const std::vector<size_t>& truth) {
  std::map<size_t, size_t> f2t, t2f;
  for (size_t i = 0; i < found.size(); ++i) {
    if (f2t.emplace(found[i], truth[i]).first->second != truth[i]) return false;
    if (t2f.emplace(truth[i], found[i]).first->second != found[i]) return false;
  }
  return true;
}

TEST(Cosine, DistancesOfUnitVectors) {
  Embedding a = {3, 4}, b = {-4, 3}, zero = {0, 0};
  l2_normalise(a);
  l2_normalise(b);
  l2_normalise(zero);
  EXPECT_NEAR(a[0], 0.6f, 1e-6);
  EXPECT_NEAR(cosine_distance(a, a), 0.0f, 1e-6);
  EXPECT_NEAR(cosine_distance(a, b), 1.0f, 1e-6);  // orthogonal
  EXPECT_NEAR(cosine_similarity(a, Embedding{-a[0], -a[1]}), -1.0f, 1e-6);
  EXPECT_EQ(zero, (Embedding{0, 0}));
  EXPECT_NEAR(cosine_distance(a, zero), 1.0f, 1e-6);
  EXPECT_THROW(dot(a, Embedding{1, 0, 0}), Error);
  const Embedding mean = mean_direction({a, b}, {0, 1});
  EXPECT_NEAR(cosine_similarity(mean, a), cosine_similarity(mean, b), 1e-6);
}

TEST(KMeans, RecoversSeparableBlobs) {
  std::vector<size_t> truth;
  const auto points = blobs(5, 20, 16, &truth);
  for (bool spherical : {true, false}) {
    const KMeansResult r = kmeans(points, {.k = 5, .spherical = spherical, .seed = 3, .restarts = 3});
    ASSERT_EQ(r.centroids.size(), 5u);
    ASSERT_EQ(r.assignment.size(), points.size());
    EXPECT_TRUE(same_partition(r.assignment, truth)) << (spherical ? "spherical" : "euclidean");
  }
}

TEST(KMeans, KIsCappedByThePoints) {
  std::vector<size_t> truth;
  const auto points = blobs(3, 1, 8, &truth);
  const KMeansResult r = kmeans(points, {.k = 10});
  ASSERT_EQ(r.centroids.size(), 3u);
  EXPECT_EQ(std::set<size_t>(r.assignment.begin(), r.assignment.end()).size(), 3u);
  EXPECT_TRUE(kmeans({}, {.k = 4}).centroids.empty());
  EXPECT_TRUE(kmeans(points, {.k = 0}).assignment.empty());
}

TEST(KMeans, IsDeterministicForASeed) {
  std::vector<size_t> truth;
  const auto points = blobs(6, 15, 12, &truth);
  const KMeansResult a = kmeans(points, {.k = 4, .seed = 11}), b = kmeans(points, {.k = 4, .seed = 11});
  EXPECT_EQ(a.assignment, b.assignment);
  EXPECT_EQ(a.centroids, b.centroids);
  const KMeansResult threads = kmeans(points, {.k = 4, .seed = 11, .threads = 2});
  EXPECT_EQ(a.assignment, threads.assignment);
}

TEST(KMeans, SphericalCentroidsAreUnitVectors) {
  std::vector<size_t> truth;
  const auto points = blobs(3, 10, 8, &truth);
  for (const auto& c : kmeans(points, {.k = 3, .spherical = true}).centroids)
    EXPECT_NEAR(cosine_similarity(c, c), 1.0f, 1e-4);
}

TEST(NearestCentroids, PicksTheClosestAndSaysHowFar) {
  const std::vector<Embedding> centroids = {{1, 0, 0}, {0, 1, 0}};
  const auto near = nearest_centroids({{0.6f, 0.8f, 0}, {1, 0, 0}, {0, 0, 1}}, centroids);
  ASSERT_EQ(near.size(), 3u);
  EXPECT_EQ(near[0].index, 1u);
  EXPECT_NEAR(near[0].distance, 0.2f, 1e-6);
  EXPECT_EQ(near[1].index, 0u);
  EXPECT_NEAR(near[1].distance, 0.0f, 1e-6);
  EXPECT_EQ(near[2].index, 0u);  // a tie goes to the lower index
  EXPECT_NEAR(near[2].distance, 1.0f, 1e-6);
  EXPECT_THROW(nearest_centroids({{1, 0, 0}}, {}), Error);
  EXPECT_THROW(nearest_centroids({{1, 0, 0}}, {{1, 0}}), Error);
  EXPECT_TRUE(nearest_centroids({}, {}).empty());
}

}  // namespace
}  // namespace eok::idea_pool
