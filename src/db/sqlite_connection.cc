#include "src/db/sqlite_connection.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <thread>

#include "src/common/error.h"
#include "src/common/log.h"

namespace eok::db::sqlite {

namespace {

// Long enough for another eok to finish any single transaction (they are all short), short enough that a
// stuck process is reported instead of hanging the user's command.
constexpr int kBusyTimeoutMs = 10000;

std::string savepoint_name(int level) {
  return "eok_savepoint_" + std::to_string(level);
}

}  // namespace

Connection::Connection(const std::filesystem::path& file, Access access) : file_(file) {
  if (access == Access::read_only) {
    open_read_only();
  } else {
    // NOMUTEX: the owner serialises every use of the connection.
    const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
    const int rc = sqlite3_open_v2(file.c_str(), &db_, flags, nullptr);
    if (rc != SQLITE_OK) {
      const std::string reason = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
      sqlite3_close_v2(db_);
      db_ = nullptr;
      throw Error("cannot open the kernel database " + file.string() + ": " + reason +
                  ". Check that its directory exists and is writable.");
    }
  }
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_timeout(db_, kBusyTimeoutMs);
}

void Connection::open_read_only() {
  // A URI, so that the file can be opened read-only even where SQLite could not create its WAL index
  // (-shm): `immutable` is tried second, for a file on a read-only file system that nobody can change.
  std::string path;
  for (const char c : file_.string()) {
    if (c == '%' || c == '?' || c == '#') {
      char esc[4];
      std::snprintf(esc, sizeof esc, "%%%02X", static_cast<unsigned char>(c));
      path += esc;
    } else {
      path += c;
    }
  }
  std::string reason;
  for (const char* options : {"?mode=ro", "?mode=ro&immutable=1"}) {
    const std::string uri = "file:" + path + options;
    const int rc =
        sqlite3_open_v2(uri.c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
    // The open is lazy: the first read is where a missing WAL index shows.
    if (rc == SQLITE_OK && sqlite3_exec(db_, "PRAGMA schema_version", nullptr, nullptr, nullptr) == SQLITE_OK) return;
    reason = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close_v2(db_);
    db_ = nullptr;
  }
  throw Error("cannot open the kernel database " + file_.string() + " to read it: " + reason +
              ". Check that it exists and is readable.");
}

Connection::~Connection() {
  // v2 defers the close until every statement is finalised instead of failing.
  if (db_ != nullptr) sqlite3_close_v2(db_);
}

void Connection::exec(std::string_view sql) {
  const std::string text(sql);
  const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) fail(rc, "running '" + text.substr(0, 60) + "'");
}

int64_t Connection::query_int(std::string_view sql) {
  Statement st(*this, sql);
  if (!st.step()) throw Error(file_.string() + ": '" + std::string(sql) + "' returned no row");
  return st.column_int64(0);
}

std::string Connection::query_text(std::string_view sql) {
  Statement st(*this, sql);
  if (!st.step()) throw Error(file_.string() + ": '" + std::string(sql) + "' returned no row");
  return st.column_text(0);
}

std::string Connection::set_journal_mode(std::string_view mode) {
  const std::string sql = "PRAGMA journal_mode = " + std::string(mode);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kBusyTimeoutMs);
  auto pause = std::chrono::milliseconds(1);
  for (;;) {
    sqlite3_stmt* stmt = nullptr;
    int rc = sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr);
    std::string result;
    if (rc == SQLITE_OK) {
      rc = sqlite3_step(stmt);
      if (rc == SQLITE_ROW) result = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    }
    sqlite3_finalize(stmt);
    if (rc == SQLITE_ROW) return result;
    if ((rc & 0xff) != SQLITE_BUSY || std::chrono::steady_clock::now() >= deadline) fail(rc, "setting " + sql);
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(50));
  }
}

int64_t Connection::last_insert_rowid() const {
  return sqlite3_last_insert_rowid(db_);
}

int64_t Connection::changes() const {
  return sqlite3_changes64(db_);
}

