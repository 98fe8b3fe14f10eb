// The board's -mtune: a board profile names the core its kernels are compiled for (k1: clang's
// spacemit-x60 scheduling model), and every compile eok makes for that board carries it: the candidate's
// preprocessing (identity and source rules) and compile alike, ker0 (the same path), the reference, the
// glue and the harness. The object cache tells tunings apart.
#include "evaluator/compiler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <vector>

#include "evaluator/board.h"
#include "evaluator/evaluator.h"
#include "evaluator/task.h"
#include "evaluator/toolchain.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "support/fake_toolchain.h"

#ifndef EOK_SOURCE_DIR
#error "EOK_SOURCE_DIR (the repository root) must be defined by the build"
#endif

namespace eok::evaluator {
namespace {

namespace fs = std::filesystem;

bool has(const std::vector<std::string>& argv, const std::string& flag) {
  return std::find(argv.begin(), argv.end(), flag) != argv.end();
}

size_t count_prefix(const std::vector<std::string>& argv, const std::string& prefix) {
  return std::count_if(argv.begin(), argv.end(), [&](const std::string& a) { return a.rfind(prefix, 0) == 0; });
}

TEST(BoardTune, K1CompilesForTheX60) {
  EXPECT_EQ(load_board(EOK_SOURCE_DIR, "k1").tune, "spacemit-x60");
}

TEST(BoardTune, OnlyACpuName) {
  TempDir root(fs::temp_directory_path(), "eok-tune-");
  fs::create_directories(root.path() / "configs" / "boards");
  auto board_with = [&](const std::string& tune_line) {
    write_file_atomic(
        root.path() / "configs" / "boards" / "b.toml",
        "name = \"b\"\nrunner = \"qemu\"\nmarch = \"rv64gcv\"\n" + tune_line + "\n[qemu]\ncpu = \"rv64,v=true\"\n");
    return load_board(root.path(), "b");
  };
  EXPECT_EQ(board_with("").tune, "");  // no tune: clang's default
  EXPECT_EQ(board_with("tune = \"sifive-x280\"").tune, "sifive-x280");
  for (const char* bad : {"tune = \"-O0\"", "tune = \"x60 -fplugin=evil.so\"", "tune = \"a;b\""}) {
    try {
      board_with(bad);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("tune"), std::string::npos) << e.what();
    }
  }
}

TEST(ClangFlags, TuneGoesOnTheCommandLine) {
  CompileRequest req;
  req.march = "rv64gcv";
  EXPECT_EQ(count_prefix(clang_flags(req), "-mtune"), 0u);
  req.tune = "spacemit-x60";
  const auto argv = clang_flags(req);
  EXPECT_TRUE(has(argv, "-mtune=spacemit-x60"));
  EXPECT_EQ(count_prefix(argv, "-mtune"), 1u);
  EXPECT_TRUE(has(argv, "-march=rv64gcv"));
}

// ---------------------------------------------------------------------------------------------------
// Through the evaluator and clang-22 in the sandbox

// Forwards to clang and remembers every request, by what was asked.
class RecordingCompiler : public Compiler {
 public:
  explicit RecordingCompiler(Compiler& real) : real_(real) {}
  Preprocessed preprocess(const CompileRequest& req) override {
    remember("preprocess", req);
    return real_.preprocess(req);
  }
  CompileResult compile(const CompileRequest& req) override {
    remember("compile", req);
    return real_.compile(req);
  }
  LinkResult link(const LinkRequest& req) override { return real_.link(req); }
  std::string version() const override { return real_.version(); }

  std::vector<std::pair<std::string, CompileRequest>> requests;

 private:
  void remember(const char* what, const CompileRequest& req) {
    std::lock_guard<std::mutex> lock(mutex_);
    requests.emplace_back(what, req);
  }
  Compiler& real_;
  std::mutex mutex_;
};

// No board: these tests stop at the run.
class NoRunner : public Runner {
 public:
  RunOutcome run(const RunRequest&) override { throw Error("no board in this test"); }
};

class TunedCompiles : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    home_ = std::make_unique<TempDir>(fs::temp_directory_path(), "eok-tunecc-");
    board_ = std::make_unique<BoardProfile>(load_board(EOK_SOURCE_DIR, "k1"));
    tools_ = find_toolchain(*board_);
    sandbox_ = std::make_unique<sandbox::Sandbox>(sandbox_system_paths(tools_));
    fs::create_directories(home_->path() / "objects");
    fs::create_directories(home_->path() / "tmp");
    compiler_ = std::make_unique<ClangCompiler>(tools_, *sandbox_, home_->path() / "objects", home_->path() / "tmp");
  }
  static void TearDownTestSuite() {
    compiler_.reset();
    sandbox_.reset();
    board_.reset();
    home_.reset();
  }

  static std::unique_ptr<TempDir> home_;
  static std::unique_ptr<BoardProfile> board_;
  static Toolchain tools_;
  static std::unique_ptr<sandbox::Sandbox> sandbox_;
  static std::unique_ptr<ClangCompiler> compiler_;
};
std::unique_ptr<TempDir> TunedCompiles::home_;
std::unique_ptr<BoardProfile> TunedCompiles::board_;
Toolchain TunedCompiles::tools_;
std::unique_ptr<sandbox::Sandbox> TunedCompiles::sandbox_;
std::unique_ptr<ClangCompiler> TunedCompiles::compiler_;

