// runtime/results/svg_plot.cpp -- see svg_plot.h.
#include "results/svg_plot.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace lsdae::results {
namespace {

// Tableau 10: distinct, colour-blind friendly hues.
constexpr const char* kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};

std::string xml_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t') out += ' ';  // not allowed in XML 1.0
        else out += c;
    }
  }
  return out;
}

// A pixel coordinate, two decimals.
std::string px(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", v);
  return buffer;
}

// A tick label: k·step printed with the digits the step needs, no more
// (0.1 + 0.2 shows as "0.3", not "0.30000000000000004").
std::string tick_label(double value, double step, double magnitude) {
  if (std::abs(value) < step * 1e-9) value = 0.0;
  const int step_exponent = static_cast<int>(std::floor(std::log10(step) + 1e-9));
  char buffer[64];
  if (magnitude < 1e6 && step >= 1e-4) {
    const int decimals = std::max(0, -step_exponent);
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  } else {
    const int top = magnitude > 0 ? static_cast<int>(std::floor(std::log10(magnitude))) : step_exponent;
    const int digits = std::clamp(top - step_exponent + 1, 1, 15);
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
  }
  return buffer;
}

}  // namespace

AxisTicks nice_ticks(double lo, double hi, int target) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) lo = 0.0, hi = 1.0;
  if (lo > hi) std::swap(lo, hi);
  if (hi - lo <= std::abs(hi) * 1e-12) {  // a constant: widen around it
    const double pad = lo == 0.0 ? 1.0 : std::abs(lo) * 0.1;
    lo -= pad;
    hi += pad;
  }
  target = std::max(target, 1);
  const double raw = (hi - lo) / target;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = 10.0 * magnitude;
  for (double factor : {1.0, 2.0, 5.0})
    if (factor * magnitude >= raw * (1 - 1e-12)) {
      step = factor * magnitude;
      break;
    }
  AxisTicks ticks;
  ticks.step = step;
  const double first = std::floor(lo / step * (1 + 1e-12) + 1e-9), last = std::ceil(hi / step - 1e-9);
  ticks.lo = first * step;
  ticks.hi = last * step;
  const double largest = std::max(std::abs(ticks.lo), std::abs(ticks.hi));
  for (double k = first; k <= last + 0.5; k += 1.0) {
    ticks.values.push_back(k * step);
    ticks.labels.push_back(tick_label(k * step, step, largest));
  }
  return ticks;
}

std::vector<PlotPoint> decimate_min_max(const std::vector<double>& x, const std::vector<double>& y, double x0, double x1,
                                        std::size_t columns) {
  std::vector<PlotPoint> out;
  const std::size_t n = std::min(x.size(), y.size());
  if (columns == 0) columns = 1;
  const double width = x1 > x0 ? x1 - x0 : 1.0;
  std::size_t k = 0;
  while (k < n) {
    if (std::isnan(y[k]) || std::isnan(x[k])) {
      ++k;
      continue;
    }
    const double position = (x[k] - x0) / width * static_cast<double>(columns);
    const auto column = static_cast<long long>(std::floor(std::clamp(position, -1.0, static_cast<double>(columns))));
    // The run of points in this column: first, min, max, last.
    std::size_t first = k, lowest = k, highest = k, last = k;
    std::size_t j = k + 1;
    for (; j < n; ++j) {
      if (std::isnan(y[j]) || std::isnan(x[j])) continue;
      const double p = (x[j] - x0) / width * static_cast<double>(columns);
      if (static_cast<long long>(std::floor(std::clamp(p, -1.0, static_cast<double>(columns)))) != column) break;
      if (y[j] < y[lowest]) lowest = j;
      if (y[j] > y[highest]) highest = j;
      last = j;
    }
    std::size_t kept[4] = {first, lowest, highest, last};
    std::sort(kept, kept + 4);
    for (std::size_t i = 0; i < 4; ++i)
      if (i == 0 || kept[i] != kept[i - 1]) out.push_back({x[kept[i]], y[kept[i]]});
    k = j;
  }
  return out;
}

