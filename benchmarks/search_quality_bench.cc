// How well the search uses a model, with a scripted model that reads its prompts: how many LLM calls a
// search needs before it first proposes the fastest mish variant, what the prompts cost in tokens per
// operator, and how much of the retrieved context comes from documents.
//
//   build/eok_search_quality_bench                         20 seeds, plain EoH and EoK with the tests' pool
//   build/eok_search_quality_bench --benchmark_filter=Mish/3/0   seed 3, plain EoH only
//   EOK_QUALITY_POOL=.eok/pools/latest.json build/eok_search_quality_bench --benchmark_filter=Mish/./1
//                                                           EoK with a pool of your own
//
// The scripted model knows a space of 36 real mish kernels derived from ker0 (LMUL 1/2/4/8, 0-2 Newton
// steps for the reciprocal, exp polynomial of degree 4-6; some fail the tolerance, which the virtual K1
// finds out). Like a model, it works from what the prompt shows: it changes one feature of the parent
// (M operators) or mixes the parents' features (E operators), and it avoids every variant whose idea the
// prompt names (the parents themselves, and any failed or repeated attempt the prompt reports). The best
// variant is found by evaluating the whole space once on the virtual K1.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <regex>

#include "evaluator/board_session.h"
#include "src/common/fs_util.h"
#include "src/common/hash.h"
#include "src/common/log.h"
#include "src/db/kernel_db.h"
#include "src/search/knobs.h"
#include "src/search/search_run.h"
#include "support/fake_openai_server.h"

namespace {

namespace fs = std::filesystem;
using namespace eok;
using eok::testing::FakeOpenAiServer;
using eok::testing::FakeReply;
using eok::testing::RecordedRequest;

struct Variant {
  int lmul = 4, newton = 2, degree = 6;  // ker0's own
  std::string key() const {
    return "lmul=" + std::to_string(lmul) + " newton=" + std::to_string(newton) + " degree=" + std::to_string(degree);
  }
  bool operator==(const Variant& o) const { return key() == o.key(); }
};

std::vector<Variant> all_variants() {
  std::vector<Variant> out;
  for (int l : {1, 2, 4, 8}) {
    for (int n : {0, 1, 2}) {
      for (int d : {4, 5, 6}) out.push_back({l, n, d});
    }
  }
  return out;
}

// `text` with the one line holding `needle` replaced by `with` (removed when empty).
std::string replace_line(std::string text, const std::string& needle, const std::string& with) {
  const size_t at = text.find(needle);
  if (at == std::string::npos) throw std::runtime_error("ker0 of mish_f32 changed: no line with " + needle);
  const size_t begin = text.rfind('\n', at) + 1, end = text.find('\n', at) + 1;
  return text.replace(begin, end - begin, with.empty() ? "" : with + "\n");
}

std::string variant_source(const std::string& ker0, const Variant& v) {
  std::string s = ker0;
  if (v.newton < 2) s = replace_line(s, "q = __riscv_vfmul_vv_f32m4(q, __riscv_vfrsub", "");
  if (v.newton < 1) {
    s = replace_line(s, "vfloat32m4_t corr =", "");
    s = replace_line(s, "vfloat32m4_t ratio =", "    vfloat32m4_t ratio = __riscv_vfmul_vv_f32m4(t, q, vl);");
  }
  if (v.degree < 6) s = replace_line(s, "hi = __riscv_vfmacc_vf_f32m4(hi, 1.3926926767e-3f", "");
  if (v.degree < 5) {
    s = replace_line(s, "vfloat32m4_t hi =", "    vfloat32m4_t hi = __riscv_vfmv_v_f_f32m4(4.1666548699e-2f, vl);");
  }
  const auto knobs = search::parse_knobs(s);
  s = search::apply_knobs(s, knobs, {{"LMUL", std::to_string(v.lmul)}});
  return "// variant: " + v.key() + "\n" + s;
}

// The scripted model: answers a kernel prompt from what it shows.
class ScriptedMishModel {
 public:
  explicit ScriptedMishModel(std::string ker0) : ker0_(std::move(ker0)) {}

