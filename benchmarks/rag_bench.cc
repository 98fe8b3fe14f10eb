// Retrieval speed over a real corpus: building the document index and one query inside the process.
// The corpus is $EOK_RAG_CORPUS, else ../shared/data/rag-corpus next to the source tree (the RVV spec, the
// intrinsics docs, the profiles).
//
//   build/eok_rag_bench --benchmark_filter=Build    index build, from scratch
//   build/eok_rag_bench --benchmark_filter=Query    one hybrid query (vector + BM25), p50 over queries
#include <benchmark/benchmark.h>

#include <cstdlib>

#include "rag/doc_index.h"
#include "src/common/fs_util.h"

namespace {

namespace fs = std::filesystem;
using namespace eok;

fs::path corpus() {
  if (const char* env = std::getenv("EOK_RAG_CORPUS")) return env;
  return fs::path(EOK_SOURCE_DIR) / ".." / "shared" / "data" / "rag-corpus";
}

void Build_SharedCorpus(benchmark::State& state) {
  if (!fs::exists(corpus())) {
    state.SkipWithError("no corpus: set EOK_RAG_CORPUS");
    return;
  }
  TempDir dir(fs::temp_directory_path(), "eok-ragbench-");
  size_t chunks = 0;
  for (auto _ : state) {
    rag::DocIndexOptions options;
    options.rebuild = true;
    chunks = rag::DocIndex::build({corpus()}, dir.path() / "index", options).chunks;
  }
  state.counters["chunks"] = static_cast<double>(chunks);
}
BENCHMARK(Build_SharedCorpus)->Unit(benchmark::kMillisecond)->Iterations(3);

void Query_Hybrid(benchmark::State& state) {
  if (!fs::exists(corpus())) {
    state.SkipWithError("no corpus: set EOK_RAG_CORPUS");
    return;
  }
  static TempDir dir(fs::temp_directory_path(), "eok-ragbench-");
  static const rag::DocIndex index = [] {
    rag::DocIndex::build({corpus()}, dir.path() / "index");
    return rag::DocIndex::load(dir.path() / "index");
  }();
  const std::vector<std::string> queries = {"vfredosum ordered floating-point sum reduction",
                                            "how LMUL groups vector registers",
                                            "__riscv_vsetvlmax_e32m4",
                                            "strided vector load vlse",
                                            "tail agnostic and mask agnostic policy",
                                            "widening floating-point fused multiply-add vfwmacc",
                                            "RVA23U64 mandatory extensions",
                                            "segment loads vlseg2e32"};
  size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(index.query(queries[i++ % queries.size()], 5));
}
// Repetitions give the distribution: the median of the per-repetition means is the p50 to report.
BENCHMARK(Query_Hybrid)->Unit(benchmark::kMillisecond)->Repetitions(9)->ReportAggregatesOnly(true);

}  // namespace

BENCHMARK_MAIN();
