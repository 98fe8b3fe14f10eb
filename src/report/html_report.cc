#include "src/report/html_report.h"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <sstream>

#include "evaluator/board.h"
#include "evaluator/roofline.h"
#include "evaluator/task.h"
#include "src/bench/bench_results.h"
#include "src/common/fs_util.h"
#include "src/common/log.h"
#include "src/common/number_format.h"
#include "src/common/text_diff.h"
#include "src/db/kernel_db.h"
#include "src/report/svg_chart.h"

namespace eok::report {

namespace fs = std::filesystem;

namespace {

std::string fmt(double v, int digits = 2) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

const char* kStyle = R"css(
body { font-family: sans-serif; margin: 24px; color: #222; max-width: 1400px; }
h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 32px; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 13px; margin: 8px 0; }
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.chart { display: block; margin: 12px 0; font-size: 11px; overflow: visible; }
.chart .title { font-size: 13px; font-weight: bold; }
.chart .grid { stroke: #eee; } .chart .axis { stroke: #888; }
.chart .reference { stroke: #c00; stroke-dasharray: 4 3; }
.scroll { overflow-x: auto; }
pre { background: #f7f7f7; padding: 8px; font-size: 12px; overflow-x: auto; }
.diff .add { color: #0a0; } .diff .del { color: #c00; }
.note { color: #666; font-size: 13px; }
)css";

std::string diff_html(const std::string& diff) {
  std::ostringstream o;
  std::istringstream in(diff);
  std::string line;
  while (std::getline(in, line)) {
    const char* cls = line.rfind("+", 0) == 0 ? "add" : line.rfind("-", 0) == 0 ? "del" : "";
    o << "<span class=\"" << cls << "\">" << escape_html(line) << "</span>\n";
  }
  return o.str();
}

}  // namespace

ReportSummary write_report(const ReportRequest& req) {
  const fs::path kernels_dir = req.root / "kernels";
  auto db = db::KernelDb::open_for_reading(req.workspace.database_path());
  const auto board = evaluator::load_board(req.root, req.board);
  const auto table = cost::X60Table::load(board.cost_table);
  const auto memory = cost::MemoryModelParams::load(board.memory_model);
  const auto results = bench::collect_results(*db, kernels_dir, req.method);
  std::vector<db::LeaderboardRow> leaderboard;
  for (auto& row : db->leaderboard()) {
    if (row.board == req.board) leaderboard.push_back(row);
  }

  ReportSummary summary;
  summary.methods = results.size();
  summary.tasks = leaderboard.size();
  std::ostringstream h;
  const std::time_t now = std::time(nullptr);
  char when[64];
  std::strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  h << "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>eok report</title><style>" << kStyle
    << "</style></head><body>\n";
  h << "<h1>eok report</h1><p class=\"note\">Board " << escape_html(board.name) << " ("
    << escape_html(board.description) << "), " << leaderboard.size() << " tasks with kernels, " << results.size()
    << " bench methods; written " << when << ". Speedups are over each task's ker0 in modeled cycles.</p>\n";
  h << "<nav><a href=\"#tables\">tables</a> | <a href=\"#leaderboard\">leaderboard</a> | <a "
       "href=\"#speedups\">speedups</a> | "
       "<a href=\"#iterations\">iterations</a> | <a href=\"#roofline\">roofline</a> | <a "
       "href=\"#kernels\">kernels</a></nav>\n";

  // Tables: the paper's layout, per suite.
  h << "<section id=\"tables\"><h2>Bench tables</h2>";
  if (results.empty()) {
    h << "<p class=\"note\">No bench has run in this workspace yet: <code>eok bench run --suite all --method "
         "tuner</code> fills "
         "these tables.</p>";
  }
  for (const char* suite : {"general", "nn"}) {
    if (results.empty()) break;
    h << "<table id=\"table-" << suite << "\"><caption>" << suite
      << " suite</caption><tr><th>method</th><th>tasks</th><th>mean</th><th>max</th><th>75%</th><th>50%</th><th>25%</"
         "th>"
         "<th>correct</th><th>&gt; 1</th></tr>";
    for (const auto& m : results) {
      const auto s = bench::suite_stats(m, suite);
      h << "<tr><td>" << escape_html(m.label) << "</td><td>" << s.tasks << "</td><td>" << fmt(s.mean, 3) << "</td><td>"
        << fmt(s.max, 3) << "</td><td>" << fmt(s.p75, 3) << "</td><td>" << fmt(s.p50, 3) << "</td><td>" << fmt(s.p25, 3)
        << "</td><td>" << s.correct << "</td><td>" << s.faster << "</td></tr>";
    }
    h << "</table>";
  }
  h << "</section>\n";

  // Leaderboard.
  h << "<section id=\"leaderboard\"><h2>Leaderboard</h2><table><tr><th>task</th><th>best "
       "kernel</th><th>run</th><th>speedup</th>"
       "<th>best cycles</th><th>ker0 cycles</th><th>evaluations</th></tr>";
  for (const auto& row : leaderboard) {
    int64_t evaluations = 0;
    for (const auto& [status, n] : row.counts_by_status) evaluations += n;
    h << "<tr><td><a href=\"#k-" << escape_html(row.task) << "\">" << escape_html(row.task) << "</a></td><td>#"
      << row.best_kernel_id << "</td><td>" << escape_html(row.best_run_id.empty() ? "ker0" : row.best_run_id)
      << "</td><td>" << fmt(row.best_speedup, 3) << "x</td><td>" << with_commas(row.best_cycles) << "</td><td>"
      << with_commas(row.baseline_cycles) << "</td><td>" << evaluations << "</td></tr>";
  }
  h << "</table></section>\n";

  // Per-task speedup bars, one chart per suite.
  h << "<section id=\"speedups\"><h2>Speedup per task</h2>";
  for (const char* suite : {"general", "nn"}) {
    std::vector<std::string> tasks;
    for (const auto& m : results) {
      for (const auto& [task, r] : m.tasks) {
        if (r.suite == suite && std::find(tasks.begin(), tasks.end(), task) == tasks.end()) tasks.push_back(task);
      }
    }
    std::sort(tasks.begin(), tasks.end());
    if (tasks.empty()) continue;
    std::vector<Series> series;
    for (const auto& m : results) {
      Series s{m.label, {}};
      for (const auto& t : tasks) {
        auto it = m.tasks.find(t);
        s.values.push_back(it == m.tasks.end() ? NAN : it->second.speedup);
      }
      series.push_back(s);
    }
    h << "<div class=\"scroll\">"
      << bar_chart(std::string("chart-speedups-") + suite, std::string("Best speedup over ker0, ") + suite + " suite",
                   tasks, series, 1.0)
      << "</div>";
  }
  if (results.empty()) h << "<p class=\"note\">No bench results yet.</p>";
  h << "</section>\n";

  // Best speedup over iterations: the mean over tasks of the best-so-far, per method.
  h << "<section id=\"iterations\"><h2>Best speedup over iterations</h2>";
  if (!results.empty()) {
    std::vector<Series> series;
    for (const auto& m : results) {
      size_t steps = 0;
      for (const auto& [task, r] : m.tasks) steps = std::max(steps, r.best_by_iteration.size());
      Series s{m.label, std::vector<double>(std::max<size_t>(steps, 1), 0.0)};
      for (size_t i = 0; i < s.values.size(); ++i) {
        double sum = 0;
        size_t n = 0;
        for (const auto& [task, r] : m.tasks) {
          // A run that ended earlier keeps its final best.
          sum += r.best_by_iteration.empty() ? 1.0 : r.best_by_iteration[std::min(i, r.best_by_iteration.size() - 1)];
          ++n;
        }
        s.values[i] = n ? sum / static_cast<double>(n) : NAN;
      }
      series.push_back(s);
    }
    h << line_chart("chart-iterations", "Mean best speedup so far, over all tasks of each method", "iteration",
                    "speedup", series);
  } else {
    h << "<p class=\"note\">No bench results yet.</p>";
  }
  h << "</section>\n";

  // Roofline: every task of the catalog, ker0 and the best kernel.
  h << "<section id=\"roofline\"><h2>Roofline</h2>";
  std::vector<RooflinePoint> points;
  std::ostringstream rows;
  std::map<std::string, const db::LeaderboardRow*> by_task;
  for (const auto& row : leaderboard) by_task[row.task] = &row;
  std::vector<Roof> roofs;
  for (const char* dtype : {"f32", "f16"}) {
    const auto p = evaluator::peak_rates(board, table, memory, dtype);
    // The slope is the fastest way bytes move (the load/store unit on warm data), so no kernel can sit
    // above it; each task's own bound, by where its data can live, is in the table below.
    roofs.push_back({dtype, p.ops_per_cycle, std::max(p.l1_read, p.l1_write)});
  }
  const auto tasks = evaluator::load_tasks(kernels_dir, [](const std::string& id, const std::string& why) {
    log::warn("task {} left out of the roofline table: {}", id, why);
  });
  for (const auto& task : tasks) {
    const std::string& id = task.id;
    const auto peak = evaluator::peak_rates(board, table, memory, task.dtype);
    const auto roof = evaluator::task_roofline(task, peak);
    auto it = by_task.find(id);
    const double ker0 = it != by_task.end() ? it->second->baseline_cycles : 0;
    const double best = it != by_task.end() ? it->second->best_cycles : 0;
    rows << "<tr><td>" << escape_html(id) << "</td><td>" << escape_html(roof.limit) << "</td><td>"
         << with_commas(roof.bound_cycles) << "</td><td>" << (ker0 > 0 ? with_commas(ker0) : "-") << "</td><td>"
         << (ker0 > 0 ? fmt(roof.distance(ker0)) + "x" : "-") << "</td><td>"
         << (best > 0 ? fmt(roof.distance(best)) + "x" : "-") << "</td></tr>";
    if (ker0 > 0) points.push_back({id, roof.intensity(), roof.flops / ker0, "ker0"});
    if (best > 0 && best < ker0) points.push_back({id, roof.intensity(), roof.flops / best, "best"});
  }
  h << roofline_chart("chart-roofline", "Tasks under the roofline of " + board.name + " (cold caches: DRAM rates)",
                      roofs, points);
  h << "<table><tr><th>task</th><th>bound by</th><th>roofline cycles</th><th>ker0 cycles</th><th>ker0 / roofline</th>"
       "<th>best / roofline</th></tr>"
    << rows.str() << "</table></section>\n";

  // Best kernels: source and diff against ker0.
  h << "<section id=\"kernels\"><h2>Best kernels</h2>";
  for (const auto& row : leaderboard) {
    auto k = db->get_kernel(row.best_kernel_id);
    if (!k) continue;
    ++summary.kernels;
    h << "<details id=\"k-" << escape_html(row.task) << "\"><summary>" << escape_html(row.task) << ": kernel #" << k->id
      << ", " << fmt(row.best_speedup, 3) << "x ker0"
      << (k->description.empty() ? "" : " - " + escape_html(k->description)) << "</summary>";
    if (k->op == "ker0") {
      h << "<p class=\"note\">ker0 is still the best kernel of this task.</p>";
    } else if (auto ker0 = db->find_ker0(row.task, row.board)) {
      h << "<h3>diff against ker0</h3><pre class=\"diff\">"
        << diff_html(unified_diff(ker0->source, k->source, "ker0.c", "best.c")) << "</pre>";
    }
    h << "<h3>source</h3><pre>" << escape_html(k->source) << "</pre></details>\n";
  }
  h << "</section>\n</body></html>\n";

  fs::create_directories(req.out_dir);
  summary.index = req.out_dir / "index.html";
  write_file_atomic(summary.index, h.str());
  return summary;
}

}  // namespace eok::report
