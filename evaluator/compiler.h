// Compiling C sources for the board: candidates, references, the harness and the per-task glue. Every
// step (preprocess, compile, llvm-objcopy, link) runs inside the evaluation sandbox (sandbox/sandbox.h).
#pragma once

#include <deque>
#include <filesystem>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "evaluator/sandbox/sandbox.h"
#include "evaluator/toolchain.h"

namespace eok::evaluator {

struct CompileRequest {
  std::string source;  // C source text
  std::string march;   // -march
  std::string opt = "-O3";
  std::string prelude;                 // text force-included before the source (the task's prototype)
  std::string keep_global;             // if set: every other global symbol is made local after compiling
  std::vector<std::string> flags;      // extra flags
  std::string file_name = "kernel.c";  // how diagnostics name the source
  // Headers placed next to the source (name, text), found by its #include "name" (trusted sources only).
  std::vector<std::pair<std::string, std::string>> headers;
  // -mtune: the board's core (BoardProfile::tune, e.g. spacemit-x60); empty: clang's default. Last, so that
  // positional initialisers of the fields above keep their meaning.
  std::string tune;
};

// What clang's preprocessor made of a source: the one reading of its text that eok trusts (no lexer of our
// own). The text keeps clang's line markers so that checks can tell the source's own lines from headers'.
struct Preprocessed {
  bool ok = false;
  std::string text;                         // clang -E -fminimize-whitespace output, with line markers
  std::string normalized;                   // the same with -P: tokens only, layout normalised by clang
  std::vector<std::string> direct_headers;  // files the source itself includes (depth 1 of clang -H), the prelude aside
  std::vector<std::string> files_read;      // every file the preprocessor read (headers, #embed resources)
  std::string diagnostics;
  std::string environment;  // not ok because of the machine (environment_failure.h), not the source
};

struct CompileResult {
  bool ok = false;
  std::filesystem::path object;  // valid when ok
  std::string diagnostics;       // compiler messages (warnings too), capped
  bool cached = false;
  double seconds = 0;
  std::string environment;  // not ok because of the machine (environment_failure.h), not the source
};

struct LinkRequest {
  std::vector<std::pair<std::filesystem::path, std::string>> objects;  // (object file, its file name in the link)
  std::filesystem::path out;                                           // the executable
  std::string script;  // linker script commands added to the default layout (INSERT), or empty
};

struct LinkResult {
  bool ok = false;
  std::string diagnostics;  // linker messages when it failed
  std::string environment;  // not ok because of the machine (environment_failure.h), not the objects
};

// Contract: preprocess() and compile() turn one C translation unit into clang -E text or a riscv64 object
// file; link() makes a static riscv64 executable. A failed compile or link is a result, not an exception;
// only a broken toolchain or sandbox throws (ToolchainError).
class Compiler {
 public:
  virtual ~Compiler() = default;
  virtual Preprocessed preprocess(const CompileRequest& req) = 0;
  virtual CompileResult compile(const CompileRequest& req) = 0;
  virtual LinkResult link(const LinkRequest& req) = 0;
  virtual std::string version() const = 0;
};

// clang-22 with lld, inside the sandbox; objects cached under `cache_dir` by a hash of compiler version,
// flags and source, so the same kernel is never compiled twice; the latest preprocessings kept in memory.
// Thread-safe.
class ClangCompiler : public Compiler {
 public:
  ClangCompiler(Toolchain tools, const sandbox::Sandbox& sandbox, std::filesystem::path cache_dir,
                std::filesystem::path scratch_dir);
  Preprocessed preprocess(const CompileRequest& req) override;
  CompileResult compile(const CompileRequest& req) override;
  LinkResult link(const LinkRequest& req) override;
  std::string version() const override { return tools_.clang_version; }

 private:
  static constexpr size_t kRecentPreprocessed = 64;
  // Linked programs are about 600 KB each: the most recently used ones are kept, the others removed.
  static constexpr size_t kCachedPrograms = 128;
  void remember_preprocessed(const std::string& key, const Preprocessed& p);

  Toolchain tools_;
  const sandbox::Sandbox& sandbox_;
  std::filesystem::path clang_, objcopy_;  // the real files (the sandbox binds real paths, not links)
  std::filesystem::path cache_dir_, scratch_dir_;
  std::mutex recent_mutex_;
  std::deque<std::pair<std::string, Preprocessed>> recent_;  // by a hash of the request
};

// clang's options for a request, shared by its preprocessing and its compile (so that both see the same
// predefined macros and files): target, -march, -mabi, the optimisation level, -mtune when the request has
// one, the prelude's -include and the extra flags. Everything but the program, the input and the action.
std::vector<std::string> clang_flags(const CompileRequest& req);

// The system directories clang, lld and llvm-objcopy need inside the sandbox (their installation, the
// riscv64 sysroot and GCC cross files).
std::vector<std::filesystem::path> toolchain_system_paths(const Toolchain& tools);

}  // namespace eok::evaluator
