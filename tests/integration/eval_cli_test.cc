// The eok program as users run it: exit codes, --json output, errors that say what to do.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "src/common/fs_util.h"
#include "src/db/kernel_db.h"
#include "support/board_fixture.h"

namespace eok::testing {
namespace {

namespace fs = std::filesystem;

class EokCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { home_ = std::make_unique<TempDir>(fs::temp_directory_path(), "eok-cli-home-"); }
  static void TearDownTestSuite() { home_.reset(); }

  static ProcessResult eok(std::vector<std::string> args) { return run_eok(args, home_->path(), 300); }
  static std::unique_ptr<TempDir> home_;
};
std::unique_ptr<TempDir> EokCli::home_;

TEST_F(EokCli, EvalJsonHasTheDocumentedFields) {
  ProcessResult r =
      eok({"eval", "--task", "mish", "--kernel", "kernels/mish_f32/ker0.c", "--board", "k1", "--json", "--seed", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["task"], "mish_f32");
  EXPECT_GT(j["cycles"].get<double>(), 0);
  EXPECT_GT(j["baseline_cycles"].get<double>(), 0);
  EXPECT_NEAR(j["speedup"].get<double>(), 1.0, 0.05);
  EXPECT_TRUE(j["message"].is_string());
  EXPECT_EQ(j["seed"], 3);
  EXPECT_TRUE(j["profile"]["hot_blocks"].is_array());
  EXPECT_NE(r.err.find("resolves to mish_f32"), std::string::npos) << r.err;
}

TEST_F(EokCli, FailingKernelExitsOneWithItsStatus) {
  const fs::path bad = fs::path(EOK_TEST_DATA_DIR) / "fixtures" / "candidates" / "relu_wrong.c";
  ProcessResult r = eok({"eval", "--task", "relu_f32", "--kernel", bad.string(), "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "wrong_answer");
  EXPECT_TRUE(j["cycles"].is_null());
  EXPECT_FALSE(j["evidence"]["mismatches"].empty());
}

TEST_F(EokCli, HumanOutputShowsStatusCyclesAndProfile) {
  ProcessResult r = eok({"eval", "--task", "relu_f32", "--kernel", "kernels/relu_f32/ker0.c"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* want :
       {"status  ok", "cycles ", "-bound", "median of 3 timed calls", "speedup", "hot blocks:", "vle32.v"}) {
    EXPECT_NE(r.out.find(want), std::string::npos) << want << " missing from:\n" << r.out;
  }
}

TEST_F(EokCli, UserMistakesGetClearMessagesAndExitCodes) {
  ProcessResult unknown = eok({"eval", "--task", "nosuch", "--kernel", "kernels/relu_f32/ker0.c"});
  EXPECT_EQ(unknown.exit_code, 3);
  EXPECT_NE(unknown.err.find("unknown task 'nosuch'"), std::string::npos) << unknown.err;
  ProcessResult missing = eok({"eval", "--task", "relu_f32", "--kernel", "no/such/file.c"});
  EXPECT_EQ(missing.exit_code, 3);
  EXPECT_NE(missing.err.find("no such file: no/such/file.c"), std::string::npos) << missing.err;
  ProcessResult board = eok({"eval", "--task", "relu_f32", "--kernel", "kernels/relu_f32/ker0.c", "--board", "nope"});
  EXPECT_EQ(board.exit_code, 3);
  EXPECT_NE(board.err.find("unknown board 'nope'"), std::string::npos) << board.err;
  ProcessResult no_args = eok({"eval"});
  EXPECT_NE(no_args.exit_code, 0);
  EXPECT_NE(no_args.err.find("--task is required"), std::string::npos) << no_args.err;
}

TEST_F(EokCli, InputsThatAreNotRegularFilesOrTooLargeAreRefusedAtOnce) {
  // A regression would read /dev/zero without end: bounded in time and memory, it fails instead of
  // taking the machine down.
  auto bounded = [](std::vector<std::string> args) { return run_eok(args, home_->path(), 60, 4ull << 30); };
  ProcessResult zero = bounded({"eval", "--task", "relu_f32", "--kernel", "/dev/zero"});
  EXPECT_EQ(zero.exit_code, 2) << zero.err;
  EXPECT_FALSE(zero.timed_out);
  EXPECT_NE(zero.err.find("kernel source /dev/zero is a character device, not a regular file"), std::string::npos)
      << zero.err;

  TempDir dir(fs::temp_directory_path(), "eok-cli-inputs-");
  const fs::path fifo = dir.path() / "kernel.c";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  ProcessResult pipe = bounded({"eval", "--task", "relu_f32", "--kernel", fifo.string()});
  EXPECT_EQ(pipe.exit_code, 2) << pipe.err;
  EXPECT_NE(pipe.err.find("is a FIFO (named pipe), not a regular file"), std::string::npos) << pipe.err;

  const fs::path big = dir.path() / "big.c";
  write_file_atomic(big, std::string(kKernelSourceMaxBytes + 1, ' '));
  ProcessResult large = bounded({"eval", "--task", "relu_f32", "--kernel", big.string()});
  EXPECT_EQ(large.exit_code, 2) << large.err;
  EXPECT_NE(large.err.find("over eok's limit of 256 KiB"), std::string::npos) << large.err;

  ProcessResult config = bounded({"search", "--task", "relu_f32", "--config", "/dev/zero"});
  EXPECT_EQ(config.exit_code, 2) << config.err;
  EXPECT_NE(config.err.find("settings file /dev/zero is a character device"), std::string::npos) << config.err;
}

TEST_F(EokCli, HelpTeachesAndVersionAnswers) {
  ProcessResult help = eok({"eval", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  for (const char* want : {"Statuses:", "Example:", "--json", "--seed"})
    EXPECT_NE(help.out.find(want), std::string::npos) << want;
  ProcessResult version = eok({"--version"});
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.out.rfind("eok ", 0), 0u) << version.out;
}

// One exit-code table for every command, usage mistakes included, and errors as JSON under --json.
TEST_F(EokCli, ExitCodesAreOneTableAndErrorsSpeakJson) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"search", "--no-such-flag"},
                                             {"eval", "--task"},
                                             {"leaderboard", "--task", "relu", "extra"},
                                             {"frobnicate"}}) {
    const ProcessResult r = eok(args);
    EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.err;
  }
  const ProcessResult missing = eok({"show", "424242", "--json"});
  EXPECT_EQ(missing.exit_code, 3);
  const auto j = nlohmann::json::parse(missing.out);
  EXPECT_EQ(j["error"]["kind"], "not_found");
  EXPECT_EQ(j["error"]["exit_code"], 3);
  EXPECT_NE(j["error"]["message"].get<std::string>().find("no kernel #424242"), std::string::npos);
  const ProcessResult usage = eok({"runs", "--json", "--bogus"});
  EXPECT_EQ(usage.exit_code, 2);
  EXPECT_EQ(nlohmann::json::parse(usage.out)["error"]["kind"], "usage");
  EXPECT_NE(eok({"--help"}).out.find("Exit codes (every command)"), std::string::npos);
}

// A data root of one's own: everything it lacks is named at once; a broken task.toml is reported and
// skipped, and the other tasks are still listed.
TEST_F(EokCli, AnOwnDataRootIsCheckedWholeAndABrokenTaskIsSkipped) {
  TempDir root(fs::temp_directory_path(), "eok-root-");
  fs::create_directories(root.path() / "kernels");
  ProcessResult lacking = eok({"--root", root.path().string(), "tasks"});
  EXPECT_EQ(lacking.exit_code, 3);
  for (const char* part : {"configs/boards/", "evaluator/target/", "prompts/"}) {
    EXPECT_NE(lacking.err.find(part), std::string::npos) << part << " not named: " << lacking.err;
  }
  for (const char* part : {"configs", "evaluator/target", "prompts", "kernels/relu_f32"}) {
    fs::create_directories(root.path() / part);
    fs::copy(source_root() / part, root.path() / part,
             fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  }
  fs::create_directories(root.path() / "kernels" / "broken_f32");
  write_file_atomic(root.path() / "kernels" / "broken_f32" / "task.toml", "id = \"broken_f32\"\nsignature = 7\n");
  ProcessResult listed = eok({"--root", root.path().string(), "tasks", "--json"});
  EXPECT_EQ(listed.exit_code, 2) << "a broken task is worth a non-zero exit, not silence";
  const auto tasks = nlohmann::json::parse(listed.out);
  ASSERT_EQ(tasks.size(), 1u);
  EXPECT_EQ(tasks[0]["id"], "relu_f32");
  EXPECT_NE(listed.err.find("task broken_f32 skipped"), std::string::npos) << listed.err;
}

TEST_F(EokCli, TasksAndDoctorSpeakJson) {
  ProcessResult tasks = eok({"tasks", "--json"});
  ASSERT_EQ(tasks.exit_code, 0) << tasks.err;
  auto list = nlohmann::json::parse(tasks.out);
  EXPECT_GE(list.size(), 6u);
  ProcessResult doctor = eok({"doctor", "--json"});
  auto report = nlohmann::json::parse(doctor.out);
  EXPECT_EQ(doctor.exit_code, report["ok"].get<bool>() ? 0 : 1);
  for (const auto& c : report["checks"]) EXPECT_TRUE(c["ok"].get<bool>() || c["optional"].get<bool>()) << c.dump();
}

TEST_F(EokCli, SearchWithoutLlmTunesAndEveryReviewCommandShowsTheResult) {
  // No LLM anywhere (discovery off): the tuner runs, says so, and the task lands on the leaderboard.
  ProcessResult search = eok({"search", "--task", "relu", "--seed", "5", "--json"});
  ASSERT_EQ(search.exit_code, 0) << search.err;
  EXPECT_NE(search.err.find("running the non-LLM knob tuner"), std::string::npos) << search.err;
  const auto summary = nlohmann::json::parse(search.out);
  const std::string run = summary["run"];
  const int64_t best = summary["best_kernel_id"];
  EXPECT_EQ(summary["method"], "tuner");
  EXPECT_EQ(summary["state"], "finished");

  const auto runs = nlohmann::json::parse(eok({"runs", "--json"}).out);
  ASSERT_FALSE(runs.empty());
  EXPECT_EQ(runs[0]["id"], run);
  EXPECT_EQ(runs[0]["state"], "finished");
  const auto board = nlohmann::json::parse(eok({"leaderboard", "--task", "relu_f32", "--json"}).out);
  ASSERT_EQ(board.size(), 1u);
  EXPECT_EQ(board[0]["best_kernel_id"], best);
  // "relu" names relu_f32 for every command, as it does for search and kernels.
  EXPECT_EQ(nlohmann::json::parse(eok({"leaderboard", "--task", "relu", "--json"}).out), board);
  EXPECT_EQ(nlohmann::json::parse(eok({"runs", "--task", "relu", "--json"}).out).size(), 1u);
  // A resumed run keeps its configuration, and says so when flags would change it.
  const ProcessResult resumed = eok({"search", "--resume", run, "--iterations", "9", "--json"});
  EXPECT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_NE(resumed.err.find("--iterations ignored"), std::string::npos) << resumed.err;
  const auto kernels = nlohmann::json::parse(eok({"kernels", "--task", "relu", "--run", run, "--json"}).out);
  ASSERT_FALSE(kernels.empty());
  for (const auto& k : kernels) {
    for (const char* field : {"id", "hash", "status", "cycles", "speedup", "operator", "parents"})
      EXPECT_TRUE(k.contains(field)) << field;
  }
  const int64_t some = kernels[0]["id"];
  const auto shown = nlohmann::json::parse(eok({"show", std::to_string(some), "--json"}).out);
  EXPECT_FALSE(shown["source"].get<std::string>().empty());
  EXPECT_FALSE(shown["lineage"].empty());
  EXPECT_NE(shown["diff_ker0"].get<std::string>().find("@@"), std::string::npos);

  TempDir out(fs::temp_directory_path(), "eok-export-");
  ProcessResult exported = eok({"export", "--task", "relu_f32", "--out", out.path().string(), "--json"});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  const auto provenance = nlohmann::json::parse(exported.out);
  EXPECT_EQ(provenance["files"].size(), 3u);
  EXPECT_EQ(provenance["task"], "relu_f32");
  // What was exported compiles as it is, against its own header.
  ProcessSpec cc;
  cc.argv = {"clang-22",
             "--target=riscv64-linux-gnu",
             "-march=rv64gcv",
             "-O3",
             "-c",
             (out.path() / "relu_f32.c").string(),
             "-o",
             (out.path() / "relu_f32.o").string()};
  ProcessResult compiled = run_process(cc);
  EXPECT_TRUE(compiled.ok()) << compiled.err;
  EXPECT_TRUE(fs::exists(out.path() / "relu_f32.provenance.json"));

  // A kernel on record as the fastest and correct, but wrong on any other inputs (what a kernel right only
  // on the seed it was judged with looks like), with an idea that tries to leave the comment: export
  // checks it again on fresh inputs, demotes it, and exports the next one; the idea never becomes code.
  {
    auto db = db::KernelDb::open(Workspace::open(home_->path()).database_path());
    db::KernelRecord lucky;
    lucky.run_id = run;
    lucky.task = "relu_f32";
    lucky.board = "k1";
    lucky.hash = "lucky-kernel";
    lucky.source = "#include <stddef.h>\nvoid relu_f32(float *x, size_t n) { (void)x; (void)n; }\n";
    lucky.description = "*/ __attribute__((constructor)) static void own(void) {} /*";
    lucky.op = "M1";
    const int64_t id = db->insert_kernel(lucky);
    db::EvaluationRecord forged;
    forged.kernel_id = id;
    forged.status = EvalStatus::ok;
    forged.message = "correct";
    forged.evidence_json = "{}";
    forged.cycles = 10;
    forged.baseline_cycles = 1000;
    forged.speedup = 100;
    forged.seed = 1;
    db->insert_evaluation(forged);
    TempDir again(fs::temp_directory_path(), "eok-export-");
    ProcessResult refused = eok({"export", "--task", "relu_f32", "--out", again.path().string()});
    ASSERT_EQ(refused.exit_code, 0) << refused.err;
    EXPECT_NE(refused.err.find("kernel #" + std::to_string(id) + " fails on fresh inputs"), std::string::npos)
        << refused.err;
    const std::string c = read_file(again.path() / "relu_f32.c");
    EXPECT_EQ(c.find("(void)x; (void)n;"), std::string::npos) << "the kernel wrong on fresh inputs was exported";
    const auto prov = nlohmann::json::parse(read_file(again.path() / "relu_f32.provenance.json"));
    EXPECT_NE(prov["kernel_id"], id);
    const auto demoted = nlohmann::json::parse(eok({"show", std::to_string(id), "--json"}).out);
    EXPECT_EQ(demoted["evaluation"]["status"], "wrong_answer");
    // Exported from the comment-breaking idea, had it won: checked on the helper directly.
    lucky.hash = "lucky-kernel-2";
    lucky.source = read_file(source_root() / "kernels" / "relu_f32" / "ker0.c") + "\n/* a copy with a new hash */\n";
    const int64_t id2 = db->insert_kernel(lucky);
    forged.kernel_id = id2;
    forged.cycles = 5;
    db->insert_evaluation(forged);
    TempDir third(fs::temp_directory_path(), "eok-export-");
    ProcessResult ok = eok({"export", "--task", "relu_f32", "--out", third.path().string()});
    ASSERT_EQ(ok.exit_code, 0) << ok.err;
    const std::string c2 = read_file(third.path() / "relu_f32.c");
    EXPECT_NE(c2.find("kernel #" + std::to_string(id2)), std::string::npos);
    const std::string head = c2.substr(0, c2.find("#include \"relu_f32.h\""));
    EXPECT_EQ(head.find("*/ __attribute__"), std::string::npos) << head;
    EXPECT_EQ(head.find("*/"), head.rfind("*/")) << "the provenance comment must end only once:\n" << head;
  }

  // --out never writes into /, a system directory or over a file.
  for (const std::string& bad :
       std::vector<std::string>{"/", "/usr/share/eok-export-test", (out.path() / "relu_f32.c").string()}) {
    ProcessResult refused = eok({"export", "--task", "relu_f32", "--out", bad});
    EXPECT_EQ(refused.exit_code, 2) << bad << ": " << refused.err;
    EXPECT_NE(refused.err.find("--out " + bad), std::string::npos) << refused.err;
  }
  EXPECT_FALSE(fs::exists("/usr/share/eok-export-test"));
  EXPECT_FALSE(fs::exists("/relu_f32.c"));

  ProcessResult missing = eok({"show", "999999"});
  EXPECT_EQ(missing.exit_code, 3);
  EXPECT_NE(missing.err.find("no kernel #999999"), std::string::npos);
  ProcessResult resume = eok({"search", "--resume", "r-no-such-run"});
  EXPECT_EQ(resume.exit_code, 3);
}

}  // namespace
}  // namespace eok::testing
