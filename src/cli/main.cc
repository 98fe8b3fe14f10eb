// eok: find fast RISC-V Vector kernels. This file wires the subcommands (one file each), the global
// options and the exit codes, and defines the few helpers cli.h gives every subcommand.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string_view>

#include <nlohmann/json.hpp>

#include "src/cli/cli.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "src/common/log.h"

namespace eok::cli {

bool stdout_is_terminal() {
  return isatty(STDOUT_FILENO) != 0;
}

std::unique_ptr<db::KernelDb> open_kernel_db(const Workspace& ws) {
  return db::KernelDb::open(ws.database_path());
}

std::unique_ptr<db::KernelDb> open_kernel_db_for_reading(const Workspace& ws) {
  return db::KernelDb::open_for_reading(ws.database_path());
}

}  // namespace eok::cli

int main(int argc, char** argv) {
  using namespace eok;
  CLI::App app{
      "eok: Evolution of Kernels. Finds fast RISC-V Vector (RVV 1.0) kernels and judges them on a SpacemiT K1\n"
      "board: the built-in virtual K1 (qemu-riscv64 + a cost model from measured X60 figures), or real K1 boards\n"
      "over SSH or on a Slurm partition (a board profile; see configs/boards/k1-ssh.toml.example).\n\n"
      "Start with:\n"
      "  eok doctor                                   check the toolchain the evaluator needs\n"
      "  eok doctor --board k1-lab.toml               check real boards: reached, key, RVV, timers\n"
      "  eok tasks                                    list the task catalog (kernels/)\n"
      "  eok mine --repo OpenBLAS                     mine a kernel library's history into an idea pool\n"
      "  eok ideas                                    browse the idea pool\n"
      "  eok search --task mish --board k1            search for a faster mish kernel\n"
      "  eok leaderboard                              the best kernel of every task so far\n"
      "  eok eval --task mish_f32 --kernel my.c       judge one candidate kernel against ker0\n"
      "  eok measure -- ./prog                        modeled cycles of a riscv64 program's marked regions\n"
      "  eok bench run --suite all --method tuner     run a method over the 80-task benchmark\n"
      "  eok bench table                              the paper's speedup table of the benches so far\n"
      "  eok report --out report                      a static HTML report with charts\n\n"
      "Exit codes (every command): 0 done; 1 the judged kernel or checked board is not ok; 2 a usage or\n"
      "configuration mistake; 3 something named does not exist; 4 the toolchain is missing or broken; 5 a file\n"
      "eok wrote is damaged; 6 infra_error (eok or the board failed, not the kernel); 7 a search stopped early\n"
      "(resumable); 8 a search failed (the LLM gave no kernel); 9 eok could not finish (a file, the disk, the\n"
      "workspace); 70 an internal error (a bug: please report it); 130 interrupted twice. With --json, an\n"
      "error is a JSON object on stdout too: {\"error\": {\"kind\", \"message\", \"exit_code\"}}.\n",
      "eok"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("eok ") + EOK_VERSION);
  cli::GlobalOptions global;
  app.add_option("--root", global.root,
                 "eok data root holding kernels/ and configs/ (default: found from the current directory, $EOK_ROOT, "
                 "or the source tree)")
      ->check(CLI::ExistingDirectory);
  app.add_option("--log-level", global.log_level, "trace, debug, info, warn, error, off")->capture_default_str();
  // Every command finds tasks through EOK_TASKS_PATH (evaluator::task_dirs): the flag puts its folder first.
  app.add_option_function<std::string>(
         "--tasks-dir",
         [](const std::string& dir) {
           const char* old = std::getenv("EOK_TASKS_PATH");
           const std::string path =
               std::filesystem::absolute(dir).string() + (old && *old ? std::string(":") + old : "");
           ::setenv("EOK_TASKS_PATH", path.c_str(), 1);
         },
         "a folder of your own tasks, searched before $EOK_TASKS_PATH and kernels/ (eok task new writes there)")
      ->check(CLI::ExistingDirectory);

  int exit_code = 0;
  cli::add_eval_command(app, global, exit_code);
  cli::add_measure_command(app, global, exit_code);
  cli::add_doctor_command(app, global, exit_code);
  cli::add_tasks_command(app, global, exit_code);
  cli::add_task_command(app, global, exit_code);
  cli::add_search_command(app, global, exit_code);
  cli::add_runs_command(app, global, exit_code);
  cli::add_leaderboard_command(app, global, exit_code);
  cli::add_kernels_command(app, global, exit_code);
  cli::add_show_command(app, global, exit_code);
  cli::add_export_command(app, global, exit_code);
  cli::add_mine_command(app, global, exit_code);
  cli::add_ideas_command(app, global, exit_code);
  cli::add_rag_command(app, global, exit_code);
  cli::add_bench_command(app, global, exit_code);
  cli::add_report_command(app, global, exit_code);
  app.parse_complete_callback([&] { log::set_level(global.log_level); });

  // Scripts asked for JSON: an error is JSON too (on stdout, where they read), besides the sentence on stderr.
  bool json = false;
  for (int i = 1; i < argc; ++i) json = json || std::string_view(argv[i]) == "--json";
  auto fail = [&](const char* kind, const std::string& message, int code) {
    std::fflush(stdout);
    std::cerr << "eok: " << (code == 70 ? "internal error: " : "") << message << "\n";
    if (json) {
      nlohmann::json j = {{"error", {{"kind", kind}, {"message", message}, {"exit_code", code}}}};
      std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    }
    return code;
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    if (json) return fail("usage", e.what(), 2);
    app.exit(e);  // CLI11's message and the usage hint
    return 2;
  } catch (const Error& e) {
    return fail(e.kind(), e.what(), e.exit_code());
  } catch (const std::filesystem::filesystem_error& e) {
    // A file system call that failed (a full disk, a file removed under eok): eok could not finish, no bug.
    const bool storage = is_storage_errno(e.code().value());
    return fail(storage ? "storage" : "error",
                std::string(e.what()) + (storage ? storage_advice(e.code().value()) : ""), 9);
  } catch (const std::exception& e) {
    return fail("internal", e.what(), 70);
  }
  return exit_code;
}
