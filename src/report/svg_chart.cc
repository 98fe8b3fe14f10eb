#include "src/report/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace eok::report {

namespace {

const char* kColours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};

const char* colour(size_t i) {
  return kColours[i % (sizeof kColours / sizeof kColours[0])];
}

std::string num(double v, int digits = 2) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

void legend(std::ostringstream& o, const std::vector<Series>& series, double x, double y) {
  for (size_t i = 0; i < series.size(); ++i) {
    const double yy = y + 16.0 * static_cast<double>(i);
    o << "<rect class=\"legend\" x=\"" << num(x) << "\" y=\"" << num(yy - 9) << "\" width=\"10\" height=\"10\" fill=\""
      << colour(i) << "\"/><text x=\"" << num(x + 14) << "\" y=\"" << num(yy) << "\">" << escape_html(series[i].name)
      << "</text>";
  }
}

// A round step for about `ticks` ticks over [0, hi].
double nice_step(double hi, int ticks) {
  const double raw = hi / ticks;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (m * p >= raw) return m * p;
  }
  return 10 * p;
}

}  // namespace

std::string escape_html(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string bar_chart(const std::string& id, const std::string& title, const std::vector<std::string>& categories,
                      const std::vector<Series>& series, double reference) {
  const double left = 50, top = 30, plot_h = 220, bottom = 110;
  const double group_w = std::max(14.0, 6.0 * static_cast<double>(series.size()) + 6);
  const double plot_w = std::max(300.0, group_w * static_cast<double>(categories.size()));
  const double width = left + plot_w + 170, height = top + plot_h + bottom;
  double hi = reference;
  for (const auto& s : series) {
    for (double v : s.values) {
      if (std::isfinite(v)) hi = std::max(hi, v);
    }
  }
  const double step = nice_step(hi * 1.05, 5);
  hi = std::ceil(hi * 1.05 / step) * step;
  auto y_of = [&](double v) { return top + plot_h - plot_h * v / hi; };

  std::ostringstream o;
  o << "<svg id=\"" << escape_html(id) << "\" class=\"chart bars\" xmlns=\"http://www.w3.org/2000/svg\" width=\""
    << num(width) << "\" height=\"" << num(height) << "\" viewBox=\"0 0 " << num(width) << " " << num(height) << "\">";
  o << "<text class=\"title\" x=\"" << num(left) << "\" y=\"18\">" << escape_html(title) << "</text>";
  for (double v = 0; v <= hi + 1e-9; v += step) {
    o << "<line class=\"grid\" x1=\"" << num(left) << "\" x2=\"" << num(left + plot_w) << "\" y1=\"" << num(y_of(v))
      << "\" y2=\"" << num(y_of(v)) << "\"/><text class=\"tick\" x=\"" << num(left - 6) << "\" y=\"" << num(y_of(v) + 4)
      << "\" text-anchor=\"end\">" << num(v, 1) << "</text>";
  }
  for (size_t c = 0; c < categories.size(); ++c) {
    const double gx = left + group_w * static_cast<double>(c);
    for (size_t s = 0; s < series.size(); ++s) {
      const double v = c < series[s].values.size() ? series[s].values[c] : NAN;
      if (!std::isfinite(v)) continue;
      const double x = gx + 3 + 6.0 * static_cast<double>(s);
      o << "<rect class=\"bar\" x=\"" << num(x) << "\" y=\"" << num(y_of(v)) << "\" width=\"5\" height=\""
        << num(y_of(0) - y_of(v)) << "\" fill=\"" << colour(s) << "\"><title>"
        << escape_html(categories[c] + " " + series[s].name + ": " + num(v, 3) + "x") << "</title></rect>";
    }
    const double lx = gx + group_w / 2, ly = top + plot_h + 8;
    o << "<text class=\"category\" x=\"" << num(lx) << "\" y=\"" << num(ly) << "\" transform=\"rotate(60 " << num(lx)
      << " " << num(ly) << ")\">" << escape_html(categories[c]) << "</text>";
  }
  o << "<line class=\"reference\" x1=\"" << num(left) << "\" x2=\"" << num(left + plot_w) << "\" y1=\""
    << num(y_of(reference)) << "\" y2=\"" << num(y_of(reference)) << "\"/>";
  o << "<line class=\"axis\" x1=\"" << num(left) << "\" x2=\"" << num(left) << "\" y1=\"" << num(top) << "\" y2=\""
    << num(top + plot_h) << "\"/>";
  legend(o, series, left + plot_w + 16, top + 10);
  o << "</svg>";
  return o.str();
}

std::string line_chart(const std::string& id, const std::string& title, const std::string& x_label,
                       const std::string& y_label, const std::vector<Series>& series) {
  const double left = 60, top = 30, plot_w = 520, plot_h = 240, width = left + plot_w + 190, height = top + plot_h + 50;
  size_t steps = 1;
  double lo = 1.0, hi = 1.0;
  for (const auto& s : series) {
    steps = std::max(steps, s.values.size());
    for (double v : s.values) {
      if (!std::isfinite(v)) continue;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  const double step = nice_step(std::max(0.1, (hi - lo) * 1.1), 5);
  lo = std::floor(lo / step) * step;
  hi = std::ceil(hi * 1.02 / step) * step;
  if (hi <= lo) hi = lo + step;
  auto x_of = [&](double i) { return left + (steps > 1 ? plot_w * i / static_cast<double>(steps - 1) : plot_w / 2); };
  auto y_of = [&](double v) { return top + plot_h - plot_h * (v - lo) / (hi - lo); };

  std::ostringstream o;
  o << "<svg id=\"" << escape_html(id) << "\" class=\"chart lines\" xmlns=\"http://www.w3.org/2000/svg\" width=\""
    << num(width) << "\" height=\"" << num(height) << "\" viewBox=\"0 0 " << num(width) << " " << num(height) << "\">";
  o << "<text class=\"title\" x=\"" << num(left) << "\" y=\"18\">" << escape_html(title) << "</text>";
  for (double v = lo; v <= hi + 1e-9; v += step) {
    o << "<line class=\"grid\" x1=\"" << num(left) << "\" x2=\"" << num(left + plot_w) << "\" y1=\"" << num(y_of(v))
      << "\" y2=\"" << num(y_of(v)) << "\"/><text class=\"tick\" x=\"" << num(left - 6) << "\" y=\"" << num(y_of(v) + 4)
      << "\" text-anchor=\"end\">" << num(v, 2) << "</text>";
  }
  for (size_t i = 0; i < steps; ++i) {
    o << "<text class=\"tick\" x=\"" << num(x_of(static_cast<double>(i))) << "\" y=\"" << num(top + plot_h + 16)
      << "\" text-anchor=\"middle\">" << i << "</text>";
  }
  o << "<text class=\"axis-label\" x=\"" << num(left + plot_w / 2) << "\" y=\"" << num(top + plot_h + 36)
    << "\" text-anchor=\"middle\">" << escape_html(x_label) << "</text>";
  o << "<text class=\"axis-label\" x=\"12\" y=\"" << num(top + plot_h / 2) << "\" transform=\"rotate(-90 12 "
    << num(top + plot_h / 2) << ")\" text-anchor=\"middle\">" << escape_html(y_label) << "</text>";
  for (size_t s = 0; s < series.size(); ++s) {
    std::string path;
    for (size_t i = 0; i < series[s].values.size(); ++i) {
      const double v = series[s].values[i];
      if (!std::isfinite(v)) continue;
      path += (path.empty() ? "" : " ") + num(x_of(static_cast<double>(i))) + "," + num(y_of(v));
    }
    o << "<polyline class=\"line\" fill=\"none\" stroke=\"" << colour(s) << "\" stroke-width=\"2\" points=\"" << path
      << "\"/>";
    for (size_t i = 0; i < series[s].values.size(); ++i) {
      const double v = series[s].values[i];
      if (!std::isfinite(v)) continue;
      o << "<circle class=\"point\" cx=\"" << num(x_of(static_cast<double>(i))) << "\" cy=\"" << num(y_of(v))
        << "\" r=\"3\" fill=\"" << colour(s) << "\"><title>"
        << escape_html(series[s].name + ", iteration " + std::to_string(i) + ": " + num(v, 3) + "x")
        << "</title></circle>";
    }
  }
  legend(o, series, left + plot_w + 16, top + 10);
  o << "</svg>";
  return o.str();
}

std::string roofline_chart(const std::string& id, const std::string& title, const std::vector<Roof>& roofs,
                           const std::vector<RooflinePoint>& points) {
  const double left = 60, top = 30, plot_w = 560, plot_h = 300, width = left + plot_w + 170, height = top + plot_h + 50;
  double xlo = 1e-2, xhi = 1e2, ylo = 1e-2, yhi = 1.0;
  for (const auto& r : roofs) yhi = std::max(yhi, r.peak * 2);
  for (const auto& p : points) {
    if (p.intensity <= 0 || p.attained <= 0) continue;
    xlo = std::min(xlo, p.intensity / 2);
    xhi = std::max(xhi, p.intensity * 2);
    ylo = std::min(ylo, p.attained / 2);
    yhi = std::max(yhi, p.attained * 2);
  }
  const double lxlo = std::floor(std::log10(xlo)), lxhi = std::ceil(std::log10(xhi));
  const double lylo = std::floor(std::log10(ylo)), lyhi = std::ceil(std::log10(yhi));
  auto x_of = [&](double v) { return left + plot_w * (std::log10(v) - lxlo) / (lxhi - lxlo); };
  auto y_of = [&](double v) { return top + plot_h - plot_h * (std::log10(v) - lylo) / (lyhi - lylo); };

  std::ostringstream o;
  o << "<svg id=\"" << escape_html(id) << "\" class=\"chart roofline\" xmlns=\"http://www.w3.org/2000/svg\" width=\""
    << num(width) << "\" height=\"" << num(height) << "\" viewBox=\"0 0 " << num(width) << " " << num(height) << "\">";
  o << "<text class=\"title\" x=\"" << num(left) << "\" y=\"18\">" << escape_html(title) << "</text>";
  for (double e = lxlo; e <= lxhi; e += 1) {
    const double x = x_of(std::pow(10.0, e));
    o << "<line class=\"grid\" x1=\"" << num(x) << "\" x2=\"" << num(x) << "\" y1=\"" << num(top) << "\" y2=\""
      << num(top + plot_h) << "\"/><text class=\"tick\" x=\"" << num(x) << "\" y=\"" << num(top + plot_h + 14)
      << "\" text-anchor=\"middle\">1e" << static_cast<int>(e) << "</text>";
  }
  for (double e = lylo; e <= lyhi; e += 1) {
    const double y = y_of(std::pow(10.0, e));
    o << "<line class=\"grid\" x1=\"" << num(left) << "\" x2=\"" << num(left + plot_w) << "\" y1=\"" << num(y)
      << "\" y2=\"" << num(y) << "\"/><text class=\"tick\" x=\"" << num(left - 6) << "\" y=\"" << num(y + 4)
      << "\" text-anchor=\"end\">1e" << static_cast<int>(e) << "</text>";
  }
  o << "<text class=\"axis-label\" x=\"" << num(left + plot_w / 2) << "\" y=\"" << num(top + plot_h + 34)
    << "\" text-anchor=\"middle\">arithmetic intensity (flops per DRAM byte)</text>";
  o << "<text class=\"axis-label\" x=\"12\" y=\"" << num(top + plot_h / 2) << "\" transform=\"rotate(-90 12 "
    << num(top + plot_h / 2) << ")\" text-anchor=\"middle\">flops per cycle</text>";
  std::vector<Series> keys;
  for (size_t r = 0; r < roofs.size(); ++r) {
    // The memory slope up to the ridge point, then flat at the peak.
    const double x0 = std::pow(10.0, lxlo), x1 = std::pow(10.0, lxhi);
    const double ridge = roofs[r].peak / roofs[r].bytes_per_cycle;
    const double start_x = std::max(x0, std::pow(10.0, lylo) / roofs[r].bytes_per_cycle);
    o << "<polyline class=\"roof\" fill=\"none\" stroke=\"#444\" stroke-dasharray=\"" << (r ? "6 3" : "none")
      << "\" points=\"" << num(x_of(start_x)) << "," << num(y_of(start_x * roofs[r].bytes_per_cycle)) << " "
      << num(x_of(ridge)) << "," << num(y_of(roofs[r].peak)) << " " << num(x_of(x1)) << "," << num(y_of(roofs[r].peak))
      << "\"/>";
    o << "<text class=\"tick\" x=\"" << num(x_of(x1) - 4) << "\" y=\"" << num(y_of(roofs[r].peak) - 4)
      << "\" text-anchor=\"end\">" << escape_html(roofs[r].name) << " peak " << num(roofs[r].peak, 0) << "</text>";
  }
  std::vector<std::string> groups;
  for (const auto& p : points) {
    if (std::find(groups.begin(), groups.end(), p.group) == groups.end()) groups.push_back(p.group);
  }
  for (const auto& p : points) {
    if (p.intensity <= 0 || p.attained <= 0) continue;
    const size_t g = static_cast<size_t>(std::find(groups.begin(), groups.end(), p.group) - groups.begin());
    o << "<circle class=\"point\" cx=\"" << num(x_of(p.intensity)) << "\" cy=\"" << num(y_of(p.attained))
      << "\" r=\"3.5\" fill=\"" << colour(g) << "\" fill-opacity=\"0.75\"><title>"
      << escape_html(p.label + " (" + p.group + "): " + num(p.attained, 3) + " flops/cycle at " + num(p.intensity, 3) +
                     " flops/byte")
      << "</title></circle>";
  }
  for (const auto& g : groups) keys.push_back({g, {}});
  legend(o, keys, left + plot_w + 16, top + 10);
  o << "</svg>";
  return o.str();
}

}  // namespace eok::report
