#include "evaluator/run_verdict.h"

#include <signal.h>
#include <string.h>

#include <cstdio>

#include "src/common/text.h"

namespace eok::evaluator {

std::string case_label(const std::vector<PlannedCase>& cases, int index) {
  if (index < 0 || static_cast<size_t>(index) >= cases.size()) return "before the first case";
  const auto& c = cases[static_cast<size_t>(index)];
  return "case " + std::to_string(index) + " (" + format_sizes(c.sizes) +
         (c.timed    ? ", timed"
          : c.warmup ? ", warm-up"
                     : "") +
         ")";
}

namespace {

std::string signal_name(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

std::string describe_fault(const FaultRecord& f, const Task& task, const std::vector<PlannedCase>& cases) {
  std::string where = "no buffer nearby";
  constexpr int64_t kNearby = 1 << 20;  // further than this from every buffer, the nearest one means nothing
  const bool near = f.offset >= -kNearby && f.offset <= static_cast<int64_t>(f.buf_bytes) + kNearby;
  if (near && f.arg_index >= 0 && static_cast<size_t>(f.arg_index) < task.args.size()) {
    const std::string& name = task.args[static_cast<size_t>(f.arg_index)].name;
    if (f.offset < 0)
      where = std::to_string(-f.offset) + " bytes before the start of " + name;
    else if (static_cast<uint64_t>(f.offset) >= f.buf_bytes)
      where = std::to_string(static_cast<uint64_t>(f.offset) - f.buf_bytes) + " bytes past the end of " + name + " (" +
              std::to_string(f.buf_bytes) + " bytes)";
    else
      where = "inside " + name;
  }
  return signal_name(f.signo) + " at address " + hex_address(f.address) + ", " + where + ", in " +
         case_label(cases, f.case_index);
}

}  // namespace

Verdict judge_run(const RunOutcome& run, const Measurement& m, const HarnessOutput& harness, const Task& task,
                  const std::vector<PlannedCase>& cases, std::string* rule) {
  const ProcessResult& p = run.process;
  if (!p.started) {
    return std::make_pair(EvalStatus::infra_error,
                          "could not start the board's runner: " + p.spawn_error + " (eok doctor checks it)");
  }
  if (!m.hello) {
    return std::make_pair(EvalStatus::infra_error, "the board's plugin did not start (" + p.describe() +
                                                       "): " + p.err.substr(0, p.err.find('\n')));
  }
  if (!m.sandboxed || !m.guest_memory_ok) {
    return std::make_pair(EvalStatus::infra_error,
                          std::string("the board's plugin could not ") +
                              (!m.sandboxed ? "install its seccomp filter" : "read guest memory") +
                              "; eok doctor explains");
  }
  const int current = static_cast<int>(m.begins.size()) - 1;  // the call that began last
  if (!m.tampered.empty()) {
    *rule = "measurement-tampered";
    return std::make_pair(EvalStatus::rejected,
                          "measurement-tampered: the board's measurement is not what its plugin writes (" + m.tampered +
                              "): the kernel reached the plugin's memory");
  }
  if (m.violation) {
    *rule = m.violation->rule;
    return std::make_pair(EvalStatus::rejected, m.violation->rule + ": " + m.violation->detail);
  }
  if (p.timed_out || p.term_signal == SIGXCPU) {
    return std::make_pair(EvalStatus::timeout,
                          "did not finish: " + p.describe() + " while running " + case_label(cases, current));
  }
  if (p.term_signal == SIGSYS) {
    *rule = "forbidden-syscall";
    return std::make_pair(EvalStatus::rejected,
                          "forbidden-syscall: the emulator was stopped by its seccomp filter in " +
                              case_label(cases, current) +
                              ": the kernel made it do something no kernel needs (files, processes, network)");
  }
  if (p.err.find("decode_save_opc") != std::string::npos) {
    // QEMU 7.2 aborts on the static round-toward-zero vector conversions: a limit of the virtual board
    // that a real K1 does not have, said plainly so that a person or an LLM can route around it.
    *rule = "emulator-limit";
    return std::make_pair(
        EvalStatus::runtime_error,
        "the virtual board's emulator (QEMU 7.2) cannot run vector round-toward-zero conversions "
        "(vfcvt.rtz, vfwcvt.rtz, vfncvt.rtz), which this kernel uses; a real K1 would. clang emits them for "
        "__riscv_vfcvt_rtz_* intrinsics and for (int) casts in vectorised loops: convert with "
        "__riscv_vfcvt_x_f_v (round to nearest) and correct the result, or keep such casts out of "
        "vectorised loops (#pragma clang loop vectorize(disable)). Seen in " +
            case_label(cases, current));
  }
  if (harness.fault) return std::make_pair(EvalStatus::runtime_error, describe_fault(*harness.fault, task, cases));
  if (p.term_signal == SIGXFSZ) return std::make_pair(EvalStatus::runtime_error, "wrote more output than allowed");
  if (p.term_signal != 0) {
    return std::make_pair(EvalStatus::runtime_error, p.describe() + " in " + case_label(cases, current));
  }
  if (p.exit_code == 5)
    return std::make_pair(EvalStatus::runtime_error, "out of memory in " + case_label(cases, current));
  if (m.calls.size() < cases.size()) {
    const bool inside = m.begins.size() > m.calls.size();
    return std::make_pair(EvalStatus::runtime_error,
                          std::string("the program ") + (p.exit_code == 0 ? "exited" : "ended with " + p.describe()) +
                              (inside ? " inside the kernel call of " + case_label(cases, current)
                                      : " before " + case_label(cases, static_cast<int>(m.calls.size()))));
  }
  if (p.exit_code != 0) {
    const std::string why = p.err.substr(0, p.err.find('\n'));
    return std::make_pair(EvalStatus::runtime_error, "the program " + p.describe() + (why.empty() ? "" : ": " + why) +
                                                         " after its last call (the kernel damaged the harness?)");
  }
  if (!m.error.empty())
    return std::make_pair(EvalStatus::runtime_error, "the run's measurement is incomplete: " + m.error);
  return std::nullopt;
}

}  // namespace eok::evaluator
