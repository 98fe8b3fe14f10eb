// The kernel database: every run, every candidate kernel, its evaluation, every LLM call and every idea
// effectiveness update, in one SQLite file (WAL mode) in the workspace. Users review it with `eok runs`,
// `eok leaderboard`, `eok kernels`, `eok show`, `eok export`.
//
// Contract: all methods are thread-safe (one connection behind a mutex) and atomic: each one is a single
// transaction, and atomically() groups several. Several processes may use the file at once (a search and
// `eok leaderboard` in another terminal): readers never wait for the writer, writers wait for each other up
// to a busy timeout. Opening migrates an older schema forward, one transaction per migration; a file
// written by a newer eok is refused (ConfigError) and a file that is not an eok database is refused
// (CorruptDataError), both never modified. Errors of SQLite throw eok::Error naming the database file.
//
// Conventions: timestamps are unix seconds; a timestamp left at 0 is set to the current time on insert.
// run_id "" means "no run" (ker0, which every run of its task and board shares) and is stored as NULL.
// Statuses, states and methods are enumerations here and their names in the file (record_states.h); a name
// in the file that this eok does not know makes the reading method throw CorruptDataError naming the row.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "src/common/eval_status.h"
#include "src/db/record_states.h"

namespace eok::db {

struct RunRecord {
  std::string id;  // short, unique, sortable: "r20261122-143005-7f3a" (new_run_id in run_id.h)
  std::string task, board;
  RunState state = RunState::running;
  SearchMethod method = SearchMethod::eok;
  std::string config_json;  // the resolved configuration the run used
  uint64_t seed = 0;
  std::string toolchain;                  // clang and qemu versions
  std::string model;                      // LLM model, or "" for the tuner
  double started_at = 0, updated_at = 0;  // unix seconds
  std::string summary_json;               // filled at the end: best kernel, speedup, calls, tokens, cost, time
  std::string progress_json;              // the search's checkpoint (save_run_progress): what a resume starts from
};

struct KernelRecord {
  int64_t id = 0;
  std::string run_id;  // "" for ker0 (shared by every run of the task and board)
  std::string task, board;
  std::string hash;  // content hash of the normalised source (comments and blank space removed)
  std::string source;
  std::string description;          // the one-sentence idea
  std::vector<int64_t> parents;     // ids of existing kernels, in the order the operator used them
  std::string op;                   // "ker0", "init", "E1", "E2", "M1", "M2", "M3", "tuner"
  std::string idea_id, thought_id;  // "" when none
  int iteration = -1, search = -1, generation = -1;
  double created_at = 0;
};

struct EvaluationRecord {
  int64_t kernel_id = 0;
  EvalStatus status = EvalStatus::infra_error;
  std::string message;
  std::string evidence_json;  // rule, compiler output, mismatches, run log, profile
  std::optional<double> cycles, baseline_cycles, speedup;
  uint64_t seed = 0;
  double seconds = 0;  // wall time of the evaluation
  std::string setup;   // the evaluator setup that judged it (toolchain, board profile, cost model)
  double created_at = 0;
};

struct LlmCallRecord {
  int64_t id = 0;
  std::string run_id;
  std::optional<int64_t> kernel_id;  // the kernel the reply became, if it became one
  std::string op;                    // the operator or purpose
  std::string request_hash;
  std::string model;
  bool ok = false;
  std::string error;  // ChatError name and message, or the parser's reason for a failed proposal
  int64_t prompt_tokens = 0, completion_tokens = 0;
  double latency_seconds = 0, cost = 0;
  bool cache_hit = false;
  int attempts = 0;
  std::string retrieved_context;  // what retrieval put into the prompt ("" when none)
  double created_at = 0;
  std::string messages_json;  // the request's messages, [{"role", "content"}...] ("" for calls of schema < 3)
  std::string reply;          // the model's reply as received, thinking included ("" when it failed)
};

struct IdeaUpdateRecord {
  std::string run_id;
  int iteration = 0;
  std::string idea_id;
  double before = 0, after = 0;
  int samples = 0;  // kernels of this iteration that came from the idea
  double created_at = 0;
};

// A benchmark run (eok bench run): the search of every task of a suite with one method and one set of
// settings. `label` names the method and its ablation settings ("eok", "eok rag=none"): the tables' column.
struct BenchRecord {
  std::string id;     // "b20261122-143005-7f3a"
  std::string suite;  // "general", "nn", "all" (or "custom" for --tasks)
  SearchMethod method = SearchMethod::tuner;
  std::string label, board;
  std::vector<std::string> tasks;
  std::string settings_json;  // the search flags every task's run gets
  BenchState state = BenchState::running;
  double started_at = 0, updated_at = 0;
};

// A kernel with its evaluation, for listings.
struct KernelRow {
  KernelRecord kernel;
  std::optional<EvaluationRecord> evaluation;
};

// One (task, board): its fastest correct kernel over every run, ker0 included. When no kernel is correct,
// best_kernel_id is 0 and the figures are 0; the counts still say what happened.
struct LeaderboardRow {
  std::string task, board;
  int64_t best_kernel_id = 0;
  std::string best_run_id;  // "" when ker0 itself is the best
  double best_cycles = 0, best_speedup = 0, baseline_cycles = 0;
  // Evaluations of the task and board by status, in EvalStatus order: (ok, 12), (wrong_answer, 3) ...
  std::vector<std::pair<EvalStatus, int64_t>> counts_by_status;
};

struct RunTotals {
  int64_t kernels = 0, evaluations = 0, llm_calls = 0, llm_failures = 0, cache_hits = 0;
  int64_t prompt_tokens = 0, completion_tokens = 0;
  double cost = 0;
  int64_t unusable_replies = 0;  // calls the LLM answered without a usable kernel (no code block, no entry)
  int64_t repeats = 0;           // replies whose kernel was one already on record (ker0 copies included)
};

class KernelDb {
 public:
  // Opens (creating the file and its directory if needed) and migrates. Throws Error naming the file.
  static std::unique_ptr<KernelDb> open(const std::filesystem::path& file);
  // Opens an existing database read-only, exactly as it is (no migration, the file never written, also on
  // a read-only file system); every write throws Error. Throws ConfigError when its schema is older than
  // this eok's (it would need migrating).
  static std::unique_ptr<KernelDb> open_read_only(const std::filesystem::path& file);
  // For commands that only read (runs, leaderboard, kernels, show, report): open(), and when the database
  // exists but cannot be opened for writing (a read-only workspace, a file of another user), open_read_only().
  // A damaged or foreign file is reported as open() reports it.
  static std::unique_ptr<KernelDb> open_for_reading(const std::filesystem::path& file);
  virtual ~KernelDb() = default;

