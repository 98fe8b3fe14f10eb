#include "evaluator/compiler.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "evaluator/artifact_cache.h"
#include "evaluator/environment_failure.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "src/common/hash.h"
#include "src/common/log.h"

namespace eok::evaluator {

namespace fs = std::filesystem;

namespace {

constexpr size_t kDiagnosticsCap = 16 * 1024;
const std::string kIn = std::string(sandbox::kWorkdir) + "/";

ProcessLimits compiler_limits() {
  ProcessLimits l;
  l.wall_seconds = 30;  // a macro bomb must not stall the search (the largest baseline compiles in 0.3 s)
  l.address_space_bytes = 4ull << 30;
  l.file_size_bytes = 64ull << 20;  // an object bloated past this is not a kernel (and must not fill the cache)
  l.open_files = 256;
  return l;
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size())
    s.replace(pos, from.size(), to);
}

std::string cap(std::string s) {
  if (s.size() > kDiagnosticsCap) {
    s.resize(kDiagnosticsCap);
    s += "\n[... compiler output truncated]";
  }
  return s;
}

// Writes the source, its headers and the prelude into `dir` and returns clang's command line for it, in
// the sandbox, up to the action. Preprocessing and compiling share it, so that they see the same
// predefined macros (-O3 defines __OPTIMIZE__) and the same files: the tokens checked are those compiled.
sandbox::SandboxedRun clang_run(const fs::path& clang, const fs::path& dir, const CompileRequest& req) {
  write_file_atomic(dir / req.file_name, req.source);
  for (const auto& [name, text] : req.headers) write_file_atomic(dir / name, text);
  sandbox::SandboxedRun run;
  run.workdir = dir;
  run.limits = compiler_limits();
  run.argv = {clang.string()};
  const std::vector<std::string> flags = clang_flags(req);
  run.argv.insert(run.argv.end(), flags.begin(), flags.end());
  if (!req.prelude.empty()) write_file_atomic(dir / "task_prototype.h", req.prelude);
  return run;
}

// clang's messages with the sandbox's paths turned back into the names the user knows.
std::string readable(std::string diag, const CompileRequest& req) {
  replace_all(diag, kIn + req.file_name, req.file_name);
  replace_all(diag, kIn + "task_prototype.h", "<task prototype>");
  replace_all(diag, kIn, "");
  return diag;
}

// A sandbox that did not start is eok's problem; the message says where to look.
[[noreturn]] void sandbox_failed(const std::string& what, const ProcessResult& r) {
  throw ToolchainError("cannot run " + what + " in the evaluation sandbox: " + r.spawn_error +
                       " (eok doctor checks the sandbox)");
}

// The files a make-style dependency line lists (clang -MD), escapes undone.
std::vector<std::string> parse_deps(const std::string& text) {
  std::vector<std::string> files;
  const size_t colon = text.find(": ");
  if (colon == std::string::npos) return files;
  std::string cur;
  for (size_t i = colon + 2; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\' && i + 1 < text.size() && (text[i + 1] == '\n' || text[i + 1] == '\r')) {
      ++i;
    } else if (c == '\\' && i + 1 < text.size()) {
      cur += text[++i];
    } else if (c == ' ' || c == '\n' || c == '\t') {
      if (!cur.empty()) files.push_back(std::move(cur)), cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) files.push_back(cur);
  return files;
}

// Splits clang's stderr into the -H include tree (depth-1 entries) and the diagnostics.
void split_include_tree(const std::string& err, std::vector<std::string>* depth1, std::string* diagnostics) {
  std::istringstream in(err);
  std::string line;
  bool guards_note = false;
  while (std::getline(in, line)) {
    size_t dots = 0;
    while (dots < line.size() && line[dots] == '.') ++dots;
    if (dots > 0 && dots < line.size() && line[dots] == ' ') {
      if (dots == 1) depth1->push_back(line.substr(2));
      continue;
    }
    if (line.rfind("Multiple include guards may be useful for:", 0) == 0) {
      guards_note = true;
      continue;
    }
    if (guards_note && !line.empty() && line[0] == '/') continue;
    guards_note = false;
    *diagnostics += line + "\n";
  }
}

// A successful preprocessing as stored in the artifact cache (nullopt when the stored text is not one).
std::string preprocessed_to_json(const Preprocessed& p) {
  return nlohmann::json{{"text", p.text},
                        {"normalized", p.normalized},
                        {"direct_headers", p.direct_headers},
                        {"files_read", p.files_read},
                        {"diagnostics", p.diagnostics}}
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::optional<Preprocessed> preprocessed_from_json(const std::string& text) {
  const auto j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object()) return std::nullopt;
  try {
    Preprocessed p;
    p.ok = true;
    p.text = j.at("text").get<std::string>();
    p.normalized = j.at("normalized").get<std::string>();
    p.direct_headers = j.at("direct_headers").get<std::vector<std::string>>();
    p.files_read = j.at("files_read").get<std::vector<std::string>>();
    p.diagnostics = j.at("diagnostics").get<std::string>();
    return p;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

}  // namespace

std::vector<std::string> clang_flags(const CompileRequest& req) {
  std::vector<std::string> argv = {
      "--target=riscv64-linux-gnu", "-march=" + req.march, "-mabi=lp64d", req.opt, "-std=gnu17",
      "-fdiagnostics-color=never",  "-ferror-limit=20",    "-fno-common"};
  if (!req.tune.empty()) argv.push_back("-mtune=" + req.tune);
  if (!req.prelude.empty()) argv.insert(argv.end(), {"-include", kIn + "task_prototype.h"});
  argv.insert(argv.end(), req.flags.begin(), req.flags.end());
  return argv;
}

std::vector<fs::path> toolchain_system_paths(const Toolchain& tools) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const fs::path& tool : {tools.clang, tools.objcopy}) {
    const fs::path real = fs::canonical(tool, ec);
    if (!ec) out.push_back(real.parent_path().parent_path());  // /usr/lib/llvm-22
  }
  out.push_back("/usr/riscv64-linux-gnu");  // the sysroot (libc6-dev-riscv64-cross)
  out.push_back("/usr/lib/gcc-cross");      // crt files and libgcc (gcc-riscv64-linux-gnu)
  return out;
}

