// A database opened read-only is read exactly as it is: every record is there, the file is not changed,
// every write is refused, and a file that would need migrating is refused by name.
#include <gtest/gtest.h>

#include "src/common/error.h"
#include "src/db/migrations.h"
#include "src/db/sqlite_connection.h"
#include "tests/db/db_test_support.h"

namespace eok::db::testing {
namespace {

class ReadOnlyDb : public DbTest {
 protected:
  // A database with one run, closed, so that SQLite removed its -wal and -shm files.
  void make_database() {
    auto db = open_db();
    db->create_run(make_run("r1"));
    db->insert_kernel(make_kernel("r1", "aaaa"));
  }
};

TEST_F(ReadOnlyDb, ReadsEveryRecordAndWritesNothing) {
  make_database();
  const std::string before = read_file(db_file());
  {
    auto db = KernelDb::open_read_only(db_file());
    ASSERT_EQ(db->list_runs().size(), 1u);
    EXPECT_EQ(db->list_runs()[0].id, "r1");
    EXPECT_EQ(db->kernels("relu_f32").size(), 1u);
    EXPECT_THROW(db->create_run(make_run("r2")), Error);
    EXPECT_THROW(db->update_run("r1", db::RunState::finished, "{}"), Error);
  }
  EXPECT_EQ(read_file(db_file()), before) << "a read-only open changed the file";
}

TEST_F(ReadOnlyDb, ADatabaseThatNeedsMigratingIsRefusedAndLeftAlone) {
  fs::create_directories(db_file().parent_path());
  {
    sqlite::Connection conn(db_file());
    conn.exec(migrations()[0].sql);
    conn.exec("PRAGMA user_version = 1");
  }
  const std::string before = read_file(db_file());
  try {
    KernelDb::open_read_only(db_file());
    FAIL() << "an old database was read without its migrations";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("older eok"), std::string::npos) << e.what();
  }
  EXPECT_EQ(read_file(db_file()), before);
}

TEST_F(ReadOnlyDb, AMissingFileIsNotCreated) {
  EXPECT_THROW(KernelDb::open_read_only(db_file()), Error);
  EXPECT_FALSE(fs::exists(db_file()));
}

TEST_F(ReadOnlyDb, ReadingOpensForWritingWhereItCan) {
  make_database();
  auto db = KernelDb::open_for_reading(db_file());
  db->update_run("r1", db::RunState::finished, "{}");  // a writable workspace stays writable
  EXPECT_EQ(db->get_run("r1")->state, db::RunState::finished);
}

}  // namespace
}  // namespace eok::db::testing