  // The schema version this eok writes (PRAGMA user_version).
  static int schema_version();

  virtual const std::filesystem::path& file() const = 0;

  // Runs every call that `body` makes on this database as one transaction: all of them persist or none
  // (an exception from `body` rolls back and propagates). Other threads wait meanwhile and other processes
  // cannot write, so keep `body` short: database calls only, never an evaluation or an LLM call.
  virtual void atomically(const std::function<void()>& body) = 0;

  // Runs. create_run throws Error when the id exists. update_run and save_run_progress set updated_at to
  // now and throw NotFoundError for an unknown run.
  virtual void create_run(const RunRecord& run) = 0;
  virtual void update_run(const std::string& run_id, RunState state, const std::string& summary_json) = 0;
  virtual void save_run_progress(const std::string& run_id, const std::string& progress_json) = 0;
  virtual std::optional<RunRecord> get_run(const std::string& run_id) = 0;
  virtual std::vector<RunRecord> list_runs(const std::string& task = "") = 0;  // newest first
  // What the run created: its kernels (ker0 not included), their evaluations, its LLM calls.
  virtual RunTotals run_totals(const std::string& run_id) = 0;

  // Kernels: insert returns the new id (k.id is ignored); the run and every parent must exist. find_*
  // return the earliest matching kernel; find_kernel("", hash) looks among the ker0 kernels.
  virtual int64_t insert_kernel(const KernelRecord& k) = 0;
  virtual std::optional<KernelRecord> get_kernel(int64_t id) = 0;
  virtual std::optional<KernelRecord> find_kernel(const std::string& run_id, const std::string& hash) = 0;
  virtual std::optional<KernelRecord> find_ker0(const std::string& task, const std::string& board) = 0;
  // The id of the ker0 of k.task and k.board with k.hash, inserting k (as op "ker0", no run) when there is
  // none. Atomic across processes, so two searches starting at once share one ker0. When ker0.c changes,
  // its new hash gets a new ker0 kernel; find_ker0 still returns the earliest.
  virtual int64_t ensure_ker0(const KernelRecord& k) = 0;

