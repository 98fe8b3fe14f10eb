// eok eval: judge one candidate kernel on a board and compare it with the task's baseline ker0.
#include <cstdio>
#include <iostream>
#include <random>

#include "evaluator/board_session.h"
#include "evaluator/task.h"
#include "src/cli/cli.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "src/common/log.h"
#include "src/common/paths.h"

namespace eok::cli {

namespace {

using evaluator::EvalResult;
using evaluator::EvalStatus;

struct EvalOptions {
  std::string task, kernel, board = "k1";
  std::optional<uint64_t> seed;
  bool json = false, keep_temp = false, no_baseline = false;
};

void print_lines(const std::string& text, size_t max_lines, const char* indent) {
  size_t start = 0, n = 0;
  while (start < text.size() && n < max_lines) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::printf("%s%s\n", indent, text.substr(start, end - start).c_str());
    start = end + 1;
    ++n;
  }
  if (start < text.size()) std::printf("%s[... %zu more bytes; --json has all of it]\n", indent, text.size() - start);
}

void print_human(const EvalResult& r, const evaluator::Task& task, const std::string& kernel_path) {
  std::printf("task    %s (%s) on board %s\n", task.id.c_str(), task.name.c_str(), r.board.c_str());
  std::printf("kernel  %s  hash %.12s  seed %llu\n", kernel_path.c_str(), r.kernel_hash.c_str(),
              static_cast<unsigned long long>(r.seed));
  std::printf("status  %s: %s\n", evaluator::status_name(r.status), r.message.c_str());
  if (!r.rule.empty()) std::printf("rule    %s\n", r.rule.c_str());
  if (r.status == EvalStatus::compile_error && !r.compiler_output.empty()) {
    std::printf("compiler output:\n");
    print_lines(r.compiler_output, 20, "  ");
  }
  if (!r.mismatches.empty()) {
    std::printf("first mismatches:\n  %-6s %-22s %-8s %-10s %-18s %-18s\n", "case", "sizes", "output", "index",
                "expected", "got");
    for (const auto& m : r.mismatches) {
      std::printf("  %-6zu %-22s %-8s %-10lld %-18s %-18s\n", m.case_index, m.sizes.c_str(), m.arg.c_str(),
                  static_cast<long long>(m.index), m.expected.c_str(), m.got.c_str());
    }
  }
  if (r.status != EvalStatus::ok && !r.run_log.empty() && r.status != EvalStatus::compile_error) {
    std::printf("program stderr:\n");
    print_lines(r.run_log, 10, "  ");
  }
  if (r.cycles && r.measurement) {
    const auto& m = *r.measurement;
    std::printf("board   %s cycles on %s: median of %zu timed calls after %u warm-up (MAD %s %s, min %s; timer %s)\n",
                with_commas(m.median_cycles).c_str(), m.host.c_str(), m.samples.size(), m.warmup,
                with_commas(m.mad).c_str(), m.unit.c_str(), with_commas(m.min).c_str(), m.timer.c_str());
    if (!m.notes.empty()) std::printf("        %s\n", m.notes.c_str());
  }
  if (r.cycles && r.cost) {
    const auto& c = *r.cost;
    std::printf("%s  %s\n", r.measurement ? "model" : "cycles", evaluator::describe_cycles(c).c_str());
    if (r.timed_call_cycles.size() > 1) {
      std::string calls;
      for (double v : r.timed_call_cycles) calls += (calls.empty() ? "" : ", ") + with_commas(v);
      std::printf("        median of %zu timed calls (%s)\n", r.timed_call_cycles.size(), calls.c_str());
    }
    if (r.baseline_cycles && r.speedup) {
      std::printf("ker0    %s cycles -> speedup %.3fx\n", with_commas(*r.baseline_cycles).c_str(), *r.speedup);
    }
    std::printf("profile %s instructions; cycles by class:", with_commas(static_cast<double>(c.instructions)).c_str());
    std::vector<std::pair<double, std::string>> classes;
    for (const auto& [name, cyc] : c.cycles_by_class) classes.emplace_back(cyc, name);
    std::sort(classes.rbegin(), classes.rend());
    for (size_t i = 0; i < classes.size() && i < 6; ++i) {
      std::printf(" %s %.0f%%", classes[i].second.c_str(), 100.0 * classes[i].first / std::max(1.0, c.compute_cycles));
    }
    std::printf("\n");
    if (c.fallback_instructions) {
      std::printf("        %s executed instructions had no X60 figure and were costed by class defaults\n",
                  with_commas(static_cast<double>(c.fallback_instructions)).c_str());
    }
    std::printf("hot blocks:\n");
    for (size_t i = 0; i < c.hot_blocks.size() && i < 3; ++i) {
      const auto& b = c.hot_blocks[i];
      std::printf("  #%zu 0x%llx  %s  x%s  %.1f cycles each  %s cycles (%.0f%% of compute)\n", i + 1,
                  static_cast<unsigned long long>(b.vaddr), b.vtype.c_str(),
                  with_commas(static_cast<double>(b.count)).c_str(), b.cycles_per_exec, with_commas(b.cycles).c_str(),
                  100.0 * b.cycles / std::max(1.0, c.compute_cycles));
      for (size_t k = 0; k < b.disasm.size() && k < 24; ++k) std::printf("       %s\n", b.disasm[k].c_str());
      if (b.disasm.size() > 24) std::printf("       ... %zu more\n", b.disasm.size() - 24);
    }
  }
  const auto& t = r.timings;
  std::printf(
      "time    compile %.2f s, link %.2f s, run %.2f s (reference %.2f s beside it), model %.3f s, total %.2f s"
      " (eok itself %.3f s)\n",
      t.compile, t.link, t.run, t.reference, t.model, t.total, t.overhead());
}

int status_exit_code(EvalStatus s) {
  if (s == EvalStatus::ok) return 0;
  if (s == EvalStatus::infra_error) return 6;
  return 1;
}

int run_eval(const EvalOptions& opt, const GlobalOptions& global) {
  log::set_level(global.log_level);
  const auto root = find_project_root(global.root);
  std::string resolved_note;
  const evaluator::Task task = evaluator::find_task(root, opt.task, &resolved_note);
  if (!resolved_note.empty()) log::info("{}", resolved_note);
  const std::string source = read_regular_file(opt.kernel, kKernelSourceMaxBytes, "kernel source");
  const Workspace ws = Workspace::open();
  auto session = evaluator::open_board_session(root, ws, opt.board, {opt.keep_temp});

  const uint64_t seed = opt.seed ? *opt.seed : std::random_device{}() * 0x100000001ull ^ std::random_device{}();
  EvalResult r = opt.no_baseline ? session.evaluator->evaluate(task, source, seed)
                                 : session.evaluator->evaluate_against_baseline(task, source, seed);
  if (opt.json) {
    auto j = r.to_json();
    j["kernel"] = opt.kernel;
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
  } else {
    print_human(r, task, opt.kernel);
  }
  return status_exit_code(r.status);
}

}  // namespace

