// BoardEvaluator::evaluate's decisions before and around the runs, over the fake toolchain
// (support/fake_toolchain.h): which step's failure is the kernel's (rejected, compile_error) and which is
// the machine's or eok's (infra_error), and that no later step is asked once one has decided. The verdict
// on a finished run is judge_run's (run_verdict_test.cc); clang and qemu are exercised in integration/.
#include "evaluator/evaluator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "evaluator/board.h"
#include "evaluator/task.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "support/fake_toolchain.h"
#include "support/riscv_elf_writer.h"

namespace eok::evaluator {
namespace {

namespace fs = std::filesystem;
using testing::FakeCompiler;
using testing::FakeRunner;
using testing::ScriptedStep;

constexpr const char* kKernel =
    "void relu_f32(float *x, unsigned long n) { for (unsigned long i = 0; i < n; ++i) x[i] = x[i] > 0 ? x[i] : 0; }\n";

class BoardEvaluatorTest : public ::testing::Test {
 protected:
  BoardEvaluatorTest() : home_(fs::temp_directory_path(), "eok-evaluate-"), compiler_(objects()) {
    cfg_.board = load_board(EOK_SOURCE_DIR, "k1");
    cfg_.root = EOK_SOURCE_DIR;
    cfg_.scratch_dir = home_.path() / "tmp";
    cfg_.baseline_cache = home_.path() / "baselines";
    fs::create_directories(cfg_.scratch_dir);
    fs::create_directories(cfg_.baseline_cache);
    task_ = load_task(fs::path(EOK_SOURCE_DIR) / "kernels" / "relu_f32");
  }

  EvalResult evaluate(const std::string& source = kKernel) {
    BoardEvaluator ev(cfg_, compiler_, runner_, cost_);
    return ev.evaluate(task_, source, 7);
  }

  bool ran(const std::string& program) const {
    const auto runs = runner_.programs_run();
    return std::find(runs.begin(), runs.end(), program) != runs.end();
  }

  fs::path objects() {
    fs::create_directories(home_.path() / "objects");
    return home_.path() / "objects";
  }

