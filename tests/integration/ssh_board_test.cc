// Real boards over SSH, with stand-ins on this machine: two OpenSSH servers on 127.0.0.1 whose "board"
// runs riscv64 programs under qemu-riscv64 (tests/support/loopback_boards.sh), driven through the eok
// program as a user would, with the board profile the script writes.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <future>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "support/board_fixture.h"

namespace eok::testing {
namespace {

namespace fs = std::filesystem;

// The pids of processes whose working directory is under `dir` (a board's run directories).
std::vector<int> processes_under(const fs::path& dir) {
  std::vector<int> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const fs::path cwd = fs::read_symlink(e.path() / "cwd", ec);
    if (ec) continue;
    // Zombies keep no cwd; a live process under a run directory is what must not be left.
    if (cwd.string().rfind(dir.string() + "/", 0) == 0 &&
        read_if_exists(e.path() / "stat").find(") Z") == std::string::npos) {
      out.push_back(std::stoi(name));
    }
  }
  return out;
}

class SshBoards : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!find_on_path("sshd") && !fs::exists("/usr/sbin/sshd")) return;
    dir_ = std::make_unique<TempDir>(fs::temp_directory_path(), "eok-boards-");
    ProcessSpec start;
    start.argv = {(source_root() / "tests" / "support" / "loopback_boards.sh").string(), "start", dir_->path().string(),
                  "2"};
    start.limits.wall_seconds = 60;
    const ProcessResult r = run_process(start);
    started_ = r.ok();
    if (!started_) start_error_ = r.describe() + ": " + r.err;
    home_ = std::make_unique<TempDir>(fs::temp_directory_path(), "eok-test-home-");
  }
  static void TearDownTestSuite() {
    if (dir_) {
      ProcessSpec stop;
      stop.argv = {(source_root() / "tests" / "support" / "loopback_boards.sh").string(), "stop",
                   dir_->path().string()};
      stop.limits.wall_seconds = 60;
      run_process(stop);
    }
    dir_.reset();
    home_.reset();
  }
  void SetUp() override {
    if (!dir_) GTEST_SKIP() << "sshd is not installed (the README's test command installs openssh-server)";
    ASSERT_TRUE(started_) << start_error_;
    fs::remove(board_dir() / "hold");
  }

  static fs::path board_dir() { return dir_->path(); }
  static fs::path profile() { return board_dir() / "board.toml"; }
  static std::string port(int board) {
    return read_if_exists(board_dir() / ("b" + std::to_string(board)) / "port").substr(0, 5);
  }
  static size_t board_runs() {
    const std::string log = read_if_exists(board_dir() / "used.log");
    return static_cast<size_t>(std::count(log.begin(), log.end(), '\n'));
  }
  // A copy of the profile with some lines replaced.
  static fs::path variant(const std::string& name, const std::vector<std::pair<std::string, std::string>>& edits) {
    std::string text = read_if_exists(profile());
    for (const auto& [from, to] : edits) {
      const size_t at = text.find(from);
      EXPECT_NE(at, std::string::npos) << from;
      if (at != std::string::npos) text.replace(at, from.size(), to);
    }
    const fs::path out = board_dir() / (name + ".toml");
    std::ofstream(out) << text;
    return out;
  }
  static ProcessResult eok(const std::vector<std::string>& args, double seconds = 300) {
    return run_eok(args, home_->path(), seconds);
  }
  static ProcessResult eval(const fs::path& board, const std::string& kernel_file, double seconds = 300) {
    return eok(
        {"eval", "--task", "relu_f32", "--board", board.string(), "--kernel", kernel_file, "--no-baseline", "--json"},
        seconds);
  }
  static std::string kernel(const std::string& name, const std::string& source) {
    const fs::path p = home_->path() / (name + ".c");
    std::ofstream(p) << source;
    return p.string();
  }

  static std::unique_ptr<TempDir> dir_, home_;
  static bool started_;
  static std::string start_error_;
};

