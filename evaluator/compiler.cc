#include "evaluator/compiler.h"

#include <unistd.h>

#include <chrono>
#include <functional>
#include <thread>

#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "src/common/hash.h"
#include "src/common/subprocess.h"

namespace eok::evaluator {

namespace fs = std::filesystem;

namespace {

constexpr size_t kDiagnosticsCap = 16 * 1024;

ProcessLimits compiler_limits() {
  ProcessLimits l;
  l.wall_seconds = 60;  // a macro bomb must not stall the search
  l.address_space_bytes = 4ull << 30;
  l.file_size_bytes = 256ull << 20;
  l.isolate_network = false;
  return l;
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size()) s.replace(pos, from.size(), to);
}

std::string cap(std::string s) {
  if (s.size() > kDiagnosticsCap) {
    s.resize(kDiagnosticsCap);
    s += "\n[... compiler output truncated]";
  }
  return s;
}

}  // namespace

ClangCompiler::ClangCompiler(Toolchain tools, fs::path cache_dir, fs::path scratch_dir)
    : tools_(std::move(tools)), cache_dir_(std::move(cache_dir)), scratch_dir_(std::move(scratch_dir)) {}

CompileResult ClangCompiler::compile(const CompileRequest& req) {
  const auto start = std::chrono::steady_clock::now();
  Hasher h;
  h.add(tools_.clang_version).add(req.march).add(req.opt).add(req.prelude).add(req.keep_global).add(req.file_name);
  for (const auto& f : req.flags) h.add(f);
  h.add(req.source);
  const std::string key = h.hex();
  const fs::path object = cache_dir_ / key.substr(0, 2) / (key + ".o");
  const fs::path log = cache_dir_ / key.substr(0, 2) / (key + ".log");

  CompileResult result;
  if (fs::exists(object)) {
    result.ok = true;
    result.cached = true;
    result.object = object;
    if (fs::exists(log)) result.diagnostics = read_file(log);
    return result;
  }

  TempDir tmp(scratch_dir_, "cc-");
  const fs::path src = tmp.path() / req.file_name;
  const fs::path prelude = tmp.path() / "task_prototype.h";
  const fs::path out = tmp.path() / "kernel.o";
  write_file_atomic(src, req.source);
  std::vector<std::string> argv = {tools_.clang.string(), "--target=riscv64-linux-gnu", "-march=" + req.march,
                                   "-mabi=lp64d", req.opt, "-std=gnu17", "-fdiagnostics-color=never",
                                   "-ferror-limit=20", "-fno-common"};
  if (!req.prelude.empty()) {
    write_file_atomic(prelude, req.prelude);
    argv.insert(argv.end(), {"-include", prelude.string()});
  }
  argv.insert(argv.end(), req.flags.begin(), req.flags.end());
  argv.insert(argv.end(), {"-c", src.string(), "-o", out.string()});

  ProcessSpec spec;
  spec.argv = argv;
  spec.cwd = tmp.path();
  spec.limits = compiler_limits();
  ProcessResult pr = run_process(spec);
  if (!pr.started) throw ToolchainError("cannot run " + tools_.clang.string() + ": " + pr.spawn_error + " (apt-get install clang-22)");

  std::string diag = pr.err + pr.out;
  replace_all(diag, src.string(), req.file_name);
  replace_all(diag, prelude.string(), "<task prototype>");
  replace_all(diag, tmp.path().string() + "/", "");
  if (pr.timed_out) diag += "\ncompiler " + pr.describe();
  else if (pr.term_signal) diag += "\ncompiler " + pr.describe() + " (out of memory?)";
  result.diagnostics = cap(diag);
  result.ok = pr.ok() && fs::exists(out);

  if (result.ok && !req.keep_global.empty()) {
    ProcessSpec oc;
    oc.argv = {tools_.objcopy.string(), "--keep-global-symbol=" + req.keep_global, out.string()};
    oc.limits = compiler_limits();
    ProcessResult r = run_process(oc);
    if (!r.ok()) throw ToolchainError(tools_.objcopy.string() + " failed (" + r.describe() + "): " + r.err);
  }
  if (result.ok) {
    fs::create_directories(object.parent_path());
    write_file_atomic(log, result.diagnostics);
    fs::path staged = object;
    staged += ".tmp." + std::to_string(::getpid()) + "." +
              std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
    fs::copy_file(out, staged, fs::copy_options::overwrite_existing);
    fs::rename(staged, object);
    result.object = object;
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

std::string ClangCompiler::link(const std::vector<fs::path>& objects, const fs::path& out) {
  std::vector<std::string> argv = {tools_.clang.string(), "--target=riscv64-linux-gnu", "-march=rv64gc", "-static",
                                   "-fuse-ld=lld", "-Wl,--no-warn-mismatch"};
  for (const auto& o : objects) argv.push_back(o.string());
  argv.insert(argv.end(), {"-lm", "-o", out.string()});
  ProcessSpec spec;
  spec.argv = argv;
  spec.limits = compiler_limits();
  ProcessResult pr = run_process(spec);
  if (!pr.started) throw ToolchainError("cannot run " + tools_.clang.string() + ": " + pr.spawn_error);
  if (pr.ok() && fs::exists(out)) return "";
  std::string diag = pr.err + pr.out;
  if (diag.empty()) diag = "linker " + pr.describe();
  return cap(diag);
}

}  // namespace eok::evaluator
