#include "evaluator/evaluator.h"

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <future>
#include <nlohmann/json.hpp>

#include "evaluator/checker.h"
#include "evaluator/environment_failure.h"
#include "evaluator/harness_plan.h"
#include "evaluator/harness_records.h"
#include "evaluator/image_check.h"
#include "evaluator/measurement_records.h"
#include "evaluator/run_verdict.h"
#include "evaluator/static_check.h"
#include "src/common/build_id.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "src/common/hash.h"
#include "src/common/log.h"
#include "src/common/paths.h"

namespace eok::evaluator {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Below this share of the roofline bound a result is not believed (the bound is exact only as far as a
// task's declared flops and bytes are; every baseline sits at or above 1.0).
constexpr double kRooflineMargin = 0.8;
// The same for a time measured on a real board.
constexpr double kBoardRooflineMargin = 0.5;

// ker0 is measured with a fixed seed: its cycles are a property of the task, not of one evaluation.
constexpr uint64_t kBaselineSeed = 0x6b657230;  // "ker0"

std::string first_error_line(const std::string& diagnostics) {
  size_t pos = diagnostics.find("error:");
  if (pos == std::string::npos) return diagnostics.substr(0, diagnostics.find('\n'));
  size_t start = diagnostics.rfind('\n', pos);
  start = start == std::string::npos ? 0 : start + 1;
  return diagnostics.substr(start, diagnostics.find('\n', pos) - start);
}

}  // namespace

BoardEvaluator::BoardEvaluator(BoardEvaluatorConfig cfg, Compiler& compiler, Runner& runner,
                               const cost::CostModel& model)
    : cfg_(std::move(cfg)), compiler_(compiler), runner_(runner), model_(model) {}

fs::path BoardEvaluator::support_object(const Task& task, const std::string& which) {
  const fs::path target = cfg_.root / "evaluator" / "target";
  CompileRequest req;
  req.opt = "-O2";
  req.tune = cfg_.board.tune;
  req.file_name = which + ".c";
  if (which == "harness" || which == "board-harness") {
    req.source = read_file(target / "harness.c");
    req.march = "rv64gc";
    if (which == "board-harness") req.flags = {"-DEOK_BOARD_TIMING"};
    // The sandbox sees only the compile's own directory: the headers go next to the source.
    for (const char* h : {"eok_markers.h", "harness_protocol.h", "input_values.h"})
      req.headers.emplace_back(h, read_file(target / h));
  } else if (which == "glue") {
    req.source = generate_glue(task);
    req.march = effective_march(cfg_.board, task.march);
  } else {
    req.source = read_file(task.ref_path());
    req.march = effective_march(cfg_.board, task.march);
    req.prelude = prototype_header(task);
    req.keep_global = task.entry;
    req.flags = {"-fno-vectorize", "-fno-slp-vectorize"};  // the reference stays the simple scalar code it reads as
  }
  CompileResult r = compiler_.compile(req);
  if (!r.ok) {
    throw ConfigError("the " + which + " of task " + task.id + " does not compile: " + first_error_line(r.diagnostics) +
                      "\n" + r.diagnostics);
  }
  return r.object;
}

CompileRequest BoardEvaluator::kernel_request(const Task& task, const std::string& source) const {
  CompileRequest req;
  req.source = source;
  req.march = effective_march(cfg_.board, task.march);
  req.tune = cfg_.board.tune;  // the identity's preprocessing and the compile share this request
  req.opt = "-O3";
  req.prelude = prototype_header(task);
  req.keep_global = task.entry;
  req.file_name = "kernel.c";
  return req;
}

std::string BoardEvaluator::identity(const Task& task, const std::string& source) {
  if (check_source(source)) return content_hash(source);
  Preprocessed pp = compiler_.preprocess(kernel_request(task, source));
  return pp.ok ? kernel_identity(pp) : content_hash(source);
}

namespace {

// A program linked and checked, ready for the board: the executable and what the plugin must watch.
struct Linked {
  std::string error;                   // the linker's complaint (compile_error)
  std::string environment;             // the link failed because of the machine (infra_error)
  std::optional<Violation> violation;  // an image rule broken (rejected)
  std::string infra;                   // eok could not analyse its own link
  std::string watch;
};

Linked link_and_check(Compiler& compiler, const std::vector<std::pair<fs::path, std::string>>& objects,
                      const fs::path& exe, bool with_candidate, const std::vector<PlannedCase>& cases) {
  Linked l;
  LinkResult lr = compiler.link({objects, exe, with_candidate ? kCandidateLinkScript : ""});
  if (!lr.ok) {
    l.error = lr.diagnostics;
    l.environment = lr.environment;
    return l;
  }
  ImageVerdict iv = check_image(read_file(exe), with_candidate);
  l.violation = iv.violation;
  l.infra = iv.infra;
  if (!l.violation && l.infra.empty()) {
    l.watch = render_watch(cases, iv.facts.begin_marker, iv.facts.end_marker, iv.facts.candidate_code);
  }
  return l;
}

}  // namespace

EvalResult BoardEvaluator::evaluate(const Task& task, const std::string& source, uint64_t seed) {
  const auto start = Clock::now();
  EvalResult res;
  res.task = task.id;
  res.board = cfg_.board.name;
  res.seed = seed;
  res.kernel_hash = content_hash(source);
  auto finish = [&](EvalStatus status, std::string message) {
    res.status = status;
    res.message = std::move(message);
    res.timings.total = since(start);
    return res;
  };
  auto reject = [&](const Violation& v) {
    res.rule = v.rule;
    return finish(EvalStatus::rejected, v.rule + ": " + v.detail);
  };

  if (auto v = check_source(source)) return reject(*v);
  // clang's preprocessor is the one reader of the source: identity and source rules come from its output.
  // The compile reads the same source with the same flags and the same files in view, so it sees the
  // same tokens; compiling the source itself keeps the compiler's messages in the author's own layout.
  auto t = Clock::now();
  CompileRequest req = kernel_request(task, source);
  Preprocessed pp = compiler_.preprocess(req);
  if (!pp.ok) {
    res.compiler_output = pp.diagnostics;
    res.timings.compile = since(t);
    if (!pp.environment.empty())
      return finish(EvalStatus::infra_error, "the preprocessor failed because of the machine: " + pp.environment);
    return finish(EvalStatus::compile_error, "does not compile: " + first_error_line(pp.diagnostics));
  }
  res.kernel_hash = kernel_identity(pp);
  if (auto v = check_preprocessed(pp, std::string(sandbox::kWorkdir) + "/" + req.file_name)) return reject(*v);
  CompileResult cc = compiler_.compile(req);
  res.timings.compile = cc.cached ? 0 : since(t);
  res.compiler_output = cc.diagnostics;
  if (!cc.ok && !cc.environment.empty()) {
    return finish(EvalStatus::infra_error, "the compiler failed because of the machine: " + cc.environment);
  }
  if (!cc.ok) return finish(EvalStatus::compile_error, "does not compile: " + first_error_line(cc.diagnostics));

  ObjectVerdict ov = check_object(read_file(cc.object), task.entry);
  if (ov.violation) {
    std::error_code ec;
    fs::remove(cc.object, ec);  // a rejected kernel is never evaluated again: its object need not stay
    return reject(*ov.violation);
  }
  if (!ov.entry_defined) {
    return finish(EvalStatus::compile_error,
                  "does not define the entry function " + task.entry + "; the task expects `" + task.signature + "`");
  }

  const fs::path harness = support_object(task, "harness");
  const fs::path glue = support_object(task, "glue");
  const fs::path ref = support_object(task, "ref");

  TempDir tmp(cfg_.scratch_dir, "eval-");
  if (cfg_.keep_temp) {
    tmp.keep();
    log::info("keeping {}", tmp.path().string());
  }
  const auto cases = plan_cases(task, seed, cfg_.board.protocol.warmup_calls, cfg_.board.protocol.timed_calls);
  const std::string plan = render_plan(task, cases);

  // The reference runs beside the candidate, in a sandbox of its own.
  auto ref_future = std::async(std::launch::async, [&] {
    const auto t0 = Clock::now();
    const fs::path dir = tmp.path() / "ref";
    fs::create_directories(dir);
    Linked l = link_and_check(compiler_, {{harness, "harness.o"}, {glue, "glue.o"}, {ref, "ref.o"}}, dir / "ref", false,
                              cases);
    RunOutcome out;
    if (l.error.empty() && l.infra.empty() && !l.violation)
      out = runner_.run(harness_run(dir / "ref", plan, l.watch, dir, false));
    else
      out.process.spawn_error = "linking the reference failed: " + l.error + l.infra;
    return std::make_pair(std::move(out), since(t0));
  });

  const fs::path dir = tmp.path() / "cand";
  fs::create_directories(dir);
  t = Clock::now();
  Linked linked = link_and_check(compiler_, {{harness, "harness.o"}, {glue, "glue.o"}, {cc.object, "candidate.o"}},
                                 dir / "cand", true, cases);
  res.timings.link = since(t);
  RunOutcome cand;
  const bool runnable = linked.error.empty() && linked.infra.empty() && !linked.violation;
  if (runnable) {
    t = Clock::now();
    cand = runner_.run(harness_run(dir / "cand", plan, linked.watch, dir, true, run_timeout(task)));
    res.timings.run = since(t);
  }
  auto [ref_run, ref_seconds] = ref_future.get();
  res.timings.reference = ref_seconds;
  if (!linked.error.empty()) {
    res.compiler_output += linked.error;
    if (!linked.environment.empty())
      return finish(EvalStatus::infra_error, "the linker failed because of the machine: " + linked.environment);
    return finish(EvalStatus::compile_error, "does not link: " + first_error_line(linked.error));
  }
  if (linked.violation) return reject(*linked.violation);
  if (!linked.infra.empty())
    return finish(EvalStatus::infra_error, linked.infra + ": this is eok's problem, not the kernel's");
  res.run_log = cand.process.err.substr(0, 4096);
  res.network_isolated = cand.process.network_isolated;

  const Measurement ref_m = parse_measurement(ref_run.measurement);
  if (!ref_run.process.ok() || ref_m.calls.size() != cases.size() || ref_m.violation) {
    if (const std::string disk = storage_failure(tmp.path()); !disk.empty()) {
      return finish(EvalStatus::infra_error, "the reference of " + task.id + " could not write its results: " + disk);
    }
    // What went wrong, once: describe() already holds the spawn error of a program that never started.
    std::string why = ref_run.process.describe();
    if (ref_run.process.started && !ref_run.process.err.empty()) why += " " + ref_run.process.err.substr(0, 300);
    if (ref_m.violation) why += "; " + ref_m.violation->rule + ": " + ref_m.violation->detail;
    if (ref_run.process.ok() && !ref_m.violation) {
      why += "; the board recorded " + std::to_string(ref_m.calls.size()) + " of its " + std::to_string(cases.size()) +
             " calls" + (ref_m.error.empty() ? "" : " (" + ref_m.error + ")");
    }
    return finish(EvalStatus::infra_error,
                  "the reference of " + task.id + " failed (" + why + "): this is eok's problem, not the kernel's");
  }
  const Measurement cand_m = parse_measurement(cand.measurement);
  res.sandboxed = cand_m.sandboxed;
  if (auto bad = judge_run(cand, cand_m, parse_harness_output(cand.harness), task, cases, &res.rule)) {
    // A program that failed while its directory takes no writes may only have been unable to write its
    // results (the harness exits 4, the observer's file ends early): the machine's failure. A kernel that
    // flooded stdout past the cap filled the disk itself and keeps its own verdict.
    if (bad->first == EvalStatus::runtime_error && cand.harness_bytes <= cand.harness.size()) {
      if (const std::string disk = storage_failure(dir); !disk.empty()) {
        res.rule.clear();
        return finish(EvalStatus::infra_error, "the candidate's run could not write its results: " + disk);
      }
    }
    return finish(bad->first, bad->second);
  }

  CheckResult check = compare_outputs(task, cases, ref_m, cand_m);
  res.mismatches = check.mismatches;
  if (!check.rule.empty()) res.rule = check.rule;
  if (check.status != EvalStatus::ok) return finish(check.status, check.message);
  res.tolerance_used = check.tolerance_used;

  // One profile per timed call, each complete; the median timed call is the kernel's time.
  std::vector<size_t> timed;
  for (size_t i = 0; i < cases.size(); ++i) {
    if (cases[i].timed) timed.push_back(i);
  }
  bool profiles_ok = cand_m.profiles.size() == timed.size();
  for (size_t k = 0; profiles_ok && k < timed.size(); ++k) {
    profiles_ok = cand_m.profiles[k].call_index == timed[k] && cand_m.profiles[k].profile.complete;
  }
  if (!profiles_ok) {
    return finish(EvalStatus::infra_error, "the board's plugin did not profile every timed call (" +
                                               std::to_string(cand_m.profiles.size()) + " profiles for " +
                                               std::to_string(timed.size()) + " timed calls): this is eok's problem");
  }
  t = Clock::now();
  std::vector<cost::CostReport> reports;
  for (const auto& p : cand_m.profiles) reports.push_back(model_.estimate(p.profile));
  std::vector<size_t> order(reports.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return reports[a].cycles < reports[b].cycles; });
  for (size_t i : order) res.timed_call_cycles.push_back(reports[i].cycles);
  EOK_ASSERT(!reports.empty(), "a correct run has a profile of at least one timed call");
  res.cost = reports[order[(order.size() - 1) / 2]];  // the median (the lower middle of an even count)
  res.timings.model = since(t);
  res.cycles = res.cost->cycles;
  const double roof = cfg_.roofline_cycles ? cfg_.roofline_cycles(task) : 0;
  if (roof > 0) res.roofline_cycles = roof;
  if (roof > 0 && *res.cycles < kRooflineMargin * roof) {
    res.rule = "beyond-roofline";
    return finish(EvalStatus::rejected,
                  "beyond-roofline: modeled " + std::to_string(static_cast<long long>(*res.cycles)) +
                      " cycles, far below the task's roofline bound of " +
                      std::to_string(static_cast<long long>(roof)) +
                      " cycles: no kernel can be this fast on this board; flagged for review (a hole in "
                      "the evaluator, or a task.toml that overstates its work)");
  }
  if (cfg_.board_timer) {
    if (auto bad = time_on_board(task, cc.object, glue, tmp.path(), seed, res)) return finish(bad->first, bad->second);
    // The board's harness shares its process with the kernel: a time no kernel can reach is not believed.
    // The margin is wider than for the model: the bound is the model's, and a real board may beat the
    // model (up to 1.5x on the calibration set).
    if (res.measurement->median_cycles <= 0 ||
        (roof > 0 && res.measurement->median_cycles < kBoardRooflineMargin * roof)) {
      res.rule = "beyond-roofline";
      return finish(EvalStatus::rejected,
                    "beyond-roofline: measured " +
                        std::to_string(static_cast<long long>(res.measurement->median_cycles)) + " cycles on " +
                        res.measurement->host + ", below the task's roofline bound of " +
                        std::to_string(static_cast<long long>(roof)) +
                        " cycles: no kernel can be this fast; a forged or broken timing, flagged for review");
    }
    const BoardTiming& b = *res.measurement;
    return finish(EvalStatus::ok,
                  "correct on " + std::to_string(cases.size()) + " cases (virtual " + cfg_.board.virtual_board +
                      "); on " + b.host + ": median " + std::to_string(static_cast<long long>(b.median_cycles)) +
                      " cycles of " + std::to_string(b.samples.size()) + " timed calls (MAD " +
                      std::to_string(static_cast<long long>(b.mad)) + " " + b.unit + ", " + b.timer + ")");
  }
  return finish(EvalStatus::ok, "correct on " + std::to_string(cases.size()) + " cases; " +
                                    std::to_string(static_cast<long long>(res.cost->cycles)) + " modeled cycles (" +
                                    res.cost->bound + "-bound)");
}

