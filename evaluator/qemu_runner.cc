#include "evaluator/qemu_runner.h"

#include <algorithm>
#include <fstream>

#include "src/common/fs_util.h"

namespace eok::evaluator {

namespace fs = std::filesystem;

namespace {

// The harness's own output is one fault record at most: whatever more a kernel wrote there is not read.
constexpr size_t kHarnessOutputCap = 64 * 1024;

std::string read_prefix(const fs::path& path, size_t max) {
  std::ifstream in(path, std::ios::binary);
  std::string out(max, '\0');
  in.read(out.data(), static_cast<std::streamsize>(max));
  out.resize(static_cast<size_t>(in.gcount()));
  return out;
}

}  // namespace

RunOutcome QemuRunner::run(const RunRequest& req) {
  const std::string in = std::string(sandbox::kWorkdir) + "/";
  write_file_atomic(req.workdir / "plan.txt", req.plan);
  if (!req.regions) write_file_atomic(req.workdir / "watch.txt", req.watch);
  write_file_atomic(req.workdir / "guest.bpf", sandbox_.program(sandbox::SeccompProfile::emulator_guest));
  const fs::path measurement = req.workdir / "measure.bin";
  const fs::path records = req.workdir / "records.bin";

  const auto& c = board_.cache;
  sandbox::SandboxedRun run;
  run.workdir = req.workdir;
  run.profile = sandbox::SeccompProfile::emulator_startup;
  run.proc = true;  // qemu reads /proc/self/maps at start
  run.binds.push_back({tools_.plugin, "/eok/eok-k1-plugin.so", false});
  run.argv = {
      fs::canonical(tools_.qemu).string(),
      "-cpu",
      board_.qemu.cpu,
      "-plugin",
      "/eok/eok-k1-plugin.so,out=" + in + "measure.bin," + (req.regions ? "regions=1" : "watch=" + in + "watch.txt") +
          ",filter=" + in + "guest.bpf" + ",measure=" + (req.measure ? "1" : "0") +
          ",flush=" + (board_.protocol.flush_before_timed_call ? "1" : "0") + ",line=" + std::to_string(c.line_bytes) +
          ",l1_sets=" + std::to_string(c.l1_sets()) + ",l1_ways=" + std::to_string(c.l1_ways) + ",l2_sets=" +
          std::to_string(c.l2_sets()) + ",l2_ways=" + std::to_string(c.l2_ways) + ",l2_policy=" + c.l2_policy,
      in + req.program.filename().string()};
  run.argv.insert(run.argv.end(), req.args.begin(), req.args.end());
  run.stdin_path = req.workdir / "plan.txt";
  run.stdout_path = records;
  run.capture_limit = 64 * 1024;
  const double timeout = req.timeout_seconds > 0 ? std::min(req.timeout_seconds, board_.qemu.timeout_seconds)
                                                 : board_.qemu.timeout_seconds;
  run.limits.wall_seconds = timeout;
  run.limits.cpu_seconds = static_cast<uint64_t>(timeout) + 5;
  run.limits.address_space_bytes = uint64_t{board_.qemu.memory_mib} << 20;
  run.limits.file_size_bytes = 256ull << 20;
  run.limits.open_files = 64;

  RunOutcome outcome;
  outcome.process = sandbox_.run(run);
  if (fs::exists(records)) {
    outcome.harness = read_prefix(records, kHarnessOutputCap);
    std::error_code ec;
    outcome.harness_bytes = fs::file_size(records, ec);
  }
  if (fs::exists(measurement)) outcome.measurement = read_file(measurement);
  return outcome;
}

}  // namespace eok::evaluator
