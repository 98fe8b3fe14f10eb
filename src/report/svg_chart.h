// Small SVG charts for the static report: no scripts, no fonts or files from elsewhere, so the page opens
// offline in any browser. Each chart is one <svg> element with an id and a class naming its kind.
#pragma once

#include <string>
#include <vector>

namespace eok::report {

struct Series {
  std::string name;
  std::vector<double> values;  // one per category (bars) or per x step (lines); NaN: missing
};

// Grouped vertical bars: one group per category, one bar per series, with a dashed line at `reference`
// (1.0: ker0) and the value axis from 0 to the largest value. Bars have class "bar".
std::string bar_chart(const std::string& id, const std::string& title, const std::vector<std::string>& categories,
                      const std::vector<Series>& series, double reference);

// Lines over x = 0, 1, ... (iterations); points have class "point", lines class "line".
std::string line_chart(const std::string& id, const std::string& title, const std::string& x_label,
                       const std::string& y_label, const std::vector<Series>& series);

struct RooflinePoint {
  std::string label;
  double intensity = 0;  // flops per byte
  double attained = 0;   // flops per cycle
  std::string group;     // colour key ("ker0", "best")
};

struct Roof {
  std::string name;  // "f32", "f16"
  double peak = 0;   // flops per cycle
  double bytes_per_cycle = 0;
};

// Log-log roofline: roofs min(peak, intensity * bandwidth), points with class "point" and a <title>.
std::string roofline_chart(const std::string& id, const std::string& title, const std::vector<Roof>& roofs,
                           const std::vector<RooflinePoint>& points);

// Text for HTML/SVG content and attributes.
std::string escape_html(const std::string& s);

}  // namespace eok::report