std::optional<std::pair<EvalStatus, std::string>> BoardEvaluator::time_on_board(const Task& task,
                                                                                const fs::path& object,
                                                                                const fs::path& glue,
                                                                                const fs::path& dir, uint64_t seed,
                                                                                EvalResult& res) {
  // The board's own protocol: its warm-up and timed calls, fresh inputs each; the checks already ran.
  const auto& m = cfg_.board.measure;
  auto cases = plan_cases(task, seed, m.warmup, m.repeats);
  cases.erase(std::remove_if(cases.begin(), cases.end(), [](const PlannedCase& c) { return !c.timed && !c.warmup; }),
              cases.end());
  const fs::path exe = dir / "cand-board";
  Linked linked = link_and_check(
      compiler_, {{support_object(task, "board-harness"), "harness.o"}, {glue, "glue.o"}, {object, "candidate.o"}}, exe,
      true, cases);
  if (!linked.error.empty())
    return std::make_pair(EvalStatus::infra_error,
                          "linking with the board harness failed: " + first_error_line(linked.error));
  if (linked.violation) {
    res.rule = linked.violation->rule;
    return std::make_pair(EvalStatus::rejected, linked.violation->rule + ": " + linked.violation->detail);
  }
  if (!linked.infra.empty()) return std::make_pair(EvalStatus::infra_error, linked.infra);
  const auto t0 = Clock::now();
  remote::TimingOutcome t = cfg_.board_timer->time(
      {exe, render_plan(task, cases), static_cast<size_t>(m.warmup), static_cast<size_t>(m.repeats)});
  res.timings.run += since(t0);
  if (t.status != EvalStatus::ok) {
    if (!t.rule.empty()) res.rule = t.rule;
    return std::make_pair(t.status, t.message);
  }
  res.modeled_cycles = res.cycles;
  res.cycles = t.timing.median_cycles;
  res.measurement = t.timing;
  return std::nullopt;
}

