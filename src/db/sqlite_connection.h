// A thin RAII layer over the SQLite C API: a connection, prepared statements with typed binding, and
// transactions that nest (savepoints). Every failure throws an eok::Error that names the database file and
// says what to do; nothing here knows eok's schema.
//
// Not thread-safe by itself: the owner serialises access (SqliteKernelDb holds one mutex).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace eok::db::sqlite {

class Connection {
 public:
  enum class Access { read_write, read_only };
  // read_write: opens or creates `file` for reading and writing; the parent directory must exist.
  // read_only: opens an existing `file` without ever writing to it, also where nothing can be written (a
  // read-only file system, a WAL database whose -shm index cannot be made): browsing only. Where the
  // directory is writable SQLite may still make its -wal/-shm files beside it, as for any reader.
  explicit Connection(const std::filesystem::path& file, Access access = Access::read_write);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  const std::filesystem::path& file() const { return file_; }
  sqlite3* handle() const { return db_; }

  // Runs one or more statements that return no rows (schema scripts, pragmas that set).
  void exec(std::string_view sql);
  // The first column of the first row of a one-row query ("PRAGMA user_version").
  int64_t query_int(std::string_view sql);
  std::string query_text(std::string_view sql);

  // Sets PRAGMA journal_mode and returns the mode in effect. The switch needs the file to itself, and SQLite
  // reports "busy" at once instead of waiting when others hold it: retried here up to the busy timeout.
  std::string set_journal_mode(std::string_view mode);

  int64_t last_insert_rowid() const;
  int64_t changes() const;  // rows touched by the last INSERT, UPDATE or DELETE

  // Throws the eok::Error that fits SQLite's result code `rc`; `doing` says what was attempted.
  [[noreturn]] void fail(int rc, std::string_view doing) const;

  // Transaction depth, maintained by Transaction.
  int depth() const { return depth_; }

 private:
  friend class Transaction;
  void open_read_only();
  std::filesystem::path file_;
  sqlite3* db_ = nullptr;
  int depth_ = 0;
  bool outer_is_write_ = false;
};

// A prepared statement. Parameters are numbered from 1, columns from 0, as in SQLite.
class Statement {
 public:
  Statement(Connection& conn, std::string_view sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int index, int64_t value);
  Statement& bind(int index, int value) { return bind(index, static_cast<int64_t>(value)); }
  // SQLite stores 64-bit signed integers: a uint64_t keeps its bits (values >= 2^63 read back negative in
  // the sqlite3 shell, and exactly through column_uint64).
  Statement& bind(int index, uint64_t value) { return bind(index, static_cast<int64_t>(value)); }
  Statement& bind(int index, bool value) { return bind(index, static_cast<int64_t>(value ? 1 : 0)); }
  Statement& bind(int index, double value);
  Statement& bind(int index, std::string_view value);
  Statement& bind(int index, const std::string& value) { return bind(index, std::string_view(value)); }
  Statement& bind(int index, const char* value) { return bind(index, std::string_view(value)); }
  Statement& bind_null(int index);
  template <class T>
  Statement& bind(int index, const std::optional<T>& value) {
    return value ? bind(index, *value) : bind_null(index);
  }

  // Binds every argument in order, from parameter 1.
  template <class... Args>
  Statement& bind_all(const Args&... args) {
    int index = 0;
    (bind(++index, args), ...);
    return *this;
  }

  // Advances to the next row: true when a row is ready, false when done.
  bool step();
  // Steps to the end, for statements that return no rows.
  void run();
  // Makes the statement ready to run again with new bindings.
  void reset();

  bool is_null(int column) const;
  int64_t column_int64(int column) const;
  int column_int(int column) const { return static_cast<int>(column_int64(column)); }
  uint64_t column_uint64(int column) const { return static_cast<uint64_t>(column_int64(column)); }
  bool column_bool(int column) const { return column_int64(column) != 0; }
  double column_double(int column) const;
  std::string column_text(int column) const;  // "" for NULL
  std::optional<double> column_optional_double(int column) const;
  std::optional<int64_t> column_optional_int64(int column) const;

  const std::filesystem::path& database_file() const { return conn_.file(); }

 private:
  Connection& conn_;
  sqlite3_stmt* stmt_ = nullptr;
};

// A transaction that commits only when commit() is called and rolls back otherwise (an exception).
// The outermost one issues BEGIN; inner ones are savepoints, so an inner failure that the caller catches
// undoes only its own work. Writers begin IMMEDIATE: they take the write lock up front (waiting up to the
// busy timeout) instead of failing halfway when another process writes first.
class Transaction {
 public:
  enum class Kind { read, write };
  Transaction(Connection& conn, Kind kind);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  void rollback() noexcept;
  Connection& conn_;
  int level_;  // 0 for the outermost
  bool open_ = true;
};

}  // namespace eok::db::sqlite
