// KernelDb on one SQLite file: one connection guarded by one mutex; every public method is one transaction.
// The schema is in migrations.cc, the column lists and row readers in record_columns.cc.
#pragma once

#include <filesystem>
#include <mutex>
#include <string>
#include <string_view>

#include "src/db/kernel_db.h"
#include "src/db/sqlite_connection.h"

namespace eok::db {

class SqliteKernelDb final : public KernelDb {
 public:
  // Opens or creates `file`, refuses files it must not touch, switches to WAL and migrates.
  explicit SqliteKernelDb(const std::filesystem::path& file);
  // Opens an existing `file` read-only, as it is (KernelDb::open_read_only); every write throws.
  struct ReadOnly {};
  SqliteKernelDb(const std::filesystem::path& file, ReadOnly);

  const std::filesystem::path& file() const override { return conn_.file(); }
  // The value of a PRAGMA on this connection ("journal_mode", "foreign_keys", "busy_timeout"), as text:
  // for `eok doctor` and tests.
  std::string pragma(std::string_view name);
  void atomically(const std::function<void()>& body) override;

  void create_run(const RunRecord& run) override;
  void update_run(const std::string& run_id, RunState state, const std::string& summary_json) override;
  void save_run_progress(const std::string& run_id, const std::string& progress_json) override;
  std::optional<RunRecord> get_run(const std::string& run_id) override;
  std::vector<RunRecord> list_runs(const std::string& task) override;
  RunTotals run_totals(const std::string& run_id) override;

  int64_t insert_kernel(const KernelRecord& k) override;
  std::optional<KernelRecord> get_kernel(int64_t id) override;
  std::optional<KernelRecord> find_kernel(const std::string& run_id, const std::string& hash) override;
  std::optional<KernelRecord> find_ker0(const std::string& task, const std::string& board) override;
  int64_t ensure_ker0(const KernelRecord& k) override;

  void insert_evaluation(const EvaluationRecord& e) override;
  std::optional<EvaluationRecord> get_evaluation(int64_t kernel_id) override;
  std::optional<EvaluationRecord> find_evaluation_by_hash(const std::string& task, const std::string& board,
                                                          const std::string& hash, const std::string& setup) override;

  int64_t insert_llm_call(const LlmCallRecord& c) override;
  void set_llm_call_kernel(int64_t call_id, int64_t kernel_id) override;
  std::vector<LlmCallRecord> llm_calls(const std::string& run_id) override;
  std::optional<LlmCallRecord> get_llm_call(int64_t id) override;

  void insert_idea_update(const IdeaUpdateRecord& u) override;
  std::vector<IdeaUpdateRecord> idea_updates(const std::string& run_id) override;

  void create_bench(const BenchRecord& b) override;
  void update_bench_state(const std::string& bench_id, BenchState state) override;
  void set_bench_run(const std::string& bench_id, const std::string& task, const std::string& run_id) override;
  std::optional<BenchRecord> get_bench(const std::string& bench_id) override;
  std::vector<BenchRecord> list_benches() override;
  std::vector<std::pair<std::string, std::string>> bench_runs(const std::string& bench_id) override;

  std::vector<KernelRow> kernels(const std::string& task, const std::string& run_id) override;
  std::vector<KernelRow> best_kernels(const std::string& task, const std::string& board, const std::string& run_id,
                                      size_t limit) override;
  std::vector<LeaderboardRow> leaderboard(const std::string& task) override;

 private:
  // Runs `fn` under the mutex inside a transaction of `kind`, committing when it returns.
  template <class Fn>
  auto in_transaction(sqlite::Transaction::Kind kind, Fn&& fn);
  template <class Fn>
  auto reading(Fn&& fn) {
    return in_transaction(sqlite::Transaction::Kind::read, std::forward<Fn>(fn));
  }
  template <class Fn>
  auto writing(Fn&& fn) {
    return in_transaction(sqlite::Transaction::Kind::write, std::forward<Fn>(fn));
  }

  // Helpers that expect the mutex held and a transaction open.
  int64_t insert_kernel_locked(const KernelRecord& k);
  void require_run(const std::string& run_id, std::string_view needed_for);
  void require_kernel(int64_t kernel_id, std::string_view needed_for);
  std::optional<KernelRecord> query_one_kernel(std::string_view where_and_order,
                                               const std::function<void(sqlite::Statement&)>& bind);
  std::vector<int64_t> read_parents(int64_t kernel_id);
  std::vector<KernelRow> read_kernel_rows(sqlite::Statement& st);

  // Recursive: atomically() holds it while its body calls the public methods.
  std::recursive_mutex mutex_;
  sqlite::Connection conn_;
};

}  // namespace eok::db
