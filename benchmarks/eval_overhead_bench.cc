// eok's own cost per evaluation, stage by stage, on data from real evaluations on the virtual K1; and the
// wall time of whole evaluations and of the emulator with and without eok's plugin.
//
//   build/eok_eval_bench                      all of it
//   build/eok_eval_bench --benchmark_filter=Stage   only eok's own stages (no compiler, no emulator)
#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>

#include "evaluator/board_session.h"
#include "evaluator/checker.h"
#include "evaluator/harness_plan.h"
#include "evaluator/measurement_records.h"
#include "evaluator/static_check.h"
#include "evaluator/task.h"
#include "src/common/fs_util.h"
#include "src/common/log.h"
#include "src/common/subprocess.h"

namespace {

namespace fs = std::filesystem;
using namespace eok;
using namespace eok::evaluator;

// One real evaluation per task, kept on disk: the inputs of every stage below.
struct Captured {
  Task task;
  std::string source, object;
  std::vector<PlannedCase> cases;
  std::string ref_measurement, cand_measurement, profile;
  fs::path cand_dir;
};

struct Fixture {
  std::unique_ptr<TempDir> home;
  std::unique_ptr<Workspace> ws;
  std::unique_ptr<BoardSession> session;
  std::map<std::string, Captured> captured;

