// Vector geometry for the miner: cosine similarity on l2-normalised embeddings, K-means (FAISS), and
// nearest-centroid assignment.
//
// Contract: every function takes rows of equal length (throws eok::Error naming the row otherwise) and is
// deterministic for a given seed on a given machine. Embeddings are expected l2-normalised (l2_normalise
// makes them so); then cosine distance = 1 - dot, in [0, 2], 0 for the same direction and 1 for
// orthogonal (unrelated) texts. A zero vector (a text the embedder knows nothing of) is at distance 1 from
// everything.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace eok::idea_pool {

using Embedding = std::vector<float>;

float dot(std::span<const float> a, std::span<const float> b);
// For l2-normalised a and b: their dot product; 1 - cosine_similarity is the cosine distance.
float cosine_similarity(std::span<const float> a, std::span<const float> b);
float cosine_distance(std::span<const float> a, std::span<const float> b);

// Scales `v` to unit length; a zero vector stays zero.
void l2_normalise(std::vector<float>& v);
void l2_normalise(std::vector<Embedding>& rows);

// The l2-normalised mean of rows[i] for i in `members` (the direction of a group); zero when empty.
Embedding mean_direction(const std::vector<Embedding>& rows, const std::vector<size_t>& members);

struct KMeansOptions {
  size_t k = 8;           // capped by the number of points
  bool spherical = true;  // cosine K-means: centroids re-normalised, points assigned by inner product
  uint64_t seed = 1;
  int iterations = 25;
  bool plus_plus = true;  // k-means++ seeds (ours, seeded); false: FAISS's random initial points
  int restarts = 1;       // FAISS nredo, keep the best of this many runs; with k-means++ seeds every run
                          // starts the same, so it only matters when plus_plus is false
  // OpenMP threads of FAISS. One by default: its distance products go through BLAS either way, and on the
  // miner's small problems spinning OpenMP workers cost more than they save (4x slower on a busy 2-core
  // machine). The result does not depend on it.
  int threads = 1;
};

struct KMeansResult {
  std::vector<size_t> assignment;  // per point, its cluster in [0, centroids.size())
  std::vector<Embedding> centroids;
  double objective = 0;  // FAISS's final objective (sum of squared L2 distances, or of similarities when spherical)
};

// K-means of `points` into min(k, points) clusters with FAISS. Points are assigned to their nearest final
// centroid (cosine when spherical, L2 otherwise); a cluster can end up empty when points repeat. No points
// or k == 0 gives an empty result.
KMeansResult kmeans(const std::vector<Embedding>& points, const KMeansOptions& options);

struct Nearest {
  size_t index = 0;       // into the centroids
  float distance = 1.0f;  // cosine distance
};

// For each point, the centroid of smallest cosine distance (ties: the lower index). Both sides are taken as
// l2-normalised. Throws eok::Error when `centroids` is empty and `points` is not.
std::vector<Nearest> nearest_centroids(const std::vector<Embedding>& points, const std::vector<Embedding>& centroids);

}  // namespace eok::idea_pool
