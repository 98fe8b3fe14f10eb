#include "idea_pool/clustering.h"

#include <Eigen/Dense>
#include <faiss/Clustering.h>
#include <faiss/IndexFlat.h>
#include <faiss/impl/FaissException.h>
#include <omp.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "src/common/error.h"

namespace eok::idea_pool {

namespace {

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

size_t common_dim(const std::vector<Embedding>& rows, const char* what) {
  if (rows.empty()) return 0;
  const size_t d = rows[0].size();
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].size() != d) {
      throw Error(std::string(what) + " row " + std::to_string(i) + " has " + std::to_string(rows[i].size()) +
                  " values, row 0 has " + std::to_string(d) + ": vectors from different embedders cannot be mixed");
    }
  }
  return d;
}

RowMatrix to_matrix(const std::vector<Embedding>& rows, size_t d) {
  RowMatrix m(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(d));
  for (size_t i = 0; i < rows.size(); ++i) {
    for (size_t j = 0; j < d; ++j) m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = rows[i][j];
  }
  return m;
}

// Nearest rows of `c` for the rows of `p`, by largest score (dot product, or minus squared L2).
std::vector<Nearest> nearest(const RowMatrix& p, const RowMatrix& c, bool by_l2) {
  std::vector<Nearest> out(static_cast<size_t>(p.rows()));
  // In blocks of points, so that the score matrix stays small for 100k points x 10k centroids.
  const Eigen::Index block = 2048;
  Eigen::VectorXf c_norm2;
  if (by_l2) c_norm2 = c.rowwise().squaredNorm();
  for (Eigen::Index start = 0; start < p.rows(); start += block) {
    const Eigen::Index rows = std::min(block, p.rows() - start);
    RowMatrix scores = p.middleRows(start, rows) * c.transpose();
    if (by_l2) scores = (2.0f * scores).rowwise() - c_norm2.transpose();  // -|p-c|^2 + |p|^2
    for (Eigen::Index r = 0; r < rows; ++r) {
      Eigen::Index best = 0;
      for (Eigen::Index j = 1; j < scores.cols(); ++j) {
        if (scores(r, j) > scores(r, best)) best = j;
      }
      Nearest& n = out[static_cast<size_t>(start + r)];
      n.index = static_cast<size_t>(best);
      n.distance = by_l2 ? 0.0f : 1.0f - scores(r, best);
    }
  }
  return out;
}

// Sets the OpenMP threads of this thread's parallel regions for its lifetime.
class OmpThreads {
 public:
  explicit OmpThreads(int n) : saved_(omp_get_max_threads()) { omp_set_num_threads(std::max(n, 1)); }
  ~OmpThreads() { omp_set_num_threads(saved_); }
  OmpThreads(const OmpThreads&) = delete;
  OmpThreads& operator=(const OmpThreads&) = delete;

 private:
  int saved_;
};

// k-means++ seeding (Arthur and Vassilvitskii 2007): each next seed is a point drawn with probability
// proportional to its squared distance from the nearest seed so far. FAISS 1.7 starts from random points,
// which on a few hundred short texts often puts two seeds in one theme and none in another.
std::vector<float> plus_plus_seeds(const RowMatrix& x, size_t k, uint64_t seed) {
  const auto n = static_cast<size_t>(x.rows());
  std::mt19937_64 rng(seed);
  // Our own uniform draw: std::uniform_real_distribution differs between standard libraries.
  auto uniform = [&] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };  // [0, 1)
  std::vector<float> seeds;
  seeds.reserve(k * static_cast<size_t>(x.cols()));
  std::vector<double> d2(n, std::numeric_limits<double>::infinity());
  size_t next = static_cast<size_t>(uniform() * static_cast<double>(n));
  for (size_t c = 0; c < k; ++c) {
    const auto row = x.row(static_cast<Eigen::Index>(next));
    seeds.insert(seeds.end(), row.data(), row.data() + row.size());
    double total = 0;
    for (size_t i = 0; i < n; ++i) {
      d2[i] = std::min(d2[i], static_cast<double>((x.row(static_cast<Eigen::Index>(i)) - row).squaredNorm()));
      total += d2[i];
    }
    if (c + 1 == k) break;
    if (total <= 0) {  // every point sits on a seed: the rest are duplicates; take them in order
      next = (next + 1) % n;
      continue;
    }
    double target = uniform() * total;
    next = n - 1;
    for (size_t i = 0; i < n; ++i) {
      target -= d2[i];
      if (target < 0) {
        next = i;
        break;
      }
    }
  }
  return seeds;
}

}  // namespace