  FakeReply answer(const RecordedRequest& r) {
    const auto body = r.json();
    const std::string user = body["messages"].back().value("content", "");
    std::string prompt;
    for (const auto& m : body["messages"]) prompt += m.value("content", "");
    uint64_t state = body.value("seed", uint64_t{0}) ^ 0x9e3779b97f4a7c15ull;
    auto draw = [&](size_t n) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      return (state >> 33) % n;
    };

    // The parents: one per code block; ker0's code carries no variant line.
    std::vector<Variant> parents;
    static const std::regex marker(R"(// variant: lmul=(\d) newton=(\d) degree=(\d))");
    static const std::regex named(R"(lmul=(\d) newton=(\d) degree=(\d))");
    for (std::sregex_iterator it(user.begin(), user.end(), marker), end; it != end; ++it) {
      parents.push_back({std::stoi((*it)[1]), std::stoi((*it)[2]), std::stoi((*it)[3])});
    }
    size_t blocks = 0;
    for (size_t at = user.find("```c"); at != std::string::npos; at = user.find("```c", at + 4)) ++blocks;
    while (parents.size() < blocks) parents.push_back(Variant{});
    if (parents.empty()) parents.push_back(Variant{});
    // Every variant the prompt names is one not to propose again.
    std::vector<Variant> avoid = parents;
    for (std::sregex_iterator it(user.begin(), user.end(), named), end; it != end; ++it) {
      avoid.push_back({std::stoi((*it)[1]), std::stoi((*it)[2]), std::stoi((*it)[3])});
    }
    auto avoided = [&](const Variant& v) { return std::find(avoid.begin(), avoid.end(), v) != avoid.end(); };

    std::vector<Variant> options;
    if (parents.size() >= 2) {  // a mix of the parents' features
      for (const auto& a : parents) {
        for (const auto& b : parents) {
          for (const Variant& v : {Variant{a.lmul, a.newton, b.degree}, Variant{a.lmul, b.newton, a.degree},
                                   Variant{b.lmul, a.newton, a.degree}}) {
            if (!avoided(v)) options.push_back(v);
          }
        }
      }
    }
    if (options.empty()) {  // one feature of the parent changed
      const Variant p = parents.front();
      for (int l : {p.lmul / 2, p.lmul * 2})
        if (l >= 1 && l <= 8) options.push_back({l, p.newton, p.degree});
      for (int n : {p.newton - 1, p.newton + 1})
        if (n >= 0 && n <= 2) options.push_back({p.lmul, n, p.degree});
      for (int d : {p.degree - 1, p.degree + 1})
        if (d >= 4 && d <= 6) options.push_back({p.lmul, p.newton, d});
      options.erase(std::remove_if(options.begin(), options.end(), avoided), options.end());
    }
    if (options.empty()) {
      for (const auto& v : all_variants())
        if (!avoided(v)) options.push_back(v);
    }
    const Variant pick = options.empty() ? parents.front() : options[draw(options.size())];
    const std::string reply = "Idea: mish with " + pick.key() + ".\n```c\n" + variant_source(ker0_, pick) + "```\n";
    return FakeReply::completion(reply, static_cast<int64_t>(prompt.size() / 4),
                                 static_cast<int64_t>(reply.size() / 4));
  }

 private:
  std::string ker0_;
};