fs::path BoardEvaluator::baseline_file(const Task& task) const {
  const fs::path target = cfg_.root / "evaluator" / "target";
  const std::string key = Hasher()
                              .add(cfg_.fingerprint)
                              .add(read_file(task.dir / "task.toml"))
                              .add(read_file(task.ker0_path()))
                              .add(read_file(task.ref_path()))
                              .add(read_file(target / "harness.c"))
                              .add(read_file(target / "harness_protocol.h"))
                              .add(read_file(target / "eok_markers.h"))
                              .add(read_file(target / "input_values.h"))
                              .hex();
  return cfg_.baseline_cache / (task.id + "-" + key + ".json");
}

namespace {

// The checksum a baseline cache entry carries: an entry whose figures were changed on disk is measured again.
std::string baseline_checksum(const std::string& task, double cycles, double run_seconds,
                              const std::string& kernel_hash) {
  char figures[96];
  std::snprintf(figures, sizeof figures, "%.17g %.17g", cycles, run_seconds);
  return content_hash(task + "\n" + figures + "\n" + kernel_hash);
}

}  // namespace

std::optional<BoardEvaluator::Baseline> BoardEvaluator::cached_baseline(const Task& task) const {
  const fs::path file = baseline_file(task);
  if (!fs::exists(file)) return std::nullopt;
  try {
    auto j = nlohmann::json::parse(read_file(file));
    const Baseline b{j.at("cycles").get<double>(), j.at("run_seconds").get<double>()};
    if (j.value("checksum", "") != baseline_checksum(task.id, b.cycles, b.run_seconds, j.value("kernel_hash", ""))) {
      log::warn("the baseline cache {} does not match its checksum (changed on disk?): ker0 is measured again",
                file.string());
      return std::nullopt;
    }
    return b;
  } catch (const std::exception& e) {
    log::warn("ignoring damaged baseline cache {}: {}", file.string(), e.what());
    return std::nullopt;
  }
}

