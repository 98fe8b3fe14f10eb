// Test support: fakes of the evaluator's seams, so that BoardEvaluator's decisions can be tested without
// clang, lld, qemu or the cost tables. The test scripts what each step answers and reads what was asked.
//
// FakeCompiler "preprocesses" a source into itself under the line marker of the file clang would name
// (what clang makes of a source without includes or macros), writes a small RISC-V object for a compile
// and a small linked program for a link (riscv_elf_writer.h), each unless the test scripted a failure.
// FakeRunner answers each program with the outcome scripted for its file name. FixedCyclesCostModel prices
// every profile the same.
#pragma once

#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "evaluator/compiler.h"
#include "evaluator/cost_model/cost_model.h"
#include "evaluator/runner.h"

namespace eok::testing {

// What one scripted compiler step answers: success, a failure of the source (`diagnostics`, compile_error)
// or a failure of the machine (`environment`, infra_error).
struct ScriptedStep {
  bool ok = true;
  std::string diagnostics;
  std::string environment;

  static ScriptedStep fails(std::string diagnostics) { return {false, std::move(diagnostics), ""}; }
  static ScriptedStep fails_on_machine(std::string environment, std::string diagnostics = "") {
    return {false, std::move(diagnostics), std::move(environment)};
  }
};

// Thread-safe: the evaluator links the reference and the candidate at the same time. Set the scripts
// before the evaluation starts.
class FakeCompiler final : public evaluator::Compiler {
 public:
  // Objects and nothing else are written under `object_dir` (it must exist).
  explicit FakeCompiler(std::filesystem::path object_dir) : object_dir_(std::move(object_dir)) {}

  // The candidate's steps (the source the evaluator names kernel.c).
  ScriptedStep preprocess_step;
  ScriptedStep kernel_compile;
  // The candidate's object when it compiles; unset: a function named as the request's kept global symbol
  // (the task's entry).
  std::optional<std::string> kernel_object;
  // Every other compile: the harness, the task's glue and its reference.
  ScriptedStep support_compile;
  // Every link, the candidate's and the reference's; and the program a successful link writes (unset: the
  // harness program, with the candidate section when the link has the candidate's script).
  ScriptedStep link_step;
  std::optional<std::string> linked_program;

  evaluator::Preprocessed preprocess(const evaluator::CompileRequest& req) override;
  evaluator::CompileResult compile(const evaluator::CompileRequest& req) override;
  evaluator::LinkResult link(const evaluator::LinkRequest& req) override;
  std::string version() const override { return "fake-compiler 1"; }

  int preprocess_calls() const { return preprocess_calls_; }
  int link_calls() const { return link_calls_; }
  // The file names of every compile asked for, in order.
  std::vector<std::string> compiled_files() const;
  // How many compiles named `file_name` ("kernel.c", "harness.c", "glue.c", "ref.c").
  int compiles_of(const std::string& file_name) const;

 private:
  std::filesystem::path object_dir_;
  std::atomic<int> preprocess_calls_{0}, link_calls_{0}, objects_written_{0};
  mutable std::mutex mutex_;
  std::vector<std::string> compiled_;
};

// A process that started and exited with `code`, writing nothing.
evaluator::RunOutcome exited_with(int code);

// Thread-safe. Answers a program with the outcome scripted for its file name, otherwise `fallback`.
class FakeRunner final : public evaluator::Runner {
 public:
  evaluator::RunOutcome fallback = exited_with(0);
  void script(const std::string& program_name, evaluator::RunOutcome outcome);

  evaluator::RunOutcome run(const evaluator::RunRequest& req) override;
  // The file names of the programs run, in the order their runs started.
  std::vector<std::string> programs_run() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, evaluator::RunOutcome> scripted_;
  std::vector<std::string> run_;
};

// Every profile costs `cycles`, whatever it holds.
class FixedCyclesCostModel final : public cost::CostModel {
 public:
  explicit FixedCyclesCostModel(double cycles = 0) : cycles_(cycles) {}
  cost::CostReport estimate(const cost::BlockProfile&) const override {
    cost::CostReport r;
    r.cycles = cycles_;
    return r;
  }

 private:
  double cycles_;
};

}  // namespace eok::testing
