#include "src/bench/bench_run.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include <nlohmann/json.hpp>

#include "src/common/error.h"
#include "src/common/interrupt_guard.h"
#include "src/common/log.h"
#include "src/common/subprocess.h"
#include "src/db/kernel_db.h"
#include "src/db/run_id.h"

namespace eok::bench {

namespace fs = std::filesystem;

namespace {

std::string last_line(const std::string& text) {
  std::string t = text;
  while (!t.empty() && (t.back() == '\n' || t.back() == '\r')) t.pop_back();
  const auto nl = t.rfind('\n');
  return nl == std::string::npos ? t : t.substr(nl + 1);
}

std::string new_bench_id() {
  std::string id = db::new_run_id((static_cast<uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}());
  id[0] = 'b';
  return id;
}

}  // namespace

std::string default_label(db::SearchMethod method, const std::string& thought_sampling, const std::string& rag,
                          const std::string& pool) {
  std::string label = name_of(method);
  if (!thought_sampling.empty() && thought_sampling != "softmax") label += " sampling=" + thought_sampling;
  if (!rag.empty() && rag != "both") label += " rag=" + rag;
  if (!pool.empty()) label += " pool=" + fs::path(pool).stem().string();
  return label;
}

unsigned default_jobs(unsigned boards, bool virtual_board) {
  const unsigned host = std::max(1u, std::thread::hardware_concurrency());
  return virtual_board ? host : std::max(host, boards);
}

BenchOutcome run_bench(const BenchRequest& req,
                       const std::function<void(const BenchTaskOutcome&, size_t done, size_t total)>& on_task) {
  const auto start = std::chrono::steady_clock::now();
  auto db = db::KernelDb::open(req.workspace.database_path());

  db::BenchRecord bench;
  if (req.resume) {
    auto found = db->get_bench(*req.resume);
    if (!found) {
      throw NotFoundError("no bench " + *req.resume + " in " + req.workspace.database_path().string() +
                          " (eok bench list shows them)");
    }
    bench = *found;
  } else {
    bench.id = new_bench_id();
    bench.suite = req.suite;
    bench.method = req.settings.method;
    bench.label = req.settings.label.empty() ? name_of(req.settings.method) : req.settings.label;
    bench.board = req.settings.board;
    bench.tasks = req.tasks;
    std::vector<std::string> flags = {"--method", name_of(req.settings.method), "--board", req.settings.board};
    flags.insert(flags.end(), req.settings.search_flags.begin(), req.settings.search_flags.end());
    bench.settings_json = nlohmann::json(flags).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    bench.state = db::BenchState::running;
    db->create_bench(bench);
  }
  db->update_bench_state(bench.id, db::BenchState::running);
  const auto flags = nlohmann::json::parse(bench.settings_json).get<std::vector<std::string>>();
  std::map<std::string, std::string> known;
  for (const auto& [task, run] : db->bench_runs(bench.id)) known[task] = run;

  BenchOutcome outcome;
  outcome.bench_id = bench.id;
  outcome.label = bench.label;

  // What each task needs: nothing (finished before), a resumed search, or a new one.
  struct Job {
    std::string task, run_id;
    bool resume = false;
  };
  std::vector<Job> jobs;
  size_t done = 0;
  for (const auto& task : bench.tasks) {
    Job j{task, "", false};
    if (auto it = known.find(task); it != known.end()) {
      j.run_id = it->second;
      if (auto run = db->get_run(j.run_id)) {
        if (run->state == db::RunState::finished) {
          BenchTaskOutcome kept{task, j.run_id, db::RunState::finished, true, "finished in an earlier session", 0, 0};
          auto summary = nlohmann::json::parse(run->summary_json.empty() ? "{}" : run->summary_json, nullptr, false);
          if (summary.is_object()) kept.best_speedup = summary.value("best_speedup", 0.0);
          outcome.tasks.push_back(kept);
          ++done;
          continue;
        }
        j.resume = true;
      }
    }
    jobs.push_back(j);
  }
  const size_t total = bench.tasks.size();

  std::atomic<bool> stop{false};
  InterruptGuard interrupts(stop);
  std::mutex mu;
  size_t next = 0;
  auto worker = [&] {
    for (;;) {
      Job job;
      {
        std::lock_guard<std::mutex> lock(mu);
        if (next >= jobs.size() || stop) return;
        job = jobs[next++];
        if (!job.resume) {
          if (job.run_id.empty()) job.run_id = db::new_run_id(std::random_device{}());
          db->set_bench_run(bench.id, job.task, job.run_id);
        }
      }
      ProcessSpec spec;
      if (req.executor == "slurm") {
        // One job per task, named after it (squeue, sacct -c and scancel -n find it); srun forwards
        // Ctrl-C to the search and returns its output.
        spec.argv = {"srun", "--quiet", "-N1", "-n1", "-J", "eok-" + job.task};
        if (!req.partition.empty()) spec.argv.insert(spec.argv.end(), {"-p", req.partition});
        spec.argv.push_back("--");
      }
      spec.argv.insert(spec.argv.end(), {req.eok_binary.string(), "--root", req.root.string(), "search"});
      if (job.resume) {
        spec.argv.insert(spec.argv.end(), {"--resume", job.run_id});
      } else {
        spec.argv.insert(spec.argv.end(), {"--task", job.task, "--run-id", job.run_id});
        spec.argv.insert(spec.argv.end(), flags.begin(), flags.end());
      }
      spec.argv.push_back("--json");
      std::vector<std::string> env;
      for (char** e = environ; *e; ++e) {
        const std::string var(*e);
        // srun reads SLURM_* variables as options (a bench run inside a job would become its steps).
        if (var.rfind("EOK_HOME=", 0) == 0 || (var.rfind("SLURM_", 0) == 0 && var.rfind("SLURM_CONF=", 0) != 0))
          continue;
        env.push_back(var);
      }
      env.push_back("EOK_HOME=" + req.workspace.root().string());
      spec.env = env;
      spec.forward_interrupt = &stop;
      log::debug("bench {}: {}", bench.id, job.task);
      const ProcessResult r = run_process(spec);

      BenchTaskOutcome t{job.task, job.run_id, db::RunState::failed, false, "", 0, r.wall_seconds};
      auto j = nlohmann::json::parse(r.out, nullptr, false);
      if (r.started && j.is_object() && j.contains("state")) {
        // A state the search does not report (another eok's) counts as failed, and says so.
        const std::string shown = j["state"].is_string() ? j["state"].get<std::string>() : j["state"].dump();
        const std::optional<db::RunState> state = parse_name<db::RunState>(shown);
        t.state = state.value_or(db::RunState::failed);
        t.best_speedup = j.value("best_speedup", 0.0);
        t.message = t.state == db::RunState::finished ? "" : j.value("stop_reason", "");
        if (!state) t.message = "the search reported state '" + shown + "', which this eok does not know";
      } else if (stop && r.term_signal == SIGINT) {
        // Ctrl-C reached the search before it could take it calmly (it had only just started): a stop,
        // which --resume continues, not a failure.
        t.state = db::RunState::stopped;
        t.message = "interrupted as it started";
      } else {
        const std::string why = last_line(r.err);
        t.message = r.describe() + (why.empty() ? "" : ": " + why);
      }
      std::lock_guard<std::mutex> lock(mu);
      outcome.tasks.push_back(t);
      ++done;
      if (on_task) on_task(t, done, total);
    }
  };
  // An exception in a worker (the database, a pipe that cannot be made) must not end the program from a
  // thread: the first one stops the other workers and is thrown again from here, after the bench is saved.
  std::exception_ptr failure;
  auto guarded = [&] {
    try {
      worker();
    } catch (...) {
      std::lock_guard<std::mutex> lock(mu);
      if (!failure) failure = std::current_exception();
      stop = true;
    }
  };
  const unsigned n =
      std::max(1u, std::min<unsigned>(req.jobs, static_cast<unsigned>(std::max<size_t>(1, jobs.size()))));
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < n; ++i) threads.emplace_back(guarded);
  for (auto& t : threads) t.join();
  if (failure) {
    try {
      db->update_bench_state(bench.id, db::BenchState::stopped);
    } catch (const std::exception& e) {
      log::warn("could not mark bench {} stopped: {}", bench.id, e.what());
    }
    std::rethrow_exception(failure);
  }

  size_t finished = 0, failed = 0;
  for (const auto& t : outcome.tasks) {
    if (t.state == db::RunState::finished)
      ++finished;
    else if (t.state == db::RunState::failed)
      ++failed;
  }
  if (finished == total)
    outcome.state = db::BenchState::finished;
  else if (stop || failed == 0)
    outcome.state = db::BenchState::stopped;
  else
    outcome.state = db::BenchState::incomplete;
  db->update_bench_state(bench.id, outcome.state);
  outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return outcome;
}

}  // namespace eok::bench
