// The verdict on a candidate's run, branch by branch, from made-up process results, measurements and
// fault records: no compiler, emulator or board.
#include "evaluator/run_verdict.h"

#include <gtest/gtest.h>
#include <signal.h>

#include "support/board_fixture.h"

namespace eok::evaluator {
namespace {

class RunVerdict : public ::testing::Test {
 protected:
  RunVerdict() : task_(load_task(testing::source_root() / "kernels" / "relu_f32")) {
    for (int i = 0; i < 3; ++i) {
      PlannedCase c;
      c.sizes = {{"n", 64}};
      c.timed = i == 2;
      cases_.push_back(c);
    }
    run_.process.started = true;
    run_.process.exit_code = 0;
    m_.hello = m_.sandboxed = m_.guest_memory_ok = true;
    for (uint32_t i = 0; i < 3; ++i) {
      m_.begins.push_back({i, {}});
      m_.calls.push_back({i, 0, {}});
    }
  }
  Verdict judge() {
    rule_.clear();
    return judge_run(run_, m_, harness_, task_, cases_, &rule_);
  }
  EvalStatus status() {
    const Verdict v = judge();
    return v ? v->first : EvalStatus::ok;
  }
  std::string message() {
    const Verdict v = judge();
    return v ? v->second : "";
  }

