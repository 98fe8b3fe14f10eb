// Boards on a Slurm cluster, with a stand-in on this machine: a single-node Slurm whose node runs riscv64
// programs under qemu-riscv64 (tests/support/loopback_slurm.sh), driven through the eok program.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "support/board_fixture.h"

namespace eok::testing {
namespace {

namespace fs = std::filesystem;

class SlurmBoards : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!find_on_path("srun") || !(find_on_path("slurmctld") || fs::exists("/usr/sbin/slurmctld"))) return;
    dir_ = std::make_unique<TempDir>(fs::temp_directory_path(), "eok-slurm-");
    const ProcessResult r = script("start");
    started_ = r.ok();
    if (!started_) start_error_ = r.describe() + ": " + r.err;
    home_ = std::make_unique<TempDir>(fs::temp_directory_path(), "eok-test-home-");
  }
  static void TearDownTestSuite() {
    if (dir_) script("stop");
    dir_.reset();
    home_.reset();
  }
  void SetUp() override {
    if (!dir_)
      GTEST_SKIP()
          << "Slurm is not installed (the README's test command installs slurmctld, slurmd, slurm-client, munge)";
    ASSERT_TRUE(started_) << start_error_;
  }
  static ProcessResult script(const std::string& what) {
    ProcessSpec p;
    p.argv = {(source_root() / "tests" / "support" / "loopback_slurm.sh").string(), what, dir_->path().string()};
    p.limits.wall_seconds = 60;
    return run_process(p);
  }
  // eok as a user of the cluster runs it: SLURM_CONF set, no other SLURM_* variable.
  static ProcessResult eval(const fs::path& board, const std::string& kernel_file) {
    return eok(
        {"eval", "--task", "relu_f32", "--board", board.string(), "--kernel", kernel_file, "--no-baseline", "--json"});
  }
  static ProcessResult eok(const std::vector<std::string>& args) {
    ProcessSpec spec;
    spec.argv = {(fs::path(EOK_BINARY_DIR) / "eok").string()};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.cwd = source_root();
    std::vector<std::string> env = {"EOK_HOME=" + home_->path().string(), "EOK_LLM_DISCOVER=false",
                                    "SLURM_CONF=" + (dir_->path() / "slurm.conf").string()};
    if (const char* path = std::getenv("PATH")) env.push_back(std::string("PATH=") + path + ":/usr/sbin:/sbin");
    spec.env = env;
    spec.limits.wall_seconds = 300;
    return run_process(spec);
  }
  static fs::path profile() { return dir_->path() / "board.toml"; }
  // The partition's queue once it is empty, or after 10 s.
  static std::string queue_once_empty() {
    std::string queue = squeue();
    for (int i = 0; i < 50 && !queue.empty(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      queue = squeue();
    }
    return queue;
  }
  static std::string squeue() {
    ProcessSpec q;
    q.argv = {"squeue", "-h", "-p", "k1"};
    q.env = std::vector<std::string>{"SLURM_CONF=" + (dir_->path() / "slurm.conf").string(),
                                     std::string("PATH=") + std::getenv("PATH")};
    q.limits.wall_seconds = 30;
    return run_process(q).out;
  }
  static std::string ker0() { return (source_root() / "kernels" / "relu_f32" / "ker0.c").string(); }

  static std::unique_ptr<TempDir> dir_, home_;
  static bool started_;
  static std::string start_error_;
};

std::unique_ptr<TempDir> SlurmBoards::dir_, SlurmBoards::home_;
bool SlurmBoards::started_ = false;
std::string SlurmBoards::start_error_;

TEST_F(SlurmBoards, ACorrectKernelIsTimedInASlurmJobOnThePartition) {
  const ProcessResult r = eval(profile(), ker0());
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "ok") << j["message"];
  EXPECT_EQ(j["measurement"]["repeats"], 5);
  EXPECT_NE(j["measurement"]["host"].get<std::string>().find("slurm:k1 (node "), std::string::npos) << j["measurement"];
  const std::string used = read_if_exists(dir_->path() / "used.log");
  EXPECT_FALSE(used.empty());
  EXPECT_EQ(used.find("none"), std::string::npos) << "the program ran outside a Slurm job: " << used;
}

TEST_F(SlurmBoards, WrongAndHostileKernelsNeverTakeClusterTime) {
  const fs::path k = home_->path() / "wrong.c";
  std::ofstream(k)
      << "#include <stddef.h>\nvoid relu_f32(float* x, size_t n) { for (size_t i = 0; i < n; ++i) x[i] = 2.0f; }\n";
  const std::string before = read_if_exists(dir_->path() / "used.log");
  ProcessResult r = eval(profile(), k.string());
  EXPECT_EQ(nlohmann::json::parse(r.out)["status"], "wrong_answer");
  const fs::path hostile = home_->path() / "hostile.c";
  std::ofstream(hostile) << "#include <stddef.h>\nvoid relu_f32(float* x, size_t n) { __asm__ volatile(\"ecall\"); }\n";
  r = eval(profile(), hostile.string());
  EXPECT_EQ(nlohmann::json::parse(r.out)["status"], "rejected");
  EXPECT_EQ(read_if_exists(dir_->path() / "used.log"), before);
}

