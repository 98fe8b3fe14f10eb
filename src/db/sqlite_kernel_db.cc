#include "src/db/sqlite_kernel_db.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "src/common/error.h"
#include "src/common/log.h"
#include "src/db/migrations.h"
#include "src/db/record_columns.h"

namespace eok::db {

namespace {

using sqlite::Statement;
using Kind = sqlite::Transaction::Kind;

double now_unix_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

double or_now(double timestamp) {
  return timestamp != 0 ? timestamp : now_unix_seconds();
}

// run_id "" is stored as NULL so that ker0 (and calls outside any run) satisfy the foreign key.
std::optional<std::string> nullable(const std::string& run_id) {
  if (run_id.empty()) return std::nullopt;
  return run_id;
}

const std::filesystem::path& with_parent_directory(const std::filesystem::path& file) {
  if (file.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
    if (ec) {
      throw Error("cannot create the directory of the kernel database " + file.string() + ": " + ec.message());
    }
  }
  return file;
}

}  // namespace

SqliteKernelDb::SqliteKernelDb(const std::filesystem::path& file) : conn_(with_parent_directory(file)) {
  conn_.exec("PRAGMA foreign_keys = ON");
  // Before anything that writes: a newer or foreign file must stay exactly as it is.
  check_schema_compatible(conn_);
  // WAL: a reader (eok leaderboard) never blocks the search's writes, nor they it.
  const std::string mode = conn_.set_journal_mode("WAL");
  if (mode != "wal") {
    log::warn(
        "{}: the file system does not support SQLite's WAL mode (journal mode is '{}'): readers and the "
        "search will wait for each other",
        file.string(), mode);
  }
  // In WAL mode NORMAL keeps the file consistent through any crash; only power loss can undo the last commits.
  conn_.exec("PRAGMA synchronous = NORMAL");
  apply_migrations(conn_);
}

SqliteKernelDb::SqliteKernelDb(const std::filesystem::path& file, ReadOnly)
    : conn_(file, sqlite::Connection::Access::read_only) {
  const int version = check_schema_compatible(conn_);
  if (version < latest_schema_version()) {
    throw ConfigError(file.string() + " was written by an older eok (schema version " + std::to_string(version) +
                      ") and cannot be upgraded where it cannot be written: run any eok command once where the "
                      "workspace is writable, or copy it somewhere writable (EOK_HOME=DIR).");
  }
}

template <class Fn>
auto SqliteKernelDb::in_transaction(Kind kind, Fn&& fn) {
  std::lock_guard lock(mutex_);
  sqlite::Transaction tx(conn_, kind);
  if constexpr (std::is_void_v<std::invoke_result_t<Fn&>>) {
    fn();
    tx.commit();
  } else {
    auto result = fn();
    tx.commit();
    return result;
  }
}

std::string SqliteKernelDb::pragma(std::string_view name) {
  std::lock_guard lock(mutex_);
  return conn_.query_text("PRAGMA " + std::string(name));
}

void SqliteKernelDb::atomically(const std::function<void()>& body) {
  writing(body);
}

// ---- checks shared by the inserts ----

void SqliteKernelDb::require_run(const std::string& run_id, std::string_view needed_for) {
  if (run_id.empty()) return;
  Statement st(conn_, "SELECT 1 FROM runs WHERE id = ?1");
  st.bind(1, run_id);
  if (!st.step()) {
    throw NotFoundError("no run '" + run_id + "' in " + file().string() + ": create the run before " +
                        std::string(needed_for) + ".");
  }
}

void SqliteKernelDb::require_kernel(int64_t kernel_id, std::string_view needed_for) {
  Statement st(conn_, "SELECT 1 FROM kernels WHERE id = ?1");
  st.bind(1, kernel_id);
  if (!st.step()) {
    throw NotFoundError("no kernel " + std::to_string(kernel_id) + " in " + file().string() +
                        ": insert the kernel before " + std::string(needed_for) + ".");
  }
}

// ---- runs ----

void SqliteKernelDb::create_run(const RunRecord& run) {
  writing([&] {
    Statement exists(conn_, "SELECT 1 FROM runs WHERE id = ?1");
    exists.bind(1, run.id);
    if (exists.step()) {
      throw Error("a run '" + run.id + "' already exists in " + file().string() +
                  ": every run needs a new id (new_run_id).");
    }
    const double started_at = or_now(run.started_at);
    Statement st(conn_,
                 "INSERT INTO runs (id, task, board, state, method, config_json, seed, toolchain, model, "
                 "started_at, updated_at, summary_json, progress_json) "
                 "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)");
    st.bind_all(run.id, run.task, run.board, name_of(run.state), name_of(run.method), run.config_json, run.seed,
                run.toolchain, run.model, started_at, run.updated_at != 0 ? run.updated_at : started_at,
                run.summary_json, run.progress_json);
    st.run();
  });
}

void SqliteKernelDb::update_run(const std::string& run_id, RunState state, const std::string& summary_json) {
  writing([&] {
    Statement st(conn_, "UPDATE runs SET state = ?1, summary_json = ?2, updated_at = ?3 WHERE id = ?4");
    st.bind_all(name_of(state), summary_json, now_unix_seconds(), run_id);
    st.run();
    if (conn_.changes() == 0) throw NotFoundError("no run '" + run_id + "' in " + file().string() + " to update.");
  });
}

void SqliteKernelDb::save_run_progress(const std::string& run_id, const std::string& progress_json) {
  writing([&] {
    Statement st(conn_, "UPDATE runs SET progress_json = ?1, updated_at = ?2 WHERE id = ?3");
    st.bind_all(progress_json, now_unix_seconds(), run_id);
    st.run();
    if (conn_.changes() == 0) throw NotFoundError("no run '" + run_id + "' in " + file().string() + " to update.");
  });
}

std::optional<RunRecord> SqliteKernelDb::get_run(const std::string& run_id) {
  return reading([&]() -> std::optional<RunRecord> {
    Statement st(conn_, "SELECT " + run_columns("r") + " FROM runs r WHERE r.id = ?1");
    st.bind(1, run_id);
    if (!st.step()) return std::nullopt;
    return read_run(st);
  });
}

std::vector<RunRecord> SqliteKernelDb::list_runs(const std::string& task) {
  return reading([&] {
    Statement st(conn_, "SELECT " + run_columns("r") +
                            " FROM runs r WHERE ?1 = '' OR r.task = ?1 ORDER BY r.started_at DESC, r.id DESC");
    st.bind(1, task);
    std::vector<RunRecord> runs;
    while (st.step()) runs.push_back(read_run(st));
    return runs;
  });
}

namespace {

const char* kBenchColumns = "id, suite, method, label, board, tasks_json, settings_json, state, started_at, updated_at";

BenchRecord read_bench(const Statement& st) {
  BenchRecord b;
  b.id = st.column_text(0);
  b.suite = st.column_text(1);
  b.method = column_enum<SearchMethod>(st, 2, "benches.method of bench " + b.id);
  b.label = st.column_text(3);
  b.board = st.column_text(4);
  b.tasks = nlohmann::json::parse(st.column_text(5)).get<std::vector<std::string>>();
  b.settings_json = st.column_text(6);
  b.state = column_enum<BenchState>(st, 7, "benches.state of bench " + b.id);
  b.started_at = st.column_double(8);
  b.updated_at = st.column_double(9);
  return b;
}

}  // namespace

void SqliteKernelDb::create_bench(const BenchRecord& b) {
  writing([&] {
    Statement exists(conn_, "SELECT 1 FROM benches WHERE id = ?1");
    exists.bind(1, b.id);
    if (exists.step()) throw Error("a bench '" + b.id + "' already exists in " + file().string());
    const double started_at = or_now(b.started_at);
    Statement st(conn_, std::string("INSERT INTO benches (") + kBenchColumns +
                            ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
    st.bind_all(b.id, b.suite, name_of(b.method), b.label, b.board,
                nlohmann::json(b.tasks).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), b.settings_json,
                name_of(b.state), started_at, b.updated_at != 0 ? b.updated_at : started_at);
    st.run();
  });
}

void SqliteKernelDb::update_bench_state(const std::string& bench_id, BenchState state) {
  writing([&] {
    Statement st(conn_, "UPDATE benches SET state = ?1, updated_at = ?2 WHERE id = ?3");
    st.bind_all(name_of(state), now_unix_seconds(), bench_id);
    st.run();
    if (conn_.changes() == 0) throw NotFoundError("no bench '" + bench_id + "' in " + file().string() + " to update.");
  });
}

void SqliteKernelDb::set_bench_run(const std::string& bench_id, const std::string& task, const std::string& run_id) {
  writing([&] {
    Statement st(conn_, "INSERT OR REPLACE INTO bench_runs (bench_id, task, run_id) VALUES (?1, ?2, ?3)");
    st.bind_all(bench_id, task, run_id);
    st.run();
  });
}

std::optional<BenchRecord> SqliteKernelDb::get_bench(const std::string& bench_id) {
  return reading([&]() -> std::optional<BenchRecord> {
    Statement st(conn_, std::string("SELECT ") + kBenchColumns + " FROM benches WHERE id = ?1");
    st.bind(1, bench_id);
    if (!st.step()) return std::nullopt;
    return read_bench(st);
  });
}

std::vector<BenchRecord> SqliteKernelDb::list_benches() {
  return reading([&] {
    Statement st(conn_, std::string("SELECT ") + kBenchColumns + " FROM benches ORDER BY started_at DESC, id DESC");
    std::vector<BenchRecord> out;
    while (st.step()) out.push_back(read_bench(st));
    return out;
  });
}

std::vector<std::pair<std::string, std::string>> SqliteKernelDb::bench_runs(const std::string& bench_id) {
  return reading([&] {
    Statement st(conn_, "SELECT task, run_id FROM bench_runs WHERE bench_id = ?1 ORDER BY task");
    st.bind(1, bench_id);
    std::vector<std::pair<std::string, std::string>> out;
    while (st.step()) out.emplace_back(st.column_text(0), st.column_text(1));
    return out;
  });
}

RunTotals SqliteKernelDb::run_totals(const std::string& run_id) {
  return reading([&] {
    Statement st(
        conn_,
        "SELECT (SELECT count(*) FROM kernels WHERE run_id = ?1), "
        "       (SELECT count(*) FROM evaluations e JOIN kernels k ON k.id = e.kernel_id WHERE k.run_id = ?1), "
        "       count(*), total(c.ok = 0), total(c.cache_hit), total(c.prompt_tokens), total(c.completion_tokens), "
        "       total(c.cost), total(c.ok = 1 AND c.error != ''), "
        "       count(c.kernel_id) - count(DISTINCT CASE WHEN k.op != 'ker0' THEN c.kernel_id END) "
        "FROM llm_calls c LEFT JOIN kernels k ON k.id = c.kernel_id WHERE c.run_id = ?1");
    st.bind(1, run_id);
    st.step();  // an aggregate always returns one row
    RunTotals t;
    t.kernels = st.column_int64(0);
    t.evaluations = st.column_int64(1);
    t.llm_calls = st.column_int64(2);
    t.llm_failures = st.column_int64(3);
    t.cache_hits = st.column_int64(4);
    t.prompt_tokens = st.column_int64(5);
    t.completion_tokens = st.column_int64(6);
    t.cost = st.column_double(7);
    t.unusable_replies = st.column_int64(8);
    t.repeats = st.column_int64(9);
    return t;
  });
}

// ---- kernels ----

int64_t SqliteKernelDb::insert_kernel_locked(const KernelRecord& k) {
  require_run(k.run_id, "inserting its kernels");
  for (int64_t parent : k.parents) require_kernel(parent, "naming it as a parent");
  Statement st(conn_,
               "INSERT INTO kernels (run_id, task, board, hash, source, description, op, idea_id, thought_id, "
               "iteration, search, generation, created_at) "
               "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)");
  st.bind_all(nullable(k.run_id), k.task, k.board, k.hash, k.source, k.description, k.op, k.idea_id, k.thought_id,
              k.iteration, k.search, k.generation, or_now(k.created_at));
  st.run();
  const int64_t id = conn_.last_insert_rowid();
  Statement parent(conn_, "INSERT INTO kernel_parents (kernel_id, position, parent_id) VALUES (?1, ?2, ?3)");
  for (size_t position = 0; position < k.parents.size(); ++position) {
    parent.bind_all(id, static_cast<int64_t>(position), k.parents[position]);
    parent.run();
    parent.reset();
  }
  return id;
}

int64_t SqliteKernelDb::insert_kernel(const KernelRecord& k) {
  return writing([&] { return insert_kernel_locked(k); });
}

std::vector<int64_t> SqliteKernelDb::read_parents(int64_t kernel_id) {
  Statement st(conn_, "SELECT parent_id FROM kernel_parents WHERE kernel_id = ?1 ORDER BY position");
  st.bind(1, kernel_id);
  std::vector<int64_t> parents;
  while (st.step()) parents.push_back(st.column_int64(0));
  return parents;
}

std::optional<KernelRecord> SqliteKernelDb::query_one_kernel(std::string_view where_and_order,
                                                             const std::function<void(Statement&)>& bind) {
  Statement st(conn_, "SELECT " + kernel_columns("k") + " FROM kernels k " + std::string(where_and_order) + " LIMIT 1");
  bind(st);
  if (!st.step()) return std::nullopt;
  KernelRecord k = read_kernel(st);
  k.parents = read_parents(k.id);
  return k;
}

std::optional<KernelRecord> SqliteKernelDb::get_kernel(int64_t id) {
  return reading([&] { return query_one_kernel("WHERE k.id = ?1", [&](Statement& st) { st.bind(1, id); }); });
}

std::optional<KernelRecord> SqliteKernelDb::find_kernel(const std::string& run_id, const std::string& hash) {
  return reading([&] {
    // IS matches NULL to NULL, so run_id "" finds ker0 kernels.
    return query_one_kernel("WHERE k.run_id IS ?1 AND k.hash = ?2 ORDER BY k.id",
                            [&](Statement& st) { st.bind_all(nullable(run_id), hash); });
  });
}

std::optional<KernelRecord> SqliteKernelDb::find_ker0(const std::string& task, const std::string& board) {
  return reading([&] {
    return query_one_kernel("WHERE k.task = ?1 AND k.board = ?2 AND k.op = 'ker0' AND k.run_id IS NULL ORDER BY k.id",
                            [&](Statement& st) { st.bind_all(task, board); });
  });
}

int64_t SqliteKernelDb::ensure_ker0(const KernelRecord& k) {
  return writing([&] {
    Statement st(conn_,
                 "SELECT id FROM kernels WHERE task = ?1 AND board = ?2 AND hash = ?3 AND op = 'ker0' "
                 "AND run_id IS NULL ORDER BY id LIMIT 1");
    st.bind_all(k.task, k.board, k.hash);
    if (st.step()) return st.column_int64(0);
    KernelRecord ker0 = k;
    ker0.run_id.clear();
    ker0.op = "ker0";
    return insert_kernel_locked(ker0);
  });
}

// ---- evaluations ----

void SqliteKernelDb::insert_evaluation(const EvaluationRecord& e) {
  writing([&] {
    require_kernel(e.kernel_id, "its evaluation");
    Statement st(conn_,
                 "INSERT OR REPLACE INTO evaluations (kernel_id, status, message, evidence_json, cycles, "
                 "baseline_cycles, speedup, seed, seconds, setup, created_at) "
                 "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
    st.bind_all(e.kernel_id, status_name(e.status), e.message, e.evidence_json, e.cycles, e.baseline_cycles, e.speedup,
                e.seed, e.seconds, e.setup, or_now(e.created_at));
    st.run();
  });
}

std::optional<EvaluationRecord> SqliteKernelDb::get_evaluation(int64_t kernel_id) {
  return reading([&]() -> std::optional<EvaluationRecord> {
    Statement st(conn_, "SELECT " + evaluation_columns("e") + " FROM evaluations e WHERE e.kernel_id = ?1");
    st.bind(1, kernel_id);
    if (!st.step()) return std::nullopt;
    return read_evaluation(st);
  });
}

std::optional<EvaluationRecord> SqliteKernelDb::find_evaluation_by_hash(const std::string& task,
                                                                        const std::string& board,
                                                                        const std::string& hash,
                                                                        const std::string& setup) {
  return reading([&]() -> std::optional<EvaluationRecord> {
    Statement st(conn_, "SELECT " + evaluation_columns("e") +
                            " FROM kernels k JOIN evaluations e ON e.kernel_id = k.id "
                            "WHERE k.task = ?1 AND k.board = ?2 AND k.hash = ?3 AND e.status <> ?5 "
                            "AND (?4 = '' OR e.setup = ?4) ORDER BY k.id LIMIT 1");
    st.bind_all(task, board, hash, setup, status_name(EvalStatus::infra_error));
    if (!st.step()) return std::nullopt;
    return read_evaluation(st);
  });
}

// ---- LLM calls ----

int64_t SqliteKernelDb::insert_llm_call(const LlmCallRecord& c) {
  return writing([&] {
    require_run(c.run_id, "recording its LLM calls");
    if (c.kernel_id) require_kernel(*c.kernel_id, "naming it in an LLM call");
    Statement st(conn_,
                 "INSERT INTO llm_calls (run_id, kernel_id, op, request_hash, model, ok, error, prompt_tokens, "
                 "completion_tokens, latency_seconds, cost, cache_hit, attempts, retrieved_context, created_at, "
                 "messages_json, reply) "
                 "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)");
    st.bind_all(nullable(c.run_id), c.kernel_id, c.op, c.request_hash, c.model, c.ok, c.error, c.prompt_tokens,
                c.completion_tokens, c.latency_seconds, c.cost, c.cache_hit, c.attempts, c.retrieved_context,
                or_now(c.created_at), c.messages_json, c.reply);
    st.run();
    return conn_.last_insert_rowid();
  });
}

void SqliteKernelDb::set_llm_call_kernel(int64_t call_id, int64_t kernel_id) {
  writing([&] {
    require_kernel(kernel_id, "naming it in an LLM call");
    Statement st(conn_, "UPDATE llm_calls SET kernel_id = ?1 WHERE id = ?2");
    st.bind_all(kernel_id, call_id);
    st.run();
    if (conn_.changes() == 0) {
      throw NotFoundError("no LLM call " + std::to_string(call_id) + " in " + file().string() + " to update.");
    }
  });
}

std::vector<LlmCallRecord> SqliteKernelDb::llm_calls(const std::string& run_id) {
  return reading([&] {
    Statement st(conn_, "SELECT " + llm_call_columns("c") + " FROM llm_calls c WHERE c.run_id IS ?1 ORDER BY c.id");
    st.bind(1, nullable(run_id));
    std::vector<LlmCallRecord> calls;
    while (st.step()) calls.push_back(read_llm_call(st));
    return calls;
  });
}

std::optional<LlmCallRecord> SqliteKernelDb::get_llm_call(int64_t id) {
  return reading([&]() -> std::optional<LlmCallRecord> {
    Statement st(conn_, "SELECT " + llm_call_columns("c") + " FROM llm_calls c WHERE c.id = ?1");
    st.bind(1, id);
    if (!st.step()) return std::nullopt;
    return read_llm_call(st);
  });
}

// ---- idea updates ----

void SqliteKernelDb::insert_idea_update(const IdeaUpdateRecord& u) {
  writing([&] {
    require_run(u.run_id, "recording its idea updates");
    Statement st(conn_,
                 "INSERT INTO idea_updates (run_id, iteration, idea_id, effectiveness_before, effectiveness_after, "
                 "samples, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    st.bind_all(nullable(u.run_id), u.iteration, u.idea_id, u.before, u.after, u.samples, or_now(u.created_at));
    st.run();
  });
}

std::vector<IdeaUpdateRecord> SqliteKernelDb::idea_updates(const std::string& run_id) {
  return reading([&] {
    Statement st(conn_,
                 "SELECT " + idea_update_columns("u") + " FROM idea_updates u WHERE u.run_id IS ?1 ORDER BY u.id");
    st.bind(1, nullable(run_id));
    std::vector<IdeaUpdateRecord> updates;
    while (st.step()) updates.push_back(read_idea_update(st));
    return updates;
  });
}

// ---- review ----

// Rows of "SELECT <kernel columns>, <evaluation columns> ... LEFT JOIN evaluations": the evaluation is
// absent when its kernel_id column is NULL.
std::vector<KernelRow> SqliteKernelDb::read_kernel_rows(Statement& st) {
  std::vector<KernelRow> rows;
  while (st.step()) {
    KernelRow row;
    row.kernel = read_kernel(st);
    if (!st.is_null(kKernelColumnCount)) row.evaluation = read_evaluation(st, kKernelColumnCount);
    rows.push_back(std::move(row));
  }
  Statement parents(conn_, "SELECT parent_id FROM kernel_parents WHERE kernel_id = ?1 ORDER BY position");
  for (KernelRow& row : rows) {
    parents.bind(1, row.kernel.id);
    while (parents.step()) row.kernel.parents.push_back(parents.column_int64(0));
    parents.reset();
  }
  return rows;
}

std::vector<KernelRow> SqliteKernelDb::kernels(const std::string& task, const std::string& run_id) {
  return reading([&] {
    Statement st(conn_, "SELECT " + kernel_columns("k") + ", " + evaluation_columns("e") +
                            " FROM kernels k LEFT JOIN evaluations e ON e.kernel_id = k.id "
                            "WHERE k.task = ?1 AND (?2 = '' OR k.run_id = ?2) ORDER BY k.id");
    st.bind_all(task, run_id);
    return read_kernel_rows(st);
  });
}

std::vector<KernelRow> SqliteKernelDb::best_kernels(const std::string& task, const std::string& board,
                                                    const std::string& run_id, size_t limit) {
  return reading([&] {
    Statement st(conn_, "SELECT " + kernel_columns("k") + ", " + evaluation_columns("e") +
                            " FROM kernels k JOIN evaluations e ON e.kernel_id = k.id "
                            "WHERE k.task = ?1 AND k.board = ?2 AND e.status = ?5 AND e.cycles IS NOT NULL "
                            "AND (?3 = '' OR k.run_id = ?3 OR k.run_id IS NULL) "
                            "ORDER BY e.cycles, k.id LIMIT ?4");
    // LIMIT -1 is SQLite's "no limit".
    st.bind_all(task, board, run_id, limit == 0 ? int64_t{-1} : static_cast<int64_t>(limit),
                status_name(EvalStatus::ok));
    return read_kernel_rows(st);
  });
}

std::vector<LeaderboardRow> SqliteKernelDb::leaderboard(const std::string& task) {
  return reading([&] {
    // The best correct kernel of each (task, board), and the earliest ker0's cycles for evaluations that
    // did not record their baseline.
    Statement best(conn_,
                   "WITH groups AS (SELECT DISTINCT task, board FROM kernels WHERE ?1 = '' OR task = ?1), "
                   "ranked AS ("
                   "  SELECT k.task, k.board, k.id, k.run_id, e.cycles, e.baseline_cycles, e.speedup, "
                   "         row_number() OVER (PARTITION BY k.task, k.board ORDER BY e.cycles, k.id) AS rank "
                   "  FROM kernels k JOIN evaluations e ON e.kernel_id = k.id "
                   "  WHERE e.status = ?2 AND e.cycles IS NOT NULL AND (?1 = '' OR k.task = ?1)), "
                   "ker0 AS ("
                   "  SELECT k.task, k.board, e.cycles, "
                   "         row_number() OVER (PARTITION BY k.task, k.board ORDER BY k.id) AS rank "
                   "  FROM kernels k JOIN evaluations e ON e.kernel_id = k.id "
                   "  WHERE k.op = 'ker0' AND k.run_id IS NULL AND e.status = ?2 AND e.cycles IS NOT NULL "
                   "    AND (?1 = '' OR k.task = ?1)) "
                   "SELECT g.task, g.board, r.id, r.run_id, r.cycles, r.baseline_cycles, r.speedup, b.cycles "
                   "FROM groups g "
                   "LEFT JOIN ranked r ON r.task = g.task AND r.board = g.board AND r.rank = 1 "
                   "LEFT JOIN ker0 b ON b.task = g.task AND b.board = g.board AND b.rank = 1 "
                   "ORDER BY g.task, g.board");
    best.bind_all(task, status_name(EvalStatus::ok));
    std::vector<LeaderboardRow> rows;
    std::map<std::pair<std::string, std::string>, size_t> row_of;
    while (best.step()) {
      LeaderboardRow row;
      row.task = best.column_text(0);
      row.board = best.column_text(1);
      if (!best.is_null(2)) {
        row.best_kernel_id = best.column_int64(2);
        row.best_run_id = best.column_text(3);
        row.best_cycles = best.column_double(4);
        row.baseline_cycles = best.column_optional_double(5).value_or(best.column_optional_double(7).value_or(0));
        const std::optional<double> speedup = best.column_optional_double(6);
        if (speedup) {
          row.best_speedup = *speedup;
        } else if (row.baseline_cycles > 0 && row.best_cycles > 0) {
          row.best_speedup = row.baseline_cycles / row.best_cycles;
        }
      }
      row_of[{row.task, row.board}] = rows.size();
      rows.push_back(std::move(row));
    }

    Statement counts(
        conn_,
        "SELECT k.task, k.board, e.status, count(*) FROM kernels k JOIN evaluations e ON e.kernel_id = k.id "
        "WHERE ?1 = '' OR k.task = ?1 GROUP BY k.task, k.board, e.status");
    counts.bind(1, task);
    while (counts.step()) {
      const auto it = row_of.find({counts.column_text(0), counts.column_text(1)});
      if (it == row_of.end()) continue;  // cannot happen: every counted kernel belongs to a group
      const EvalStatus status = column_enum<EvalStatus>(
          counts, 2, "evaluations.status of a kernel of " + counts.column_text(0) + " on " + counts.column_text(1));
      rows[it->second].counts_by_status.emplace_back(status, counts.column_int64(3));
    }
    for (LeaderboardRow& row : rows) std::sort(row.counts_by_status.begin(), row.counts_by_status.end());
    return rows;
  });
}

}  // namespace eok::db
