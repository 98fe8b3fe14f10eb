#include "src/db/migrations.h"

#include <string>

#include "src/common/error.h"
#include "src/common/log.h"

namespace eok::db {

namespace {

// Version 1: runs, kernels (parents in a join table), one evaluation per kernel, LLM calls, idea updates.
// A ker0 kernel has run_id NULL: it is shared by every run of its task and board.
constexpr std::string_view kInitialSchema = R"sql(
PRAGMA application_id = 1162824516;

CREATE TABLE runs (
  id            TEXT PRIMARY KEY NOT NULL,
  task          TEXT NOT NULL,
  board         TEXT NOT NULL,
  state         TEXT NOT NULL,
  method        TEXT NOT NULL,
  config_json   TEXT NOT NULL,
  seed          INTEGER NOT NULL,
  toolchain     TEXT NOT NULL,
  model         TEXT NOT NULL,
  started_at    REAL NOT NULL,
  updated_at    REAL NOT NULL,
  summary_json  TEXT NOT NULL,
  progress_json TEXT NOT NULL
);
CREATE INDEX runs_by_task ON runs(task, started_at);

CREATE TABLE kernels (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id      TEXT REFERENCES runs(id) ON DELETE CASCADE,
  task        TEXT NOT NULL,
  board       TEXT NOT NULL,
  hash        TEXT NOT NULL,
  source      TEXT NOT NULL,
  description TEXT NOT NULL,
  op          TEXT NOT NULL,
  idea_id     TEXT NOT NULL,
  thought_id  TEXT NOT NULL,
  iteration   INTEGER NOT NULL,
  search      INTEGER NOT NULL,
  generation  INTEGER NOT NULL,
  created_at  REAL NOT NULL
);
CREATE INDEX kernels_by_hash ON kernels(task, board, hash);
CREATE INDEX kernels_by_run ON kernels(run_id);

CREATE TABLE kernel_parents (
  kernel_id INTEGER NOT NULL REFERENCES kernels(id) ON DELETE CASCADE,
  position  INTEGER NOT NULL,
  parent_id INTEGER NOT NULL REFERENCES kernels(id),
  PRIMARY KEY (kernel_id, position)
) WITHOUT ROWID;
CREATE INDEX kernel_parents_by_parent ON kernel_parents(parent_id);

CREATE TABLE evaluations (
  kernel_id       INTEGER PRIMARY KEY REFERENCES kernels(id) ON DELETE CASCADE,
  status          TEXT NOT NULL,
  message         TEXT NOT NULL,
  evidence_json   TEXT NOT NULL,
  cycles          REAL,
  baseline_cycles REAL,
  speedup         REAL,
  seed            INTEGER NOT NULL,
  seconds         REAL NOT NULL,
  setup           TEXT NOT NULL,
  created_at      REAL NOT NULL
);
CREATE INDEX evaluations_by_status ON evaluations(status);

CREATE TABLE llm_calls (
  id                INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id            TEXT REFERENCES runs(id) ON DELETE CASCADE,
  kernel_id         INTEGER REFERENCES kernels(id) ON DELETE SET NULL,
  op                TEXT NOT NULL,
  request_hash      TEXT NOT NULL,
  model             TEXT NOT NULL,
  ok                INTEGER NOT NULL,
  error             TEXT NOT NULL,
  prompt_tokens     INTEGER NOT NULL,
  completion_tokens INTEGER NOT NULL,
  latency_seconds   REAL NOT NULL,
  cost              REAL NOT NULL,
  cache_hit         INTEGER NOT NULL,
  attempts          INTEGER NOT NULL,
  retrieved_context TEXT NOT NULL,
  created_at        REAL NOT NULL
);
CREATE INDEX llm_calls_by_run ON llm_calls(run_id);
CREATE INDEX llm_calls_by_kernel ON llm_calls(kernel_id);

CREATE TABLE idea_updates (
  id                   INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id               TEXT REFERENCES runs(id) ON DELETE CASCADE,
  iteration            INTEGER NOT NULL,
  idea_id              TEXT NOT NULL,
  effectiveness_before REAL NOT NULL,
  effectiveness_after  REAL NOT NULL,
  samples              INTEGER NOT NULL,
  created_at           REAL NOT NULL
);
CREATE INDEX idea_updates_by_run ON idea_updates(run_id, iteration);
)sql";

// Version 2: benches (eok bench run): one per suite, method and settings, with the run of each task.
constexpr std::string_view kBenches = R"sql(
CREATE TABLE benches (
  id            TEXT PRIMARY KEY NOT NULL,
  suite         TEXT NOT NULL,
  method        TEXT NOT NULL,
  label         TEXT NOT NULL,
  board         TEXT NOT NULL,
  tasks_json    TEXT NOT NULL,
  settings_json TEXT NOT NULL,
  state         TEXT NOT NULL,
  started_at    REAL NOT NULL,
  updated_at    REAL NOT NULL
);
CREATE INDEX benches_by_label ON benches(label, started_at);

CREATE TABLE bench_runs (
  bench_id TEXT NOT NULL REFERENCES benches(id) ON DELETE CASCADE,
  task     TEXT NOT NULL,
  run_id   TEXT NOT NULL,
  PRIMARY KEY (bench_id, task)
) WITHOUT ROWID;
)sql";