TEST_F(SlurmBoards, AnUnknownPartitionIsAnInfraErrorThatSaysWhatSlurmSaid) {
  std::string text = read_if_exists(profile());
  text.replace(text.find("partition = \"k1\""), 16, "partition = \"nosuch\"");
  const fs::path bad = dir_->path() / "bad.toml";
  std::ofstream(bad) << text;
  const ProcessResult r = eval(bad, ker0());
  EXPECT_EQ(r.exit_code, 6) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "infra_error");
  EXPECT_NE(j["message"].get<std::string>().find("nosuch"), std::string::npos) << j["message"];
}

TEST_F(SlurmBoards, BenchRunsEachTasksSearchAsASlurmJobNamedAfterItAndResumes) {
  ProcessResult r =
      eok({"bench", "run", "--tasks", "relu_f32,clip_f32", "--executor", "slurm", "--partition", "k1", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["state"], "finished") << r.out;
  ASSERT_EQ(j["tasks"].size(), 2u);
  for (const auto& t : j["tasks"]) EXPECT_EQ(t["state"], "finished") << t;
  // Slurm's own record of finished jobs: one per task, named after it.
  const std::string jobs = read_if_exists(dir_->path() / "log" / "jobcomp.txt");
  EXPECT_NE(jobs.find("Name=eok-relu_f32 JobState=COMPLETED"), std::string::npos) << jobs;
  EXPECT_NE(jobs.find("Name=eok-clip_f32 JobState=COMPLETED"), std::string::npos) << jobs;
  // Resuming a finished bench keeps its runs and starts no job.
  const size_t before = std::count(jobs.begin(), jobs.end(), '\n');
  r = eok({"bench", "run", "--resume", j["bench"], "--executor", "slurm", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  for (const auto& t : j["tasks"]) EXPECT_EQ(t["state"], "kept") << t;
  const std::string after = read_if_exists(dir_->path() / "log" / "jobcomp.txt");
  EXPECT_EQ(static_cast<size_t>(std::count(after.begin(), after.end(), '\n')), before);
}

TEST_F(SlurmBoards, KillingEokEndsItsTimingJob) {
  std::ofstream(dir_->path() / "hold") << "";  // the job's program waits until this goes
  const fs::path pid_file = home_->path() / "eok.pid";
  ProcessSpec spec;
  spec.argv = {"sh", "-c",
               "EOK_HOME=" + home_->path().string() + " EOK_LLM_DISCOVER=false SLURM_CONF=" +
                   (dir_->path() / "slurm.conf").string() + " " + (fs::path(EOK_BINARY_DIR) / "eok").string() +
                   " eval --task relu_f32 --no-baseline --board " + profile().string() + " --kernel " + ker0() +
                   " >/dev/null 2>&1 & echo $! > " + pid_file.string() + "; wait"};
  spec.cwd = source_root();
  spec.limits.wall_seconds = 120;
  auto run = std::async(std::launch::async, [&] { return run_process(spec); });
  const size_t before = read_if_exists(dir_->path() / "used.log").size();
  for (int i = 0; i < 300 && read_if_exists(dir_->path() / "used.log").size() == before; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_GT(read_if_exists(dir_->path() / "used.log").size(), before) << "the run never reached the node";
  ASSERT_EQ(kill(std::stoi(read_if_exists(pid_file)), SIGKILL), 0);
  run.get();
  // Well before the run's own deadline (timeout_seconds = 60): the job is gone from the queue.
  const std::string queue = queue_once_empty();
  fs::remove(dir_->path() / "hold");
  EXPECT_TRUE(queue.empty()) << queue;
}

TEST_F(SlurmBoards, ARunPastTheTimeLimitIsATimeoutAndItsJobEnds) {
  std::string text = read_if_exists(profile());
  text.replace(text.find("timeout_seconds = 60"), 20, "timeout_seconds = 3");
  const fs::path slow = dir_->path() / "slow.toml";
  std::ofstream(slow) << text;
  std::ofstream(dir_->path() / "hold") << "";
  const ProcessResult r = eval(slow, ker0());
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "timeout") << j["message"];
  // The killed srun ends its job: nothing of it stays in the queue.
  const std::string queue = queue_once_empty();
  fs::remove(dir_->path() / "hold");
  EXPECT_TRUE(queue.empty()) << queue;
}

}  // namespace
}  // namespace eok::testing
