// eok bench run: the search of every task of a suite with one method and one set of settings, the tasks in
// parallel, each as its own `eok search` process, all results in the kernel database.
//
// Contract: the bench and the run id of each task are recorded before that task's search starts, so a
// bench that was stopped (Ctrl-C, a crash, a reboot) continues with resume: finished runs are kept,
// stopped or killed ones continue where they were (eok search --resume), the others start. One task's
// failure is reported and does not stop the others. Ctrl-C stops every running search the way Ctrl-C
// stops one (the proposals in flight finish) and leaves the bench resumable.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "src/common/paths.h"
#include "src/db/record_states.h"

namespace eok::bench {

// What every task's run gets. The command line builds it (src/cli/search_flags.h declares the flags).
struct BenchSettings {
  db::SearchMethod method = db::SearchMethod::tuner;
  std::string board = "k1";
  std::string label;  // the tables' name for this configuration (default_label); "" is the method's name
  // The other arguments of eok search that every task's search gets ("--top-k", "7", "--rag", "none" ...),
  // after --method and --board. What is not given stays at the configuration's value.
  std::vector<std::string> search_flags;
};

// "eok", "eok sampling=uniform", "eok rag=none pool=kmeans": the method and its non-default ablations (the
// paper's Tables 4 and 5); empty ablation values are the defaults.
std::string default_label(db::SearchMethod method, const std::string& thought_sampling, const std::string& rag,
                          const std::string& pool);

struct BenchRequest {
  BenchRequest(std::filesystem::path root_dir, Workspace ws, std::filesystem::path eok)
      : root(std::move(root_dir)), workspace(std::move(ws)), eok_binary(std::move(eok)) {}

  std::filesystem::path root;  // the eok data root (kernels/, configs/)
  Workspace workspace;
  std::filesystem::path eok_binary;  // the program that runs each search
  std::string suite = "all";
  std::vector<std::string> tasks;  // resolved ids
  BenchSettings settings;
  unsigned jobs = 1;  // searches at once
  std::optional<std::string> resume;
  // Where each task's search runs: "local" (a child process) or "slurm" (a Slurm job named eok-<task> on
  // `partition`, through srun; the workspace and eok must be on a filesystem the nodes share).
  std::string executor = "local";
  std::string partition;  // slurm: empty means the cluster's default partition
};

struct BenchTaskOutcome {
  std::string task, run_id;
  db::RunState state = db::RunState::failed;  // how its search ended: finished, stopped or failed
  bool kept = false;                          // finished in an earlier session, not searched again
  std::string message;                        // why it failed, or how it ended
  // The state as shown: "kept" for a kept task, else the run state's name.
  const char* shown_state() const { return kept ? "kept" : name_of(state); }
  double best_speedup = 0;
  double seconds = 0;
};

struct BenchOutcome {
  std::string bench_id, label;
  db::BenchState state = db::BenchState::running;
  std::vector<BenchTaskOutcome> tasks;
  double seconds = 0;
};

// Number of searches that may run at once: the host's cores (each search checks kernels in the emulator,
// on the virtual board or a real board's twin), and at least one per board of a real board's pool.
unsigned default_jobs(unsigned boards, bool virtual_board);

// Runs (or resumes) a bench. on_task is called as each task ends, from the worker that ran it, one call at
// a time. Throws eok::Error for setup problems (unknown bench to resume, unreadable database).
BenchOutcome run_bench(const BenchRequest& request,
                       const std::function<void(const BenchTaskOutcome&, size_t done, size_t total)>& on_task);

}  // namespace eok::bench
