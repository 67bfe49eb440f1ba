// runtime/sweep/sweep_report.h -- one self-contained HTML page about a sweep,
// for `lsdae report SUMMARY` (docs/sweeps.md, "The report"): what a grid
// engineer reads after an N-1 screening.
//
// Sections, in order:
//   heading        the summary file, the row count, the outcome counts as
//                  coloured badges and one stacked bar;
//   outcomes       a table: each outcome, its count, its share, the rule;
//   worst          per ranked metric, the `worst` rows ranked worst first
//                  (id, the value, the outcome, the time reached, the other
//                  metrics), rows without a value left out and counted;
//   distributions  per metric, a histogram (inline SVG, bins on the 1-2-5
//                  rule of results/svg_plot.h, each bar stacked by outcome)
//                  with the count, minimum, median and maximum;
//   trajectories   with --results-dir: for the worst rows of each ranked
//                  metric (the first `trajectories` of each, each row once),
//                  its result file plotted (results/svg_plot.h, the events
//                  dashed); a row without a file is named, not an error;
//   islands        the islanded rows (labelled by the scenario source, lsdae/
//                  sweep.h OutcomeLabel), the largest amount first (the grid
//                  FMUs: islands.lost_load, MW), with the indicator (dead
//                  buses), the outcome of the rest of the run and the time
//                  reached (at most kListedFailures);
//   failures       the failed and collapsed rows' messages (at most kListedFailures).
// The page needs nothing but itself (the style and footer of
// results/html_report.h); a small script counts what was laid out into the
// footer (data-plots: trajectory plots, data-distributions, data-ranked:
// ranked tables), for the browser test.
//
// Outcome of a row (outcome_of):
//   unstable  stopped early by a --stop-when condition (its message is the
//             condition and the time, not "settled"), labelled or not;
//   islanded  labelled so by the scenario source (its message begins
//             "islanded: ", OutcomeLabel: the grid FMUs' islands.dead_buses
//             > 0 at the end) and ran to the stop time or settled;
//   collapsed a failure at an impasse point: the run's message names one
//             (IDA's Newton failing however small the step, simulation/ida/
//             ida_diagnostics.h, ImpasseProbe): the model's algebraic
//             equations lost their solution (a grid: a voltage collapse);
//   failed    every other failure (no consistent point after an event -- a
//             voltage collapse, an island an FMU cannot de-energize --, an
//             FMU error, a time limit, a crash): its message says which.
//             (Until 2026-11-29 a failure without a consistent point after
//             an event counted as islanded; both grid FMUs now de-energize
//             their islands and label them, and such a failure is mostly a
//             collapse.)
//   stable    the rest: settled (--settle) or ran to the stop time with no
//             stop condition holding.
// Ranking (worst_direction, by the metric's STAT): max → largest first,
// min → smallest first, final → largest magnitude first (a window, STAT@FROM,
// ranks as its STAT); tmax and tmin
// (times) are not ranked. Ties keep the file's order. NaN or empty values are
// left out of rankings and histograms.
// Cost: O(rows · metrics · log rows); the trajectories read one result file
// each (only the plotted columns).
#ifndef LSDAE_RUNTIME_SWEEP_SWEEP_REPORT_H
#define LSDAE_RUNTIME_SWEEP_SWEEP_REPORT_H

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "results/result_reader.h"
#include "results/svg_plot.h"
#include "sweep/summary_file.h"

namespace lsdae::sweep {

enum class Outcome { stable, unstable, islanded, collapsed, failed };
inline constexpr std::size_t kOutcomes = 5;
// The words a failure's message has when it ended at an impasse point.
inline constexpr const char* kImpasseWords = "an impasse point";
const char* to_string(Outcome outcome) noexcept;
Outcome outcome_of(const SummaryRow& row);

// A source's label at the head of a row's message (run_scenario.cpp, label_outcome):
// "LABEL: AMOUNT = VALUE[ UNIT] (INDICATOR = N)", then "; " and the run's own message.
// nullopt when the message does not begin so.
struct OutcomeLabelled {
  std::string label, amount, unit, indicator;
  double value = 0, indicator_value = 0;
};
std::optional<OutcomeLabelled> labelled(const SummaryRow& row);

// The rows whose outcome is islanded, the largest labelled amount first (a row
// whose amount cannot be read last), ties in the file's order; at most n.
std::vector<std::size_t> rank_islands(const SummaryTable& table, const std::vector<Outcome>& outcomes, std::size_t n);

enum class Worst { largest, smallest, largest_magnitude, not_ranked };
// From the metric's text ("max:maxdev(gen[*].delta)" → largest).
Worst worst_direction(const std::string& metric);

// The rows of `table` with a number for metric m, worst first, at most n.
std::vector<std::size_t> rank_worst(const SummaryTable& table, std::size_t m, std::size_t n);

// The file stem of a scenario's result file in --results-dir: the id with
// every character but letters, digits, '.', '-', '_' replaced by '_', and
// a leading '_' when empty or starting with '.'.
std::string result_file_stem(const std::string& id);

struct Trajectory {
  std::string id;
  std::string file;                 // the result file, or "" when none was found
  results::ResultTable table;       // its plotted columns
  std::vector<results::PlotPanel> panels;
  std::vector<double> events;       // repeated times of the file
};

// The result file of `id` in `dir` (stem.csv, .h5, .hdf5, .mat, the first
// that exists) read with the columns matching `globs` (comma-separated; ""
// the first kDefaultColumns numeric columns); `file` empty when there is no
// file. Error(usage) when a file exists but cannot be read, or the globs
// match none of its columns.
inline constexpr std::size_t kDefaultColumns = 6;
Trajectory read_trajectory(const std::filesystem::path& dir, const std::string& id, const std::string& globs);

struct SweepReportInput {
  std::string summary_path;               // as given
  const SummaryTable* table = nullptr;
  std::size_t worst = 10;                 // rows per ranking
  std::vector<Trajectory> trajectories;   // empty without --results-dir
  std::string results_dir;                // "" without
  std::string generator, created, title;  // as results::ReportInput
};

// The ids whose trajectories the page plots: the first `per_metric` of each
// ranking, each once, in ranking order.
std::vector<std::string> trajectory_ids(const SummaryTable& table, std::size_t per_metric);

std::string render_sweep_report(const SweepReportInput& input);

}  // namespace lsdae::sweep

#endif  // LSDAE_RUNTIME_SWEEP_SWEEP_REPORT_H
