// runtime/results/html_report.h -- one self-contained HTML page about a run,
// for `lsdae report`.
//
// The page needs nothing but itself to be viewed (no network, no files
// beside it): styles inline, plots as inline SVG (svg_plot.h), no external
// script. Sections, in order:
//   heading     the FMU and the run's outcome (completed, interrupted, or
//               failed with its message), reached / stop time, rows, wall time;
//   run         the command line of the run and the versions (lsdae, SUNDIALS)
//               when the statistics hold them, the result file, when made;
//   plots       the chosen series, one SVG (panels by unit) with dashed lines
//               at the events;
//   events      the event times found in the result (repeated times), at most
//               the first 200 listed, with the statistics' event counters;
//   structure   when given the JSON of `lsdae info --structure --json` (the
//               whole document or its `structure` member, schema 1 of
//               structure/report.h): the model (form, counts), its status,
//               the structural index and the differentiated residuals, the
//               BLT blocks (count, largest, sizes or the size histogram), the
//               index reduction (dummy derivatives, states after, rcond, the
//               index-1 system) and the Jacobian colouring; fields the report
//               does not know are shown as JSON, never dropped;
//   statistics  every object of the statistics JSON (the document of
//               `lsdae simulate --stats`, also stored in HDF5 results) as a
//               table: model and structure (unknowns, differential and
//               algebraic counts, structural index, dummy derivatives),
//               Jacobian (non-zeros, colours), KLU, solver counters, times;
//               fields the report does not know are shown too, never dropped.
// A small inline script counts the plots drawn into the page's footer
// (data-plots), so a browser test can tell the page was laid out and its
// script ran without error.
// Text from the files (names, units, messages) is escaped.
// render_html_plot() puts one plot in a page of the same look (lsdae plot).
#ifndef LSDAE_RUNTIME_RESULTS_HTML_REPORT_H
#define LSDAE_RUNTIME_RESULTS_HTML_REPORT_H

#include <string>
#include <vector>

#include "results/result_reader.h"
#include "results/svg_plot.h"

namespace lsdae::results {

struct ReportInput {
  std::string result_path;       // as given on the command line
  std::string statistics_json;   // "" when the run's statistics are not at hand
  std::string statistics_origin; // where they came from ("the HDF5 file", a path)
  const ResultTable* table = nullptr;  // the plotted series (and the time column)
  std::vector<PlotPanel> panels;
  std::string selection;         // what chose the series ("--vars x*", "the first 6 columns")
  std::string generator;         // "lsdae 0.1.0"
  std::string created;           // when the report was made (ISO 8601, UTC)
  std::string title;             // overrides the FMU name in the heading when not empty
  std::string structure_json;    // "" or the JSON of `lsdae info --structure --json`
  std::string structure_origin;  // where it came from (a path)
};

// The page. Throws Error(usage) when statistics_json is not a JSON object, or
// structure_json is not JSON, or holds no structure report (an object with a
// `structure` object member, or one with the report's `blt` member).
std::string render_html_report(const ReportInput& input);

// A self-contained page holding one plot (`lsdae plot -o plot.html`): the
// report's styles, the SVG document `svg` inline (its XML declaration
// dropped), the heading `title` (none when empty) and the report's footer and
// script (data-plots, data-lines), nothing fetched from anywhere.
std::string render_html_plot(const std::string& svg, const std::string& title, const std::string& generator);

// The pieces other pages of the same look use (the sweep report,
// sweep/sweep_report.h): the style sheet (CSS, no <style> tags); the footer
// with the script that counts the plots (`figure.plot svg`) and their lines
// into data-plots and data-lines of the element with id "rendered", then
// </body></html>; an SVG document as an element inside HTML (its XML
// declaration and surrounding white space dropped).
const char* report_style();
std::string report_footer(const std::string& generator, const std::string& created);
std::string inline_svg(std::string svg);

// `text` with &, <, >, " and ' replaced by character references.
std::string html_escape(const std::string& text);

}  // namespace lsdae::results

#endif  // LSDAE_RUNTIME_RESULTS_HTML_REPORT_H