std::vector<PlotPanel> assign_panels(const ResultTable& table, std::size_t panels) {
  std::vector<PlotPanel> out;
  const std::size_t n = table.series.size();
  if (panels == 0) {
    std::vector<std::string> units;
    for (std::size_t k = 0; k < n; ++k) {
      auto at = std::find(units.begin(), units.end(), table.series[k].unit);
      if (at == units.end()) {
        units.push_back(table.series[k].unit);
        out.emplace_back();
        out.back().series.push_back(k);
      } else {
        out[static_cast<std::size_t>(at - units.begin())].series.push_back(k);
      }
    }
    return out;
  }
  panels = std::min(panels, std::max<std::size_t>(n, 1));
  out.resize(panels);
  for (std::size_t k = 0; k < n; ++k) out[k * panels / n].series.push_back(k);
  return out;
}

std::string render_svg(const ResultTable& table, const std::vector<PlotPanel>& panels,
                       const std::vector<double>& events, const SvgOptions& options) {
  const double left = 80, right_legend = 200, top = options.title.empty() ? 20 : 44, gap = 28, bottom = 56;
  const double plot_width = std::max(100.0, options.width - left - right_legend);
  const double height = options.panel_height;
  const double total_height = top + static_cast<double>(panels.size()) * (height + gap) - gap + bottom;
  double t_lo = std::numeric_limits<double>::infinity(), t_hi = -t_lo;
  for (double t : table.time)
    if (std::isfinite(t)) t_lo = std::min(t_lo, t), t_hi = std::max(t_hi, t);
  if (!std::isfinite(t_lo)) t_lo = 0, t_hi = 1;
  const AxisTicks x_ticks = nice_ticks(t_lo, t_hi, 8);
  const auto to_x = [&](double t) { return left + (t - x_ticks.lo) / (x_ticks.hi - x_ticks.lo) * plot_width; };
  const auto columns = static_cast<std::size_t>(plot_width);

  std::ostringstream svg;
  svg << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << options.width << "\" height=\"" << px(total_height)
      << "\" viewBox=\"0 0 " << options.width << ' ' << px(total_height)
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  if (!options.title.empty())
    svg << "<text class=\"title\" x=\"" << px(left + plot_width / 2) << "\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">"
        << xml_escape(options.title) << "</text>\n";
  for (std::size_t p = 0; p < panels.size(); ++p) {
    const double y0 = top + static_cast<double>(p) * (height + gap);
    double v_lo = std::numeric_limits<double>::infinity(), v_hi = -v_lo;
    std::vector<std::string> units;
    for (std::size_t s : panels[p].series) {
      for (double v : table.series[s].values)
        if (std::isfinite(v)) v_lo = std::min(v_lo, v), v_hi = std::max(v_hi, v);
      if (std::find(units.begin(), units.end(), table.series[s].unit) == units.end())
        units.push_back(table.series[s].unit);
    }
    if (!std::isfinite(v_lo)) v_lo = 0, v_hi = 1;
    const AxisTicks y_ticks = nice_ticks(v_lo, v_hi, 5);
    const auto to_y = [&](double v) { return y0 + height - (v - y_ticks.lo) / (y_ticks.hi - y_ticks.lo) * height; };
    std::string unit_label;
    for (const auto& u : units) unit_label += (unit_label.empty() ? "" : ", ") + (u.empty() ? std::string("1") : u);
    svg << "<g class=\"panel\" id=\"panel" << p + 1 << "\">\n";
    // Grid and y ticks.
    for (std::size_t k = 0; k < y_ticks.values.size(); ++k) {
      const std::string y = px(to_y(y_ticks.values[k]));
      svg << "<line class=\"grid\" x1=\"" << px(left) << "\" x2=\"" << px(left + plot_width) << "\" y1=\"" << y
          << "\" y2=\"" << y << "\" stroke=\"#e0e0e0\"/>\n"
          << "<text class=\"ytick\" x=\"" << px(left - 6) << "\" y=\"" << y
          << "\" text-anchor=\"end\" dominant-baseline=\"middle\">" << xml_escape(y_ticks.labels[k]) << "</text>\n";
    }
    for (std::size_t k = 0; k < x_ticks.values.size(); ++k) {
      const std::string x = px(to_x(x_ticks.values[k]));
      svg << "<line class=\"grid\" x1=\"" << x << "\" x2=\"" << x << "\" y1=\"" << px(y0) << "\" y2=\"" << px(y0 + height)
          << "\" stroke=\"#f0f0f0\"/>\n";
      if (p + 1 == panels.size())
        svg << "<text class=\"xtick\" x=\"" << x << "\" y=\"" << px(y0 + height + 16) << "\" text-anchor=\"middle\">"
            << xml_escape(x_ticks.labels[k]) << "</text>\n";
    }
    svg << "<text class=\"ylabel\" transform=\"translate(" << px(18) << ',' << px(y0 + height / 2)
        << ") rotate(-90)\" text-anchor=\"middle\">[" << xml_escape(unit_label) << "]</text>\n";
    // Events.
    for (double t : events)
      if (t >= x_ticks.lo && t <= x_ticks.hi)
        svg << "<line class=\"event\" x1=\"" << px(to_x(t)) << "\" x2=\"" << px(to_x(t)) << "\" y1=\"" << px(y0)
            << "\" y2=\"" << px(y0 + height) << "\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>\n";
    // Series, clipped to the panel.
    svg << "<clipPath id=\"clip" << p + 1 << "\"><rect x=\"" << px(left) << "\" y=\"" << px(y0) << "\" width=\""
        << px(plot_width) << "\" height=\"" << px(height) << "\"/></clipPath>\n";
    for (std::size_t i = 0; i < panels[p].series.size(); ++i) {
      const ResultSeries& series = table.series[panels[p].series[i]];
      const char* colour = kPalette[panels[p].series[i] % std::size(kPalette)];
      svg << "<polyline class=\"series\" data-name=\"" << xml_escape(series.name) << "\" clip-path=\"url(#clip" << p + 1
          << ")\" fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"1.5\" stroke-linejoin=\"round\" points=\"";
      bool first = true;
      for (const PlotPoint& point : decimate_min_max(table.time, series.values, x_ticks.lo, x_ticks.hi, columns)) {
        if (!std::isfinite(point.y)) continue;
        svg << (first ? "" : " ") << px(to_x(point.x)) << ',' << px(to_y(point.y));
        first = false;
      }
      svg << "\"/>\n";
      const double ly = y0 + 10 + 18 * static_cast<double>(i);
      svg << "<line class=\"swatch\" x1=\"" << px(left + plot_width + 14) << "\" x2=\"" << px(left + plot_width + 34)
          << "\" y1=\"" << px(ly) << "\" y2=\"" << px(ly) << "\" stroke=\"" << colour << "\" stroke-width=\"3\"/>\n"
          << "<text class=\"legend\" x=\"" << px(left + plot_width + 40) << "\" y=\"" << px(ly)
          << "\" dominant-baseline=\"middle\">" << xml_escape(series.name)
          << (series.unit.empty() ? "" : " [" + xml_escape(series.unit) + "]") << "</text>\n";
    }
    svg << "<rect class=\"frame\" x=\"" << px(left) << "\" y=\"" << px(y0) << "\" width=\"" << px(plot_width)
        << "\" height=\"" << px(height) << "\" fill=\"none\" stroke=\"#333\"/>\n</g>\n";
  }
  svg << "<text class=\"xlabel\" x=\"" << px(left + plot_width / 2) << "\" y=\"" << px(total_height - 12)
      << "\" text-anchor=\"middle\">time [s]</text>\n</svg>\n";
  return svg.str();
}

}  // namespace lsdae::results
