// eok bench end to end with the tuner: a bench runs each task as a search recorded in the database, a
// resumed bench keeps what finished, the table and the roofline print what the runs measured.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <set>

#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "src/db/kernel_db.h"
#include "support/board_fixture.h"
#include "support/fake_openai_server.h"

#include <atomic>
#include <thread>

namespace eok::testing {
namespace {

namespace fs = std::filesystem;

class BenchCli : public ::testing::Test {
 protected:
  BenchCli() : home_(fs::temp_directory_path(), "eok-bench-cli-") {}
  ProcessResult eok(const std::vector<std::string>& args) { return run_eok(args, home_.path(), 600); }
  TempDir home_;
};

TEST_F(BenchCli, RunsResumesAndTabulatesATunerBench) {
  ProcessResult run = eok({"bench", "run", "--suite", "all", "--tasks", "relu_f32,reduce_scan_i32", "--method", "tuner",
                           "--jobs", "2", "--json"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["state"], "finished");
  EXPECT_EQ(j["label"], "tuner");
  ASSERT_EQ(j["tasks"].size(), 2u);
  EXPECT_NE(run.err.find("[2/2]"), std::string::npos) << run.err;  // progress per task
  const std::string bench = j["bench"];

  // Every task's run is in the kernel database, finished, with the bench's method.
  auto db = db::KernelDb::open(home_.path() / "eok.db");
  const auto runs = db->bench_runs(bench);
  ASSERT_EQ(runs.size(), 2u);
  for (const auto& [task, run_id] : runs) {
    const auto r = db->get_run(run_id);
    ASSERT_TRUE(r) << task;
    EXPECT_EQ(r->state, db::RunState::finished);
    EXPECT_EQ(r->method, db::SearchMethod::tuner);
    EXPECT_EQ(r->task, task);
  }

  // Resuming a finished bench starts nothing new.
  ProcessResult again = eok({"bench", "run", "--resume", bench, "--json"});
  ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
  for (const auto& t : nlohmann::json::parse(again.out)["tasks"]) EXPECT_EQ(t["state"], "kept") << t.dump();
  EXPECT_EQ(db->list_runs().size(), 2u);

  // The table: one method, one task per suite, both correct (the tuner's variants pass).
  ProcessResult table = eok({"bench", "table", "--json"});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  const auto t = nlohmann::json::parse(table.out);
  ASSERT_EQ(t["methods"].size(), 1u);
  EXPECT_EQ(t["methods"][0]["suites"]["general"]["tasks"], 1);
  EXPECT_EQ(t["methods"][0]["suites"]["nn"]["tasks"], 1);
  EXPECT_EQ(t["methods"][0]["suites"]["nn"]["correct"], 1);
  EXPECT_GE(t["methods"][0]["suites"]["all"]["mean"].get<double>(), 1.0);
  ProcessResult md = eok({"bench", "table", "--markdown"});
  EXPECT_NE(md.out.find("| tuner | 1 |"), std::string::npos) << md.out;

  ProcessResult list = eok({"bench", "list"});
  EXPECT_NE(list.out.find(bench), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("finished"), std::string::npos) << list.out;
}

TEST_F(BenchCli, BadRequestsSayWhatToDo) {
  ProcessResult r = eok({"bench", "run", "--suite", "general", "--tasks", "relu_f32"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("not in the general suite"), std::string::npos) << r.err;
  r = eok({"bench", "run", "--method", "magic"});
  EXPECT_NE(r.err.find("expected tuner, eoh or eok"), std::string::npos) << r.err;
  r = eok({"bench", "run", "--resume", "b-nothing"});
  EXPECT_NE(r.err.find("no bench b-nothing"), std::string::npos) << r.err;
  r = eok({"bench", "table"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("no bench results yet"), std::string::npos) << r.out;
}

TEST_F(BenchCli, RooflineMeasuresKer0AgainstItsBound) {
  ProcessResult r = eok({"bench", "roofline", "--tasks", "relu_f32,gemm_f32", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto rows = nlohmann::json::parse(r.out);
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& row : rows) {
    EXPECT_GT(row["ker0_cycles"].get<double>(), 0) << row.dump();
    EXPECT_GE(row["distance"].get<double>(), 1.0) << row.dump();
  }
  // Sorted furthest first.
  EXPECT_GE(rows[0]["distance"].get<double>(), rows[1]["distance"].get<double>());
}

TEST_F(BenchCli, CtrlCStopsTheSearchesAndResumeFinishesWithoutRestarting) {
  ProcessSpec spec;
  spec.argv = {(fs::path(EOK_BINARY_DIR) / "eok").string(),
               "bench",
               "run",
               "--suite",
               "nn",
               "--tasks",
               "relu_f32,mish_f32,sigmoid_f32",
               "--method",
               "tuner",
               "--jobs",
               "1",
               "--json"};
  spec.cwd = source_root();
  spec.env =
      std::vector<std::string>{"EOK_HOME=" + home_.path().string(), "EOK_LLM_DISCOVER=false",
                               std::string("PATH=") + (std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin")};
  spec.limits.wall_seconds = 600;
  std::atomic<bool> interrupt{false};
  spec.forward_interrupt = &interrupt;  // what Ctrl-C at a terminal does to the bench
  std::atomic<bool> ended{false};
  std::thread press([&] {
    // Ctrl-C once the bench has started its first search (its run is on record), not after a guessed delay.
    const fs::path file = home_.path() / "eok.db";
    while (!ended) {
      if (fs::exists(file)) {
        try {
          if (!db::KernelDb::open_read_only(file)->list_runs().empty()) break;
        } catch (const Error&) {
          // created but not yet migrated: look again
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    interrupt = true;
  });
  const ProcessResult stopped = run_process(spec);
  ended = true;
  press.join();
  ASSERT_EQ(stopped.exit_code, 7) << stopped.out << stopped.err;
  const auto j = nlohmann::json::parse(stopped.out);
  EXPECT_EQ(j["state"], "stopped");
  const std::string bench = j["bench"];
  auto db = db::KernelDb::open(home_.path() / "eok.db");
  EXPECT_EQ(db->get_bench(bench)->state, db::BenchState::stopped);
  const size_t runs_before = db->list_runs().size();
  EXPECT_GE(runs_before, 1u);
  EXPECT_LT(runs_before, 3u + 1);

  ProcessResult resumed = eok({"bench", "run", "--resume", bench, "--json"});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.out << resumed.err;
  EXPECT_EQ(nlohmann::json::parse(resumed.out)["state"], "finished");
  // The stopped run was continued, not started again: one run per task.
  EXPECT_EQ(db->list_runs().size(), 3u);
  for (const auto& [task, run_id] : db->bench_runs(bench))
    EXPECT_EQ(db->get_run(run_id)->state, db::RunState::finished) << task;
}

TEST_F(BenchCli, EohAndEokRowsComeFromAnLlmEndpoint) {
  FakeOpenAiServer server;
  server.set_default_reply(
      FakeReply::completion("Idea: LMUL 8 strips\n```c\n" + read_fixture("candidates/relu_m8.c") + "\n```\n"));
  std::vector<std::string> env = {"EOK_HOME=" + home_.path().string(), "EOK_LLM_BASE_URL=" + server.base_url(),
                                  "EOK_LLM_MODEL=fake-coder", "EOK_LLM_DISCOVER=false"};
  if (const char* path = std::getenv("PATH")) env.push_back(std::string("PATH=") + path);
  auto bench = [&](std::vector<std::string> extra) {
    ProcessSpec spec;
    spec.argv = {(fs::path(EOK_BINARY_DIR) / "eok").string(),
                 "bench",
                 "run",
                 "--suite",
                 "nn",
                 "--tasks",
                 "relu_f32",
                 "--iterations",
                 "1",
                 "--parallel",
                 "1",
                 "--population",
                 "2",
                 "--generations",
                 "1",
                 "--json"};
    spec.argv.insert(spec.argv.end(), extra.begin(), extra.end());
    spec.cwd = source_root();
    spec.env = env;
    spec.limits.wall_seconds = 600;
    return run_process(spec);
  };
  const ProcessResult eoh = bench({"--method", "eoh", "--rag", "none"});
  ASSERT_EQ(eoh.exit_code, 0) << eoh.out << eoh.err;
  const std::string pool = (fs::path(EOK_TEST_DATA_DIR) / "fixtures" / "pools" / "small_pool.json").string();
  const ProcessResult eok_run = bench({"--method", "eok", "--rag", "none", "--pool", pool});
  ASSERT_EQ(eok_run.exit_code, 0) << eok_run.out << eok_run.err;
  EXPECT_GE(server.chat_requests().size(), 2u);

  ProcessResult table = eok({"bench", "table", "--json"});
  const auto t = nlohmann::json::parse(table.out);
  std::set<std::string> labels;
  for (const auto& m : t["methods"]) {
    labels.insert(m["label"].get<std::string>());
    EXPECT_EQ(m["suites"]["nn"]["correct"], 1) << m.dump();  // the LLM's kernel was judged correct
  }
  EXPECT_EQ(labels, (std::set<std::string>{"eoh rag=none", "eok rag=none pool=small_pool"}));
}

}  // namespace
}  // namespace eok::testing
