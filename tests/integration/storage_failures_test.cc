// Storage that fails eok, made real in a mount namespace of the test's own (nothing outside sees it):
// - a full disk is the machine's failure, never a kernel's: with the workspace on a small tmpfs filled to
//   several levels, a correct kernel is judged ok or infra_error, never a kernel status; nothing judged on
//   the full disk is kept; a search stopped by the disk continues with --resume once space is freed;
// - a read-only workspace can still be browsed (runs, leaderboard, kernels, show, report), and a command
//   that must write says why it cannot.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "src/common/fs_util.h"
#include "db/db_test_support.h"
#include "src/db/kernel_db.h"
#include "support/board_fixture.h"

namespace eok::testing {
namespace {

namespace fs = std::filesystem;

// Free space left on the disk for each judged candidate, in KiB: from "cannot even write the source" to
// "the harness's results no longer fit" (the levels that were misjudged as runtime_error once).
const std::vector<int> kFreeKiB = {16, 256, 1024, 2100, 2700, 3100};

// The task's ker0 made a distinct kernel (its own hash, so no cache answers for it).
std::string variant(const std::string& ker0, int n) {
  return ker0 + "\nstatic const int eok_full_disk_variant_" + std::to_string(n) + " = " + std::to_string(n) + ";\n";
}

std::string read_or_empty(const fs::path& p) {
  return fs::exists(p) ? read_file(p) : std::string();
}

int read_rc(const fs::path& p) {
  const std::string text = read_or_empty(p);
  return text.empty() ? -1 : std::stoi(text);
}

// Runs `script` with sh in a mount namespace of its own, with `env`; nullopt (the test is skipped) where
// namespaces or mounts are not allowed: the script exits 77 when its mount fails.
std::optional<ProcessResult> in_own_mount_namespace(const std::string& script, std::vector<std::string> env) {
  if (::geteuid() != 0) return std::nullopt;
  const auto unshare = find_on_path("unshare");
  if (!unshare) return std::nullopt;
  ProcessSpec spec;
  spec.argv = {unshare->string(), "--mount", "--propagation", "private", "sh", "-c", script};
  env.push_back("EOK=" + (fs::path(EOK_BINARY_DIR) / "eok").string());
  env.push_back("ROOT=" + source_root().string());
  env.push_back(std::string("PATH=") + (std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin"));
  spec.env = env;
  spec.limits.wall_seconds = 600;
  ProcessResult r = run_process(spec);
  if (r.exit_code == 77 || (!r.ok() && r.err.find("unshare:") != std::string::npos)) return std::nullopt;
  return r;
}

constexpr const char* kNeedsNamespaces = "needs root, unshare (util-linux) and mounts in a mount namespace of its own";

TEST(FullDisk, NoKernelIsBlamedAndASearchStoppedByTheDiskResumes) {
  TempDir dir(fs::temp_directory_path(), "eok-full-disk-");
  const fs::path& d = dir.path();
  fs::create_directories(d / "disk");
  const std::string ker0 = read_file(source_root() / "kernels" / "relu_f32" / "ker0.c");
  for (int free : kFreeKiB) write_file_atomic(d / ("cand-" + std::to_string(free) + ".c"), variant(ker0, free));

  // Each step's exit code goes to a file beside its output, read back by the test below.
  const std::string script = R"SH(
set -u
mount -t tmpfs -o size=48m tmpfs "$D/disk" || exit 77
export EOK_HOME="$D/disk/ws" EOK_LLM_DISCOVER=false
cd "$ROOT"
fill() {  # leave $1 KiB free on the disk
  avail=$(df -k --output=avail "$D/disk" | tail -1)
  dd if=/dev/zero of="$D/disk/fill" bs=1K count=$((avail - $1)) 2>/dev/null
}
"$EOK" eval --task relu_f32 --kernel kernels/relu_f32/ker0.c --json > "$D/warm.json" 2>&1; echo $? > "$D/warm.rc"
for free in $FREE; do
  fill "$free"
  "$EOK" eval --task relu_f32 --kernel "$D/cand-$free.c" --json > "$D/full-$free.json" 2>/dev/null; echo $? > "$D/full-$free.rc"
  rm -f "$D/disk/fill"
done
for free in $FREE; do
  "$EOK" eval --task relu_f32 --kernel "$D/cand-$free.c" --json > "$D/freed-$free.json" 2>/dev/null; echo $? > "$D/freed-$free.rc"
done
fill 1024
"$EOK" search --task relu_f32 --board k1 --run-id on-full-disk > "$D/search.out" 2> "$D/search.err"; echo $? > "$D/search.rc"
rm -f "$D/disk/fill"
"$EOK" runs --json > "$D/runs-stopped.json" 2>&1
"$EOK" search --resume on-full-disk > "$D/resume.out" 2> "$D/resume.err"; echo $? > "$D/resume.rc"
"$EOK" runs --json > "$D/runs-resumed.json" 2>&1
exit 0
)SH";
  std::string frees;
  for (int free : kFreeKiB) frees += (frees.empty() ? "" : " ") + std::to_string(free);
  const auto run = in_own_mount_namespace(script, {"D=" + d.string(), "FREE=" + frees});
  if (!run) GTEST_SKIP() << kNeedsNamespaces;
  const ProcessResult& r = *run;
  ASSERT_EQ(r.exit_code, 0) << r.describe() << r.err;
  ASSERT_EQ(read_rc(d / "warm.rc"), 0) << read_or_empty(d / "warm.json");

  int infra = 0;
  for (int free : kFreeKiB) {
    const std::string tag = std::to_string(free) + " KiB free";
    const int rc = read_rc(d / ("full-" + std::to_string(free) + ".rc"));
    const std::string out = read_or_empty(d / ("full-" + std::to_string(free) + ".json"));
    // Judged again with space, every candidate is correct: nothing judged on the full disk was kept.
    EXPECT_EQ(read_rc(d / ("freed-" + std::to_string(free) + ".rc")), 0)
        << tag << ", then freed: " << read_or_empty(d / ("freed-" + std::to_string(free) + ".json"));
    // 0: it fitted; 6: infra_error; 9: eok could not write what it needed before judging anything.
    EXPECT_TRUE(rc == 0 || rc == 6 || rc == 9) << tag << ": exit " << rc << "\n" << out;
    const auto j = nlohmann::json::parse(out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << tag << ": not JSON: " << out;
    if (rc == 9) {
      EXPECT_EQ(j["error"]["kind"], "storage") << tag << ": " << out;
      ++infra;
      continue;
    }
    const std::string status = j.value("status", "");
    EXPECT_TRUE(status == "ok" || status == "infra_error")
        << tag << ": a correct kernel judged " << status << ": " << j.value("message", "");
    if (status == "infra_error") {
      ++infra;
      // Which step ran out first varies (the compiler, the linker, the harness): each names the disk.
      EXPECT_NE(j.value("message", "").find("disk"), std::string::npos) << tag << ": " << j.value("message", "");
    }
  }
  EXPECT_GE(infra, 3) << "the disk was never full enough to matter: the test no longer tests anything";

  // The search stopped because of the disk, said so, and says how to go on.
  const int search_rc = read_rc(d / "search.rc");
  const std::string search_err = read_or_empty(d / "search.err");
  EXPECT_TRUE(search_rc == 6 || search_rc == 9) << "exit " << search_rc << "\n" << search_err;
  EXPECT_NE(search_err.find("eok search --resume on-full-disk"), std::string::npos) << search_err;
  const auto stopped = nlohmann::json::parse(read_or_empty(d / "runs-stopped.json"), nullptr, false);
  ASSERT_TRUE(stopped.is_array() && stopped.size() == 1) << read_or_empty(d / "runs-stopped.json");
  EXPECT_EQ(stopped[0]["state"], "stopped");

  EXPECT_EQ(read_rc(d / "resume.rc"), 0) << read_or_empty(d / "resume.err");
  const auto resumed = nlohmann::json::parse(read_or_empty(d / "runs-resumed.json"), nullptr, false);
  ASSERT_TRUE(resumed.is_array() && resumed.size() == 1) << read_or_empty(d / "runs-resumed.json");
  EXPECT_EQ(resumed[0]["state"], "finished");
}

TEST(ReadOnlyWorkspace, IsBrowsedAndACommandThatMustWriteSaysWhy) {
  TempDir dir(fs::temp_directory_path(), "eok-read-only-");
  const fs::path& d = dir.path();
  {
    auto db = db::KernelDb::open(d / "ws" / "eok.db");
    db::RunRecord run = db::testing::make_run("r-browsed");
    run.state = db::RunState::finished;
    db->create_run(run);
    db::KernelRecord k = db::testing::make_kernel("", "0123456789abcdef");
    k.source = read_file(source_root() / "kernels" / "relu_f32" / "ker0.c");
    db->ensure_ker0(k);
  }
  const std::string script = R"SH(
set -u
mount --bind -o ro "$D/ws" "$D/ws" || exit 77
export EOK_HOME="$D/ws" EOK_LLM_DISCOVER=false
cd "$ROOT"
for cmd in runs leaderboard kernels show report eval; do
  case $cmd in
    kernels) args="kernels --task relu_f32" ;;
    show) args="show 1" ;;
    report) args="report --out $D/report" ;;
    eval) args="eval --task relu_f32 --kernel kernels/relu_f32/ker0.c --json" ;;
    *) args=$cmd ;;
  esac
  "$EOK" $args > "$D/$cmd.out" 2> "$D/$cmd.err"; echo $? > "$D/$cmd.rc"