TEST_F(TunedCompiles, EveryCompileForK1CarriesTheBoardsTune) {
  RecordingCompiler rec(*compiler_);
  NoRunner runner;
  testing::FixedCyclesCostModel cost;
  BoardEvaluatorConfig cfg;
  cfg.board = *board_;
  cfg.root = EOK_SOURCE_DIR;
  cfg.scratch_dir = home_->path() / "tmp";
  cfg.baseline_cache = home_->path() / "baselines";
  fs::create_directories(cfg.baseline_cache);
  BoardEvaluator ev(cfg, rec, runner, cost);
  const Task task = load_task(fs::path(EOK_SOURCE_DIR) / "kernels" / "relu_f32");
  const std::string ker0 = read_file(task.ker0_path());

  // The identity the search asks for, then an evaluation of ker0 (which stops at the run: no board).
  ev.identity(task, ker0);
  try {
    ev.evaluate(task, ker0, 1);
  } catch (const Error&) {
    // NoRunner: everything up to the run has been compiled
  }
  size_t preprocesses = 0, kernel_compiles = 0;
  std::vector<std::string> files;
  for (const auto& [what, req] : rec.requests) {
    SCOPED_TRACE(what + " " + req.file_name);
    EXPECT_EQ(req.tune, "spacemit-x60");
    EXPECT_TRUE(has(clang_flags(req), "-mtune=spacemit-x60"));
    files.push_back(req.file_name);
    if (what == "preprocess") ++preprocesses;
    if (what == "compile" && req.file_name == "kernel.c") {
      ++kernel_compiles;
      // The kernel's compile reads the source with the preprocessing's flags: the tokens checked are those
      // compiled (and clang-22 accepts the tune: the compile succeeded).
      for (const auto& [w2, pre] : rec.requests) {
        if (w2 == "preprocess") {
          EXPECT_EQ(clang_flags(pre), clang_flags(req));
        }
      }
      EXPECT_TRUE(compiler_->compile(req).ok);
    }
  }
  EXPECT_GE(preprocesses, 1u);
  EXPECT_EQ(kernel_compiles, 1u);
  // The reference, the glue and the harness are compiled for the board too (before the run).
  for (const char* f : {"ref.c", "glue.c", "harness.c"}) {
    EXPECT_NE(std::find(files.begin(), files.end(), f), files.end()) << f << " was not compiled";
  }
}

TEST_F(TunedCompiles, ClangSeesTheTuneAndTheCacheTellsTuningsApart) {
  CompileRequest req;
  req.source =
      "void k(float *x, unsigned long n) { for (unsigned long i = 0; i < n; ++i) x[i] = x[i] * 3.0f + 1.0f; }\n";
  req.march = "rv64gcv";
  const CompileResult generic = compiler_->compile(req);
  ASSERT_TRUE(generic.ok) << generic.diagnostics;
  req.tune = "spacemit-x60";
  const CompileResult tuned = compiler_->compile(req);
  ASSERT_TRUE(tuned.ok) << tuned.diagnostics;
  EXPECT_FALSE(tuned.cached);  // another key, not the generic object
  EXPECT_NE(tuned.object, generic.object);
  EXPECT_TRUE(compiler_->compile(req).cached);  // the same tune again: the cache
  // The flag reaches clang: a core it does not know fails the preprocessing and the compile.
  req.tune = "no-such-core";
  const Preprocessed pp = compiler_->preprocess(req);
  EXPECT_FALSE(pp.ok);
  EXPECT_NE(pp.diagnostics.find("no-such-core"), std::string::npos) << pp.diagnostics;
  EXPECT_FALSE(compiler_->compile(req).ok);
}

}  // namespace
}  // namespace eok::evaluator
