#include "support/fake_toolchain.h"

#include <algorithm>

#include "evaluator/sandbox/sandbox.h"
#include "src/common/fs_util.h"
#include "support/riscv_elf_writer.h"

namespace eok::testing {

using evaluator::CompileRequest;

evaluator::Preprocessed FakeCompiler::preprocess(const CompileRequest& req) {
  ++preprocess_calls_;
  evaluator::Preprocessed pp;
  pp.ok = preprocess_step.ok;
  pp.diagnostics = preprocess_step.diagnostics;
  pp.environment = preprocess_step.environment;
  if (pp.ok) {
    const std::string main_file = std::string(evaluator::sandbox::kWorkdir) + "/" + req.file_name;
    pp.text = "# 1 \"" + main_file + "\"\n" + req.source;
    pp.normalized = req.source;
    pp.files_read = {main_file};
  }
  return pp;
}

evaluator::CompileResult FakeCompiler::compile(const CompileRequest& req) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    compiled_.push_back(req.file_name);
  }
  const bool kernel = req.file_name == "kernel.c";
  const ScriptedStep& step = kernel ? kernel_compile : support_compile;
  evaluator::CompileResult r;
  r.ok = step.ok;
  r.diagnostics = step.diagnostics;
  r.environment = step.environment;
  if (r.ok) {
    r.object = object_dir_ / (std::to_string(++objects_written_) + "-" + req.file_name + ".o");
    write_file_atomic(r.object, kernel && kernel_object ? *kernel_object : riscv_kernel_object(req.keep_global));
  }
  return r;
}

evaluator::LinkResult FakeCompiler::link(const evaluator::LinkRequest& req) {
  ++link_calls_;
  evaluator::LinkResult r;
  r.ok = link_step.ok;
  r.diagnostics = link_step.diagnostics;
  r.environment = link_step.environment;
  // The candidate's link script is what gives a program its candidate section.
  if (r.ok) write_file_atomic(req.out, linked_program ? *linked_program : riscv_harness_program(!req.script.empty()));
  return r;
}

std::vector<std::string> FakeCompiler::compiled_files() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return compiled_;
}

int FakeCompiler::compiles_of(const std::string& file_name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int>(std::count(compiled_.begin(), compiled_.end(), file_name));
}

evaluator::RunOutcome exited_with(int code) {
  evaluator::RunOutcome out;
  out.process.started = true;
  out.process.exit_code = code;
  return out;
}

void FakeRunner::script(const std::string& program_name, evaluator::RunOutcome outcome) {
  std::lock_guard<std::mutex> lock(mutex_);
  scripted_[program_name] = std::move(outcome);
}

evaluator::RunOutcome FakeRunner::run(const evaluator::RunRequest& req) {
  const std::string name = req.program.filename().string();
  std::lock_guard<std::mutex> lock(mutex_);
  run_.push_back(name);
  auto it = scripted_.find(name);
  return it == scripted_.end() ? fallback : it->second;
}

std::vector<std::string> FakeRunner::programs_run() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return run_;
}

}  // namespace eok::testing
