// Run states, bench states and search methods: stored as the same text as before they were enumerations,
// read back unchanged, and a text this eok does not know refused as a damaged record naming the row.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "src/common/error.h"
#include "src/db/record_states.h"
#include "src/db/sqlite_connection.h"
#include "tests/db/db_test_support.h"

namespace eok::db::testing {
namespace {

TEST(RecordStateNames, EveryValueReadsBackFromItsName) {
  for (RunState s : enum_values<db::RunState>()) EXPECT_EQ(parse_name<db::RunState>(name_of(s)), s) << name_of(s);
  for (BenchState s : enum_values<db::BenchState>()) EXPECT_EQ(parse_name<db::BenchState>(name_of(s)), s) << name_of(s);
  for (SearchMethod m : enum_values<db::SearchMethod>()) {
    EXPECT_EQ(parse_name<db::SearchMethod>(name_of(m)), m) << name_of(m);
  }
  EXPECT_EQ(nlohmann::json(RunState::stopped), "stopped") << "JSON carries the name, not a number";
  EXPECT_EQ(nlohmann::json(BenchState::incomplete), "incomplete");
  EXPECT_EQ(nlohmann::json(SearchMethod::eoh), "eoh");
}

TEST(RecordStateNames, AnyOtherTextIsNoValue) {
  EXPECT_EQ(parse_name<db::RunState>("interrupted"), std::nullopt);
  EXPECT_EQ(parse_name<db::RunState>("Finished"), std::nullopt);
  EXPECT_EQ(parse_name<db::RunState>("incomplete"), std::nullopt) << "a bench state, not a run state";
  EXPECT_EQ(parse_name<db::BenchState>("failed"), std::nullopt) << "a run state, not a bench state";
  EXPECT_EQ(parse_name<db::SearchMethod>("auto"), std::nullopt) << "auto is resolved before a run is recorded";
  EXPECT_EQ(parse_name<db::SearchMethod>(""), std::nullopt);
}

class StoredStatesTest : public DbTest {
 protected:
  // The text of one column of one row, as the file holds it.
  std::string stored(const std::string& query) {
    sqlite::Connection conn(db_file());
    return conn.query_text(query);
  }
  void overwrite(const std::string& sql) {
    sqlite::Connection conn(db_file());
    conn.exec(sql);
  }
};

TEST_F(StoredStatesTest, TheFileHoldsTheNamesAsBefore) {
  auto db = open_db();
  RunRecord run = make_run("r1");
  run.method = SearchMethod::tuner;
  db->create_run(run);
  db->update_run("r1", RunState::stopped, "{}");
  const int64_t k = db->insert_kernel(make_kernel("r1", "h1"));
  db->insert_evaluation(make_evaluation(k, EvalStatus::wrong_answer));
  BenchRecord b;
  b.id = "b1";
  b.method = SearchMethod::eok;
  b.state = BenchState::incomplete;
  b.settings_json = "[]";
  db->create_bench(b);
  db.reset();
  EXPECT_EQ(stored("SELECT state FROM runs WHERE id = 'r1'"), "stopped");
  EXPECT_EQ(stored("SELECT method FROM runs WHERE id = 'r1'"), "tuner");
  EXPECT_EQ(stored("SELECT status FROM evaluations"), "wrong_answer");
  EXPECT_EQ(stored("SELECT state || ' ' || method FROM benches"), "incomplete eok");
}

TEST_F(StoredStatesTest, AnUnknownStoredNameIsADamagedRecordNamedWithItsRow) {
  auto db = open_db();
  db->create_run(make_run("r1"));
  const int64_t k = db->insert_kernel(make_kernel("r1", "h1"));
  db->insert_evaluation(make_evaluation(k, EvalStatus::ok, 10));
  overwrite("UPDATE runs SET state = 'paused'; UPDATE evaluations SET status = 'some_future_status'");

  try {
    db->get_run("r1");
    FAIL() << "an unknown run state was read as a state";
  } catch (const CorruptDataError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("runs.state of run r1 is 'paused'"), std::string::npos) << what;
    EXPECT_NE(what.find(db_file().string()), std::string::npos) << what;
    EXPECT_NE(what.find("running, finished, stopped, failed"), std::string::npos) << what;
  }
  try {
    db->kernels("relu_f32");
    FAIL() << "an unknown evaluation status was read as a status";
  } catch (const CorruptDataError& e) {
    EXPECT_NE(
        std::string(e.what()).find("evaluations.status of kernel " + std::to_string(k) + " is 'some_future_status'"),
        std::string::npos)
        << e.what();
  }
  EXPECT_THROW(db->leaderboard(), CorruptDataError) << "counts by status are statuses too";
  EXPECT_THROW(db->list_runs(), CorruptDataError);
}

}  // namespace
}  // namespace eok::db::testing
