// eok's own cost per LLM call and the search's throughput, against the tests' fake OpenAI-compatible
// server on 127.0.0.1 (it answers at once, so what is measured is eok and the board, not a model).
//
//   build/eok_search_bench --benchmark_filter=LlmCall      per-call overhead
//   build/eok_search_bench --benchmark_filter=Search       proposals and evaluations per minute
//   build/eok_search_bench --benchmark_filter=Tuner        the knob tuner's evaluations per minute
#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>

#include "src/common/fs_util.h"
#include "src/common/log.h"
#include "src/db/kernel_db.h"
#include "src/llm/http_llm.h"
#include "src/search/proposal.h"
#include "src/search/search_run.h"
#include "support/fake_openai_server.h"

namespace {

namespace fs = std::filesystem;
using namespace eok;
using eok::testing::FakeOpenAiServer;
using eok::testing::FakeReply;
using eok::testing::RecordedRequest;

// A correct relu kernel that differs per request (a distinct statement per seed), so every proposal is a
// new kernel that the board evaluates.
FakeReply fresh_relu(const RecordedRequest& r) {
  const uint64_t seed = r.json().value("seed", uint64_t{0}) % 1000000;
  return FakeReply::completion(
      "Idea: a strip-mined vfmax variant.\n```c\n#include <riscv_vector.h>\n#include <stddef.h>\n"
      "void relu_f32(float *x, size_t n) {\n  (void)" +
          std::to_string(seed) +
          "u;\n"
          "  for (size_t vl; n > 0; n -= vl, x += vl) {\n    vl = __riscv_vsetvl_e32m4(n);\n"
          "    vfloat32m4_t v = __riscv_vle32_v_f32m4(x, vl);\n"
          "    __riscv_vse32_v_f32m4(x, __riscv_vfmax_vf_f32m4(v, 0.0f, vl), vl);\n  }\n}\n```\n",
      900, 300);
}

void LlmCall_HttpRoundTrip(benchmark::State& state) {
  log::set_level("warn");
  FakeOpenAiServer server;
  server.set_default_reply(FakeReply::completion("Idea: x\n```c\nvoid k(void) {}\n```\n"));
  llm::LlmSettings s;
  s.base_url = server.base_url();
  s.model = "fake";
  llm::HttpLlm client(s);
  llm::ChatRequest req;
  req.messages = {{"system", std::string(3000, 's')}, {"user", std::string(6000, 'u')}};  // prompt-sized
  uint64_t seed = 0;
  for (auto _ : state) {
    req.seed = ++seed;
    auto r = client.chat(req);
    if (!r.ok) state.SkipWithError(r.message.c_str());
  }
}

void LlmCall_ParseReply(benchmark::State& state) {
  const std::string reply = "Idea: two strips per iteration.\n```c\n" + std::string(4000, ' ') +
                            "void relu_f32(float *x, size_t n) { x[0] = n; }\n```\n";
  for (auto _ : state) benchmark::DoNotOptimize(search::parse_proposal(reply, "relu_f32"));
}

void LlmCall_RecordInDatabase(benchmark::State& state) {
  TempDir dir(fs::temp_directory_path(), "eok-bench-db-");
  auto db = db::KernelDb::open(dir.path() / "eok.db");
  db::RunRecord run;
  run.id = "r-bench";
  run.task = "relu_f32";
  run.board = "k1";
  run.state = db::RunState::running;
  run.method = db::SearchMethod::eoh;
  db->create_run(run);
  db::LlmCallRecord c;
  c.run_id = run.id;
  c.op = "M1";
  c.model = "fake";
  c.ok = true;
  c.retrieved_context = std::string(2000, 'c');
  int64_t n = 0;
  for (auto _ : state) {
    c.request_hash = std::to_string(++n);
    benchmark::DoNotOptimize(db->insert_llm_call(c));
  }
}

// A whole search against the fake server: `parallel` searches, `eval_concurrency` evaluations at once.
void Search(benchmark::State& state) {
  log::set_level("warn");
  const int parallel = static_cast<int>(state.range(0)), evals = static_cast<int>(state.range(1));
  FakeOpenAiServer server;
  server.set_responder(fresh_relu);
  double proposals = 0, evaluated = 0, seconds = 0;
  for (auto _ : state) {
    TempDir home(fs::temp_directory_path(), "eok-bench-search-");
    search::SearchRequest req(EOK_SOURCE_DIR, Workspace::open(home.path()));
    req.task = "relu_f32";
    req.config = Config::load(EOK_SOURCE_DIR);
    req.config.set("llm.base_url", server.base_url());
    req.config.set("llm.model", "fake");
    req.config.set("search.iterations", std::to_string(2 / parallel));  // the same work either way
    req.config.set("search.parallel", std::to_string(parallel));
    req.config.set("search.population", "3");
    req.config.set("search.generations", "1");
    req.config.set("search.eval_concurrency", std::to_string(evals));
    req.config.set("search.seed", "7");
    const auto t0 = std::chrono::steady_clock::now();
    const search::SearchOutcome o = search::run_search(req);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    proposals += static_cast<double>(o.totals.llm_calls);
    evaluated += static_cast<double>(o.evaluated);
  }
  state.counters["proposals_per_min"] = 60 * proposals / seconds;
  state.counters["evaluations_per_min"] = 60 * evaluated / seconds;
}

void Tuner(benchmark::State& state) {
  log::set_level("warn");
  const char* task = state.range(0) == 0 ? "mish_f32" : "gemm_f32";
  state.SetLabel(task);
  double evaluated = 0, seconds = 0, speedup = 0;
  for (auto _ : state) {
    TempDir home(fs::temp_directory_path(), "eok-bench-tuner-");
    search::SearchRequest req(EOK_SOURCE_DIR, Workspace::open(home.path()));
    req.task = task;
    req.config = Config::load(EOK_SOURCE_DIR);
    req.config.set("search.method", "tuner");
    req.config.set("search.seed", "7");
    const auto t0 = std::chrono::steady_clock::now();
    const search::SearchOutcome o = search::run_search(req);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    evaluated += static_cast<double>(o.evaluated);
    speedup = o.best_speedup;
  }
  state.counters["evaluations_per_min"] = 60 * evaluated / seconds;
  state.counters["evaluations"] = evaluated / static_cast<double>(state.iterations());
  state.counters["best_speedup"] = speedup;
}

}  // namespace

BENCHMARK(LlmCall_HttpRoundTrip)->Unit(benchmark::kMicrosecond);
BENCHMARK(LlmCall_ParseReply)->Unit(benchmark::kMicrosecond);
BENCHMARK(LlmCall_RecordInDatabase)->Unit(benchmark::kMicrosecond);
BENCHMARK(Search)->Args({1, 1})->Args({2, 1})->Args({2, 2})->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();
BENCHMARK(Tuner)->DenseRange(0, 1)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

BENCHMARK_MAIN();
