// runtime/results/svg_plot.h -- time plots of result series as an SVG
// document, for `lsdae plot`.
//
// Layout: panels stacked vertically over one shared time axis; each panel
// has its y axis labelled with its unit(s) ("[V]"), horizontal grid lines
// at the y ticks, a legend at the right (a colour swatch and the name per
// series), and a dashed vertical line at every event time. The bottom panel
// carries the time tick labels and "time [s]".
//
// Ticks (nice_ticks): the 1-2-5 rule (Heckbert, "Nice numbers for graph
// labels", Graphics Gems, 1990): step = {1, 2, 5, 10} × 10^k, the smallest
// such step giving at most `target` intervals over [lo, hi]; the axis range
// is widened to whole steps so the first and last ticks are its ends.
//
// Decimation (decimate_min_max): a 10^6-row series must not become a
// 10^6-vertex polyline. The time range is cut into `columns` pixel columns;
// within each column the points kept are, in their original order, the
// first, the one with the minimum, the one with the maximum and the last
// (at most 4 per column, so at most 4 × columns per series). Drawn at the
// plot's resolution this is the same picture: every column spans exactly
// the y range of the data that falls into it, spikes included.
// NaN values are left out.
#ifndef LSDAE_RUNTIME_RESULTS_SVG_PLOT_H
#define LSDAE_RUNTIME_RESULTS_SVG_PLOT_H

#include <cstddef>
#include <string>
#include <vector>

#include "results/result_reader.h"

namespace lsdae::results {

struct AxisTicks {
  double lo = 0, hi = 1;       // the axis range (whole steps)
  double step = 1;
  std::vector<double> values;  // lo, lo + step, ..., hi
  std::vector<std::string> labels;
};

// Ticks for data in [lo, hi] (lo == hi and non-finite bounds handled: the
// range is widened). `target` ≥ 1 is the most intervals wanted.
AxisTicks nice_ticks(double lo, double hi, int target = 5);

struct PlotPoint {
  double x, y;
};

// The points of (x[k], y[k]) kept when [x0, x1] is drawn `columns` pixels wide.
std::vector<PlotPoint> decimate_min_max(const std::vector<double>& x, const std::vector<double>& y, double x0, double x1,
                                        std::size_t columns);

struct PlotPanel {
  std::vector<std::size_t> series;  // indices into ResultTable::series
};

// Panels: one per distinct unit, in the order units first appear
// (panels == 0), or `panels` panels holding consecutive series in file
// order, as evenly as possible (no more panels than series).
std::vector<PlotPanel> assign_panels(const ResultTable& table, std::size_t panels);

struct SvgOptions {
  int width = 960;           // pixels, the whole document
  int panel_height = 240;    // pixels, the plotting area of one panel
  std::string title;         // above the top panel, when not empty
};

// The whole SVG document.
std::string render_svg(const ResultTable& table, const std::vector<PlotPanel>& panels,
                       const std::vector<double>& events, const SvgOptions& options);

}  // namespace lsdae::results

#endif  // LSDAE_RUNTIME_RESULTS_SVG_PLOT_H