// Version 3: what each LLM call sent and received, for review (eok show --call N). Calls recorded
// before it show "" for both.
constexpr std::string_view kLlmCallTexts = R"sql(
ALTER TABLE llm_calls ADD COLUMN messages_json TEXT NOT NULL DEFAULT '';
ALTER TABLE llm_calls ADD COLUMN reply TEXT NOT NULL DEFAULT '';
)sql";

static_assert(kApplicationId == 1162824516, "the initial schema spells the application id out");

int read_user_version(sqlite::Connection& conn) {
  return static_cast<int>(conn.query_int("PRAGMA user_version"));
}

}  // namespace

const std::vector<Migration>& migrations() {
  static const std::vector<Migration> all = {
      {1, "initial schema", kInitialSchema},
      {2, "benches", kBenches},
      {3, "LLM call prompts and replies", kLlmCallTexts},
  };
  return all;
}

int latest_schema_version() {
  return migrations().back().version;
}

int check_schema_compatible(sqlite::Connection& conn) {
  const std::string file = conn.file().string();
  // The first read of the header: this is where a file that is not a database fails (SQLITE_NOTADB). One
  // read transaction, so that another process migrating at the same moment is seen before or after, whole.
  sqlite::Transaction tx(conn, sqlite::Transaction::Kind::read);
  const int64_t application_id = conn.query_int("PRAGMA application_id");
  const int version = read_user_version(conn);
  tx.commit();
  const bool blank = application_id == 0 && version == 0;  // new, or made by hand before any migration
  if (!blank && application_id != kApplicationId) {
    throw CorruptDataError(file + " is a SQLite database of another program (application id " +
                           std::to_string(application_id) + ", schema version " + std::to_string(version) +
                           "), not an eok kernel database. Point eok at another file; eok leaves this one alone.");
  }
  if (version > latest_schema_version()) {
    throw ConfigError(file + " was written by a newer eok (schema version " + std::to_string(version) +
                      "; this eok knows versions up to " + std::to_string(latest_schema_version()) +
                      "). Upgrade eok to use it, or point eok at another database file. The file was not changed.");
  }
  return version;
}

void apply_migrations(sqlite::Connection& conn) {
  for (const Migration& m : migrations()) {
    if (read_user_version(conn) >= m.version) continue;
    sqlite::Transaction tx(conn, sqlite::Transaction::Kind::write);
    // Another process may have migrated while this one waited for the write lock.
    if (read_user_version(conn) >= m.version) continue;
    log::debug("{}: migrating the kernel database to schema version {} ({})", conn.file().string(), m.version, m.name);
    conn.exec(m.sql);
    conn.exec("PRAGMA user_version = " + std::to_string(m.version));
    tx.commit();
  }
}

}  // namespace eok::db
