#include "evaluator/qemu_runner.h"

#include <algorithm>

#include "src/common/fs_util.h"

namespace eok::evaluator {

namespace fs = std::filesystem;

RunOutcome QemuRunner::run(const RunRequest& req) {
  const fs::path plan = req.workdir / "plan.txt";
  const fs::path out = req.workdir / "records.bin";
  const fs::path profile = req.workdir / "profile.txt";
  write_file_atomic(plan, req.plan);

  std::vector<std::string> argv = {tools_.qemu.string(), "-cpu", board_.qemu.cpu};
  if (req.measure) {
    const auto& c = board_.cache;
    argv.push_back("-plugin");
    argv.push_back(tools_.plugin.string() + ",out=" + profile.string() + ",line=" + std::to_string(c.line_bytes) +
                   ",l1_sets=" + std::to_string(c.l1_sets()) + ",l1_ways=" + std::to_string(c.l1_ways) +
                   ",l2_sets=" + std::to_string(c.l2_sets()) + ",l2_ways=" + std::to_string(c.l2_ways) +
                   ",flush=" + (c.flush_before_timed_run ? "1" : "0") + ",sandbox=1");
  }
  argv.push_back(req.program.string());

  ProcessSpec spec;
  spec.argv = std::move(argv);
  spec.cwd = req.workdir;
  spec.env = std::vector<std::string>{"PATH=/usr/bin:/bin", "LANG=C"};
  spec.stdin_path = plan;
  spec.stdout_path = out;
  spec.capture_limit = 64 * 1024;
  const double timeout = req.timeout_seconds > 0 ? std::min(req.timeout_seconds, board_.qemu.timeout_seconds)
                                                 : board_.qemu.timeout_seconds;
  spec.limits.wall_seconds = timeout;
  spec.limits.cpu_seconds = static_cast<uint64_t>(timeout) + 5;
  spec.limits.address_space_bytes = uint64_t{board_.qemu.memory_mib} << 20;
  spec.limits.file_size_bytes = 256ull << 20;
  spec.limits.open_files = 64;
  spec.limits.isolate_network = true;

  RunOutcome outcome;
  outcome.process = run_process(spec);
  if (fs::exists(out)) outcome.output = read_file(out);
  if (req.measure && fs::exists(profile)) outcome.profile = cost::parse_block_profile(read_file(profile));
  return outcome;
}

}  // namespace eok::evaluator