  Task task_;
  std::vector<PlannedCase> cases_;
  RunOutcome run_;
  Measurement m_;
  HarnessOutput harness_;
  std::string rule_;
};

TEST_F(RunVerdict, EveryCallRanAndReturned) {
  EXPECT_FALSE(judge());
}

TEST_F(RunVerdict, AnObserverThatNeverStartedIsEoksProblem) {
  run_.process.started = false;
  run_.process.spawn_error = "qemu-riscv64: not found";
  EXPECT_EQ(status(), EvalStatus::infra_error);
  EXPECT_NE(message().find("eok doctor"), std::string::npos);
  run_.process.started = true;
  m_.hello = false;
  EXPECT_EQ(status(), EvalStatus::infra_error);
  m_.hello = true;
  m_.sandboxed = false;
  EXPECT_EQ(status(), EvalStatus::infra_error);
  EXPECT_NE(message().find("seccomp"), std::string::npos);
  m_.sandboxed = true;
  m_.guest_memory_ok = false;
  EXPECT_EQ(status(), EvalStatus::infra_error);
}

TEST_F(RunVerdict, ATamperedMeasurementOrABrokenRuleIsARejectionNamingTheRule) {
  m_.tampered = "a second profile for call 2";
  EXPECT_EQ(status(), EvalStatus::rejected);
  EXPECT_EQ(rule_, "measurement-tampered");
  m_.tampered.clear();
  m_.violation = PluginViolation{"candidate-code-outside-call", "ran kernel code after the last call"};
  EXPECT_EQ(status(), EvalStatus::rejected);
  EXPECT_EQ(rule_, "candidate-code-outside-call");
  EXPECT_NE(message().find("after the last call"), std::string::npos);
  // Tampering outranks everything else the kernel might have done.
  m_.tampered = "records after the end";
  run_.process.timed_out = true;
  EXPECT_EQ(status(), EvalStatus::rejected);
  EXPECT_EQ(rule_, "measurement-tampered");
}

TEST_F(RunVerdict, TimeLimitsAreTimeouts) {
  m_.calls.pop_back();
  run_.process.timed_out = true;
  EXPECT_EQ(status(), EvalStatus::timeout);
  EXPECT_NE(message().find("case 2 (n=64, timed)"), std::string::npos) << message();
  run_.process.timed_out = false;
  run_.process.term_signal = SIGXCPU;
  EXPECT_EQ(status(), EvalStatus::timeout);
}

TEST_F(RunVerdict, TheSeccompFilterStoppingTheEmulatorIsAForbiddenSyscall) {
  run_.process.term_signal = SIGSYS;
  EXPECT_EQ(status(), EvalStatus::rejected);
  EXPECT_EQ(rule_, "forbidden-syscall");
}

TEST_F(RunVerdict, QemusUnsupportedConversionsAreNamedAsTheEmulatorsLimit) {
  run_.process.exit_code = -1;
  run_.process.term_signal = SIGABRT;
  run_.process.err = "qemu: fatal: decode_save_opc\n";
  EXPECT_EQ(status(), EvalStatus::runtime_error);
  EXPECT_EQ(rule_, "emulator-limit");
  EXPECT_NE(message().find("vfcvt.rtz"), std::string::npos);
}

TEST_F(RunVerdict, AFaultIsDescribedByTheBufferItHit) {
  m_.calls.pop_back();
  run_.process.exit_code = 3;
  harness_.fault = FaultRecord{SIGSEGV, 0x1000, 2, 0, 256 + 12, 256};
  EXPECT_EQ(status(), EvalStatus::runtime_error);
  EXPECT_NE(message().find("SIGSEGV at address 0x1000, 12 bytes past the end of x (256 bytes), in case 2"),
            std::string::npos)
      << message();
  harness_.fault->offset = -8;
  EXPECT_NE(message().find("8 bytes before the start of x"), std::string::npos) << message();
  harness_.fault->offset = 64 << 20;  // far from every buffer: the nearest one means nothing
  EXPECT_NE(message().find("no buffer nearby"), std::string::npos) << message();
}

TEST_F(RunVerdict, SignalsOutputLimitsAndMemoryAreTheKernels) {
  run_.process.term_signal = SIGXFSZ;
  EXPECT_EQ(status(), EvalStatus::runtime_error);
  EXPECT_NE(message().find("more output than allowed"), std::string::npos);
  run_.process.term_signal = SIGKILL;
  EXPECT_EQ(status(), EvalStatus::runtime_error);
  EXPECT_NE(message().find("SIGKILL"), std::string::npos) << message();
  run_.process.term_signal = 0;
  run_.process.exit_code = 5;
  EXPECT_EQ(status(), EvalStatus::runtime_error);
  EXPECT_NE(message().find("out of memory"), std::string::npos);
}

TEST_F(RunVerdict, AProgramThatEndedEarlySaysWhere) {
  m_.calls.pop_back();  // call 2 began and never returned
  run_.process.exit_code = 0;
  EXPECT_EQ(status(), EvalStatus::runtime_error);
  EXPECT_NE(message().find("exited inside the kernel call of case 2"), std::string::npos) << message();
  m_.begins.pop_back();  // call 2 never began
  run_.process.exit_code = 1;
  EXPECT_NE(message().find("ended with exit 1 before case 2"), std::string::npos) << message();
}

TEST_F(RunVerdict, ANonZeroExitAfterTheLastCallOrAnIncompleteMeasurementIsNotOk) {
  run_.process.exit_code = 1;
  run_.process.err = "harness: malformed plan at case 3\n";
  EXPECT_EQ(status(), EvalStatus::runtime_error);
  EXPECT_NE(message().find("after its last call"), std::string::npos) << message();
  EXPECT_NE(message().find("malformed plan"), std::string::npos) << message();
  run_.process.exit_code = 0;
  run_.process.err.clear();
  m_.error = "a record ends early";
  EXPECT_EQ(status(), EvalStatus::runtime_error);
  EXPECT_NE(message().find("incomplete"), std::string::npos);
}

TEST(CaseLabel, NamesTheCaseOrItsAbsence) {
  PlannedCase warm;
  warm.sizes = {{"n", 8}};
  warm.warmup = true;
  EXPECT_EQ(case_label({warm}, 0), "case 0 (n=8, warm-up)");
  EXPECT_EQ(case_label({warm}, 1), "before the first case");
  EXPECT_EQ(case_label({warm}, -1), "before the first case");
}

}  // namespace
}  // namespace eok::evaluator