double BoardEvaluator::run_timeout(const Task& task) const {
  // Ten times what ker0 needs on this board, at least 3 s: a kernel stuck in a loop costs seconds, not the
  // board's whole limit. Without a measured ker0 the board's limit applies.
  auto b = cached_baseline(task);
  return b ? std::clamp(10 * b->run_seconds + 2, 3.0, cfg_.board.qemu.timeout_seconds)
           : cfg_.board.qemu.timeout_seconds;
}

double BoardEvaluator::baseline_cycles(const Task& task) {
  if (auto b = cached_baseline(task)) return b->cycles;
  log::info("measuring the baseline ker0 of {} (cached afterwards)", task.id);
  EvalResult r = evaluate(task, read_file(task.ker0_path()), kBaselineSeed);
  if (r.status != EvalStatus::ok || !r.cycles) {
    throw Error("the baseline kernels/" + task.id + "/ker0.c is not correct on board " + cfg_.board.name + ": " +
                status_name(r.status) + ": " + r.message);
  }
  write_file_atomic(baseline_file(task),
                    nlohmann::json{{"task", task.id},
                                   {"cycles", *r.cycles},
                                   {"run_seconds", r.timings.run},
                                   {"kernel_hash", r.kernel_hash},
                                   {"checksum", baseline_checksum(task.id, *r.cycles, r.timings.run, r.kernel_hash)}}
                        .dump(2));
  return *r.cycles;
}

