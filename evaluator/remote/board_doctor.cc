#include "evaluator/remote/board_doctor.h"

#include <sstream>

#include "evaluator/remote/remote_script.h"
#include "evaluator/remote/transport.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"

namespace eok::evaluator::remote {

namespace fs = std::filesystem;

namespace {

// Prints "vlen N" (or "vector trapped"), "perf ok|ERRNO" and "rdcycle ok|trapped".
constexpr const char* kProbe = R"(#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <riscv_vector.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
static sigjmp_buf jump;
static void on_sigill(int s) { (void)s; siglongjmp(jump, 1); }
int main(void) {
  signal(SIGILL, on_sigill);
  if (!sigsetjmp(jump, 1)) printf("vlen %zu\n", __riscv_vsetvlmax_e8m1() * 8);
  else printf("vector trapped\n");
  struct perf_event_attr a;
  memset(&a, 0, sizeof a);
  a.type = PERF_TYPE_HARDWARE;
  a.size = sizeof a;
  a.config = PERF_COUNT_HW_CPU_CYCLES;
  a.exclude_kernel = 1;
  int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
  printf("perf %s\n", fd >= 0 ? "ok" : strerrorname_np(errno));
  if (!sigsetjmp(jump, 1)) {
    unsigned long c;
    __asm__ volatile("csrr %0, 0xc00" : "=r"(c));
    printf("rdcycle ok\n");
  } else {
    printf("rdcycle trapped\n");
  }
  return 0;
}
)";

std::string value_after(const std::string& out, const std::string& key) {
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key + " ", 0) == 0) return line.substr(key.size() + 1);
  }
  return {};
}

}  // namespace

std::vector<DoctorCheck> check_real_board(const BoardProfile& board, const fs::path& clang,
                                          const fs::path& scratch_dir) {
  std::vector<DoctorCheck> checks;
  auto add = [&](std::string name, bool ok, std::string detail, std::string fix, bool optional = false) {
    checks.push_back({std::move(name), ok, optional, std::move(detail), std::move(fix)});
  };
  const std::string profile = board.file.string();
  try {
    TempDir tmp(scratch_dir, "board-doctor-");
    write_file_atomic(tmp.path() / "probe.c", kProbe);
    ProcessSpec cc;
    cc.argv = {clang.string(),
               "--target=riscv64-linux-gnu",
               "-march=" + board.march,
               "-O2",
               "-static",
               "-fuse-ld=lld",
               (tmp.path() / "probe.c").string(),
               "-o",
               (tmp.path() / "probe").string()};
    cc.limits.wall_seconds = 60;
    const ProcessResult built = run_process(cc);
    if (!built.ok()) {
      add("board probe program", false, built.err.substr(0, built.err.find('\n')), "see the compile check above");
      return checks;
    }
    auto transport = make_transport(board);
    for (const auto& host : board.remote.hosts) {
      RemoteJob job;
      job.program = tmp.path() / "probe";
      job.timeout_seconds = std::min(board.remote.timeout_seconds, 60.0);
      const RemoteOutcome out = transport->run(host, job);
      const std::string name = "board " + host;
      if (out.unreachable) {
        add(name + " reachable", false, printable_line(out.problem),
            board.runner == "ssh"
                ? "check hosts, identity_file and options in " + profile + " (try the same with plain ssh)"
                : "check the partition and that srun works here (sinfo, srun hostname)");
        continue;
      }
      add(name + " reachable", true, board.runner == "ssh" ? "key accepted" : "runs jobs", "");
      const std::string vlen = value_after(out.process.out, "vlen");
      const bool vector_ok = !vlen.empty() && vlen == std::to_string(board.vlen);
      add(name + " runs RVV code", vector_ok,
          vlen.empty() ? (out.process.out.find("vector trapped") != std::string::npos
                              ? "vector instructions trap"
                              : out.process.describe() + ": " +
                                    printable_line(parse_script_report(out.process.err).program_stderr))
                       : "VLEN " + vlen + (vector_ok ? "" : ", the profile says " + std::to_string(board.vlen)),
          "a K1 runs them natively (exec_prefix = []); an emulating host needs exec_prefix = [\"qemu-riscv64\", "
          "\"-cpu\", \"rv64,v=true,vlen=256\"]");
      const std::string perf = value_after(out.process.out, "perf");
      const bool rdcycle = value_after(out.process.out, "rdcycle") == "ok";
      add(name + " cycle timer", perf == "ok",
          perf == "ok" ? "perf_event_open cycles"
                       : "perf_event_open: " + perf + "; the harness uses " + (rdcycle ? "rdcycle" : "clock_gettime"),
          "allow user-space perf: sysctl kernel.perf_event_paranoid=2 (or lower)", true);
      const ScriptReport report = parse_script_report(out.process.err);
      const std::string governor = report.fact("governor");
      add(name + " CPU governor", governor == "performance", governor.empty() ? "none" : governor,
          "cpupower frequency-set -g performance (on the board, as root)", true);
      const std::string temp = report.fact("temperature-millicelsius");
      add(name + " temperature sensor", !temp.empty() && temp != "none",
          temp.empty() || temp == "none" ? "none: max_temperature_c cannot be honoured"
                                         : std::to_string(std::stol(temp) / 1000) + " C",
          "/sys/class/thermal/thermal_zone*/temp readable by the board's user", true);
    }
  } catch (const Error& e) {
    add("board " + board.name, false, e.what(), "fix " + profile);
  }
  return checks;
}

}  // namespace eok::evaluator::remote
