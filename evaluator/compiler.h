// Compiling C sources for the board: candidates, references, the harness and the per-task glue.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "evaluator/toolchain.h"

namespace eok::evaluator {

struct CompileRequest {
  std::string source;               // C source text
  std::string march;                // -march
  std::string opt = "-O3";
  std::string prelude;              // text force-included before the source (the task's prototype)
  std::string keep_global;          // if set: every other global symbol is made local after compiling
  std::vector<std::string> flags;   // extra flags
  std::string file_name = "kernel.c";  // how diagnostics name the source
};

struct CompileResult {
  bool ok = false;
  std::filesystem::path object;     // valid when ok
  std::string diagnostics;          // compiler messages (warnings too), capped
  bool cached = false;
  double seconds = 0;
};

// Contract: compile() turns one C translation unit into a riscv64 object file. Diagnostics of a failed
// compile are a result, not an exception; only a broken toolchain throws (ToolchainError).
class Compiler {
 public:
  virtual ~Compiler() = default;
  virtual CompileResult compile(const CompileRequest& req) = 0;
  // Links objects into a static riscv64 executable; returns diagnostics, empty on success.
  virtual std::string link(const std::vector<std::filesystem::path>& objects, const std::filesystem::path& out) = 0;
  virtual std::string version() const = 0;
};

// clang-22 with lld; objects cached under `cache_dir` by a hash of compiler version, flags and source, so
// the same kernel is never compiled twice.
class ClangCompiler : public Compiler {
 public:
  ClangCompiler(Toolchain tools, std::filesystem::path cache_dir, std::filesystem::path scratch_dir);
  CompileResult compile(const CompileRequest& req) override;
  std::string link(const std::vector<std::filesystem::path>& objects, const std::filesystem::path& out) override;
  std::string version() const override { return tools_.clang_version; }

 private:
  Toolchain tools_;
  std::filesystem::path cache_dir_, scratch_dir_;
};

}  // namespace eok::evaluator
