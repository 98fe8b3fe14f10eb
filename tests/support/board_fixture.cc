#include "support/board_fixture.h"

#include "evaluator/toolchain.h"

namespace eok::testing {

namespace fs = std::filesystem;

std::unique_ptr<TempDir> VirtualBoardTest::home_;
std::unique_ptr<Workspace> VirtualBoardTest::workspace_;
std::unique_ptr<evaluator::BoardSession> VirtualBoardTest::session_;

fs::path source_root() { return EOK_SOURCE_DIR; }

std::string read_fixture(const std::string& relative) { return read_file(fs::path(EOK_TEST_DATA_DIR) / "fixtures" / relative); }

ProcessResult run_eok(const std::vector<std::string>& args, const fs::path& home, double wall_seconds) {
  ProcessSpec spec;
  spec.argv = {(fs::path(EOK_BINARY_DIR) / "eok").string()};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.cwd = source_root();
  std::vector<std::string> env = {"EOK_HOME=" + home.string(), "EOK_LLM_DISCOVER=false"};
  if (const char* path = std::getenv("PATH")) env.push_back(std::string("PATH=") + path);
  spec.env = env;
  spec.limits.wall_seconds = wall_seconds;
  return run_process(spec);
}

void VirtualBoardTest::SetUpTestSuite() {
  home_ = std::make_unique<TempDir>(fs::temp_directory_path(), "eok-test-home-");
  workspace_ = std::make_unique<Workspace>(Workspace::open(home_->path()));
  session_ = std::make_unique<evaluator::BoardSession>(evaluator::open_board_session(source_root(), *workspace_, "k1"));
}

void VirtualBoardTest::TearDownTestSuite() {
  session_.reset();
  workspace_.reset();
  home_.reset();
}

evaluator::Task VirtualBoardTest::task(const std::string& id) { return evaluator::load_task(source_root() / "kernels" / id); }

evaluator::EvalResult VirtualBoardTest::eval(const std::string& task_id, const std::string& source, uint64_t seed) {
  return session_->evaluator->evaluate_against_baseline(task(task_id), source, seed);
}

fs::path build_program(const fs::path& dir, const std::string& source, const std::string& lang, const std::string& march) {
  const fs::path src = dir / ("prog." + lang), exe = dir / "prog";
  write_file_atomic(src, source);
  ProcessSpec spec;
  spec.argv = {"clang-22", "--target=riscv64-linux-gnu", "-march=" + march, "-O2", "-static", "-fuse-ld=lld",
               "-I" + (source_root() / "evaluator" / "target").string(), src.string(), "-o", exe.string()};
  ProcessResult r = run_process(spec);
  EXPECT_TRUE(r.ok()) << r.err;
  return exe;
}

ProcessResult run_with_plugin(const evaluator::BoardProfile& board, const fs::path& program, const fs::path& profile,
                              bool sandbox) {
  ProcessSpec spec;
  spec.argv = {"qemu-riscv64", "-cpu", board.qemu.cpu, "-plugin",
               evaluator::plugin_path().string() + ",out=" + profile.string() + ",sandbox=" + (sandbox ? "1" : "0"),
               program.string()};
  spec.limits.wall_seconds = 60;
  return run_process(spec);
}

}  // namespace eok::testing