void Connection::fail(int rc, std::string_view doing) const {
  const std::string file = file_.string();
  const std::string detail = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
  const std::string where = file + ": " + std::string(doing) + " failed: " + detail;
  switch (rc & 0xff) {  // the primary code; the extended code only refines it
    case SQLITE_NOTADB:
      throw CorruptDataError(file +
                             " is not a SQLite database, so it cannot be eok's kernel database. "
                             "Move it away or point eok at another database file.");
    case SQLITE_CORRUPT:
      throw CorruptDataError(where +
                             ". The kernel database is damaged: restore a backup, or move it away "
                             "(with its -wal and -shm files) so that eok starts a new one.");
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      throw Error(where + ". Another process held the database's write lock for over " +
                  std::to_string(kBusyTimeoutMs / 1000) + " s: wait for it to finish, or stop it.");
    case SQLITE_FULL:
      throw StorageError(where + ". The disk is full: free some space and run again.");
    case SQLITE_READONLY:
    case SQLITE_PERM:
    case SQLITE_CANTOPEN:
      throw Error(where + ". Check that the file and its directory are writable by you.");
    case SQLITE_IOERR:
      throw StorageError(where + ". The file system reported an I/O error: check the disk.");
    default:
      throw Error(where);
  }
}

Statement::Statement(Connection& conn, std::string_view sql) : conn_(conn) {
  const int rc = sqlite3_prepare_v2(conn.handle(), sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr);
  if (rc != SQLITE_OK) conn.fail(rc, "preparing '" + std::string(sql.substr(0, 60)) + "'");
  if (stmt_ == nullptr) throw std::logic_error("empty SQL statement");
}

Statement::~Statement() {
  sqlite3_finalize(stmt_);
}

Statement& Statement::bind(int index, int64_t value) {
  const int rc = sqlite3_bind_int64(stmt_, index, value);
  if (rc != SQLITE_OK) conn_.fail(rc, "binding parameter " + std::to_string(index));
  return *this;
}

Statement& Statement::bind(int index, double value) {
  const int rc = sqlite3_bind_double(stmt_, index, value);
  if (rc != SQLITE_OK) conn_.fail(rc, "binding parameter " + std::to_string(index));
  return *this;
}

Statement& Statement::bind(int index, std::string_view value) {
  const int rc = sqlite3_bind_text64(stmt_, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  if (rc != SQLITE_OK) conn_.fail(rc, "binding parameter " + std::to_string(index));
  return *this;
}

Statement& Statement::bind_null(int index) {
  const int rc = sqlite3_bind_null(stmt_, index);
  if (rc != SQLITE_OK) conn_.fail(rc, "binding parameter " + std::to_string(index));
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  const std::string sql = sqlite3_sql(stmt_);
  conn_.fail(rc, "running '" + sql.substr(0, 60) + "'");
}

void Statement::run() {
  while (step()) {
  }
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

bool Statement::is_null(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

int64_t Statement::column_int64(int column) const {
  return sqlite3_column_int64(stmt_, column);
}

double Statement::column_double(int column) const {
  return sqlite3_column_double(stmt_, column);
}

std::string Statement::column_text(int column) const {
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
  if (text == nullptr) return {};
  return std::string(text, static_cast<size_t>(sqlite3_column_bytes(stmt_, column)));
}

std::optional<double> Statement::column_optional_double(int column) const {
  if (is_null(column)) return std::nullopt;
  return column_double(column);
}

std::optional<int64_t> Statement::column_optional_int64(int column) const {
  if (is_null(column)) return std::nullopt;
  return column_int64(column);
}

Transaction::Transaction(Connection& conn, Kind kind) : conn_(conn), level_(conn.depth_) {
  if (level_ == 0) {
    conn_.exec(kind == Kind::write ? "BEGIN IMMEDIATE" : "BEGIN");
    conn_.outer_is_write_ = kind == Kind::write;
  } else {
    // A read transaction cannot be upgraded safely (another writer may have moved on): writers start outermost.
    if (kind == Kind::write && !conn_.outer_is_write_) {
      throw std::logic_error("a write transaction nested inside a read transaction");
    }
    conn_.exec("SAVEPOINT " + savepoint_name(level_));
  }
  ++conn_.depth_;
}

Transaction::~Transaction() {
  if (open_) rollback();
}

void Transaction::commit() {
  if (!open_) throw std::logic_error("transaction committed twice");
  conn_.exec(level_ == 0 ? std::string("COMMIT") : "RELEASE " + savepoint_name(level_));
  open_ = false;
  --conn_.depth_;
}

void Transaction::rollback() noexcept {
  open_ = false;
  --conn_.depth_;
  // SQLite may already have rolled back by itself (disk full, I/O error): then there is nothing left to undo.
  if (sqlite3_get_autocommit(conn_.handle()) != 0) return;
  const std::string sql = level_ == 0 ? std::string("ROLLBACK")
                                      : "ROLLBACK TO " + savepoint_name(level_) + "; RELEASE " + savepoint_name(level_);
  if (sqlite3_exec(conn_.handle(), sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) {
    log::warn("{}: rollback failed: {}", conn_.file().string(), sqlite3_errmsg(conn_.handle()));
  }
}

}  // namespace eok::db::sqlite