ClangCompiler::ClangCompiler(Toolchain tools, const sandbox::Sandbox& sandbox, fs::path cache_dir, fs::path scratch_dir)
    : tools_(std::move(tools)),
      sandbox_(sandbox),
      clang_(fs::canonical(tools_.clang)),
      objcopy_(fs::canonical(tools_.objcopy)),
      cache_dir_(std::move(cache_dir)),
      scratch_dir_(std::move(scratch_dir)) {}

Preprocessed ClangCompiler::preprocess(const CompileRequest& req) {
  // The search asks for a kernel's identity and then evaluates it: one preprocessing serves both.
  Hasher h;
  h.add(req.source).add(req.march).add(req.tune).add(req.opt).add(req.prelude).add(req.file_name);
  for (const auto& f : req.flags) h.add(f);
  for (const auto& [name, text] : req.headers) h.add(name).add(text);
  const std::string key = h.hex();
  {
    std::lock_guard<std::mutex> lock(recent_mutex_);
    for (const auto& [k, p] : recent_) {
      if (k == key) return p;
    }
  }
  const ArtifactCache cache(cache_dir_);
  if (auto stored = cache.find(key, ".pp.json")) {
    if (auto p = preprocessed_from_json(read_file(*stored))) {
      remember_preprocessed(key, *p);
      return *p;
    }
  }
  TempDir tmp(scratch_dir_, "cpp-");
  sandbox::SandboxedRun run = clang_run(clang_, tmp.path(), req);
  sandbox::SandboxedRun normalize = run;
  run.argv.insert(run.argv.end(), {"-E", "-H", "-MD", "-MF", kIn + "deps.d", "-fminimize-whitespace",
                                   kIn + req.file_name, "-o", kIn + "out.i"});
  ProcessResult pr = sandbox_.run(run);
  if (!pr.started) sandbox_failed("the preprocessor", pr);

  Preprocessed p;
  std::string diag;
  split_include_tree(pr.err, &p.direct_headers, &diag);
  // The prelude is eok's, not the source's.
  std::erase(p.direct_headers, kIn + "task_prototype.h");
  diag = readable(diag, req);
  if (pr.timed_out) diag += "\npreprocessor " + pr.describe();
  p.ok = pr.ok() && fs::exists(tmp.path() / "out.i");
  if (p.ok && !fs::exists(tmp.path() / "deps.d")) {
    // Without the list of files read, what the source pulled in cannot be checked.
    p.ok = false;
    diag += "error: the preprocessor did not list the files it read (an #embed of a file that is not there?)\n";
  }
  p.diagnostics = cap(diag);
  if (!p.ok) p.environment = environment_failure(pr, pr.err, req.file_name);
  if (p.ok) {
    p.text = read_file(tmp.path() / "out.i");
    p.files_read = parse_deps(read_file(tmp.path() / "deps.d"));
    // Once more without line markers: clang normalises the layout itself, so the identity of a kernel
    // needs no lexer of eok's.
    normalize.argv.insert(normalize.argv.end(),
                          {"-E", "-P", "-fminimize-whitespace", kIn + req.file_name, "-o", kIn + "normalized.i"});
    const ProcessResult pn = sandbox_.run(normalize);
    if (!pn.started) sandbox_failed("the preprocessor", pn);
    p.ok = pn.ok() && fs::exists(tmp.path() / "normalized.i");
    if (p.ok)
      p.normalized = read_file(tmp.path() / "normalized.i");
    else
      p.diagnostics += "error: the preprocessor failed on its second pass (" + pn.describe() + ")\n";
    if (!p.ok) p.environment = environment_failure(pn, pn.err, req.file_name);
  }
  // Only a success is kept on disk: a failure's diagnostics name scratch paths, and it is cheap to repeat.
  if (p.ok) cache.store_bytes(key, ".pp.json", preprocessed_to_json(p));
  remember_preprocessed(key, p);
  return p;
}

