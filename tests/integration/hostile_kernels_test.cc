// The hostile-kernel suite: every kernel in tests/fixtures/hostile/ attacks the evaluator the way the
// audit of issue 11 did (work after the timed call, system calls by code reuse, forged measurements,
// unchecked executable bytes, forged references, inputs known in advance, source-rule bypasses, blaming
// eok, resources and identity). Each runs through `eok eval --json` as a user would, and must
//  - end with one of the statuses its header expects, never infra_error, and never a speedup;
//  - leave eok itself intact: a normal exit with a kernel status code, exactly one JSON object on stdout;
//  - change nothing outside its evaluation: the canary directory the kernels aim at, a victim process
//    (alive, not stopped), no file they try to create, no host file's content in the result.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "support/board_fixture.h"

namespace eok::testing {
namespace {

namespace fs = std::filesystem;

// The paths the hostile kernels aim at (they cannot be told a random one).
const fs::path kCanary = "/tmp/eok-hostile-canary";
const fs::path kPwned = "/tmp/eok-hostile-pwned";

struct Hostile {
  std::string name, task, source;
  std::set<std::string> expect;
};

void PrintTo(const Hostile& h, std::ostream* os) {
  *os << h.name << " (" << h.task << ")";
}

std::string header_field(const std::string& header, const std::string& key) {
  std::smatch m;
  const std::regex re(key + "=([A-Za-z0-9_,]+)");
  return std::regex_search(header, m, re) ? m[1].str() : "";
}

std::vector<Hostile> load_hostiles() {
  const fs::path dir = fs::path(EOK_TEST_DATA_DIR) / "fixtures" / "hostile";
  std::vector<Hostile> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".c") continue;
    const std::string text = read_file(e.path());
    const std::string header = text.substr(0, text.find('\n'));
    Hostile h;
    h.name = e.path().stem().string();
    h.task = header_field(header, "task");
    const std::string expect = header_field(header, "expect");
    for (size_t pos = 0; pos <= expect.size();) {
      const size_t comma = std::min(expect.find(',', pos), expect.size());
      h.expect.insert(expect.substr(pos, comma - pos));
      pos = comma + 1;
    }
    h.source = header_field(header, "uses") == "syscall_gadget" ? read_file(dir / "syscall_gadget.inc") + text : text;
    out.push_back(std::move(h));
  }
  std::sort(out.begin(), out.end(), [](const Hostile& a, const Hostile& b) { return a.name < b.name; });
  return out;
}

// Everything about the canary directory that a kernel could change.
std::string snapshot(const fs::path& dir) {
  std::string s;
  for (const auto& e : fs::directory_iterator(dir)) {
    struct stat st{};
    lstat(e.path().c_str(), &st);
    s += e.path().filename().string() + " mode=" + std::to_string(st.st_mode) + " size=" + std::to_string(st.st_size) +
         " mtime=" + std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec) +
         " nlink=" + std::to_string(st.st_nlink) + "\n";
    char xattr[64];
    if (getxattr(e.path().c_str(), "user.pwned", xattr, sizeof xattr) >= 0) s += "xattr user.pwned\n";
    if (fs::is_regular_file(e.path())) s += read_file(e.path()) + "\n";
  }
  return s;
}

// A state letter of /proc/<pid>/stat: R, S, T (stopped), Z...
char process_state(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(in, line);
  const size_t paren = line.rfind(')');
  return paren != std::string::npos && paren + 2 < line.size() ? line[paren + 2] : '?';
}

class HostileKernels : public ::testing::TestWithParam<Hostile> {
 protected:
  static void SetUpTestSuite() {
    // One workspace for every process of the suite (ctest runs each kernel in its own): ker0's
    // measurement is cached once per task.
    home_ = fs::path(EOK_BINARY_DIR) / "hostile-kernels-home";
    fs::create_directories(home_);
    fs::create_directories(kCanary);
    if (!fs::exists(kCanary / "canary.txt")) write_file_atomic(kCanary / "canary.txt", "a file no kernel may touch\n");
    victim_ = fork();
    if (victim_ == 0) {
      setsid();
      execl("/bin/sleep", "sleep", "600", static_cast<char*>(nullptr));
      _exit(127);
    }
  }
  static void TearDownTestSuite() {
    if (victim_ > 0) {
      kill(victim_, SIGKILL);
      waitpid(victim_, nullptr, 0);
    }
  }
  static fs::path home_;
  static pid_t victim_;
};
fs::path HostileKernels::home_;
pid_t HostileKernels::victim_ = -1;

TEST_P(HostileKernels, GainNothingChangeNothingBlameNobody) {
  const Hostile& h = GetParam();
  ASSERT_FALSE(h.task.empty()) << h.name << ": no task= in its header";
  const std::string before = snapshot(kCanary);
  TempDir dir(fs::temp_directory_path(), "eok-hostile-");
  const fs::path kernel = dir.path() / (h.name + ".c");
  write_file_atomic(kernel, h.source);

  ProcessResult r =
      run_eok({"eval", "--task", h.task, "--kernel", kernel.string(), "--json", "--seed", "7"}, home_, 300);
  ASSERT_TRUE(r.started) << r.spawn_error;
  // eok itself: not killed, not hung, a kernel status code (0 ok, 1 any other kernel status).
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.term_signal, 0) << r.describe();
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.describe() << "\n" << r.err;
  // Its stdout is exactly one JSON object, whatever the kernel wrote.
  nlohmann::json j;
  ASSERT_NO_THROW(j = nlohmann::json::parse(r.out)) << r.out.substr(0, 500);
  ASSERT_TRUE(j.is_object());
  const std::string status = j.value("status", "");
  EXPECT_TRUE(h.expect.count(status)) << h.name << ": " << status << ": " << j.value("message", "");
  EXPECT_NE(status, "infra_error") << j.value("message", "");
  if (status == "ok") {
    ASSERT_TRUE(j.contains("speedup") && j["speedup"].is_number());
    EXPECT_LE(j["speedup"].get<double>(), 1.1) << h.name << " gained a speedup";
  }

  // Nothing outside the evaluation changed.
  EXPECT_EQ(snapshot(kCanary), before) << h.name << " changed the canary directory";
  EXPECT_FALSE(fs::exists(kPwned)) << h.name << " created " << kPwned;
  if (fs::exists(kPwned)) fs::remove(kPwned);
  ASSERT_GT(victim_, 0);
  const char state = process_state(victim_);
  EXPECT_TRUE(state == 'S' || state == 'R') << "the victim process is in state " << state;
  if (state == 'T') kill(victim_, SIGCONT);
  // No host file's content came back (a compiler message, mismatch evidence, the run log).
  std::ifstream passwd("/etc/passwd");
  std::string first;
  std::getline(passwd, first);
  if (!first.empty()) {
    EXPECT_EQ(r.out.find(first.substr(0, first.find(':') + 2)), std::string::npos) << "leaked /etc/passwd";
  }
  // A rejected kernel's object does not stay in the cache.
  uint64_t cached = 0;
  if (fs::exists(home_ / "cache" / "objects")) {
    for (const auto& e : fs::recursive_directory_iterator(home_ / "cache" / "objects")) {
      if (e.is_regular_file()) cached += e.file_size();
    }
  }
  EXPECT_LT(cached, 64ull << 20);
}

INSTANTIATE_TEST_SUITE_P(Suite, HostileKernels, ::testing::ValuesIn(load_hostiles()),
                         [](const ::testing::TestParamInfo<Hostile>& info) { return info.param.name; });

}  // namespace
}  // namespace eok::testing