// The fastest correct variant on the virtual K1 (evaluated once per process).
const std::string& best_variant(const std::string& ker0) {
  static std::string best;
  static std::once_flag once;
  std::call_once(once, [&] {
    TempDir home(fs::temp_directory_path(), "eok-bench-variants-");
    const Workspace ws = Workspace::open(home.path());
    auto session = evaluator::open_board_session(EOK_SOURCE_DIR, ws, "k1", {});
    const evaluator::Task task = evaluator::load_task(fs::path(EOK_SOURCE_DIR) / "kernels" / "mish_f32");
    double best_cycles = 0;
    for (const auto& v : all_variants()) {
      const auto r = session.evaluator->evaluate(task, variant_source(ker0, v), 1);
      if (r.status != evaluator::EvalStatus::ok || !r.cycles) continue;
      if (best.empty() || *r.cycles < best_cycles) best = v.key(), best_cycles = *r.cycles;
    }
  });
  return best;
}

void Mish(benchmark::State& state) {
  log::set_level("warn");
  const uint64_t seed = static_cast<uint64_t>(state.range(0));
  const bool with_pool = state.range(1) != 0;
  const std::string ker0 = read_file(fs::path(EOK_SOURCE_DIR) / "kernels" / "mish_f32" / "ker0.c");
  const std::string& best = best_variant(ker0);
  state.SetLabel((with_pool ? "eok, best: " : "eoh, best: ") + best);
  ScriptedMishModel model(ker0);
  FakeOpenAiServer server;
  server.set_responder([&](const RecordedRequest& r) { return model.answer(r); });
  for (auto _ : state) {
    TempDir home(fs::temp_directory_path(), "eok-bench-quality-");
    search::SearchRequest req(EOK_SOURCE_DIR, Workspace::open(home.path()));
    req.task = "mish_f32";
    req.config = Config::load(EOK_SOURCE_DIR);
    req.config.set("llm.base_url", server.base_url());
    req.config.set("llm.model", "scripted-mish");
    req.config.set("search.seed", std::to_string(seed));
    // With a pool the search is EoK (its first population applies thoughts); without, EoH. The pool is the
    // tests' small one, or $EOK_QUALITY_POOL (e.g. one mined from OpenBLAS, for realistic retrieval).
    const char* pool = std::getenv("EOK_QUALITY_POOL");
    if (with_pool) req.config.set("search.pool", pool ? pool : EOK_SOURCE_DIR "/tests/fixtures/pools/small_pool.json");
    const search::SearchOutcome o = search::run_search(req);
    auto db = db::KernelDb::open(req.workspace.database_path());
    const auto calls = db->llm_calls(o.run_id);
    double until_best = static_cast<double>(calls.size()) + 1;  // not found: one past the last call
    std::map<std::string, std::pair<double, double>> tokens;    // op -> (sum, count)
    double context = 0, from_documents = 0;
    for (size_t i = 0; i < calls.size(); ++i) {
      auto& t = tokens[calls[i].op];
      t.first += static_cast<double>(calls[i].prompt_tokens);
      t.second += 1;
      const std::string& ctx = calls[i].retrieved_context;
      context += static_cast<double>(ctx.size());
      // Documents are the passages headed "[source > section]"; the rest is example code.
      static const std::regex doc_piece(R"((^|\n)\[[^\]\n]+\]\n)");
      std::smatch m;
      if (std::regex_search(ctx, m, doc_piece)) from_documents += static_cast<double>(ctx.size() - m.position(0));
      if (until_best > static_cast<double>(calls.size()) && calls[i].kernel_id) {
        auto k = db->get_kernel(*calls[i].kernel_id);
        if (k && k->source.find("// variant: " + best + "\n") == 0) until_best = static_cast<double>(i + 1);
      }
    }
    state.counters["calls"] = static_cast<double>(calls.size());
    state.counters["calls_until_best"] = until_best;
    state.counters["best_speedup"] = o.best_speedup;
    state.counters["context_from_documents"] = context > 0 ? from_documents / context : 0;
    for (const auto& [op, t] : tokens) state.counters["prompt_tokens_" + op] = t.first / t.second;
  }
}

}  // namespace

BENCHMARK(Mish)
    ->ArgsProduct({benchmark::CreateDenseRange(1, 20, 1), {0, 1}})
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->UseRealTime();

BENCHMARK_MAIN();
