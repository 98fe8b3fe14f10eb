// eok report: one static HTML page (index.html, no scripts, nothing fetched from elsewhere) of what the
// kernel database holds: the benches' tables, the leaderboard, per-task speedup bars per method (the
// paper's Figures 3/4), best speedup over iterations per method (Figures 7-9), every task's position
// under its roofline, and each best kernel's source with its diff against ker0.
#pragma once

#include <filesystem>
#include <string>

#include "src/common/paths.h"

namespace eok::report {

struct ReportRequest {
  std::filesystem::path root;  // the eok data root (kernels/, configs/)
  Workspace workspace;
  std::string board = "k1";
  std::string method;             // only this method or label ("" for all)
  std::filesystem::path out_dir;  // created if missing; index.html is replaced
};

struct ReportSummary {
  std::filesystem::path index;  // out_dir/index.html
  size_t tasks = 0;             // tasks with a leaderboard entry
  size_t methods = 0;           // bench labels shown
  size_t kernels = 0;           // best kernels listed with their source
};

// Writes the report. Throws eok::Error when the database or the board's cost table cannot be read or the
// directory cannot be written; an empty database gives a page that says how to fill it.
ReportSummary write_report(const ReportRequest& request);

}  // namespace eok::report
