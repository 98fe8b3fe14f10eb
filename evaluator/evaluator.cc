#include "evaluator/evaluator.h"

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <future>
#include <nlohmann/json.hpp>

#include "evaluator/checker.h"
#include "evaluator/harness_plan.h"
#include "evaluator/harness_records.h"
#include "evaluator/static_check.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "src/common/hash.h"
#include "src/common/log.h"
#include "src/common/paths.h"

namespace eok::evaluator {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// ker0 is measured with a fixed seed: its cycles are a property of the task, not of one evaluation.
constexpr uint64_t kBaselineSeed = 0x6b657230;  // "ker0"

std::string first_error_line(const std::string& diagnostics) {
  size_t pos = diagnostics.find("error:");
  if (pos == std::string::npos) return diagnostics.substr(0, diagnostics.find('\n'));
  size_t start = diagnostics.rfind('\n', pos);
  start = start == std::string::npos ? 0 : start + 1;
  return diagnostics.substr(start, diagnostics.find('\n', pos) - start);
}

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string signal_name(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

std::string case_label(const std::vector<PlannedCase>& cases, int index) {
  if (index < 0 || static_cast<size_t>(index) >= cases.size()) return "before the first case";
  const auto& c = cases[static_cast<size_t>(index)];
  return "case " + std::to_string(index) + " (" + format_sizes(c.sizes) + (c.timed ? ", timed" : "") + ")";
}

std::string describe_fault(const FaultRecord& f, const Task& task, const std::vector<PlannedCase>& cases) {
  std::string where = "no buffer nearby";
  if (f.arg_index >= 0 && static_cast<size_t>(f.arg_index) < task.args.size()) {
    const std::string& name = task.args[static_cast<size_t>(f.arg_index)].name;
    if (f.offset < 0) where = std::to_string(-f.offset) + " bytes before the start of " + name;
    else if (static_cast<uint64_t>(f.offset) >= f.buf_bytes)
      where = std::to_string(static_cast<uint64_t>(f.offset) - f.buf_bytes) + " bytes past the end of " + name +
              " (" + std::to_string(f.buf_bytes) + " bytes)";
    else where = "inside " + name;
  }
  return signal_name(f.signo) + " at address " + hex(f.address) + ", " + where + ", in " + case_label(cases, f.case_index);
}

// What went wrong with a candidate run, judged from the process and its records (nullopt: it ran fine).
std::optional<std::pair<EvalStatus, std::string>> judge_run(const RunOutcome& run, const HarnessOutput& out,
                                                            const Task& task, const std::vector<PlannedCase>& cases,
                                                            std::string* rule) {
  const ProcessResult& p = run.process;
  if (!p.started) return std::make_pair(EvalStatus::infra_error, "could not start the board's runner: " + p.spawn_error);
  if (p.timed_out || p.term_signal == SIGXCPU) {
    return std::make_pair(EvalStatus::timeout, "did not finish: " + p.describe() + " while running " +
                                                   case_label(cases, out.last_started));
  }
  if (p.term_signal == SIGSYS) {
    *rule = "forbidden-syscall";
    return std::make_pair(EvalStatus::rejected, "made a system call the sandbox forbids (files, processes or network) in " +
                                                    case_label(cases, out.last_started));
  }
  if (p.err.find("decode_save_opc") != std::string::npos) {
    // QEMU 7.2 aborts on the static round-toward-zero vector conversions: a limit of the virtual board
    // that a real K1 does not have, said plainly so that a person or an LLM can route around it.
    *rule = "emulator-limit";
    return std::make_pair(EvalStatus::runtime_error,
                          "the virtual board's emulator (QEMU 7.2) cannot run vector round-toward-zero conversions "
                          "(vfcvt.rtz, vfwcvt.rtz, vfncvt.rtz), which this kernel uses; a real K1 would. clang emits them for "
                          "__riscv_vfcvt_rtz_* intrinsics and for (int) casts in vectorised loops: convert with "
                          "__riscv_vfcvt_x_f_v (round to nearest) and correct the result, or keep such casts out of "
                          "vectorised loops (#pragma clang loop vectorize(disable)). Seen in " +
                              case_label(cases, out.last_started));
  }
  if (out.fault) return std::make_pair(EvalStatus::runtime_error, describe_fault(*out.fault, task, cases));
  if (p.term_signal == SIGXFSZ) return std::make_pair(EvalStatus::runtime_error, "wrote more output than allowed");
  if (p.term_signal != 0) {
    return std::make_pair(EvalStatus::runtime_error, p.describe() + " in " + case_label(cases, out.last_started));
  }
  if (p.exit_code == 5) return std::make_pair(EvalStatus::runtime_error, "out of memory in " + case_label(cases, out.last_started));
  if (p.exit_code != 0) {
    std::string why = p.err.substr(0, p.err.find('\n'));
    return std::make_pair(EvalStatus::runtime_error,
                          "the program " + p.describe() + (why.empty() ? "" : ": " + why) + " in " + case_label(cases, out.last_started));
  }
  if (!out.error.empty() || !out.done) {
    return std::make_pair(EvalStatus::runtime_error,
                          "the program's results are incomplete (" + (out.error.empty() ? std::string("no end record") : out.error) +
                              "): it corrupted the harness?");
  }
  return std::nullopt;
}

}  // namespace

BoardEvaluator::BoardEvaluator(BoardEvaluatorConfig cfg, Compiler& compiler, Runner& runner, const cost::CostModel& model)
    : cfg_(std::move(cfg)), compiler_(compiler), runner_(runner), model_(model) {}

fs::path BoardEvaluator::support_object(const Task& task, const std::string& which) {
  const fs::path target = cfg_.root / "evaluator" / "target";
  CompileRequest req;
  req.opt = "-O2";
  req.file_name = which + ".c";
  if (which == "harness") {
    req.source = read_file(target / "harness.c");
    req.march = "rv64gc";
    // The headers it includes are part of what the object depends on.
    req.flags = {"-I" + target.string(),
                 "-DEOK_HEADERS=" + content_hash(read_file(target / "eok_markers.h") + read_file(target / "harness_protocol.h"))};
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

  if (auto v = check_source(source)) {
    res.rule = v->rule;
    return finish(EvalStatus::rejected, v->rule + ": " + v->detail);
  }
  const std::string march = effective_march(cfg_.board, task.march);
  CompileResult cc = compiler_.compile({source, march, "-O3", prototype_header(task), task.entry, {}});
  res.timings.compile = cc.cached ? 0 : cc.seconds;
  res.compiler_output = cc.diagnostics;
  if (!cc.ok) return finish(EvalStatus::compile_error, "does not compile: " + first_error_line(cc.diagnostics));

  const std::string object = read_file(cc.object);
  ObjectVerdict ov = check_object(object, task.entry);
  if (ov.violation) {
    res.rule = ov.violation->rule;
    return finish(EvalStatus::rejected, ov.violation->rule + ": " + ov.violation->detail);
  }
  if (!ov.entry_defined) {
    return finish(EvalStatus::compile_error, "does not define the entry function " + task.entry + "; the task expects `" +
                                                 task.signature + "`");
  }

  const fs::path harness = support_object(task, "harness");
  const fs::path glue = support_object(task, "glue");
  const fs::path ref = support_object(task, "ref");

  TempDir tmp(cfg_.scratch_dir, "eval-");
  if (cfg_.keep_temp) {
    tmp.keep();
    log::info("keeping {}", tmp.path().string());
  }
  const auto cases = plan_cases(task, seed);
  const std::string plan = render_plan(task, cases);

  // The reference runs beside the candidate, in its own directory.
  auto ref_future = std::async(std::launch::async, [&] {
    const auto t = Clock::now();
    const fs::path dir = tmp.path() / "ref";
    fs::create_directories(dir);
    std::string link_error = compiler_.link({harness, glue, ref}, dir / "ref");
    RunOutcome out;
    if (link_error.empty()) out = runner_.run({dir / "ref", plan, dir, false});
    else out.process.spawn_error = "linking the reference failed: " + link_error;
    return std::make_pair(std::move(out), since(t));
  });

  const fs::path dir = tmp.path() / "cand";
  fs::create_directories(dir);
  auto t = Clock::now();
  std::string link_error = compiler_.link({harness, glue, cc.object}, dir / "cand");
  res.timings.link = since(t);
  RunOutcome cand;
  if (link_error.empty()) {
    t = Clock::now();
    cand = runner_.run({dir / "cand", plan, dir, true, run_timeout(task)});
    res.timings.run = since(t);
  }
  auto [ref_run, ref_seconds] = ref_future.get();
  res.timings.reference = ref_seconds;
  if (!link_error.empty()) {
    res.compiler_output += link_error;
    return finish(EvalStatus::compile_error, "does not link: " + first_error_line(link_error));
  }
  res.run_log = cand.process.err.substr(0, 4096);
  res.network_isolated = cand.process.network_isolated;

  const HarnessOutput ref_out = parse_harness_output(ref_run.output);
  if (!ref_run.process.ok() || !ref_out.done) {
    return finish(EvalStatus::infra_error, "the reference of " + task.id + " failed (" + ref_run.process.describe() + " " +
                                               ref_run.process.spawn_error + ref_run.process.err.substr(0, 300) +
                                               "): this is eok's problem, not the kernel's");
  }
  const HarnessOutput cand_out = parse_harness_output(cand.output);
  if (auto bad = judge_run(cand, cand_out, task, cases, &res.rule)) return finish(bad->first, bad->second);

  CheckResult check = compare_outputs(task, cases, ref_out, cand_out);
  res.mismatches = check.mismatches;
  if (check.status != EvalStatus::ok) return finish(check.status, check.message);

  if (!cand.profile || !cand.profile->complete) {
    if (cand.profile && (cand.profile->region_begins != 1 || cand.profile->region_ends != 1) &&
        cand.profile->region_begins + cand.profile->region_ends > 0) {
      res.rule = "measurement-markers";
      return finish(EvalStatus::rejected, "measurement-markers: the kernel ran the harness's measurement markers");
    }
    return finish(EvalStatus::infra_error, "the board's measurement plugin wrote no complete profile");
  }
  if (cand.profile->region_begins != 1 || cand.profile->region_ends != 1) {
    res.rule = "measurement-markers";
    return finish(EvalStatus::rejected, "measurement-markers: the timed region began " +
                                            std::to_string(cand.profile->region_begins) + " and ended " +
                                            std::to_string(cand.profile->region_ends) + " times");
  }
  res.sandboxed = cand.profile->sandboxed;
  if (!res.sandboxed) log::warn("the seccomp sandbox was not active for this run (eok doctor explains)");

  t = Clock::now();
  res.cost = model_.estimate(*cand.profile);
  res.timings.model = since(t);
  res.cycles = res.cost->cycles;
  return finish(EvalStatus::ok, "correct on " + std::to_string(cases.size()) + " cases; " +
                                    std::to_string(static_cast<long long>(res.cost->cycles)) + " modeled cycles (" +
                                    res.cost->bound + "-bound)");
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
                              .hex();
  return cfg_.baseline_cache / (task.id + "-" + key + ".json");
}

std::optional<BoardEvaluator::Baseline> BoardEvaluator::cached_baseline(const Task& task) const {
  const fs::path file = baseline_file(task);
  if (!fs::exists(file)) return std::nullopt;
  try {
    auto j = nlohmann::json::parse(read_file(file));
    return Baseline{j.at("cycles").get<double>(), j.at("run_seconds").get<double>()};
  } catch (const std::exception& e) {
    log::warn("ignoring damaged baseline cache {}: {}", file.string(), e.what());
    return std::nullopt;
  }
}

double BoardEvaluator::run_timeout(const Task& task) const {
  // Ten times what ker0 needs on this board, at least 3 s: a kernel stuck in a loop costs seconds, not the
  // board's whole limit. Without a measured ker0 the board's limit applies.
  auto b = cached_baseline(task);
  return b ? std::clamp(10 * b->run_seconds + 2, 3.0, cfg_.board.qemu.timeout_seconds) : cfg_.board.qemu.timeout_seconds;
}

double BoardEvaluator::baseline_cycles(const Task& task) {
  if (auto b = cached_baseline(task)) return b->cycles;
  log::info("measuring the baseline ker0 of {} (cached afterwards)", task.id);
  EvalResult r = evaluate(task, read_file(task.ker0_path()), kBaselineSeed);
  if (r.status != EvalStatus::ok || !r.cycles) {
    throw Error("the baseline kernels/" + task.id + "/ker0.c is not correct on board " + cfg_.board.name + ": " +
                status_name(r.status) + ": " + r.message);
  }
  write_file_atomic(baseline_file(task), nlohmann::json{{"task", task.id},
                                                        {"cycles", *r.cycles},
                                                        {"run_seconds", r.timings.run},
                                                        {"kernel_hash", r.kernel_hash}}
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
  h.add(read_file(board.file)).add(read_file(board.cost_table)).add(tools.clang_version).add(tools.qemu_version);
  if (!tools.plugin.empty()) h.add(read_file(tools.plugin));
  // The cost model and checker are compiled into eok itself: a rebuilt eok re-measures its baselines.
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) h.add(read_file(self));
  return h.hex();
}

}  // namespace eok::evaluator