done
exit 0
)SH";
  const auto run = in_own_mount_namespace(script, {"D=" + d.string()});
  if (!run) GTEST_SKIP() << kNeedsNamespaces;
  ASSERT_EQ(run->exit_code, 0) << run->describe() << run->err;
  for (const char* cmd : {"runs", "leaderboard", "kernels", "show", "report"}) {
    EXPECT_EQ(read_rc(d / (std::string(cmd) + ".rc")), 0)
        << "eok " << cmd << " on a read-only workspace: " << read_or_empty(d / (std::string(cmd) + ".err"));
  }
  EXPECT_NE(read_or_empty(d / "runs.out").find("r-browsed"), std::string::npos) << read_or_empty(d / "runs.out");
  EXPECT_NE(read_or_empty(d / "show.out").find("relu_f32"), std::string::npos) << read_or_empty(d / "show.out");
  EXPECT_TRUE(fs::exists(d / "report" / "index.html"));
  // eval needs scratch space in the workspace: it says the file system is read-only and where to go instead.
  EXPECT_EQ(read_rc(d / "eval.rc"), 9);
  const auto j = nlohmann::json::parse(read_or_empty(d / "eval.out"), nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << read_or_empty(d / "eval.out");
  EXPECT_EQ(j["error"]["kind"], "storage");
  const std::string message = j["error"]["message"];
  EXPECT_NE(message.find("read-only"), std::string::npos) << message;
  EXPECT_NE(message.find("EOK_HOME"), std::string::npos) << message;
}

}  // namespace
}  // namespace eok::testing