void ClangCompiler::remember_preprocessed(const std::string& key, const Preprocessed& p) {
  std::lock_guard<std::mutex> lock(recent_mutex_);
  if (recent_.size() >= kRecentPreprocessed) recent_.pop_front();
  recent_.emplace_back(key, p);
}

CompileResult ClangCompiler::compile(const CompileRequest& req) {
  const auto start = std::chrono::steady_clock::now();
  Hasher h;
  h.add(tools_.clang_version)
      .add(req.march)
      .add(req.tune)
      .add(req.opt)
      .add(req.prelude)
      .add(req.keep_global)
      .add(req.file_name);
  for (const auto& f : req.flags) h.add(f);
  for (const auto& [name, text] : req.headers) h.add(name).add(text);
  h.add(req.source);
  const std::string key = h.hex();
  const ArtifactCache cache(cache_dir_);
  const fs::path log = cache.path(key, ".log");

  CompileResult result;
  // A cached object is used only as it was written: one damaged on disk (or edited) is compiled again.
  if (auto object = cache.find(key, ".o")) {
    result.ok = true;
    result.cached = true;
    result.object = *object;
    if (fs::exists(log)) result.diagnostics = read_file(log);
    return result;
  }

  TempDir tmp(scratch_dir_, "cc-");
  sandbox::SandboxedRun run = clang_run(clang_, tmp.path(), req);
  run.argv.insert(run.argv.end(), {"-c", kIn + req.file_name, "-o", kIn + "kernel.o"});
  ProcessResult pr = sandbox_.run(run);
  if (!pr.started) sandbox_failed("the compiler", pr);

  std::string diag = readable(pr.err + pr.out, req);
  // A compiler that died says so first: its crash report is not the kernel's error.
  if (pr.timed_out)
    diag = "error: the compiler " + pr.describe() + "\n" + diag;
  else if (pr.term_signal == SIGXFSZ)
    diag = "error: the compiler was stopped: the object outgrew the 64 MiB limit\n" + diag;
  else if (pr.term_signal)
    diag = "error: the compiler " + pr.describe() + " (out of memory?)\n" + diag;
  result.diagnostics = cap(diag);
  result.ok = pr.ok() && fs::exists(tmp.path() / "kernel.o");
  if (!result.ok) result.environment = environment_failure(pr, pr.err + pr.out, req.file_name);

  if (result.ok && !req.keep_global.empty()) {
    sandbox::SandboxedRun oc;
    oc.workdir = tmp.path();
    oc.limits = compiler_limits();
    oc.argv = {objcopy_.string(), "--keep-global-symbol=" + req.keep_global, kIn + "kernel.o"};
    ProcessResult r = sandbox_.run(oc);
    if (!r.started) sandbox_failed("llvm-objcopy", r);
    if (!r.ok()) throw ToolchainError(tools_.objcopy.string() + " failed (" + r.describe() + "): " + r.err);
  }
  if (result.ok) {
    write_file_atomic(log, result.diagnostics);
    result.object = cache.store(key, ".o", tmp.path() / "kernel.o");
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

LinkResult ClangCompiler::link(const LinkRequest& req) {
  // The same objects and script always link to the same program: a linked program is cached by their
  // contents, so a candidate judged again (or the reference, every time) is not linked again.
  Hasher h;
  h.add(tools_.clang_version).add(req.script);
  for (const auto& [object, name] : req.objects) h.add(name).add(content_hash(read_file(object)));
  const std::string key = h.hex();
  const ArtifactCache cache(cache_dir_ / "programs");
  if (cache.copy_to(key, ".exe", req.out)) return LinkResult{true, "", ""};
  const fs::path dir = req.out.parent_path();
  const std::string exe = req.out.filename().string();
  sandbox::SandboxedRun run;
  run.workdir = dir;
  run.limits = compiler_limits();
  run.argv = {clang_.string(), "--target=riscv64-linux-gnu", "-march=rv64gc", "-static", "-fuse-ld=lld",
              // Executable pages hold nothing but code (no page shared with read-only data).
              "-Wl,--no-warn-mismatch", "-Wl,-z,separate-code", "-Wl,-z,noexecstack"};
  if (!req.script.empty()) {
    write_file_atomic(dir / (exe + ".ld"), req.script);
    run.argv.push_back("-Wl,-T," + kIn + exe + ".ld");
  }
  for (const auto& [object, name] : req.objects) {
    run.binds.push_back({object, "/objs/" + name, false});
    run.argv.push_back("/objs/" + name);
  }
  run.argv.insert(run.argv.end(), {"-lm", "-o", kIn + exe});
  ProcessResult pr = sandbox_.run(run);
  if (!pr.started) sandbox_failed("the linker", pr);
  LinkResult r;
  r.ok = pr.ok() && fs::exists(req.out);
  if (!r.ok) {
    std::string diag = pr.err + pr.out;
    replace_all(diag, kIn, "");
    r.diagnostics = cap(diag.empty() ? "linker " + pr.describe() : diag);
    r.environment = environment_failure(pr, diag, "");
  } else {
    cache.store(key, ".exe", req.out);
    cache.trim(".exe", kCachedPrograms);
  }
  return r;
}

}  // namespace eok::evaluator