EvalResult BoardEvaluator::evaluate_against_baseline(const Task& task, const std::string& source, uint64_t seed) {
  // The baseline first: its run time sets the candidate's time limit.
  std::optional<double> baseline;
  std::string baseline_error;
  try {
    baseline = baseline_cycles(task);
  } catch (const Error& e) {
    baseline_error = e.what();
  }
  EvalResult res = evaluate(task, source, seed);
  if (res.status != EvalStatus::ok) return res;
  if (!baseline) {
    res.status = EvalStatus::infra_error;
    res.message = baseline_error;
    return res;
  }
  res.baseline_cycles = *baseline;
  res.speedup = *baseline / *res.cycles;
  return res;
}

std::string measurement_fingerprint(const BoardProfile& board, const Toolchain& tools) {
  Hasher h;
  h.add(read_file(board.file))
      .add(read_file(board.cost_table))
      .add(read_file(board.memory_model))
      .add(tools.clang_version)
      .add(tools.qemu_version);
  if (!tools.plugin.empty()) h.add(read_file(tools.plugin));
  // The cost model and checker are compiled into eok itself: a rebuilt eok re-measures its baselines. The
  // linker's build id names the build without reading the (large) executable; without one, its bytes do.
  if (const std::string id = program_build_id(); !id.empty()) {
    h.add("build-id").add(id);
  } else {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) h.add(read_file(self));
  }
  return h.hex();
}

}  // namespace eok::evaluator
