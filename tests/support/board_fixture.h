// Test support: a virtual K1 session over the source tree with a private workspace, and helpers to build
// and run small riscv64 programs under qemu with eok's plugin.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "evaluator/board_session.h"
#include "evaluator/measurement_records.h"
#include "evaluator/task.h"
#include "src/common/fs_util.h"
#include "src/common/subprocess.h"

namespace eok::testing {

std::filesystem::path source_root();
std::string read_fixture(const std::string& relative);          // under tests/fixtures/
std::string read_if_exists(const std::filesystem::path& file);  // "" when it does not exist (yet)

// Runs the built eok program as a user would, from the source tree, with EOK_HOME=`home` and no LLM
// (nothing configured, no discovery, whatever listens on this machine's usual ports). `address_space_bytes`
// (0: none) bounds its memory, for tests where a regression would read without end. `extra_env`: more
// NAME=VALUE settings of the environment.
ProcessResult run_eok(const std::vector<std::string>& args, const std::filesystem::path& home,
                      double wall_seconds = 300, uint64_t address_space_bytes = 0,
                      const std::vector<std::string>& extra_env = {});

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
std::filesystem::path build_program(const std::filesystem::path& dir, const std::string& source,
                                    const std::string& lang, const std::string& march = "rv64gcv");

struct PluginRun {
  ProcessResult process;
  evaluator::Measurement measurement;
  std::string out;  // the program's stdout
};

// Runs `program` (in its own directory) under qemu with the board's CPU, in the evaluation sandbox, with
// eok's plugin watching `calls` calls bracketed by the program's marker instructions (the first of each
// in its executable pages), `code` as candidate code, measuring the timed first call. `watch`: a whole
// watch file instead.
PluginRun run_watched(const evaluator::BoardProfile& board, const std::filesystem::path& program, int calls = 1,
                      const std::vector<std::pair<uint64_t, uint64_t>>& code = {}, const std::string& watch = "");

// run_watched() for one call, with the timed call's profile written to `profile` (text).
ProcessResult run_with_plugin(const evaluator::BoardProfile& board, const std::filesystem::path& program,
                              const std::filesystem::path& profile);

// The address of a symbol of a linked program, and its size.
std::pair<uint64_t, uint64_t> symbol_range(const std::filesystem::path& program, const std::string& name);

}  // namespace eok::testing
