// eok doctor: checks every piece the evaluator needs and prints the command that fixes each missing one.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "evaluator/toolchain.h"
#include "src/common/config.h"
#include "src/common/error.h"
#include "src/llm/discovery.h"
#include "src/cli/cli.h"
#include "src/common/log.h"
#include "src/common/paths.h"

namespace eok::cli {

namespace {

struct DoctorOptions {
  std::string board = "k1";
  bool json = false;
};

// Optional: eok search works without an LLM (the tuner), but users want to know which one it would use.
evaluator::DoctorCheck llm_check(const std::filesystem::path& root) {
  evaluator::DoctorCheck c;
  c.name = "LLM endpoint (eok search)";
  c.optional = true;
  c.fix = "export EOK_LLM_BASE_URL=http://HOST:PORT/v1 EOK_LLM_MODEL=NAME, or start vLLM/Ollama/llama.cpp locally";
  try {
    const Config config = Config::load(root);
    const std::string url = config.str("llm.base_url");
    auto server = url.empty() ? (config.boolean("llm.discover") ? llm::discover_local_server() : std::nullopt)
                              : llm::probe_server(url, config.str("llm.api_key"), 5);
    c.ok = server.has_value();
    c.detail = server ? server->kind + " at " + server->base_url + ", model " +
                            (config.str("llm.model").empty() ? server->model : config.str("llm.model"))
                      : (url.empty() ? "none configured or found: eok search runs the knob tuner"
                                     : url + " does not answer /models");
  } catch (const Error& e) {
    c.detail = e.what();
  }
  return c;
}

int run_doctor(const DoctorOptions& opt, const GlobalOptions& global) {
  log::set_level(global.log_level);
  const auto root = find_project_root(global.root);
  const Workspace ws = Workspace::open();
  auto checks = evaluator::run_doctor(root, opt.board, ws.tmp_dir());
  checks.push_back(llm_check(root));
  bool all_ok = true;
  for (const auto& c : checks) all_ok &= c.ok || c.optional;
  if (opt.json) {
    nlohmann::json j = {{"ok", all_ok},
                        {"root", root.string()},
                        {"workspace", ws.root().string()},
                        {"checks", nlohmann::json::array()}};
    for (const auto& c : checks) {
      j["checks"].push_back({{"name", c.name},
                             {"ok", c.ok},
                             {"optional", c.optional},
                             {"detail", c.detail},
                             {"fix", c.ok ? nlohmann::json(nullptr) : nlohmann::json(c.fix)}});
    }
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    return all_ok ? 0 : 1;
  }
  std::printf("eok root   %s\nworkspace  %s\n\n", root.string().c_str(), ws.root().string().c_str());
  for (const auto& c : checks) {
    const char* mark = c.ok ? "ok  " : (c.optional ? "warn" : "FAIL");
    std::printf("[%s] %-45s %s\n", mark, c.name.c_str(), c.detail.c_str());
    if (!c.ok) std::printf("       fix: %s\n", c.fix.c_str());
  }
  std::printf("\n%s\n",
              all_ok ? "everything the evaluator needs is in place" : "some pieces are missing: run the fixes above");
  return all_ok ? 0 : 1;
}

}  // namespace

void add_doctor_command(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  auto opt = std::make_shared<DoctorOptions>();
  CLI::App* cmd = app.add_subcommand(
      "doctor",
      "Check everything the evaluator needs, by using it: clang-22 with RVV support, the riscv64 sysroot,\n"
      "qemu-riscv64 (dynamically linked, so it can load plugins), eok's TCG plugin and its seccomp sandbox,\n"
      "the board profiles, the X60 cost table and the task catalog. With --board naming a real board (runner\n"
      "ssh, slurm or local), also every board of it: reached with its key, a vector probe program run there\n"
      "through exec_prefix, the timers the harness can use, the CPU governor and the temperature sensor\n"
      "(absent ones are warnings). Each missing piece is printed with the command that fixes it. Exit code 0\n"
      "when nothing required is missing.");
  cmd->add_option(
         "--board,-b", opt->board,
         "board profile to check (a name under configs/boards/ or a path); for a real board also every board of "
         "its pool: reached with its key, a vector probe run through exec_prefix, timers, governor, temperature sensor")
      ->capture_default_str();
  cmd->add_flag("--json", opt->json, "print the checks as JSON");
  cmd->callback([opt, &global, &exit_code] { exit_code = run_doctor(*opt, global); });
}

}  // namespace eok::cli
