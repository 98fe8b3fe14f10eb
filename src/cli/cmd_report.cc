// eok report: a static HTML report of the kernel database (tables, leaderboard, charts, best kernels).
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "src/cli/cli.h"
#include "src/common/log.h"
#include "src/report/html_report.h"

namespace eok::cli {

void add_report_command(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  struct Options {
    std::string out, board = "k1", method;
    bool force = false, json = false;
  };
  auto opt = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "report",
      "Write a static HTML report (DIR/index.html; no scripts, opens offline): the bench tables, the leaderboard,\n"
      "per-task speedup bars per method, best speedup over iterations, every task under its roofline, and each\n"
      "best kernel's source with its diff against ker0.\n\n"
      "Example:\n  eok bench run --suite all --method tuner && eok report --out report && xdg-open report/index.html");
  cmd->add_option("--out,-o", opt->out, "directory to write (created if missing; never / or a system directory)")
      ->required();
  cmd->add_flag("--force", opt->force, "write into a system directory all the same");
  cmd->add_flag("--json", opt->json, "print what was written as JSON");
  cmd->add_option("--board,-b", opt->board, "board profile")->capture_default_str();
  cmd->add_option("--method", opt->method, "only this method or label");
  cmd->callback([opt, &global, &exit_code] {
    log::set_level(global.log_level);
    report::ReportRequest req{find_project_root(global.root), Workspace::open(), opt->board, opt->method,
                              output_directory(opt->out, opt->force)};
    const auto s = report::write_report(req);
    if (opt->json) {
      std::cout << nlohmann::json{{"index", s.index.string()},
                                  {"tasks", s.tasks},
                                  {"methods", s.methods},
                                  {"kernels", s.kernels}}
                       .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                << std::endl;
    } else {
      std::printf("report  %s: %zu tasks, %zu bench methods, %zu best kernels\n", s.index.c_str(), s.tasks, s.methods,
                  s.kernels);
    }
    exit_code = 0;
  });
}

}  // namespace eok::cli
