// eok measure: a virtual `perf stat` for any statically linked riscv64 program on a board.
#include <cstdio>
#include <iostream>

#include "evaluator/board_session.h"
#include "evaluator/eval_result.h"
#include "evaluator/program_measurement.h"
#include "src/cli/cli.h"
#include "src/common/error.h"
#include "src/common/log.h"
#include "src/common/paths.h"

namespace eok::cli {

namespace {

struct MeasureOptions {
  std::string board = "k1";
  std::vector<std::string> command;  // PROGRAM [ARGS...]
  bool json = false;
  double timeout = 0;
};

nlohmann::json to_json(const evaluator::ProgramMeasurement& m, const std::string& board) {
  nlohmann::json regions = nlohmann::json::array();
  for (const auto& r : m.regions) {
    nlohmann::json j = evaluator::cost_json(r.cost);
    j["index"] = r.index;
    j["cycles"] = r.cost.cycles;
    regions.push_back(std::move(j));
  }
  nlohmann::json exit_code = m.process.started && !m.process.timed_out && m.process.term_signal == 0
                                 ? nlohmann::json(m.process.exit_code)
                                 : nlohmann::json(nullptr);
  return {{"board", board},
          {"exit_code", exit_code},
          {"status", m.process.describe()},
          {"problem", m.problem.empty() ? nlohmann::json(nullptr) : nlohmann::json(m.problem)},
          {"regions", regions}};
}

void print_human(const evaluator::ProgramMeasurement& m, const std::string& board) {
  std::printf("board %s; program %s; %zu region%s\n", board.c_str(), m.process.describe().c_str(), m.regions.size(),
              m.regions.size() == 1 ? "" : "s");
  if (!m.problem.empty()) std::printf("problem: %s\n", m.problem.c_str());
  if (m.regions.empty()) {
    std::printf(
        "no region ended: mark what to measure with EOK_REGION_BEGIN() / EOK_REGION_END() from "
        "evaluator/target/eok_region.h\n");
    return;
  }
  std::printf("%6s %16s %14s %14s %12s %12s  %s\n", "region", "cycles", "instructions", "compute", "load stalls",
              "DRAM", "bound");
  for (const auto& r : m.regions) {
    const auto& c = r.cost;
    std::printf("%6zu %16s %14s %14s %12s %12s  %s\n", r.index, with_commas(c.cycles).c_str(),
                with_commas(static_cast<double>(c.instructions)).c_str(), with_commas(c.compute_cycles).c_str(),
                with_commas(c.memory.stall_cycles).c_str(), with_commas(c.memory.dram_cycles).c_str(), c.bound.c_str());
  }
}

int run_measure(const MeasureOptions& opt, const GlobalOptions& global) {
  log::set_level(global.log_level);
  const auto root = find_project_root(global.root);
  const Workspace ws = Workspace::open();
  auto session = evaluator::open_board_session(root, ws, opt.board);
  if (evaluator::is_real_board(session.board)) {
    throw ConfigError("eok measure models a program on a virtual board; " + session.board.name +
                      " is a real board (runner " + session.board.runner +
                      "): run the program there under `perf stat`, or model it on its virtual twin "
                      "with --board " +
                      session.board.virtual_board);
  }
  const std::vector<std::string> args(opt.command.begin() + 1, opt.command.end());
  const auto m = evaluator::measure_program(*session.runner, *session.cost_model, opt.command.front(), args,
                                            ws.tmp_dir(), opt.timeout);
  // The program's own output goes where it would go; with --json it moves to stderr so stdout stays JSON.
  std::fwrite(m.program_stdout.data(), 1, m.program_stdout.size(), opt.json ? stderr : stdout);
  std::fwrite(m.process.err.data(), 1, m.process.err.size(), stderr);
  if (opt.json)
    std::cout << to_json(m, session.board.name).dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
              << std::endl;
  else
    print_human(m, session.board.name);
  if (!m.problem.empty()) return 6;
  return m.process.ok() ? 0 : 1;
}

}  // namespace

void add_measure_command(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  auto opt = std::make_shared<MeasureOptions>();
  CLI::App* cmd = app.add_subcommand(
      "measure",
      "A virtual `perf stat`: run a statically linked riscv64 Linux program on a board and report the modeled\n"
      "cycles, instructions and profile of every region it marks, in the order the regions ended.\n\n"
      "Mark regions with the public header evaluator/target/eok_region.h (the markers are no-ops on real\n"
      "hardware, so the same program runs on a real K1):\n"
      "  #include \"eok_region.h\"\n"
      "  EOK_REGION_BEGIN(); work(); EOK_REGION_END();\n"
      "Build:\n"
      "  clang-22 --target=riscv64-linux-gnu -march=rv64gcv -mcpu=spacemit-x60 -O2 -static -fuse-ld=lld \\\n"
      "           -I evaluator/target prog.c -o prog\n"
      "Regions do not nest; caches carry over between regions as on the board, and a region pays only for\n"
      "what the board would do inside it. The program runs in the evaluation sandbox: it may compute, allocate\n"
      "memory and write to stdout/stderr; it opens no files (pass inputs as arguments or generate them).\n\n"
      "Exit code: 0 the program exited 0, 1 it failed (its status is printed), 6 the measurement is void.\n\n"
      "Examples:\n  eok measure --board k1 -- ./memcpy_bench 4096\n"
      "  eok measure --json -- ./prog | jq '.regions[].cycles'");
  cmd->add_option("--board,-b", opt->board, "board profile under configs/boards/ (k1: the virtual K1)")
      ->capture_default_str();
  cmd->add_flag("--json", opt->json,
                "print one JSON object: {board, exit_code, status, problem, regions: [{index, cycles, instructions, "
                "bound, compute_cycles, load_stall_cycles, l2_cycles, dram_cycles, ...}]}");
  cmd->add_option("--timeout", opt->timeout,
                  "seconds before the program is stopped (default and maximum: the board's limit)");
  cmd->add_option("command", opt->command, "PROGRAM [ARGS...] (put -- before it when ARGS start with -)")->required();
  cmd->callback([opt, &global, &exit_code] { exit_code = run_measure(*opt, global); });
}

}  // namespace eok::cli