  TempDir home_;
  BoardEvaluatorConfig cfg_;
  Task task_;
  FakeCompiler compiler_;
  FakeRunner runner_;
  testing::FixedCyclesCostModel cost_{1000};
};

TEST_F(BoardEvaluatorTest, ASourceRuleBrokenIsRejectedBeforeTheCompilerIsAsked) {
  const EvalResult r = evaluate(std::string("void relu_f32(void) {}\n") + '\0' + "hidden");
  EXPECT_EQ(r.status, EvalStatus::rejected);
  EXPECT_EQ(r.rule, "binary-source");
  EXPECT_EQ(compiler_.preprocess_calls(), 0);
  EXPECT_TRUE(compiler_.compiled_files().empty());
}

TEST_F(BoardEvaluatorTest, APreprocessorFailureOfTheMachineIsInfraError) {
  compiler_.preprocess_step = ScriptedStep::fails_on_machine("the sandbox could not start (no user namespaces)");
  const EvalResult r = evaluate();
  EXPECT_EQ(r.status, EvalStatus::infra_error);
  EXPECT_NE(r.message.find("no user namespaces"), std::string::npos) << r.message;
  EXPECT_TRUE(compiler_.compiled_files().empty());
}

TEST_F(BoardEvaluatorTest, APreprocessorErrorIsCompileErrorNamingTheFirstError) {
  const std::string diagnostics =
      "/eval/kernel.c:1:10: warning: unused parameter 'n'\n"
      "/eval/kernel.c:2:3: error: use of undeclared identifier 'q'\n"
      "/eval/kernel.c:4:1: error: expected '}'\n";
  compiler_.preprocess_step = ScriptedStep::fails(diagnostics);
  const EvalResult r = evaluate();
  EXPECT_EQ(r.status, EvalStatus::compile_error);
  EXPECT_EQ(r.message, "does not compile: /eval/kernel.c:2:3: error: use of undeclared identifier 'q'");
  EXPECT_EQ(r.compiler_output, diagnostics);
  EXPECT_TRUE(compiler_.compiled_files().empty());
}

TEST_F(BoardEvaluatorTest, ARuleBrokenInThePreprocessedSourceIsRejectedBeforeTheCompile) {
  const EvalResult r = evaluate("void relu_f32(float *x, unsigned long n) {\n  asm(\"nop\");\n}\n");
  EXPECT_EQ(r.status, EvalStatus::rejected);
  EXPECT_EQ(r.rule, "inline-asm");
  EXPECT_NE(r.message.find("line 2"), std::string::npos) << r.message;
  EXPECT_EQ(compiler_.preprocess_calls(), 1);
  EXPECT_TRUE(compiler_.compiled_files().empty());
}

TEST_F(BoardEvaluatorTest, ACompilerFailureOfTheMachineIsInfraError) {
  compiler_.kernel_compile = ScriptedStep::fails_on_machine("clang was killed by SIGKILL (out of memory)");
  const EvalResult r = evaluate();
  EXPECT_EQ(r.status, EvalStatus::infra_error);
  EXPECT_NE(r.message.find("out of memory"), std::string::npos) << r.message;
  EXPECT_EQ(compiler_.compiled_files(), std::vector<std::string>{"kernel.c"});  // no harness, glue or reference
  EXPECT_EQ(compiler_.link_calls(), 0);
}

TEST_F(BoardEvaluatorTest, ACompileErrorNamesTheFirstErrorLine) {
  compiler_.kernel_compile = ScriptedStep::fails(
      "/eval/kernel.c:1:6: warning: declaration shadows a builtin\n"
      "/eval/kernel.c:3:9: error: incompatible types assigning to 'vfloat32m1_t'\n");
  const EvalResult r = evaluate();
  EXPECT_EQ(r.status, EvalStatus::compile_error);
  EXPECT_EQ(r.message, "does not compile: /eval/kernel.c:3:9: error: incompatible types assigning to 'vfloat32m1_t'");
  EXPECT_NE(r.compiler_output.find("shadows a builtin"), std::string::npos);
  EXPECT_EQ(compiler_.link_calls(), 0);
}

TEST_F(BoardEvaluatorTest, AnObjectWithoutTheEntryFunctionIsCompileErrorNamingTheSignature) {
  compiler_.kernel_object = testing::riscv_kernel_object("relu_f32_helper");
  const EvalResult r = evaluate();
  EXPECT_EQ(r.status, EvalStatus::compile_error);
  EXPECT_NE(r.message.find("does not define the entry function relu_f32"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find(task_.signature), std::string::npos) << r.message;
  EXPECT_EQ(compiler_.link_calls(), 0);
}

TEST_F(BoardEvaluatorTest, AnObjectBreakingARuleIsRejectedAndItsObjectRemoved) {
  compiler_.kernel_object = testing::riscv_kernel_object("relu_f32", {"system"});
  const EvalResult r = evaluate();
  EXPECT_EQ(r.status, EvalStatus::rejected);
  EXPECT_EQ(r.rule, "forbidden-symbol");
  EXPECT_NE(r.message.find("'system'"), std::string::npos) << r.message;
  EXPECT_EQ(compiler_.link_calls(), 0);
  // A rejected kernel is never evaluated again: its object is not kept.
  for (const auto& e : fs::directory_iterator(home_.path() / "objects")) {
    EXPECT_EQ(e.path().filename().string().find("kernel.c"), std::string::npos) << e.path();
  }
}

TEST_F(BoardEvaluatorTest, AHarnessThatDoesNotCompileIsEoksConfigurationNotAStatus) {
  compiler_.support_compile = ScriptedStep::fails("/eval/harness.c:10:1: error: unknown type name 'size_t'\n");
  try {
    evaluate();
    ADD_FAILURE() << "a task whose harness does not compile gave a status";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("harness of task relu_f32 does not compile"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(runner_.programs_run().empty());
}

TEST_F(BoardEvaluatorTest, ALinkErrorIsCompileErrorAndNothingRuns) {
  compiler_.link_step = ScriptedStep::fails("ld.lld: error: undefined symbol: relu_f32_tail\n");
  const EvalResult r = evaluate();
  EXPECT_EQ(r.status, EvalStatus::compile_error);
  EXPECT_EQ(r.message, "does not link: ld.lld: error: undefined symbol: relu_f32_tail");
  EXPECT_NE(r.compiler_output.find("relu_f32_tail"), std::string::npos);
  EXPECT_EQ(compiler_.link_calls(), 2);  // the candidate's and the reference's
  EXPECT_TRUE(runner_.programs_run().empty());
}

TEST_F(BoardEvaluatorTest, ALinkFailureOfTheMachineIsInfraError) {
  compiler_.link_step = ScriptedStep::fails_on_machine("ld.lld could not write its output: no space left on device",
                                                       "ld.lld: error: cannot open output file\n");
  const EvalResult r = evaluate();
  EXPECT_EQ(r.status, EvalStatus::infra_error);
  EXPECT_NE(r.message.find("no space left on device"), std::string::npos) << r.message;
  EXPECT_FALSE(ran("cand"));
}

TEST_F(BoardEvaluatorTest, ALinkedProgramEokCannotReadIsInfraError) {
  compiler_.linked_program = "#!/bin/sh\n";  // not an ELF file: the toolchain is broken
  const EvalResult r = evaluate();
  EXPECT_EQ(r.status, EvalStatus::infra_error);
  EXPECT_NE(r.message.find("cannot read the linked program"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("not the kernel's"), std::string::npos) << r.message;
  EXPECT_FALSE(ran("cand"));
}

TEST_F(BoardEvaluatorTest, AFailingReferenceRunIsInfraErrorNeverTheKernels) {
  evaluator::RunOutcome crashed = testing::exited_with(1);
  crashed.process.err = "the reference's harness could not allocate its inputs";
  runner_.script("ref", crashed);
  const EvalResult r = evaluate();
  EXPECT_TRUE(ran("cand"));  // the candidate linked, passed its image checks and ran beside the reference
  EXPECT_TRUE(ran("ref"));
  EXPECT_EQ(r.status, EvalStatus::infra_error);
  EXPECT_NE(r.message.find("the reference of relu_f32 failed"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("could not allocate its inputs"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("not the kernel's"), std::string::npos) << r.message;
  EXPECT_TRUE(r.rule.empty());
}

TEST_F(BoardEvaluatorTest, AReferenceThatReportsNoCallsIsInfraError) {
  // It exits 0 but the board's observer recorded none of its calls: the message says so.
  const EvalResult r = evaluate();
  EXPECT_EQ(r.status, EvalStatus::infra_error);
  EXPECT_NE(r.message.find("the reference of relu_f32 failed (exit 0; the board recorded 0 of its"), std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find("(no measurement file)"), std::string::npos) << r.message;
}

TEST_F(BoardEvaluatorTest, AReferenceThatCouldNotStartIsNamedOnce) {
  evaluator::RunOutcome unstarted;
  unstarted.process.spawn_error = "qemu-riscv64: not found";
  runner_.script("ref", unstarted);
  const EvalResult r = evaluate();
  EXPECT_EQ(r.status, EvalStatus::infra_error);
  const size_t first = r.message.find("qemu-riscv64: not found");
  ASSERT_NE(first, std::string::npos) << r.message;
  EXPECT_EQ(r.message.find("qemu-riscv64: not found", first + 1), std::string::npos) << r.message;
}

}  // namespace
}  // namespace eok::evaluator
