// runtime/cli/plot_command.cpp -- `lsdae plot RESULT --vars GLOBS -o plot.svg`:
// time plots of a result file's variables (CSV, HDF5 or MAT as `lsdae
// simulate` writes them) as an SVG document (results/svg_plot.h), or as a
// PNG picture of it drawn by headless Chromium (-o plot.png, svg_to_png.h),
// or a self-contained HTML page holding the SVG (-o plot.html; the report's
// page code, results/html_report.h; nothing fetched from the network).
// The result file is read by results/result_reader.h; the variables are
// chosen with the globs --output-vars takes (`*`, `?`, comma-separated).
// Errors: a missing or malformed file, an unknown format, a glob matching
// nothing, a non-numeric column, an output name that is not .svg, .png or .html,
// an output that is the result file (common/output_clash.h), no Chromium for a
// PNG: usage (exit 2); the picture that cannot be written: output (exit 9).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/svg_to_png.h"
#include "common/output_clash.h"
#include "lsdae/error.h"
#include "results/html_report.h"
#include "results/result_reader.h"
#include "results/svg_plot.h"
#include "simulation/output_channels.h"

namespace lsdae::cli {
namespace {

struct PlotOptions {
  std::string result, vars, output, format, title;
  std::size_t panels = 0;
  int width = 960, panel_height = 240, png_scale = 1;
};

std::string plot_file_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

int run_plot(const PlotOptions& o) {
  const std::string ext = o.output == "-" ? "" : plot_file_extension(o.output);
  const bool png = ext == ".png", html = ext == ".html" || ext == ".htm";
  if (o.output != "-" && ext != ".svg" && !png && !html)
    throw Error(ErrorKind::usage, "lsdae plot -o → the plot is SVG, PNG or HTML → \"" + o.output +
                                      "\" → name the output file *.svg, *.png or *.html (or - for SVG on standard "
                                      "output)");
  // -o naming the result file (another spelling, a symlink, --format for an
  // odd name) would replace it with the picture (common/output_clash.h).
  if (const std::string clash = files::output_over_input({{"plot -o", o.output, "-o plot.svg"}},
                                                          {{o.result, "the result file being plotted"}});
      !clash.empty())
    throw Error(ErrorKind::usage, clash);
  const auto patterns = simulation::split_output_patterns(o.vars);
  if (patterns.empty())
    throw Error(ErrorKind::usage, "lsdae plot --vars → no variable named → \"" + o.vars +
                                      "\" → give names or globs, e.g. --vars 'x,y*'");
  std::vector<bool> used(patterns.size(), false);
  const auto wanted = [&](const std::string& name) {
    bool any = false;
    for (std::size_t k = 0; k < patterns.size(); ++k)
      if (simulation::glob_match(patterns[k], name)) used[k] = any = true;
    return any;
  };
  const results::ResultTable table = results::read_result(o.result, wanted, o.format);
  for (std::size_t k = 0; k < patterns.size(); ++k)
    if (!used[k]) {
      std::string some;
      for (std::size_t j = 0; j < table.all_names.size() && j < 8; ++j) some += (j ? ", " : "") + table.all_names[j];
      if (table.all_names.size() > 8) some += ", ...";
      throw Error(ErrorKind::usage, "lsdae plot --vars → \"" + patterns[k] + "\" matches no column of " + o.result +
                                        " → its columns: " + (some.empty() ? "(none)" : some) +
                                        " → use one of these names or a glob (* any run, ? one character)");
    }
  if (table.time.empty())
    throw Error(ErrorKind::usage, "result file " + o.result + " → holds no rows → 0 output points → "
                                      "plot a file of a run that got past its start");
  const auto panels = results::assign_panels(table, o.panels);
  results::SvgOptions svg_options;
  svg_options.width = o.width;
  svg_options.panel_height = o.panel_height;
  svg_options.title = o.title;
  const std::string svg = results::render_svg(table, panels, results::event_times(table.time), svg_options);
  if (png) {
    // The document's own size (the <svg> element's width and height).
    auto attribute = [&](const char* name) {
      const auto at = svg.find(std::string(" ") + name + "=\"", svg.find("<svg"));
      return at == std::string::npos ? 0 : std::atoi(svg.c_str() + at + std::strlen(name) + 3);
    };
    svg_to_png(svg, attribute("width"), attribute("height"), o.output, o.png_scale);
    return 0;
  }
  if (o.output == "-") {
    std::cout << svg << std::flush;
    if (!std::cout) throw Error(ErrorKind::output, "lsdae plot → standard output cannot be written → - → check the pipe");
    return 0;
  }
  std::ofstream out(o.output, std::ios::binary | std::ios::trunc);
  if (out) out << (html ? results::render_html_plot(svg, o.title.empty() ? o.result + " — lsdae plot" : o.title,
                                                       std::string("lsdae ") + kLsdaeVersion) : svg);
  out.close();
  if (!out)
    throw Error(ErrorKind::output, "lsdae plot -o " + o.output + " → cannot be written → " + o.output +
                                       " → check the folder exists and is writable");
  return 0;
}

}  // namespace

Runner add_plot_command(CLI::App& app) {
  auto options = std::make_shared<PlotOptions>();
  app.add_option("result", options->result, "The result file (.csv, .h5/.hdf5, .mat) of lsdae simulate")->required();
  app.add_option("--vars", options->vars,
                 "The variables to plot: names or globs (* any run of characters, ? one), comma-separated")
      ->required();
  app.add_option("-o,--output", options->output,
                 "The plot to write: an .svg file, a .png file (drawn by headless Chromium), an .html page "
                 "holding the SVG, or - for SVG on standard output")
      ->required();
  app.add_option("--panels", options->panels,
                 "Number of panels the variables are spread over, in file order (default: one panel per unit)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{64}));
  app.add_option("--format", options->format, "The result file's format when its extension does not say")
      ->check(CLI::IsMember({"csv", "hdf5", "mat"}));
  app.add_option("--title", options->title, "A title above the plot");
  app.add_option("--width", options->width, "Width of the picture in pixels (default 960)")
      ->check(CLI::Range(400, 10000));
  app.add_option("--panel-height", options->panel_height, "Height of one panel's plotting area in pixels (default 240)")
      ->check(CLI::Range(80, 4000));
  app.add_option("--png-scale", options->png_scale, "PNG: device pixels per picture pixel, 1 to 4 (default 1)")
      ->check(CLI::Range(1, 4));
  return [options]() { return run_plot(*options); };
}

}  // namespace lsdae::cli
