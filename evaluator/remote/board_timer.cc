#include "evaluator/remote/board_timer.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "evaluator/remote/remote_script.h"
#include "evaluator/target/harness_protocol.h"

namespace eok::evaluator::remote {

namespace {

constexpr int kSigsys = 31;  // on riscv64 Linux, as everywhere eok runs

std::string first_line(const std::string& s) {
  return printable_line(s);
}

// "ENOSYS", or "errno N" for a number this libc has no name for (the board reports its own numbers).
std::string errno_name(int e) {
  const char* name = strerrorname_np(e);
  return name ? name : "errno " + std::to_string(e);
}

std::string timer_name(int timer) {
  switch (timer) {
    case EOK_TIMER_PERF_CYCLES:
      return "perf_event cycles";
    case EOK_TIMER_RDCYCLE:
      return "rdcycle";
    case EOK_TIMER_MONOTONIC_NS:
      return "clock_gettime";
    default:
      return "unknown";
  }
}

struct Records {
  std::optional<eok_board_record> board;
  std::vector<eok_time_record> times;
  std::optional<eok_signal_record> signal;
  bool garbled = false;
};

Records parse_records(const std::string& bytes) {
  Records r;
  size_t at = 0;
  auto take = [&](auto& rec) {
    if (at + sizeof rec > bytes.size()) return false;
    std::memcpy(&rec, bytes.data() + at, sizeof rec);
    at += sizeof rec;
    return true;
  };
  while (at + 4 <= bytes.size()) {
    uint32_t magic;
    std::memcpy(&magic, bytes.data() + at, 4);
    bool ok = false;
    if (magic == EOK_REC_BOARD && !r.board) {
      eok_board_record b;
      if ((ok = take(b))) r.board = b;
    } else if (magic == EOK_REC_TIME) {
      eok_time_record t;
      if ((ok = take(t))) r.times.push_back(t);
    } else if (magic == EOK_REC_SIGNAL) {
      eok_signal_record s;
      if ((ok = take(s))) r.signal = s;
    }
    if (!ok) {
      r.garbled = true;
      break;
    }
  }
  return r;
}

}  // namespace

std::pair<double, double> median_and_mad(std::vector<double> v) {
  if (v.empty()) return {0, 0};
  auto median = [](std::vector<double> x) {
    std::sort(x.begin(), x.end());
    const size_t n = x.size();
    return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
  };
  const double m = median(v);
  for (auto& x : v) x = std::abs(x - m);
  return {m, median(v)};
}

BoardTimer::BoardTimer(BoardProfile board, std::unique_ptr<Transport> transport, std::unique_ptr<BoardPool> pool)
    : board_(std::move(board)), transport_(std::move(transport)), pool_(std::move(pool)) {}

TimingOutcome BoardTimer::time(const TimingRequest& req) {
  const auto start = std::chrono::steady_clock::now();
  const auto& m = board_.measure;
  RemoteJob job;
  job.program = req.program;
  job.input = req.plan;
  job.timeout_seconds = board_.remote.timeout_seconds;
  const uint64_t flush_bytes = m.flush ? uint64_t{board_.cache.l2_kib} * 1024 * 2 : 0;
  job.args = {"--core", std::to_string(m.core), "--flush", std::to_string(flush_bytes)};
  auto [out, host] = pool_->run([&](const std::string& h) { return transport_->run(h, job); });

  TimingOutcome t;
  auto fail = [&](EvalStatus s, std::string message) {
    t.status = s;
    t.message = std::move(message);
    return t;
  };
  if (out.unreachable) return fail(EvalStatus::infra_error, out.problem);
  const ProcessResult& p = out.process;
  const std::string on = " on board " + host;
  const ScriptReport report = parse_script_report(p.err);
  if (p.timed_out) {
    return fail(EvalStatus::timeout, "did not finish" + on + " within " +
                                         std::to_string(static_cast<int>(job.timeout_seconds)) +
                                         " s (transfer included; [" + board_.runner + "] timeout_seconds)");
  }
  const Records rec = parse_records(p.out);
  if (p.exit_code == 125)
    return fail(EvalStatus::infra_error, "the run directory vanished" + on + ": " + first_line(p.err));
  if (!rec.board) {
    return fail(EvalStatus::infra_error, "the board harness did not start" + on + " (" + p.describe() +
                                             "): " + first_line(report.program_stderr) +
                                             " (is exec_prefix right? `eok doctor --board " + board_.file.string() +
                                             "` checks)");
  }
  if (rec.signal) {
    char address[32];
    std::snprintf(address, sizeof address, "0x%llx", static_cast<unsigned long long>(rec.signal->fault_addr));
    return fail(EvalStatus::runtime_error, "killed by signal " + std::to_string(rec.signal->signo) + " at address " +
                                               address + " in case " + std::to_string(rec.signal->case_index) + on +
                                               " (it passed on the virtual board: a difference between the two)");
  }
  if (p.exit_code == 128 + kSigsys || p.term_signal == kSigsys) {
    t.rule = "forbidden-syscall";
    return fail(EvalStatus::rejected, "forbidden-syscall: the harness's seccomp filter stopped the program" + on);
  }
  if (p.exit_code != 0 || rec.garbled) {
    return fail(EvalStatus::runtime_error, "the program " + p.describe() + on +
                                               (rec.garbled ? " with garbled records" : "") + ": " +
                                               first_line(report.program_stderr));
  }
  if (rec.times.size() != req.warmup_calls + req.timed_calls) {
    return fail(EvalStatus::runtime_error, "timed " + std::to_string(rec.times.size()) + " calls of " +
                                               std::to_string(req.warmup_calls + req.timed_calls) + on);
  }
  BoardTiming& b = t.timing;
  b.host = host;
  // A Slurm partition names no board: the node that ran the job does.
  if (board_.runner == "slurm" && !report.fact("node").empty()) b.host += " (node " + report.fact("node") + ")";
  b.timer = timer_name(rec.board->timer);
  b.unit = rec.board->timer == EOK_TIMER_MONOTONIC_NS ? "ns" : "cycles";
  b.timer_overhead = static_cast<double>(rec.board->overhead);
  b.warmup = static_cast<unsigned>(req.warmup_calls);
  for (size_t i = req.warmup_calls; i < rec.times.size(); ++i) {
    if (rec.times[i].case_index != static_cast<int32_t>(i)) {
      return fail(EvalStatus::runtime_error, "the board's timing records are out of order" + on);
    }
    b.samples.push_back(std::max(0.0, static_cast<double>(rec.times[i].ticks) - b.timer_overhead));
  }
  std::tie(b.median, b.mad) = median_and_mad(b.samples);
  b.min = *std::min_element(b.samples.begin(), b.samples.end());
  const double to_cycles = b.unit == "ns" ? board_.clock_ghz : 1.0;
  b.median_cycles = b.median * to_cycles;
  b.mad_cycles = b.mad * to_cycles;
  b.seccomp = rec.board->seccomp_errno == 0;
  std::vector<std::string> notes;
  if (!b.seccomp) {
    notes.push_back("the board refused the harness's seccomp filter (" + errno_name(rec.board->seccomp_errno) +
                    "): the kernel ran without it");
  }
  if (rec.board->perf_errno != 0) {
    notes.push_back("perf_event_open unavailable (" + errno_name(static_cast<int>(rec.board->perf_errno)) +
                    "): timed with " + b.timer);
  }
  if (rec.board->pinned_core < -1) {
    notes.push_back("could not pin to core " + std::to_string(m.core) + " (" + errno_name(-rec.board->pinned_core) +
                    ")");
  }
  b.governor = report.fact("governor");
  if (b.governor == "none" || b.governor.empty())
    notes.push_back("no cpufreq governor to read");
  else if (b.governor != "performance")
    notes.push_back("governor '" + b.governor + "', not 'performance': the clock may vary");
  const std::string temp = report.fact("temperature-millicelsius");
  if (temp.empty() || temp == "none")
    notes.push_back("no temperature sensor");
  else
    b.temperature_c = std::strtod(temp.c_str(), nullptr) / 1000.0;
  if (!report.fact("still-hot").empty()) notes.push_back("still above max_temperature_c after the wait");
  for (size_t i = 0; i < notes.size(); ++i) b.notes += (i ? "; " : "") + notes[i];
  b.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  t.status = EvalStatus::ok;
  return t;
}

}  // namespace eok::evaluator::remote