void add_eval_command(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  auto opt = std::make_shared<EvalOptions>();
  CLI::App* cmd = app.add_subcommand(
      "eval",
      "Judge one candidate kernel: static checks, compile (clang-22 -O3), run on the board with fresh seeded\n"
      "inputs at every check size and the timed size, compare with the task's ref.c, and model its cycles.\n"
      "Prints the status with its evidence, modeled cycles, the speedup over the task's ker0 (measured once,\n"
      "then cached) and a short profile. On a real board (a profile with runner ssh, slurm or local) the checks\n"
      "run on its virtual twin first; a correct kernel is then timed on the board (warm-up and timed calls of\n"
      "its [measure]), and `cycles` is the board's median, with a `measurement` object in --json.\n\n"
      "Statuses: ok, compile_error, rejected (broke a trust rule), runtime_error, wrong_answer, timeout,\n"
      "infra_error (eok or the board failed; never the kernel's fault).\n"
      "Exit code: 0 ok, 1 any other kernel status, 6 infra_error, 2-5 bad usage or setup.\n\n"
      "Example:\n  eok eval --task mish_f32 --kernel kernels/mish_f32/ker0.c --board k1\n"
      "  eok eval --task relu --kernel relu_m8.c --json | jq .speedup\n"
      "  eok eval --task relu --kernel relu_m8.c --board k1-lab.toml --json | jq .measurement   # a real board");
  cmd->add_option("--task,-t", opt->task, "task id or operation name (mish -> mish_f32); eok tasks lists them")
      ->required();
  cmd->add_option("--kernel,-k", opt->kernel, "C source of the candidate; it defines the task's entry function")
      ->required();
  cmd->add_option(
         "--board,-b", opt->board,
         "board profile: a name under configs/boards/ (k1: the virtual K1) or the path of a .toml; a real board "
         "(runner ssh, slurm, local) checks on its virtual twin, then times on the board")
      ->capture_default_str();
  cmd->add_option("--seed", opt->seed, "seed for the inputs (default: fresh; printed so a run can be repeated)");
  cmd->add_flag("--json", opt->json,
                "print one JSON object (status, cycles, baseline_cycles, speedup, message, evidence, profile)");
  cmd->add_flag("--keep-temp", opt->keep_temp, "keep the evaluation's temporary directory (programs, plan, records)");
  cmd->add_flag("--no-baseline", opt->no_baseline, "skip ker0: no speedup, faster for a first correctness check");
  cmd->callback([opt, &global, &exit_code] { exit_code = run_eval(*opt, global); });
}

}  // namespace eok::cli