std::unique_ptr<TempDir> SshBoards::dir_, SshBoards::home_;
bool SshBoards::started_ = false;
std::string SshBoards::start_error_;

const char* kWrongRelu =
    "#include <stddef.h>\nvoid relu_f32(float* x, size_t n) { for (size_t i = 0; i < n; ++i) x[i] = 1.0f; }\n";

TEST_F(SshBoards, ACorrectKernelIsTimedOnTheBoardWithEveryRepeat) {
  const size_t before = board_runs();
  const ProcessResult r = eval(profile(), (source_root() / "kernels" / "relu_f32" / "ker0.c").string());
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "ok") << j["message"];
  EXPECT_EQ(j["board"], "k1-loopback");
  ASSERT_TRUE(j.contains("measurement")) << r.out;
  const auto& m = j["measurement"];
  EXPECT_EQ(m["repeats"], 7);  // [measure] of the profile
  EXPECT_EQ(m["warmup"], 2);
  EXPECT_EQ(m["samples"].size(), 7u);
  EXPECT_EQ(j["cycles"].get<double>(), m["median_cycles"].get<double>());
  EXPECT_GT(m["median"].get<double>(), 0);
  EXPECT_LE(m["min"].get<double>(), m["median"].get<double>());
  EXPECT_TRUE(j["modeled_cycles"].is_number());
  const std::string host = m["host"];
  EXPECT_TRUE(host.find(port(1)) != std::string::npos || host.find(port(2)) != std::string::npos) << host;
  // qemu-user answers ENOSYS to seccomp and perf_event_open: the result says so instead of failing.
  EXPECT_FALSE(m["seccomp"].get<bool>());
  EXPECT_NE(m["notes"].get<std::string>().find("seccomp"), std::string::npos) << m["notes"];
  EXPECT_EQ(m["timer"], "rdcycle");
  EXPECT_EQ(board_runs(), before + 1) << "one board run per evaluation";
  EXPECT_TRUE(processes_under(board_dir() / "remote").empty());
}

TEST_F(SshBoards, WrongAndHostileKernelsNeverReachTheBoard) {
  const size_t before = board_runs();
  ProcessResult r = eval(profile(), kernel("wrong", kWrongRelu));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["status"], "wrong_answer");
  r = eval(
      profile(),
      kernel("hostile", "#include <stddef.h>\nvoid relu_f32(float* x, size_t n) { __asm__ volatile(\"ecall\"); }\n"));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["status"], "rejected");
  EXPECT_EQ(board_runs(), before) << "checked on the virtual twin, never run on the board";
}

TEST_F(SshBoards, ARunPastTheBoardsTimeLimitIsATimeoutAndLeavesNothingRunning) {
  const fs::path board = variant("slow", {{"timeout_seconds = 60", "timeout_seconds = 3"}});
  std::ofstream(board_dir() / "hold") << "";  // the board's program waits until this goes
  const ProcessResult r = eval(board, (source_root() / "kernels" / "relu_f32" / "ker0.c").string());
  fs::remove(board_dir() / "hold");
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "timeout") << j["message"];
  EXPECT_NE(j["message"].get<std::string>().find("on board"), std::string::npos) << j["message"];
  for (int i = 0; i < 50 && !processes_under(board_dir() / "remote").empty(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_TRUE(processes_under(board_dir() / "remote").empty());
}

TEST_F(SshBoards, ABoardThatDoesNotAnswerIsSetAsideAndItsWorkGoesToTheOther) {
  // A port nothing listens on, first in the pool.
  const fs::path board = variant("dead-first", {{"hosts = [", "hosts = [\"root@127.0.0.1:1\", "}});
  const ProcessResult r = eval(board, (source_root() / "kernels" / "relu_f32" / "ker0.c").string());
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["measurement"]["host"].get<std::string>().find("127.0.0.1:1\""), std::string::npos);
  EXPECT_NE(r.err.find("set aside"), std::string::npos) << r.err;

  const fs::path dead = variant("all-dead", {{"hosts = [", "hosts = [\"root@127.0.0.1:1\"]\n# was: ["}});
  const ProcessResult d = eval(dead, (source_root() / "kernels" / "relu_f32" / "ker0.c").string());
  EXPECT_EQ(d.exit_code, 6) << d.err;
  const auto dj = nlohmann::json::parse(d.out);
  EXPECT_EQ(dj["status"], "infra_error");
  EXPECT_NE(dj["message"].get<std::string>().find("no board of"), std::string::npos) << dj["message"];
}

