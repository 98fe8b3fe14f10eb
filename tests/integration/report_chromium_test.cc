// eok report renders in a real browser: Debian's headless Chromium loads the page offline, its DOM has
// every chart with its marks, and the screenshot differs from that of an empty page.
#include <gtest/gtest.h>

#include "src/common/fs_util.h"
#include "src/common/subprocess.h"
#include "support/board_fixture.h"

namespace eok::testing {
namespace {

namespace fs = std::filesystem;

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

ProcessResult chromium(const std::vector<std::string>& args) {
  ProcessSpec spec;
  spec.argv = {"chromium",
               "--headless",
               "--no-sandbox",
               "--disable-gpu",
               "--hide-scrollbars",
               "--no-first-run",
               "--user-data-dir=" + (fs::temp_directory_path() / "eok-chromium-profile").string()};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.limits.wall_seconds = 120;
  return run_process(spec);
}

TEST(ReportInChromium, ShowsEveryChartOffline) {
  if (!find_on_path("chromium")) GTEST_SKIP() << "chromium is not installed (the README's test command installs it)";
  TempDir home(fs::temp_directory_path(), "eok-report-");
  ProcessResult bench = run_eok(
      {"bench", "run", "--suite", "all", "--tasks", "relu_f32,reduce_scan_i32", "--method", "tuner"}, home.path(), 600);
  ASSERT_EQ(bench.exit_code, 0) << bench.out << bench.err;
  const fs::path out = home.path() / "report";
  ProcessResult report = run_eok({"report", "--out", out.string()}, home.path(), 300);
  ASSERT_EQ(report.exit_code, 0) << report.out << report.err;
  const fs::path index = out / "index.html";
  ASSERT_TRUE(fs::exists(index));
  const std::string url = "file://" + index.string();

  // The DOM as Chromium built it: the four kinds of chart, with bars, points and roofs drawn.
  ProcessResult dom = chromium({"--dump-dom", url});
  ASSERT_TRUE(dom.ok()) << dom.describe() << dom.err;
  for (const char* id : {"id=\"chart-speedups-general\"", "id=\"chart-speedups-nn\"", "id=\"chart-iterations\"",
                         "id=\"chart-roofline\"", "id=\"table-general\"", "id=\"table-nn\"", "id=\"k-relu_f32\""}) {
    EXPECT_NE(dom.out.find(id), std::string::npos) << id;
  }
  EXPECT_EQ(count_of(dom.out, "<rect class=\"bar\""), 2u);  // one bar per task of the one method
  EXPECT_GE(count_of(dom.out, "<circle class=\"point\""), 3u);
  EXPECT_GE(count_of(dom.out, "<polyline class=\"roof\""), 2u);
  // Nothing is fetched from elsewhere (the only URL is the SVG namespace).
  EXPECT_EQ(dom.out.find("src=\"http"), std::string::npos);
  EXPECT_EQ(dom.out.find("href=\"http"), std::string::npos);

  // A screenshot of the page, against one of an empty page of the same size.
  const fs::path shot = home.path() / "report.png", blank_shot = home.path() / "blank.png",
                 blank = home.path() / "blank.html";
  write_file_atomic(blank, "<!doctype html><html><body></body></html>\n");
  ASSERT_TRUE(chromium({"--window-size=1280,2000", "--screenshot=" + shot.string(), url}).ok());
  ASSERT_TRUE(
      chromium({"--window-size=1280,2000", "--screenshot=" + blank_shot.string(), "file://" + blank.string()}).ok());
  const std::string png = read_file(shot), empty = read_file(blank_shot);
  ASSERT_GE(png.size(), 8u);
  EXPECT_EQ(png.substr(1, 3), "PNG");
  EXPECT_GT(png.size(), 4 * empty.size()) << "the report's screenshot is about as small as an empty page's";
}

}  // namespace
}  // namespace eok::testing
