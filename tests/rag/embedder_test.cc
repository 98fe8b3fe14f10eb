#include "rag/offline_embedder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "src/common/error.h"
#include "src/common/fs_util.h"

namespace eok::rag {
namespace {

namespace fs = std::filesystem;

float cosine(const std::vector<float>& a, const std::vector<float>& b) {
  float s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

float norm(const std::vector<float>& v) {
  return std::sqrt(cosine(v, v));
}

bool has(const std::vector<std::string>& tokens, const std::string& t) {
  return std::find(tokens.begin(), tokens.end(), t) != tokens.end();
}

// Commit messages of a kernel library on a few topics, written for this test.
const std::vector<std::string>& corpus() {
  static const std::vector<std::string> texts = {
      "Add software prefetch to the dgemv_t kernel",
      "Prefetch the B panel in the sgemm micro-kernel",
      "Tune the prefetch distance of ddot for large vectors",
      "Prefetch x and y in daxpy to hide memory latency",
      "Unroll the sdot loop by four with independent accumulators",
      "dnrm2: unroll by eight and keep separate partial sums",
      "Unroll the dgemv_t reduction so that loads overlap",
      "Use vfmacc instead of vfmul and vfadd in saxpy",
      "Fuse multiply and add in the dgemm kernel with vfmacc.vf",
      "Use fused multiply-add in the sgemv_n inner loop",
      "Reduce once after the loop with vfredusum instead of every iteration",
      "sasum: accumulate in vector registers and call vfredusum at the end",
      "Handle NaN and Inf in sscal when alpha is zero",
      "dscal: propagate NaN from x when alpha is 0",
      "Fix Inf handling in dnrm2",
      "Handle the tail of saxpy with vsetvli instead of a scalar loop",
      "dscal: strip-mine with vsetvli so the last partial vector needs no scalar code",
      "Remove the scalar tail loop from sdot and let vsetvl set the vector length",
      "Pack A into contiguous panels before the sgemm micro-kernel",
      "Vectorize the gemm tcopy packing routine",
      "Pack the triangular block in strsm before calling the kernel",
      "Update the CMake build for the RISC-V targets",
      "Fix the Makefile for the C910V target",
      "Update the documentation of the build options",
  };
  return texts;
}

TEST(CodeTokens, SplitsIdentifiersAndKeepsRvvNamesWhole) {
  const auto t =
      code_tokens("Optimize sgemvKernel_T with __riscv_vfmacc_vf_f32m8 and vle32.v loads", {.bigrams = false});
  EXPECT_TRUE(has(t, "sgemv"));
  EXPECT_TRUE(has(t, "kernel"));
  EXPECT_TRUE(has(t, "vfmacc"));           // the stem
  EXPECT_TRUE(has(t, "vfmacc_vf_f32m8"));  // the whole intrinsic, minus its prefix
  EXPECT_TRUE(has(t, "vle"));
  EXPECT_TRUE(has(t, "vle32"));
  EXPECT_TRUE(has(t, "vle32_v"));
  EXPECT_TRUE(has(t, "load"));
  EXPECT_FALSE(has(t, "with"));  // stop word
  EXPECT_FALSE(has(t, "t"));     // single letters say nothing
}

TEST(CodeTokens, DropsNumbersHashesUrlsAndTrailers) {
  const auto t = code_tokens(
      "Fix 8x4 kernel, see a3f9c21d and https://example.org/x 42\n\nSigned-off-by: Jane Roe <jane@example.org>",
      {.bigrams = false});
  EXPECT_EQ(t, (std::vector<std::string>{"fix", "kernel"}));
}

TEST(CodeTokens, InflectionsMeetAndBigramsStayInAClause) {
  const auto a = code_tokens("optimise", {.bigrams = false}), b = code_tokens("optimized", {.bigrams = false}),
             c = code_tokens("optimizations", {.bigrams = false});
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a, c);
  EXPECT_EQ(code_tokens("unrolling loops")[0], "unroll");
  const auto t = code_tokens("strided loads. prefetch");
  EXPECT_TRUE(has(t, "strid load"));
  EXPECT_FALSE(has(t, "load prefetch"));  // a sentence ends between them
  EXPECT_EQ(code_tokens("RISC-V", {.bigrams = false}), std::vector<std::string>{"riscv"});
}

TEST(CodeWords, KeepTheSpellingOfEachTerm) {
  const auto w = code_words("Vectorized loads");
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0].term, "vectoriz");
  EXPECT_EQ(w[0].surface, "vectorized");
}

TEST(OfflineEmbedder, SimilarTextsAreCloserThanUnrelatedOnes) {
  auto e = OfflineEmbedder::fit(corpus());
  const auto v = e.embed({"Prefetch A in the dgemm kernel to hide latency", "Prefetch the next cache lines in sgemv",
                          "Fix the Makefile for the RISC-V build"});
  EXPECT_GT(cosine(v[0], v[1]), cosine(v[0], v[2]));
  const auto nan = e.embed({"Handle NaN in dscal", "sscal must propagate NaN and Inf", "Pack panels for gemm"});
  EXPECT_GT(cosine(nan[0], nan[1]), cosine(nan[0], nan[2]));
}