  static Fixture& get() {
    static Fixture f = [] {
      Fixture f;
      log::set_level("warn");
      f.home = std::make_unique<TempDir>(fs::temp_directory_path(), "eok-bench-");
      f.ws = std::make_unique<Workspace>(Workspace::open(f.home->path()));
      f.session = std::make_unique<BoardSession>(open_board_session(EOK_SOURCE_DIR, *f.ws, "k1", {/*keep_temp=*/true}));
      for (const char* id : {"relu_f32", "mish_f32", "gemm_f32"}) {
        Captured c;
        c.task = load_task(fs::path(EOK_SOURCE_DIR) / "kernels" / id);
        c.source = read_file(c.task.ker0_path());
        EvalResult r = f.session->evaluator->evaluate(c.task, c.source, 1);
        if (r.status != EvalStatus::ok) {
          std::fprintf(stderr, "%s: %s\n", id, r.message.c_str());
          std::abort();
        }
        c.cases = plan_cases(c.task, 1);
        // The kept temporary directory of that evaluation (the only one under tmp/).
        for (const auto& e : fs::directory_iterator(f.ws->tmp_dir())) {
          if (e.path().filename().string().rfind("eval-", 0) != 0) continue;
          c.ref_measurement = read_file(e.path() / "ref" / "measure.bin");
          c.cand_measurement = read_file(e.path() / "cand" / "measure.bin");
          fs::rename(e.path(), f.ws->root() / id);
        }
        // The profile record's text, as the plugin wrote it.
        const size_t pos = c.cand_measurement.find("eok-profile 2");
        if (pos != std::string::npos)
          c.profile = c.cand_measurement.substr(pos, c.cand_measurement.find("end\n", pos) + 4 - pos);
        c.cand_dir = f.ws->root() / id / "cand";
        // The candidate's object, as the evaluator compiled it (a cache hit now).
        const CompileRequest req = f.session->evaluator->kernel_request(c.task, c.source);
        c.object = read_file(f.session->compiler->compile(req).object);
        f.captured[id] = std::move(c);
      }
      return f;
    }();
    return f;
  }
};

const Captured& data(benchmark::State& state) {
  static const char* ids[] = {"relu_f32", "mish_f32", "gemm_f32"};
  const char* id = ids[state.range(0)];
  state.SetLabel(id);
  return Fixture::get().captured.at(id);
}

void Stage_SourceCheck(benchmark::State& state) {
  const auto& c = data(state);
  for (auto _ : state) benchmark::DoNotOptimize(check_source(c.source));
}

void Stage_ObjectCheck(benchmark::State& state) {
  const auto& c = data(state);
  for (auto _ : state) benchmark::DoNotOptimize(check_object(c.object, c.task.entry));
}

// The preprocessed source's checks and identity (the preprocessor itself is a toolchain step).
void Stage_PreprocessedCheck(benchmark::State& state) {
  const auto& c = data(state);
  const CompileRequest req = Fixture::get().session->evaluator->kernel_request(c.task, c.source);
  const Preprocessed pp = Fixture::get().session->compiler->preprocess(req);
  for (auto _ : state) {
    benchmark::DoNotOptimize(check_preprocessed(pp, "/eval/kernel.c"));
    benchmark::DoNotOptimize(kernel_identity(pp));
  }
}

void Stage_PlanAndGlue(benchmark::State& state) {
  const auto& c = data(state);
  for (auto _ : state) {
    benchmark::DoNotOptimize(render_plan(c.task, plan_cases(c.task, 7)));
    benchmark::DoNotOptimize(generate_glue(c.task));
  }
}

void Stage_ParseAndCompare(benchmark::State& state) {
  const auto& c = data(state);
  for (auto _ : state) {
    Measurement ref = parse_measurement(c.ref_measurement), cand = parse_measurement(c.cand_measurement);
    benchmark::DoNotOptimize(compare_outputs(c.task, c.cases, ref, cand));
  }
}

void Stage_CostModel(benchmark::State& state) {
  const auto& c = data(state);
  const cost::BlockProfile profile = cost::parse_block_profile(c.profile);
  state.counters["blocks"] = static_cast<double>(profile.blocks.size());
  for (auto _ : state) benchmark::DoNotOptimize(Fixture::get().session->cost_model->estimate(profile));
}

void Stage_ResultJson(benchmark::State& state) {
  const auto& c = data(state);
  EvalResult r;
  r.cost = Fixture::get().session->cost_model->estimate(cost::parse_block_profile(c.profile));
  for (auto _ : state) benchmark::DoNotOptimize(r.to_json().dump());
}

// The emulator alone on the candidate program: plain qemu, then in the sandbox with eok's plugin
// (watching every call, simulating caches throughout and counting in the timed calls, both seccomp filters).
void Emulator(benchmark::State& state, bool plugin) {
  const auto& c = data(state);
  const auto& session = *Fixture::get().session;
  for (auto _ : state) {
    if (plugin) {
      RunOutcome r = session.runner->run(harness_run(c.cand_dir / "cand", read_file(c.cand_dir / "plan.txt"),
                                                     read_file(c.cand_dir / "watch.txt"), c.cand_dir, true));
      if (!r.process.ok()) state.SkipWithError(r.process.describe().c_str());
      continue;
    }
    ProcessSpec spec;
    spec.argv = {"qemu-riscv64", "-cpu", session.board.qemu.cpu, (c.cand_dir / "cand").string()};
    spec.stdin_path = c.cand_dir / "plan.txt";
    spec.stdout_path = "/dev/null";
    ProcessResult r = run_process(spec);
    if (!r.ok()) state.SkipWithError(r.describe().c_str());
  }
}
void Emulator_Plain(benchmark::State& state) {
  Emulator(state, false);
}
void Emulator_WithPlugin(benchmark::State& state) {
  Emulator(state, true);
}

// A whole evaluation of a fresh candidate (ker0 with one more token, so nothing is cached: comments would
// not change its identity): what a search pays per candidate. Reports the split that EvalResult measures.
void FullEvaluation(benchmark::State& state) {
  const auto& c = data(state);
  auto& ev = *Fixture::get().session->evaluator;
  double compile = 0, link = 0, run = 0, reference = 0, tool = 0, own = 0;
  int n = 0;
  for (auto _ : state) {
    const std::string src = c.source + "\nstatic const int eok_bench_variant = " + std::to_string(n++) + ";\n";
    EvalResult r = ev.evaluate(c.task, src, static_cast<uint64_t>(n));
    if (r.status != EvalStatus::ok) state.SkipWithError(r.message.c_str());
    compile += r.timings.compile;
    link += r.timings.link;
    run += r.timings.run;
    reference += r.timings.reference;
    tool += r.timings.toolchain_and_board();
    own += r.timings.overhead();
    for (const auto& e : fs::directory_iterator(Fixture::get().ws->tmp_dir())) fs::remove_all(e.path());
  }
  state.counters["compile_s"] = compile / n;
  state.counters["link_s"] = link / n;
  state.counters["run_s"] = run / n;
  state.counters["reference_s"] = reference / n;
  state.counters["eok_s"] = own / n;
  state.counters["eok_share"] = own / tool;
}

}  // namespace

BENCHMARK(Stage_SourceCheck)->DenseRange(0, 2);
BENCHMARK(Stage_ObjectCheck)->DenseRange(0, 2);
BENCHMARK(Stage_PreprocessedCheck)->DenseRange(0, 2);
BENCHMARK(Stage_PlanAndGlue)->DenseRange(0, 2);
BENCHMARK(Stage_ParseAndCompare)->DenseRange(0, 2);
BENCHMARK(Stage_CostModel)->DenseRange(0, 2);
BENCHMARK(Stage_ResultJson)->DenseRange(0, 2);
BENCHMARK(Emulator_Plain)->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->Iterations(10);
BENCHMARK(Emulator_WithPlugin)->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->Iterations(10);
BENCHMARK(FullEvaluation)->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->Iterations(5);

BENCHMARK_MAIN();
