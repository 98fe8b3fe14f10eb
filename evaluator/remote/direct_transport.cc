// runner = "local" (eok runs on the board itself) and runner = "slurm" (a job step on a partition of board
// nodes): the run directory is written here, where the program runs (local) or where every node sees it at
// the same path (slurm: a shared filesystem), and the script runs under `sh` or `srun ... sh`.
#include <unistd.h>

extern char** environ;

#include "evaluator/remote/remote_script.h"
#include "evaluator/remote/transport.h"
#include "src/common/error.h"

namespace eok::evaluator::remote {

namespace fs = std::filesystem;

namespace {

class DirectTransport : public Transport {
 public:
  explicit DirectTransport(BoardProfile board) : board_(std::move(board)) {}

  RemoteOutcome run(const std::string& host, const RemoteJob& job) override {
    RemoteOutcome out;
    const bool slurm = board_.runner == "slurm";
    const fs::path base = slurm && !board_.remote.shared_dir.empty() ? fs::path(board_.remote.shared_dir)
                                                                     : fs::path(board_.remote.remote_dir);
    const fs::path dir = base / fresh_run_name();
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (!ec) fs::copy_file(job.program, dir / "prog", fs::copy_options::overwrite_existing, ec);
    if (!ec) fs::permissions(dir / "prog", fs::perms::owner_all, ec);
    if (ec) {
      fs::remove_all(dir, ec);
      throw Error("cannot prepare the run directory " + dir.string() + " for board " + board_.name + ": " +
                  ec.message());
    }
    ProcessSpec p;
    const std::string script = board_script(board_, dir.string(), "prog", job.args, job.input);
    if (slurm) {
      // srun's own failures (no such partition, no node) say "srun: error:"; a killed srun ends its step.
      p.argv = {"srun",
                "-p",
                board_.remote.partition,
                "-N1",
                "-n1",
                "--quiet",
                "-J",
                "eok-timing-" + dir.filename().string()};
      p.argv.insert(p.argv.end(), board_.remote.srun_args.begin(), board_.remote.srun_args.end());
      p.argv.insert(p.argv.end(), {"sh", "-c", script});
    } else {
      p.argv = {"sh", "-c", script};
    }
    p.cwd = dir;
    if (slurm) {
      // srun reads SLURM_* variables as options, and inside a job (a bench's search under
      // --executor slurm) it would become a step of that job: only the cluster's configuration passes.
      std::vector<std::string> env;
      for (char** e = environ; *e; ++e) {
        const std::string var(*e);
        if (var.rfind("SLURM_", 0) != 0 || var.rfind("SLURM_CONF=", 0) == 0) env.push_back(var);
      }
      p.env = env;
    }
    p.hold_stdin_open = true;
    p.die_with_parent = true;
    p.limits.wall_seconds = job.timeout_seconds;
    p.capture_limit = 4 << 20;
    out.process = run_process(p);
    if (slurm && out.process.timed_out) {
      // A killed srun does not always end its step (the task keeps running with its stdin held open by
      // slurmstepd): cancel the job by its unique name.
      ProcessSpec cancel;
      cancel.argv = {"scancel", "--quiet", "--name=eok-timing-" + dir.filename().string()};
      cancel.limits.wall_seconds = 30;
      run_process(cancel);
    }
    fs::remove_all(dir, ec);
    if (!out.process.started) {
      out.unreachable = true;
      out.problem = "cannot start " + p.argv[0] + " for board " + host + ": " + out.process.spawn_error;
    } else if (slurm && out.process.err.find("srun: error:") != std::string::npos && out.process.out.empty()) {
      out.unreachable = true;
      out.problem = "Slurm did not run the job on partition " + board_.remote.partition + ": " +
                    out.process.err.substr(out.process.err.find("srun: error:"), 300);
    }
    return out;
  }

 private:
  BoardProfile board_;
};

}  // namespace

std::unique_ptr<Transport> make_direct_transport(const BoardProfile& board) {
  return std::make_unique<DirectTransport>(board);
}

}  // namespace eok::evaluator::remote