float dot(std::span<const float> a, std::span<const float> b) {
  if (a.size() != b.size()) {
    throw Error("dot product of vectors of " + std::to_string(a.size()) + " and " + std::to_string(b.size()) +
                " values: vectors from different embedders cannot be compared");
  }
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += static_cast<double>(a[i]) * b[i];
  return static_cast<float>(s);
}

float cosine_similarity(std::span<const float> a, std::span<const float> b) {
  return dot(a, b);
}

float cosine_distance(std::span<const float> a, std::span<const float> b) {
  return 1.0f - dot(a, b);
}

void l2_normalise(std::vector<float>& v) {
  double n = 0;
  for (float x : v) n += static_cast<double>(x) * x;
  if (n <= 0) return;
  const float inv = static_cast<float>(1.0 / std::sqrt(n));
  for (auto& x : v) x *= inv;
}

void l2_normalise(std::vector<Embedding>& rows) {
  for (auto& r : rows) l2_normalise(r);
}

Embedding mean_direction(const std::vector<Embedding>& rows, const std::vector<size_t>& members) {
  if (members.empty()) return {};
  Embedding m(rows.at(members[0]).size(), 0.0f);
  for (size_t i : members) {
    const Embedding& r = rows.at(i);
    if (r.size() != m.size()) throw Error("mean_direction: rows of different lengths");
    for (size_t j = 0; j < m.size(); ++j) m[j] += r[j];
  }
  l2_normalise(m);
  return m;
}

std::vector<Nearest> nearest_centroids(const std::vector<Embedding>& points, const std::vector<Embedding>& centroids) {
  if (points.empty()) return {};
  if (centroids.empty())
    throw Error("nearest_centroids: no centroids to assign " + std::to_string(points.size()) + " points to");
  const size_t d = common_dim(points, "point");
  if (common_dim(centroids, "centroid") != d) {
    throw Error("nearest_centroids: points have " + std::to_string(d) + " values, centroids " +
                std::to_string(centroids[0].size()) + ": embed both with the same embedder");
  }
  return nearest(to_matrix(points, d), to_matrix(centroids, d), false);
}

KMeansResult kmeans(const std::vector<Embedding>& points, const KMeansOptions& options) {
  KMeansResult result;
  if (points.empty() || options.k == 0) return result;
  const size_t d = common_dim(points, "point");
  if (d == 0) throw Error("kmeans: the points have no dimensions");
  const size_t n = points.size(), k = std::min(options.k, n);
  const RowMatrix x = to_matrix(points, d);

  faiss::ClusteringParameters cp;
  cp.niter = std::max(options.iterations, 1);
  cp.nredo = std::max(options.restarts, 1);
  cp.spherical = options.spherical;
  cp.seed = static_cast<int>(options.seed % static_cast<uint64_t>(std::numeric_limits<int>::max()));
  cp.verbose = false;
  // Few points per centroid is normal here (a handful of commits per thought): no warning, no subsampling.
  cp.min_points_per_centroid = 1;
  cp.max_points_per_centroid = std::numeric_limits<int>::max() / 4;
  faiss::Clustering clustering(static_cast<int>(d), static_cast<int>(k), cp);
  if (options.plus_plus) clustering.centroids = plus_plus_seeds(x, k, options.seed);
  try {
    OmpThreads threads(options.threads);
    if (options.spherical) {
      faiss::IndexFlatIP index(static_cast<faiss::Index::idx_t>(d));
      clustering.train(static_cast<faiss::Index::idx_t>(n), x.data(), index);
    } else {
      faiss::IndexFlatL2 index(static_cast<faiss::Index::idx_t>(d));
      clustering.train(static_cast<faiss::Index::idx_t>(n), x.data(), index);
    }
  } catch (const faiss::FaissException& e) {
    throw Error(std::string("K-means (FAISS) failed on ") + std::to_string(n) + " points, k = " + std::to_string(k) +
                ": " + e.what());
  }

  result.centroids.resize(k);
  RowMatrix c(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(d));
  for (size_t i = 0; i < k; ++i) {
    result.centroids[i].assign(clustering.centroids.begin() + static_cast<std::ptrdiff_t>(i * d),
                               clustering.centroids.begin() + static_cast<std::ptrdiff_t>((i + 1) * d));
    for (size_t j = 0; j < d; ++j)
      c(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = result.centroids[i][j];
  }
  const std::vector<Nearest> near = nearest(x, c, !options.spherical);
  result.assignment.reserve(n);
  for (const auto& m : near) result.assignment.push_back(m.index);
  if (!clustering.iteration_stats.empty()) result.objective = clustering.iteration_stats.back().obj;
  return result;
}

}  // namespace eok::idea_pool