// Every descendant of `pid` (by walking /proc's parent links), deepest last.
std::vector<int> descendants(int pid) {
  std::vector<int> out = {pid};
  for (size_t i = 0; i < out.size(); ++i) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/proc", ec)) {
      const std::string name = e.path().filename().string();
      if (name.find_first_not_of("0123456789") != std::string::npos) continue;
      const std::string stat = read_if_exists(e.path() / "stat");
      const size_t close = stat.rfind(')');
      if (close == std::string::npos) continue;
      int ppid = 0;
      char state;
      if (std::sscanf(stat.c_str() + close + 1, " %c %d", &state, &ppid) == 2 && ppid == out[i])
        out.push_back(std::stoi(name));
    }
  }
  return out;
}

TEST_F(SshBoards, ABoardThatDiesMidRunIsSetAsideAndTheRunGoesToTheOther) {
  const std::string ker0 = (source_root() / "kernels" / "relu_f32" / "ker0.c").string();
  eval(profile(), ker0);  // compiled and cached: the next run reaches a board quickly
  fs::remove(board_dir() / "used.log");
  std::ofstream(board_dir() / "hold") << "";
  auto run = std::async(std::launch::async, [&] { return eval(profile(), ker0); });
  for (int i = 0; i < 300 && board_runs() == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_EQ(board_runs(), 1u) << "the run never reached a board";
  const std::string used = read_if_exists(board_dir() / "used.log").substr(0, 5);
  const int dying = used == port(1) ? 1 : 2;
  // The board goes away: its sshd and every session it serves.
  const int listener = std::stoi(read_if_exists(board_dir() / ("b" + std::to_string(dying)) / "sshd.pid"));
  for (int pid : descendants(listener)) kill(pid, SIGKILL);
  fs::remove(board_dir() / "hold");
  const ProcessResult r = run.get();
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "ok");
  EXPECT_NE(j["measurement"]["host"].get<std::string>().find(port(3 - dying)), std::string::npos) << j["measurement"];
  EXPECT_NE(r.err.find("set aside"), std::string::npos) << r.err;
  // Bring the board back for the tests after this one.
  ProcessSpec restart;
  restart.argv = {(source_root() / "tests" / "support" / "loopback_boards.sh").string(), "restart",
                  board_dir().string(), std::to_string(dying)};
  restart.limits.wall_seconds = 30;
  const ProcessResult back = run_process(restart);
  ASSERT_TRUE(back.ok()) << back.err;
}

