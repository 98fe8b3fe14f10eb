// Parallel searches share one KernelDb; `eok leaderboard` in another terminal opens a second one on the
// same file. Neither may lose a write, see half of an atomic group, or wait on the other for reading.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

#include "src/common/error.h"
#include "tests/db/db_test_support.h"

namespace eok::db::testing {
namespace {

using ConcurrencyTest = DbTest;

// One proposal as a search records it: the kernel, its evaluation and the LLM call that produced it.
void record_proposal(KernelDb& db, const std::string& run_id, const std::string& hash, int64_t parent) {
  db.atomically([&] {
    KernelRecord k = make_kernel(run_id, hash);
    k.parents = {parent};
    const int64_t id = db.insert_kernel(k);
    db.insert_evaluation(make_evaluation(id, EvalStatus::ok, static_cast<double>(id)));
    LlmCallRecord call = make_call(run_id, true);
    call.kernel_id = id;
    db.insert_llm_call(call);
  });
}

TEST_F(ConcurrencyTest, ThreadsShareOneInstance) {
  auto db = open_db();
  db->create_run(make_run("r1"));
  const int64_t ker0 = db->ensure_ker0(make_kernel("", "ker0"));
  constexpr int kThreads = 8, kPerThread = 40;

  std::atomic<bool> done{false};
  std::thread reader([&] {
    while (!done) {
      const RunTotals t = db->run_totals("r1");
      // Only the single calls can be caught between a kernel and its evaluation: one per writer at most.
      EXPECT_GE(t.kernels, t.evaluations);
      EXPECT_LE(t.kernels - t.evaluations, kThreads);
      db->best_kernels("relu_f32", "k1", "r1", 5);
      db->leaderboard();
    }
  });
  std::vector<std::thread> writers;
  for (int w = 0; w < kThreads; ++w) {
    writers.emplace_back([&, w] {
      for (int i = 0; i < kPerThread; ++i) {
        // Half the writes go through single calls, half through atomic groups.
        if (i % 2 == 0) {
          record_proposal(*db, "r1", "t" + std::to_string(w) + "-" + std::to_string(i), ker0);
        } else {
          const int64_t id = db->insert_kernel(make_kernel("r1", "t" + std::to_string(w) + "-" + std::to_string(i)));
          db->insert_evaluation(make_evaluation(id, EvalStatus::wrong_answer));
          db->insert_llm_call(make_call("r1", false));
        }
      }
    });
  }
  for (auto& t : writers) t.join();
  done = true;
  reader.join();

  const RunTotals t = db->run_totals("r1");
  EXPECT_EQ(t.kernels, kThreads * kPerThread);
  EXPECT_EQ(t.evaluations, kThreads * kPerThread);
  EXPECT_EQ(t.llm_calls, kThreads * kPerThread);
  EXPECT_EQ(t.llm_failures, kThreads * kPerThread / 2);
}

TEST_F(ConcurrencyTest, SecondInstanceReadsWhileTheFirstWrites) {
  auto writer_db = open_db();
  writer_db->create_run(make_run("r1"));
  const int64_t ker0 = writer_db->ensure_ker0(make_kernel("", "ker0"));
  auto reader_db = open_db();
  constexpr int kProposals = 300;

  std::atomic<bool> done{false};
  std::thread writer([&] {
    for (int i = 0; i < kProposals; ++i) record_proposal(*writer_db, "r1", "h" + std::to_string(i), ker0);
    done = true;
  });
  int64_t last_seen = 0;
  int reads = 0;
  while (!done) {
    const RunTotals t = reader_db->run_totals("r1");
    EXPECT_EQ(t.kernels, t.evaluations) << "an atomic group is seen whole or not at all";
    EXPECT_EQ(t.kernels, t.llm_calls);
    EXPECT_GE(t.kernels, last_seen);
    last_seen = t.kernels;
    ++reads;
  }
  writer.join();
  EXPECT_GT(reads, 0);
  EXPECT_EQ(reader_db->run_totals("r1").kernels, kProposals);
  EXPECT_EQ(reader_db->best_kernels("relu_f32", "k1", "r1", 0).size(), kProposals + 0u) << "ker0 has no evaluation";
}

TEST_F(ConcurrencyTest, TwoInstancesWriteAtOnce) {
  auto a = open_db();
  auto b = open_db();
  a->create_run(make_run("ra"));
  b->create_run(make_run("rb"));
  const int64_t ker0 = a->ensure_ker0(make_kernel("", "ker0"));
  EXPECT_EQ(b->ensure_ker0(make_kernel("", "ker0")), ker0) << "both searches share one ker0";
  std::thread ta([&] {
    for (int i = 0; i < 150; ++i) record_proposal(*a, "ra", "a" + std::to_string(i), ker0);
  });
  std::thread tb([&] {
    for (int i = 0; i < 150; ++i) record_proposal(*b, "rb", "b" + std::to_string(i), ker0);
  });
  ta.join();
  tb.join();
  EXPECT_EQ(a->run_totals("rb").kernels, 150);
  EXPECT_EQ(b->run_totals("ra").kernels, 150);
}

TEST_F(ConcurrencyTest, ReadersDoNotWaitForAnOpenWrite) {
  auto writer_db = open_db();
  writer_db->create_run(make_run("r1"));
  auto reader_db = open_db();
  std::promise<void> inside_write;
  std::promise<int64_t> read_result;
  std::future<int64_t> read_done = read_result.get_future();

  std::thread reader([&] {
    inside_write.get_future().wait();
    read_result.set_value(reader_db->run_totals("r1").kernels);
  });
  writer_db->atomically([&] {
    writer_db->insert_kernel(make_kernel("r1", "h"));
    inside_write.set_value();
    // The write transaction stays open until the reader has finished: it must not need the write to end.
    ASSERT_EQ(read_done.wait_for(std::chrono::seconds(5)), std::future_status::ready);
  });
  reader.join();
  EXPECT_EQ(read_done.get(), 0) << "the reader saw the state before the uncommitted write";
  EXPECT_EQ(reader_db->run_totals("r1").kernels, 1);
}

TEST_F(ConcurrencyTest, AtomicallyRollsBackEverythingOnError) {
  auto db = open_db();
  db->create_run(make_run("r1"));
  EXPECT_THROW(db->atomically([&] {
    const int64_t id = db->insert_kernel(make_kernel("r1", "h"));
    db->insert_evaluation(make_evaluation(id, EvalStatus::ok, 1));
    db->update_run("r1", db::RunState::finished, "{}");
    throw std::runtime_error("the search failed halfway");
  }),
               std::runtime_error);
  EXPECT_EQ(db->run_totals("r1").kernels, 0);
  EXPECT_EQ(db->get_run("r1")->state, db::RunState::running);
  // The connection is usable afterwards.
  db->insert_kernel(make_kernel("r1", "h"));
  EXPECT_EQ(db->run_totals("r1").kernels, 1);
}

TEST_F(ConcurrencyTest, NestedFailureThatIsCaughtUndoesOnlyItself) {
  auto db = open_db();
  db->create_run(make_run("r1"));
  db->atomically([&] {
    db->insert_kernel(make_kernel("r1", "kept"));
    try {
      db->atomically([&] {
        db->insert_kernel(make_kernel("r1", "undone"));
        throw std::runtime_error("inner");
      });
    } catch (const std::runtime_error&) {
    }
    EXPECT_THROW(db->insert_kernel(make_kernel("no-such-run", "refused")), Error);
  });
  const std::vector<KernelRow> rows = db->kernels("relu_f32");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].kernel.hash, "kept");
}

}  // namespace
}  // namespace eok::db::testing
