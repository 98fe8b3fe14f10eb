// A search killed with SIGKILL in the middle of writing (kill -9, the OOM killer, a power cut of the process)
// leaves a consistent database that the next eok opens and resumes from.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "src/db/sqlite_connection.h"
#include "tests/db/db_test_support.h"

namespace eok::db::testing {
namespace {

using CrashTest = DbTest;

// The child's whole life: write proposals as fast as it can until it is killed. It never returns.
[[noreturn]] void write_until_killed(const fs::path& file) {
  try {
    auto db = KernelDb::open(file);
    const int64_t ker0 = db->ensure_ker0(make_kernel("", "ker0"));
    for (int64_t i = 0;; ++i) {
      // Half alone, half in atomic groups, so that the kill lands inside both kinds of transaction.
      const std::string hash = "h" + std::to_string(i);
      if (i % 2 == 0) {
        db->atomically([&] {
          KernelRecord k = make_kernel("r1", hash);
          k.parents = {ker0};
          const int64_t id = db->insert_kernel(k);
          db->insert_evaluation(make_evaluation(id, EvalStatus::ok, static_cast<double>(i)));
          db->save_run_progress("r1", "{\"proposals\": " + std::to_string(i + 1) + "}");
        });
      } else {
        const int64_t id = db->insert_kernel(make_kernel("r1", hash));
        db->insert_llm_call(make_call("r1", true));
        db->insert_evaluation(make_evaluation(id, EvalStatus::wrong_answer));
      }
    }
  } catch (...) {
    _exit(3);
  }
}

TEST_F(CrashTest, KillDuringWritesLeavesAConsistentDatabase) {
  open_db()->create_run(make_run("r1"));
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) write_until_killed(db_file());

  // Let it write for a while (watching through a second connection), then kill it mid-flight.
  auto watcher = open_db();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (watcher->run_totals("r1").kernels < 200 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_EQ(kill(child, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the child stopped by itself with exit status " << WEXITSTATUS(status);
  watcher.reset();

  auto db = open_db();
  {
    sqlite::Connection conn(db_file());
    EXPECT_EQ(conn.query_text("PRAGMA integrity_check"), "ok");
    sqlite::Statement fk(conn, "PRAGMA foreign_key_check");
    EXPECT_FALSE(fk.step()) << "a row refers to a missing row";
    EXPECT_EQ(conn.query_int("SELECT count(*) FROM evaluations e LEFT JOIN kernels k ON k.id = e.kernel_id "
                             "WHERE k.id IS NULL"),
              0)
        << "every evaluation has its kernel";
    // Atomic groups: a kernel with a parent came with its evaluation, all or nothing.
    EXPECT_EQ(conn.query_int("SELECT count(*) FROM kernels k JOIN kernel_parents p ON p.kernel_id = k.id "
                             "LEFT JOIN evaluations e ON e.kernel_id = k.id WHERE e.kernel_id IS NULL"),
              0);
  }
  const RunTotals t = db->run_totals("r1");
  EXPECT_GE(t.kernels, 200);
  EXPECT_GE(t.evaluations, t.kernels - 1) << "at most the last single insert lost its evaluation";

  // The checkpoint agrees with the atomic groups it was written with.
  const std::string progress = db->get_run("r1")->progress_json;
  int64_t grouped = 0;
  for (const KernelRow& row : db->kernels("relu_f32", "r1")) grouped += row.kernel.parents.empty() ? 0 : 1;
  EXPECT_EQ(progress, "{\"proposals\": " + std::to_string(2 * grouped - 1) + "}");

  // And the search can go on writing.
  db->insert_kernel(make_kernel("r1", "after-the-crash"));
  EXPECT_EQ(db->run_totals("r1").kernels, t.kernels + 1);
}

}  // namespace
}  // namespace eok::db::testing
