#include "evaluator/toolchain.h"

#include <cstdlib>

#include <nlohmann/json.hpp>

#include "evaluator/compiler.h"
#include "evaluator/cost_model/x60_table.h"
#include "evaluator/measurement_records.h"
#include "evaluator/qemu_plugin/measurement_protocol.h"
#include "evaluator/qemu_runner.h"
#include "evaluator/remote/board_doctor.h"
#include "evaluator/sandbox/sandbox.h"
#include "evaluator/task.h"
#include "evaluator/tool_versions.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "src/common/paths.h"
#include "src/common/subprocess.h"

namespace eok::evaluator {

namespace fs = std::filesystem;

namespace {

constexpr const char* kClangFix = "apt-get install -y clang-22 lld-22 llvm-22";
constexpr const char* kSysrootFix = "apt-get install -y libc6-dev-riscv64-cross gcc-riscv64-linux-gnu";
constexpr const char* kQemuFix =
    "apt-get install -y qemu-user (the dynamically linked qemu-riscv64; qemu-user-static cannot load plugins)";
constexpr const char* kPluginFix = "cmake --build build (it is built next to build/eok), or set EOK_PLUGIN=PATH";

fs::path tool(const char* env, const std::string& name) {
  if (const char* v = std::getenv(env); v && *v) return v;
  auto p = find_on_path(name);
  return p ? *p : fs::path();
}

std::string first_line(const std::string& s) {
  return s.substr(0, s.find('\n'));
}

}  // namespace

std::vector<fs::path> sandbox_system_paths(const Toolchain& tools) {
  std::vector<fs::path> paths = toolchain_system_paths(tools);
  if (!tools.qemu.empty()) paths.push_back(fs::canonical(tools.qemu));
  return paths;
}

fs::path plugin_path() {
  if (const char* v = std::getenv("EOK_PLUGIN"); v && *v) return v;
  return executable_dir() / "eok-k1-plugin.so";
}

Toolchain find_toolchain(const BoardProfile& board, const fs::path& versions_cache) {
  Toolchain t;
  t.clang = tool("EOK_CLANG", "clang-22");
  if (t.clang.empty()) throw ToolchainError("clang-22 not found: " + std::string(kClangFix));
  t.objcopy = tool("EOK_OBJCOPY", "llvm-objcopy-22");
  if (t.objcopy.empty()) throw ToolchainError("llvm-objcopy-22 not found: " + std::string(kClangFix));
  // Every board needs the emulator: a real one checks kernels on its virtual twin first.
  t.qemu = tool("EOK_QEMU", board.qemu.binary);
  if (t.qemu.empty()) throw ToolchainError(board.qemu.binary + " not found: " + kQemuFix);
  t.plugin = plugin_path();
  if (!fs::exists(t.plugin))
    throw ToolchainError("the virtual board's plugin " + t.plugin.string() + " is missing: " + kPluginFix);
  ToolVersionCache versions(versions_cache);  // the file is read here, once
  t.qemu_version = versions.version_of(t.qemu);
  t.clang_version = versions.version_of(t.clang);
  if (t.clang_version.empty()) throw ToolchainError(t.clang.string() + " --version failed: " + kClangFix);
  return t;
}

std::vector<DoctorCheck> run_doctor(const fs::path& root, const std::string& board_name, const fs::path& scratch_dir) {
  std::vector<DoctorCheck> checks;
  auto add = [&](std::string name, bool ok, std::string detail, std::string fix, bool optional = false) {
    checks.push_back({std::move(name), ok, optional, std::move(detail), std::move(fix)});
    return ok;
  };

  BoardProfile board;
  bool board_ok = false;
  try {
    board = load_board(root, board_name);
    board_ok = add("board profile " + board_name, true, board.description, "");
  } catch (const Error& e) {
    add("board profile " + board_name, false, e.what(), "fix or restore configs/boards/" + board_name + ".toml");
  }
  for (const auto& name : list_boards(root)) {
    if (name == board_name) continue;
    try {
      load_board(root, name);
      add("board profile " + name, true, "parses", "");
    } catch (const Error& e) {
      add("board profile " + name, false, e.what(), "fix configs/boards/" + name + ".toml");
    }
  }

  const fs::path clang = tool("EOK_CLANG", "clang-22");
  const std::string clang_version = clang.empty() ? "" : ask_tool_version(clang);
  const bool clang_ok =
      add("clang-22", !clang_version.empty(), clang_version.empty() ? "not found" : clang_version, kClangFix);
  const fs::path objcopy = tool("EOK_OBJCOPY", "llvm-objcopy-22");
  add("llvm-objcopy-22", !objcopy.empty(), objcopy.empty() ? "not found" : objcopy.string(), kClangFix);
  const fs::path mca = tool("EOK_MCA", "llvm-mca-22");
  add("llvm-mca-22 (cost model cross-checks)", !mca.empty(), mca.empty() ? "not found" : mca.string(), kClangFix, true);

  TempDir tmp(scratch_dir, "doctor-");
  const fs::path src = tmp.path() / "probe.c";
  const fs::path exe = tmp.path() / "probe";
  write_file_atomic(
      src,
      "#include <riscv_vector.h>\n#include <stdio.h>\n"
      "int main(void) { size_t vl = __riscv_vsetvlmax_e32m1(); printf(\"vlen %zu\\n\", vl * 32); return 0; }\n");
  bool linked = false;
  if (clang_ok) {
    ProcessSpec cc;
    cc.argv = {clang.string(),   "--target=riscv64-linux-gnu",
               "-march=rv64gcv", "-O2",
               "-static",        "-fuse-ld=lld",
               src.string(),     "-o",
               exe.string()};
    cc.limits.wall_seconds = 60;
    ProcessResult r = run_process(cc);
    linked = r.ok();
    std::string why = first_line(r.err);
    if (why.find("riscv_vector.h") != std::string::npos) why += " (clang-22 lacks RVV support?)";
    add("RVV compile + riscv64 static link (sysroot)", linked, linked ? "ok" : why,
        why.find("riscv_vector") != std::string::npos ? kClangFix : kSysrootFix);
  }

  if (board_ok) {  // the virtual board, or a real board's virtual twin
    const fs::path qemu = tool("EOK_QEMU", board.qemu.binary);
    const std::string qv = qemu.empty() ? "" : ask_tool_version(qemu);
    bool qemu_ok = add(board.qemu.binary, !qv.empty(), qv.empty() ? "not found" : qv, kQemuFix);
    if (qemu_ok && linked) {
      ProcessSpec run;
      run.argv = {qemu.string(), "-cpu", board.qemu.cpu, exe.string()};
      run.limits.wall_seconds = 30;
      ProcessResult r = run_process(run);
      const std::string want = "vlen " + std::to_string(board.vlen);
      bool ok = r.ok() && r.out.find(want) != std::string::npos;
      add("qemu runs RVV code (-cpu " + board.qemu.cpu + ")", ok,
          ok ? want : r.describe() + " " + first_line(r.err + r.out), "check [qemu] cpu in " + board.file.string());
    }
    const fs::path plugin = plugin_path();
    bool plugin_ok =
        add("eok TCG plugin", fs::exists(plugin), plugin.string() + (fs::exists(plugin) ? "" : " missing"), kPluginFix);
    const fs::path bwrap = sandbox::find_bwrap();
    bool bwrap_ok = add("bubblewrap (the evaluation sandbox)", !bwrap.empty(),
                        bwrap.empty() ? "not found" : ask_tool_version(bwrap), sandbox::kBwrapFix);
    if (qemu_ok && linked && plugin_ok && bwrap_ok) {
      // The whole path of an evaluation: compile and run in the sandbox, the plugin loaded and filtering.
      try {
        Toolchain t;
        t.clang = clang;
        t.objcopy = objcopy;
        t.qemu = qemu;
        t.plugin = plugin;
        sandbox::Sandbox sb(sandbox_system_paths(t));
        ClangCompiler compiler(t, sb, tmp.path() / "objects", tmp.path());
        CompileRequest req;
        req.source = read_file(src);
        req.march = "rv64gcv";
        req.opt = "-O2";
        req.file_name = "probe.c";
        const CompileResult c = compiler.compile(req);
        const fs::path sandboxed_exe = tmp.path() / "run" / "probe";
        fs::create_directories(sandboxed_exe.parent_path());
        const LinkResult l = c.ok ? compiler.link({{{c.object, "probe.o"}}, sandboxed_exe, ""}) : LinkResult{};
        add("sandboxed compile + link (bubblewrap, seccomp)", l.ok,
            l.ok ? "ok" : first_line(c.ok ? l.diagnostics : c.diagnostics),
            std::string(sandbox::kBwrapFix) +
                "; user namespaces must be allowed (sysctl kernel.unprivileged_userns_clone=1, or run as root)");
        if (l.ok) {
          QemuRunner runner(board, t, sb);
          const RunOutcome r =
              runner.run(harness_run(sandboxed_exe, "", std::string(EOK_WATCH_MAGIC) + "\nmarkers 0 0\nret 0\n",
                                     sandboxed_exe.parent_path(), false, 30));
          const Measurement m = parse_measurement(r.measurement);
          const bool loaded = r.process.ok() && m.hello && r.harness.find("vlen") != std::string::npos;
          add("qemu runs with the plugin in the sandbox", loaded,
              loaded ? "ok" : r.process.describe() + " " + r.process.spawn_error + first_line(r.process.err),
              std::string(kQemuFix) + "; " + kPluginFix);
          if (loaded) {
            add("seccomp filter of the emulator", m.sandboxed, m.sandboxed ? "active" : "the kernel refused the filter",
                "run on a Linux kernel with seccomp filters enabled");
            add("the plugin reads guest memory", m.guest_memory_ok, m.guest_memory_ok ? "ok" : "guest_base unknown",
                "use QEMU 7.2 or later in user mode (qemu-user)");
          }
        }
      } catch (const Error& e) {
        add("evaluation sandbox", false, e.what(), sandbox::kBwrapFix);
      }
    }
  }
  if (board_ok && clang_ok && is_real_board(board)) {
    for (auto& c : remote::check_real_board(board, clang, scratch_dir)) checks.push_back(std::move(c));
  }
  if (board_ok) {
    try {
      auto table = cost::X60Table::load(board.cost_table);
      add("X60 cost table", true,
          std::to_string(table.vector_entries()) + " vector, " + std::to_string(table.scalar_entries()) +
              " scalar entries",
          "");
    } catch (const Error& e) {
      add("X60 cost table", false, e.what(),
          "restore evaluator/cost_model/x60_table.json (make_x60_table.py regenerates it)");
    }
  }
  size_t tasks = 0;
  std::string bad;
  for (const auto& id : list_task_ids(root / "kernels")) {
    try {
      load_task(root / "kernels" / id);
      ++tasks;
    } catch (const Error& e) {
      bad += std::string(bad.empty() ? "" : "; ") + e.what();
    }
  }
  add("task catalog", bad.empty() && tasks > 0, bad.empty() ? std::to_string(tasks) + " tasks" : bad,
      "fix the task.toml named");
  return checks;
}

}  // namespace eok::evaluator
