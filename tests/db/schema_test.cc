// Opening a file: migrations from an older version, refusal of files eok must not touch, and the
// connection settings that let several processes share the file.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <thread>

#include "src/common/error.h"
#include "src/db/migrations.h"
#include "src/db/sqlite_connection.h"
#include "src/db/sqlite_kernel_db.h"
#include "tests/db/db_test_support.h"

namespace eok::db::testing {
namespace {

using SchemaTest = DbTest;

std::set<std::string> table_names(sqlite::Connection& conn) {
  sqlite::Statement st(conn, "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
  std::set<std::string> names;
  while (st.step()) names.insert(st.column_text(0));
  return names;
}

std::string file_bytes(const fs::path& file) {
  return read_file(file);
}

template <class Fn>
std::string error_message(Fn&& fn) {
  try {
    fn();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(Migrations, AreNumberedFromOneWithoutGaps) {
  const std::vector<Migration>& all = migrations();
  ASSERT_FALSE(all.empty());
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].version, static_cast<int>(i) + 1) << all[i].name;
    EXPECT_FALSE(all[i].sql.empty()) << all[i].name;
  }
  EXPECT_EQ(KernelDb::schema_version(), all.back().version);
}

TEST_F(SchemaTest, NewFileGetsTheLatestSchema) {
  auto db = open_db();
  db.reset();
  sqlite::Connection conn(db_file());
  EXPECT_EQ(conn.query_int("PRAGMA user_version"), KernelDb::schema_version());
  EXPECT_EQ(conn.query_int("PRAGMA application_id"), kApplicationId);
  EXPECT_EQ(table_names(conn), (std::set<std::string>{"runs", "kernels", "kernel_parents", "evaluations", "llm_calls",
                                                      "idea_updates", "benches", "bench_runs"}));
}

TEST_F(SchemaTest, VersionOneDatabaseGainsBenchesAndKeepsItsRuns) {
  fs::create_directories(db_file().parent_path());
  {
    sqlite::Connection conn(db_file());
    conn.exec(migrations()[0].sql);
    conn.exec("PRAGMA user_version = 1");
    conn.exec(
        "INSERT INTO runs VALUES ('r1', 'relu_f32', 'k1', 'finished', 'tuner', '{}', 1, '', '', 1, 1, '{}', '{}')");
  }
  auto db = open_db();
  ASSERT_TRUE(db->get_run("r1"));
  BenchRecord b;
  b.id = "b1";
  b.suite = "nn";
  b.method = db::SearchMethod::tuner;
  b.label = "tuner";
  b.board = "k1";
  b.tasks = {"relu_f32"};
  b.settings_json = "[]";
  b.state = db::BenchState::running;
  db->create_bench(b);
  db->set_bench_run("b1", "relu_f32", "r1");
  db->update_bench_state("b1", db::BenchState::finished);
  const auto got = db->get_bench("b1");
  ASSERT_TRUE(got);
  EXPECT_EQ(got->state, db::BenchState::finished);
  EXPECT_EQ(got->tasks, b.tasks);
  EXPECT_EQ(db->bench_runs("b1"), (std::vector<std::pair<std::string, std::string>>{{"relu_f32", "r1"}}));
  EXPECT_THROW(db->create_bench(b), Error);
  EXPECT_THROW(db->update_bench_state("b-none", db::BenchState::finished), NotFoundError);
}

TEST_F(SchemaTest, VersionZeroDatabaseIsMigratedInPlace) {
  fs::create_directories(db_file().parent_path());
  {
    // A SQLite file as an old eok (or a user) left it: version 0, with a table of its own.
    sqlite::Connection conn(db_file());
    conn.exec("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep me');");
    ASSERT_EQ(conn.query_int("PRAGMA user_version"), 0);
  }
  auto db = open_db();
  db->create_run(make_run("r1"));
  db.reset();

  sqlite::Connection conn(db_file());
  EXPECT_EQ(conn.query_int("PRAGMA user_version"), KernelDb::schema_version());
  const std::set<std::string> tables = table_names(conn);
  for (const char* table : {"runs", "kernels", "kernel_parents", "evaluations", "llm_calls", "idea_updates", "notes"}) {
    EXPECT_TRUE(tables.count(table)) << table;
  }
  EXPECT_EQ(conn.query_text("SELECT text FROM notes"), "keep me");
  sqlite::Statement indexes(conn, "SELECT name FROM sqlite_schema WHERE type = 'index' AND name = 'kernels_by_hash'");
  EXPECT_TRUE(indexes.step());
}

TEST_F(SchemaTest, NewerDatabaseIsRefusedAndLeftUntouched) {
  fs::create_directories(db_file().parent_path());
  {
    sqlite::Connection conn(db_file());
    conn.exec("CREATE TABLE future (x INTEGER)");
    conn.exec("PRAGMA application_id = " + std::to_string(kApplicationId));
    conn.exec("PRAGMA user_version = " + std::to_string(KernelDb::schema_version() + 1));
  }
  const std::string before = file_bytes(db_file());

  try {
    open_db();
    FAIL() << "a database from a newer eok was opened";
  } catch (const ConfigError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(db_file().string()), std::string::npos) << message;
    EXPECT_NE(message.find("newer eok"), std::string::npos) << message;
    EXPECT_NE(message.find("Upgrade eok"), std::string::npos) << message;
  }
  EXPECT_EQ(file_bytes(db_file()), before);
  EXPECT_FALSE(fs::exists(db_file().string() + "-wal"));
  sqlite::Connection conn(db_file());
  EXPECT_EQ(conn.query_text("PRAGMA journal_mode"), "delete") << "not switched to WAL";
}

TEST_F(SchemaTest, FileThatIsNotADatabaseIsRefused) {
  fs::create_directories(db_file().parent_path());
  const std::string text(4096, 'x');
  std::ofstream(db_file()) << text;
  const std::string message = error_message([&] { open_db(); });
  EXPECT_NE(message.find(db_file().string()), std::string::npos) << message;
  EXPECT_NE(message.find("not a SQLite database"), std::string::npos) << message;
  EXPECT_THROW(open_db(), CorruptDataError);
  EXPECT_EQ(file_bytes(db_file()), text);
}

TEST_F(SchemaTest, DatabaseOfAnotherProgramIsRefused) {
  fs::create_directories(db_file().parent_path());
  {
    sqlite::Connection conn(db_file());
    conn.exec("CREATE TABLE runs (x INTEGER); PRAGMA user_version = 3;");
  }
  const std::string before = file_bytes(db_file());
  const std::string message = error_message([&] { open_db(); });
  EXPECT_NE(message.find("another program"), std::string::npos) << message;
  EXPECT_NE(message.find(db_file().string()), std::string::npos) << message;
  EXPECT_EQ(file_bytes(db_file()), before);
}

TEST_F(SchemaTest, ConnectionIsSetUpForSharing) {
  SqliteKernelDb db(db_file());
  EXPECT_EQ(db.pragma("journal_mode"), "wal");
  EXPECT_EQ(db.pragma("foreign_keys"), "1");
  EXPECT_GE(std::stoi(db.pragma("busy_timeout")), 1000);
  // WAL is a property of the file: every later connection sees it.
  sqlite::Connection other(db_file());
  EXPECT_EQ(other.query_text("PRAGMA journal_mode"), "wal");
}

TEST_F(SchemaTest, SeveralOpenersCanCreateTheSameFileAtOnce) {
  // Each opener has a connection of its own, as separate eok processes would.
  std::vector<std::thread> openers;
  std::atomic<int> failures{0};
  for (int i = 0; i < 6; ++i) {
    openers.emplace_back([&, i] {
      try {
        auto db = open_db();
        db->create_run(make_run("r" + std::to_string(i)));
      } catch (const std::exception& e) {
        ADD_FAILURE() << e.what();
        ++failures;
      }
    });
  }
  for (auto& t : openers) t.join();
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(open_db()->list_runs().size(), 6u);
}

TEST_F(SchemaTest, UnwritableLocationNamesTheFile) {
  fs::create_directories(dir_.path() / "file-in-the-way");
  const fs::path impossible = dir_.path() / "file-in-the-way";  // a directory, not a database file
  const std::string message = error_message([&] { KernelDb::open(impossible); });
  EXPECT_NE(message.find(impossible.string()), std::string::npos) << message;
}

}  // namespace
}  // namespace eok::db::testing