TEST(OfflineEmbedder, RvvMnemonicsMatter) {
  auto e = OfflineEmbedder::fit(corpus());
  const auto v = e.embed(
      {"use vfredusum in the kernel", "kernel with __riscv_vfredusum_vs_f32m1_f32m1", "use vfmacc in the kernel"});
  EXPECT_GT(cosine(v[0], v[1]), cosine(v[0], v[2]));
  EXPECT_GT(cosine(v[0], v[1]), 0.5f);
}

TEST(OfflineEmbedder, OutputsAreUnitVectorsOfTheModelsDimension) {
  auto e = OfflineEmbedder::fit(corpus());
  EXPECT_GT(e.dim(), 0u);
  EXPECT_LE(e.dim(), corpus().size() / 10);  // fewer than 128: the corpus is small
  EXPECT_EQ(OfflineEmbedder::fit(corpus(), {.texts_per_dim = 4}).dim(), corpus().size() / 4);
  for (const auto& v : e.embed(corpus())) {
    ASSERT_EQ(v.size(), e.dim());
    EXPECT_NEAR(norm(v), 1.0f, 1e-4);
  }
  EXPECT_EQ(e.name(), "offline-tfidf-svd-" + std::to_string(e.dim()));
  EXPECT_NE(e.describe().find("fitted on 24 texts"), std::string::npos);
}

TEST(OfflineEmbedder, UnseenTextsProjectAndUnknownWordsGiveZero) {
  auto e = OfflineEmbedder::fit(corpus());
  const auto v = e.embed({"prefetch zzzunknownword in qqqother", "zzzunknownword qqqother", ""});
  EXPECT_NEAR(norm(v[0]), 1.0f, 1e-4);
  EXPECT_EQ(norm(v[1]), 0.0f);
  EXPECT_EQ(norm(v[2]), 0.0f);
  EXPECT_NEAR(cosine(v[0], e.embed_one("prefetch")), 1.0f, 1e-4);  // only the known word counts
}

TEST(OfflineEmbedder, IsDeterministic) {
  auto a = OfflineEmbedder::fit(corpus()), b = OfflineEmbedder::fit(corpus());
  EXPECT_EQ(a.fingerprint(), b.fingerprint());
  EXPECT_EQ(a.embed(corpus()), b.embed(corpus()));
  // Another random start of the randomized SVD finds the same leading singular value.
  auto c = OfflineEmbedder::fit(corpus(), {.seed = 7});
  ASSERT_FALSE(c.singular_values().empty());
  EXPECT_NEAR(c.singular_values()[0], a.singular_values()[0], 1e-3 * a.singular_values()[0]);
}

TEST(OfflineEmbedder, SavedModelsLoadBackAndEmbedTheSame) {
  auto e = OfflineEmbedder::fit(corpus());
  TempDir dir(fs::temp_directory_path(), "eok-embedder-");
  const fs::path file = dir.path() / "model.bin";
  e.save(file);
  auto loaded = OfflineEmbedder::load(file);
  EXPECT_EQ(loaded.fingerprint(), e.fingerprint());
  EXPECT_EQ(loaded.dim(), e.dim());
  EXPECT_EQ(loaded.describe(), e.describe());
  const std::vector<std::string> queries = {"prefetch in dgemv", "vfredusum once", "never seen before"};
  EXPECT_EQ(loaded.embed(queries), e.embed(queries));
}

TEST(OfflineEmbedder, DamagedOrMissingModelsSayWhatToDo) {
  auto e = OfflineEmbedder::fit(corpus());
  TempDir dir(fs::temp_directory_path(), "eok-embedder-");
  const fs::path file = dir.path() / "model.bin";
  e.save(file);
  std::string bytes = read_file(file);
  bytes[bytes.size() - 5] ^= 0x5a;
  write_file_atomic(file, bytes);
  try {
    OfflineEmbedder::load(file);
    FAIL() << "a damaged model loaded";
  } catch (const CorruptDataError& err) {
    EXPECT_NE(std::string(err.what()).find("fit the model again"), std::string::npos);
  }
  write_file_atomic(file, "not a model");
  EXPECT_THROW(OfflineEmbedder::load(file), CorruptDataError);
  EXPECT_THROW(OfflineEmbedder::load(dir.path() / "missing.bin"), NotFoundError);
}

TEST(OfflineEmbedder, ACorpusWithoutWordsIsAnError) {
  EXPECT_THROW(OfflineEmbedder::fit({"", "42 17", "the and of"}), Error);
}

TEST(TfidfModel, WeighsRareTermsHigherAndNormalises) {
  const auto m = TfidfModel::fit({{"load", "store"}, {"load", "prefetch"}, {"load"}}, 1, 100);
  EXPECT_EQ(m.size(), 3u);
  EXPECT_GT(m.idf_of("prefetch"), m.idf_of("load"));
  EXPECT_GT(m.idf_of("never-seen"), m.idf_of("prefetch"));
  const SparseVector v = m.transform({"load", "prefetch", "prefetch", "unknown"});
  ASSERT_EQ(v.index.size(), 2u);
  float n = 0;
  for (float x : v.value) n += x * x;
  EXPECT_NEAR(n, 1.0f, 1e-5);
  const auto capped = TfidfModel::fit({{"a1", "b1"}, {"a1"}}, 1, 1);
  EXPECT_EQ(capped.terms(), std::vector<std::string>{"a1"});  // the most frequent term survives the cap
}

}  // namespace
}  // namespace eok::rag