  // Evaluations: at most one per kernel (insert replaces); the kernel must exist.
  virtual void insert_evaluation(const EvaluationRecord& e) = 0;
  virtual std::optional<EvaluationRecord> get_evaluation(int64_t kernel_id) = 0;
  // The evaluation of any kernel with this normalised hash on this task and board (any run, the earliest
  // kernel first): reused so that the same kernel is never evaluated twice. infra_error evaluations are
  // skipped: they say nothing about the kernel. A non-empty `setup` takes only evaluations made under that
  // evaluator setup. kernel_id is that of the kernel that was evaluated.
  virtual std::optional<EvaluationRecord> find_evaluation_by_hash(const std::string& task, const std::string& board,
                                                                  const std::string& hash,
                                                                  const std::string& setup = "") = 0;

  // LLM calls: insert returns the new id. llm_calls lists a run's calls in the order they were recorded.
  virtual int64_t insert_llm_call(const LlmCallRecord& c) = 0;
  virtual void set_llm_call_kernel(int64_t call_id, int64_t kernel_id) = 0;
  virtual std::vector<LlmCallRecord> llm_calls(const std::string& run_id) = 0;
  virtual std::optional<LlmCallRecord> get_llm_call(int64_t id) = 0;

  // Idea effectiveness, in the order recorded.
  virtual void insert_idea_update(const IdeaUpdateRecord& u) = 0;
  virtual std::vector<IdeaUpdateRecord> idea_updates(const std::string& run_id) = 0;

  // Benches. create_bench throws Error when the id exists; set_bench_run records (or replaces) the run of
  // one task, before the run starts, so that a resumed bench finds it. bench_runs: task -> run id.
  virtual void create_bench(const BenchRecord& b) = 0;
  virtual void update_bench_state(const std::string& bench_id, BenchState state) = 0;
  virtual void set_bench_run(const std::string& bench_id, const std::string& task, const std::string& run_id) = 0;
  virtual std::optional<BenchRecord> get_bench(const std::string& bench_id) = 0;
  virtual std::vector<BenchRecord> list_benches() = 0;  // newest first
  virtual std::vector<std::pair<std::string, std::string>> bench_runs(const std::string& bench_id) = 0;

  // Review. kernels: the task's kernels of one run (every kernel of the task, ker0 included, when run_id is
  // empty), oldest first, with their evaluations.
  virtual std::vector<KernelRow> kernels(const std::string& task, const std::string& run_id = "") = 0;
  // Correct kernels (status ok, with cycles) of a run and the ker0 it started from, or of every run when
  // run_id is empty: fastest first, ties to the older kernel. limit 0 means no limit. This is the population
  // a search samples parents from.
  virtual std::vector<KernelRow> best_kernels(const std::string& task, const std::string& board,
                                              const std::string& run_id, size_t limit) = 0;
  // One row per (task, board) that has kernels, ordered by task and board; "" for every task.
  virtual std::vector<LeaderboardRow> leaderboard(const std::string& task = "") = 0;
};

}  // namespace eok::db