TEST_F(SshBoards, TwoEvaluationsAtOnceUseBothBoardsOfThePool) {
  const std::string ker0 = (source_root() / "kernels" / "relu_f32" / "ker0.c").string();
  eval(profile(), ker0);  // compiles and caches everything first, so the two runs overlap on the boards
  fs::remove(board_dir() / "used.log");
  std::ofstream(board_dir() / "hold") << "";
  auto a = std::async(std::launch::async, [&] { return eval(profile(), ker0); });
  auto b = std::async(std::launch::async, [&] { return eval(profile(), ker0); });
  // Both runs wait on their boards: one board each, since a board times one run at a time.
  for (int i = 0; i < 100 && board_runs() < 2; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  fs::remove(board_dir() / "hold");
  EXPECT_EQ(a.get().exit_code, 0);
  EXPECT_EQ(b.get().exit_code, 0);
  const std::string log = read_if_exists(board_dir() / "used.log");
  EXPECT_NE(log.find(port(1)), std::string::npos) << log;
  EXPECT_NE(log.find(port(2)), std::string::npos) << log;
}

TEST_F(SshBoards, KillingEokLeavesNothingRunningOnTheBoard) {
  std::ofstream(board_dir() / "hold") << "";
  const fs::path pid_file = home_->path() / "eok.pid";
  ProcessSpec spec;
  const std::string eok_bin = (fs::path(EOK_BINARY_DIR) / "eok").string();
  spec.argv = {"sh", "-c",
               "EOK_HOME=" + home_->path().string() + " EOK_LLM_DISCOVER=false " + eok_bin +
                   " eval --task relu_f32 --no-baseline --board " + profile().string() + " --kernel " +
                   (source_root() / "kernels" / "relu_f32" / "ker0.c").string() + " & echo $! > " + pid_file.string() +
                   "; wait"};
  spec.cwd = source_root();
  spec.limits.wall_seconds = 120;
  auto run = std::async(std::launch::async, [&] { return run_process(spec); });
  // Wait until the kernel's program is on the board, then kill eok without warning.
  bool on_board = false;
  for (int i = 0; i < 300 && !on_board; ++i) {
    on_board = !processes_under(board_dir() / "remote").empty();
    if (!on_board) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_TRUE(on_board) << "the run never reached the board";
  const int pid = std::stoi(read_if_exists(pid_file));
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  run.get();
  bool gone = false;
  for (int i = 0; i < 50 && !gone; ++i) {
    gone = processes_under(board_dir() / "remote").empty();
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  fs::remove(board_dir() / "hold");
  EXPECT_TRUE(gone) << "processes still running on the board after eok was killed";
}

TEST_F(SshBoards, DoctorChecksEveryBoardOfThePoolByRunningAVectorProbeThere) {
  ProcessResult r = eok({"doctor", "--board", profile().string(), "--json"});
  auto j = nlohmann::json::parse(r.out);
  std::map<std::string, nlohmann::json> checks;
  for (const auto& c : j["checks"]) checks[c["name"]] = c;
  for (int b : {1, 2}) {
    const std::string host = "board root@127.0.0.1:" + port(b);
    ASSERT_TRUE(checks.count(host + " reachable")) << r.out;
    EXPECT_TRUE(checks[host + " reachable"]["ok"].get<bool>()) << checks[host + " reachable"];
    EXPECT_TRUE(checks[host + " runs RVV code"]["ok"].get<bool>()) << checks[host + " runs RVV code"];
    EXPECT_EQ(checks[host + " runs RVV code"]["detail"], "VLEN 256");
    // The emulated boards have no sensor, governor or perf: warnings, not failures.
    EXPECT_TRUE(checks[host + " temperature sensor"]["optional"].get<bool>());
  }
  // Without the exec prefix an x86 "board" cannot run the probe: the doctor says so and fails.
  const fs::path bare =
      variant("bare", {{"exec_prefix = [\"" + (board_dir() / "board-exec").string() + "\"]", "exec_prefix = []"}});
  r = eok({"doctor", "--board", bare.string(), "--json"});
  EXPECT_EQ(r.exit_code, 1);
  j = nlohmann::json::parse(r.out);
  bool failed = false;
  for (const auto& c : j["checks"]) {
    if (c["name"].get<std::string>().find("runs RVV code") != std::string::npos) failed = !c["ok"].get<bool>();
  }
  EXPECT_TRUE(failed) << r.out;
}

TEST_F(SshBoards, ASearchOnTheBoardsMeasuresItsChampionAgainKer0InTurns) {
  const ProcessResult r =
      eok({"search", "--task", "relu", "--seed", "5", "--board", profile().string(), "--json"}, 600);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto summary = nlohmann::json::parse(r.out);
  EXPECT_EQ(summary["state"], "finished");
  // The profile was given as a path: resuming the run finds it again, and so does export by its name.
  const ProcessResult again = eok({"search", "--resume", summary["run"], "--json"}, 600);
  EXPECT_EQ(again.exit_code, 0) << again.err;
  const fs::path out = home_->path() / "export";
  const ProcessResult exported = eok({"export", "--task", "relu_f32", "--board", "k1-loopback", "--out", out.string()});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  const auto provenance = nlohmann::json::parse(read_if_exists(out / "relu_f32.provenance.json"));
  EXPECT_EQ(provenance["board"], "k1-loopback");
  if (!provenance["run"].get<std::string>().empty()) {
    // A searched kernel leaves eok only after it was measured again in turns with ker0.
    EXPECT_EQ(provenance["remeasured_against_ker0"]["rounds"], 3) << provenance;
    EXPECT_NE(read_if_exists(out / "relu_f32.c").find("cycles measured on board k1-loopback"), std::string::npos);
  }
  if (summary["best_kernel_id"] != nullptr && summary.contains("remeasured_against_ker0")) {
    const auto& m = summary["remeasured_against_ker0"];
    EXPECT_EQ(m["rounds"], 3) << m;
    EXPECT_GT(m["noise_cycles"].get<double>(), 0) << m;
    // The reported speedup is the one measured in turns, or ker0 stands.
    if (m["faster"].get<bool>()) {
      EXPECT_NEAR(summary["best_speedup"].get<double>(),
                  m["baseline_cycles"].get<double>() / m["champion_cycles"].get<double>(), 1e-9);
    } else {
      EXPECT_DOUBLE_EQ(summary["best_speedup"].get<double>(), 1.0);
    }
  } else {
    // ker0 stood from the start: nothing to re-measure.
    EXPECT_DOUBLE_EQ(summary["best_speedup"].get<double>(), 1.0) << r.out;
  }
}

TEST_F(SshBoards, ABenchOfTwoSearchesAtOnceUsesBothBoardsOfThePool) {
  fs::remove(board_dir() / "used.log");
  // Both searches start by timing ker0; while the first board holds one of them, the other gets the
  // second board.
  std::ofstream(board_dir() / "hold") << "";
  auto bench = std::async(std::launch::async, [&] {
    return eok({"bench", "run", "--tasks", "relu_f32,clip_f32", "--jobs", "2", "--board", profile().string(), "--json"},
               900);
  });
  for (int i = 0; i < 600 && board_runs() < 2; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  fs::remove(board_dir() / "hold");
  const ProcessResult r = bench.get();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["state"], "finished") << r.out;
  const std::string log = read_if_exists(board_dir() / "used.log");
  EXPECT_NE(log.find(port(1)), std::string::npos) << log;
  EXPECT_NE(log.find(port(2)), std::string::npos) << log;
}

TEST_F(SshBoards, EokOnTheBoardItselfUsesTheLocalRunner) {
  // runner = "local": eok runs on the board; here the same exec prefix stands in for the RISC-V host.
  const fs::path local = board_dir() / "local.toml";
  std::ofstream(local) << "name = \"k1-here\"\nrunner = \"local\"\n[local]\nremote_dir = \""
                       << (board_dir() / "remote").string() << "\"\nexec_prefix = [\""
                       << (board_dir() / "board-exec").string() << "\"]\n[measure]\nrepeats = 4\n";
  const ProcessResult r = eval(local, (source_root() / "kernels" / "relu_f32" / "ker0.c").string());
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["board"], "k1-here");
  EXPECT_EQ(j["measurement"]["host"], "localhost");
  EXPECT_EQ(j["measurement"]["repeats"], 4);
}

TEST_F(SshBoards, TheBoardHarnessMakesOnlySystemCallsItsOwnFilterAllows) {
  // qemu-user cannot install the board harness's seccomp filter, so a missing entry would only show on a
  // real K1 (as SIGSYS). QEMU's -strace shows every system call the harness makes after it tried.
  const ProcessResult r =
      eok({"eval", "--task", "mish_f32", "--board", profile().string(), "--kernel",
           (source_root() / "kernels" / "mish_f32" / "ker0.c").string(), "--no-baseline", "--keep-temp"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t at = r.err.find("keeping ");
  ASSERT_NE(at, std::string::npos) << r.err;
  const fs::path kept = r.err.substr(at + 8, r.err.find('\n', at) - at - 8);
  ASSERT_TRUE(fs::exists(kept / "cand-board")) << kept;
  ProcessSpec trace;
  trace.argv = {
      "qemu-riscv64", "-strace", "-cpu", "rv64,v=true,vlen=256", (kept / "cand-board").string(), "--core", "0",
      "--flush",      "1048576"};
  trace.stdin_path = kept / "cand" / "plan.txt";  // the virtual run's plan: its timed calls and every check
  trace.limits.wall_seconds = 120;
  const ProcessResult t = run_process(trace);
  fs::remove_all(kept);
  ASSERT_EQ(t.exit_code, 0) << t.err.substr(0, 2000);
  // The list in install_seccomp() (evaluator/target/harness.c).
  const std::set<std::string> allowed = {
      "read",          "write",      "exit",         "exit_group",   "mmap",           "munmap",
      "mprotect",      "brk",        "rt_sigreturn", "rt_sigaction", "rt_sigprocmask", "sigaltstack",
      "clock_gettime", "newfstatat", "fstat",        "madvise",      "getrandom",      "futex"};
  std::istringstream lines(t.err);
  std::string line;
  bool after = false;
  int calls = 0;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string pid, call;
    words >> pid >> call;
    call = call.substr(0, call.find('('));
    if (call.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    if (call == "seccomp") {
      after = true;
      continue;
    }
    if (!after) continue;
    ++calls;
    EXPECT_TRUE(allowed.count(call)) << "the harness calls " << call << " after its filter: " << line;
  }
  EXPECT_TRUE(after) << "the harness never tried to install its filter";
  EXPECT_GT(calls, 10);
}

TEST_F(SshBoards, ATimeNoKernelCanReachIsNotBelieved) {
  // A "board" whose records come back forged: every call took 1 tick (what a kernel that overwrote the
  // harness's timer state could report).
  const fs::path forge = board_dir() / "forge-exec";
  std::ofstream(forge)
      << "#!/bin/sh\n"
         "qemu-riscv64 -cpu rv64,v=true,vlen=256,elen=64,vext_spec=v1.0,Zfh=true,zba=true,zbb=true,zbs=true \"$@\" | "
         "python3 -c '\n"
         "import struct, sys\n"
         "d = bytearray(sys.stdin.buffer.read()); i = 0\n"
         "sizes = {0x44524f42: 32, 0x454d4954: 16, 0x4c474953: 40}\n"
         "while i + 4 <= len(d):\n"
         "    m = struct.unpack_from(\"<I\", d, i)[0]\n"
         "    if m == 0x454d4954: struct.pack_into(\"<Q\", d, i + 8, 1)\n"
         "    i += sizes.get(m, len(d))\n"
         "sys.stdout.buffer.write(d)'\n";
  fs::permissions(forge, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read |
                             fs::perms::others_exec);
  const fs::path board = variant("forged", {{"exec_prefix = [\"" + (board_dir() / "board-exec").string() + "\"]",
                                             "exec_prefix = [\"" + forge.string() + "\"]"}});
  const ProcessResult r = eval(board, (source_root() / "kernels" / "relu_f32" / "ker0.c").string());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "rejected") << j["message"];
  EXPECT_EQ(j["evidence"]["rule"], "beyond-roofline") << j["message"];
}

TEST_F(SshBoards, AMisconfiguredProfileNamesTheKeyToFix) {
  const fs::path board = variant("no-hosts", {{"hosts = [", "# hosts = ["}});
  const ProcessResult r = eval(board, (source_root() / "kernels" / "relu_f32" / "ker0.c").string());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("ssh.hosts"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace eok::testing
