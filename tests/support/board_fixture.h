// Test support: a virtual K1 session over the source tree with a private workspace, and helpers to build
// and run small riscv64 programs under qemu with eok's plugin.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "evaluator/board_session.h"
#include "evaluator/task.h"
#include "src/common/fs_util.h"
#include "src/common/subprocess.h"

namespace eok::testing {

std::filesystem::path source_root();
std::string read_fixture(const std::string& relative);  // under tests/fixtures/

// Runs the built eok program as a user would, from the source tree, with EOK_HOME=`home` and no LLM
// (nothing configured, no discovery, whatever listens on this machine's usual ports).
ProcessResult run_eok(const std::vector<std::string>& args, const std::filesystem::path& home, double wall_seconds = 300);

// One session per test suite: evaluations share the object and baseline caches of a temporary workspace.
class VirtualBoardTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite();
  static void TearDownTestSuite();

  static evaluator::Task task(const std::string& id);
  static evaluator::EvalResult eval(const std::string& task_id, const std::string& source, uint64_t seed = 1);
  static evaluator::BoardSession& session() { return *session_; }
  static const Workspace& workspace() { return *workspace_; }

 private:
  static std::unique_ptr<TempDir> home_;
  static std::unique_ptr<Workspace> workspace_;
  static std::unique_ptr<evaluator::BoardSession> session_;
};

// Builds a static riscv64 program from C or assembly (`lang` "c" or "s") into `dir`.
std::filesystem::path build_program(const std::filesystem::path& dir, const std::string& source, const std::string& lang,
                                    const std::string& march = "rv64gcv");

// Runs `program` under qemu with the board's CPU and eok's plugin writing to `profile`.
ProcessResult run_with_plugin(const evaluator::BoardProfile& board, const std::filesystem::path& program,
                              const std::filesystem::path& profile, bool sandbox = true);

}  // namespace eok::testing
