// runtime/cli/report_command.cpp -- `lsdae report RESULT -o report.html`:
// one self-contained HTML page about a run (results/html_report.h) from its
// result file (CSV, HDF5 or MAT) and its statistics (the HDF5 file's own, or
// --stats FILE, the JSON of `lsdae simulate --stats`) and, with --structure
// FILE, the model's structure report (the JSON of `lsdae info --structure
// --json`: index, dummy derivatives, BLT blocks, colouring).
// Plotted: --vars GLOBS, or else the first kDefaultSeries numeric columns of
// the file (String and Binary columns passed over and named on the page).
// A sweep's summary (`lsdae sweep --summary`, CSV or HDF5: sweep::is_summary)
// makes the sweep report instead (sweep/sweep_report.h): outcomes, the worst
// rows by each metric (--worst N), the distributions and, with --results-dir
// DIR, the trajectories of the worst (--trajectories N per metric, the
// columns --vars chooses).
// Errors: a missing or malformed result or statistics file, a glob matching
// nothing, an output name that is not .html, an output that is a file the
// report reads (common/output_clash.h), an option of the other kind of
// report: usage (exit 2); the page that cannot be written: output (exit 9).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <ctime>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>

#include "cli/commands.h"
#include "common/output_clash.h"
#include "lsdae/error.h"
#include "results/html_report.h"
#include "results/result_reader.h"
#include "simulation/output_channels.h"
#include "sweep/sweep_report.h"

namespace lsdae::cli {
namespace {

constexpr std::size_t kDefaultSeries = 6;

struct ReportOptions {
  std::string result, output, vars, stats, structure, format, title, results_dir;
  std::size_t panels = 0;
  std::size_t worst = 10, trajectories = 3;
  bool worst_given = false, trajectories_given = false;
};

std::string report_file_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

void write_page(const std::string& output, const std::string& page) {
  std::ofstream out(output, std::ios::binary | std::ios::trunc);
  if (out) out << page;
  out.close();
  if (!out)
    throw Error(ErrorKind::output, "lsdae report -o " + output + " → cannot be written → " + output +
                                       " → check the folder exists and is writable");
}

int run_sweep_report(const ReportOptions& o) {
  for (const auto& [given, name] : {std::pair{!o.stats.empty(), "--stats"}, std::pair{!o.structure.empty(), "--structure"},
                                    std::pair{o.panels > 0, "--panels"}, std::pair{!o.format.empty(), "--format"}})
    if (given)
      throw Error(ErrorKind::usage, std::string("lsdae report ") + name + " → is an option of a run's report → " +
                                        o.result + " is a sweep's summary → leave it out, or give a result file");
  const sweep::SummaryTable table = sweep::read_summary(o.result);
  sweep::SweepReportInput input;
  input.summary_path = o.result;
  input.table = &table;
  input.worst = o.worst;
  input.generator = std::string("lsdae ") + kLsdaeVersion;
  input.created = utc_now();
  input.title = o.title;
  if (!o.results_dir.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_directory(o.results_dir, ec))
      throw Error(ErrorKind::usage, "lsdae report --results-dir → no such folder → \"" + o.results_dir +
                                        "\" → give the folder lsdae sweep --results-dir wrote");
    input.results_dir = o.results_dir;
    for (const std::string& id : sweep::trajectory_ids(table, o.trajectories))
      input.trajectories.push_back(sweep::read_trajectory(o.results_dir, id, o.vars));
  }
  write_page(o.output, sweep::render_sweep_report(input));
  return 0;
}

int run_report(const ReportOptions& o) {
  const std::string ext = report_file_extension(o.output);
  if (ext != ".html" && ext != ".htm")
    throw Error(ErrorKind::usage, "lsdae report -o → the report is an HTML page → \"" + o.output +
                                      "\" → name the output file *.html");
  // -o naming a file the report reads (another spelling, a symlink) would
  // replace it with the page (common/output_clash.h).
  if (const std::string clash = files::output_over_input(
          {{"report -o", o.output, "-o report.html"}},
          {{o.result, "the result file being reported"}, {o.stats, "the --stats file being read"},
           {o.structure, "the --structure file being read"}});
      !clash.empty())
    throw Error(ErrorKind::usage, clash);
  if (sweep::is_summary(o.result)) return run_sweep_report(o);
  for (const auto& [given, name] : {std::pair{!o.results_dir.empty(), "--results-dir"}, std::pair{o.worst_given, "--worst"},
                                    std::pair{o.trajectories_given, "--trajectories"}})
    if (given)
      throw Error(ErrorKind::usage, std::string("lsdae report ") + name + " → is an option of a sweep's report → " +
                                        o.result + " is no summary of lsdae sweep → leave it out, or give the "
                                        "summary (sweep-summary.csv or .h5)");
  results::ReportInput input;
  input.result_path = o.result;
  input.generator = std::string("lsdae ") + kLsdaeVersion;
  input.created = utc_now();
  input.title = o.title;

  // The series: the globs of --vars, or the first columns of the file.
  results::ResultTable table;
  if (!o.vars.empty()) {
    const auto patterns = simulation::split_output_patterns(o.vars);
    std::vector<bool> used(patterns.size(), false);
    table = results::read_result(
        o.result,
        [&](const std::string& name) {
          bool any = false;
          for (std::size_t k = 0; k < patterns.size(); ++k)
            if (simulation::glob_match(patterns[k], name)) used[k] = any = true;
          return any;
        },
        o.format);
    for (std::size_t k = 0; k < patterns.size(); ++k)
      if (!used[k])
        throw Error(ErrorKind::usage, "lsdae report --vars → \"" + patterns[k] + "\" matches no column of " +
                                          o.result + " → " + std::to_string(table.all_names.size()) +
                                          " columns → use lsdae plot's globs (* any run, ? one character)");
    input.selection = "--vars " + o.vars;
  } else {
    // The first kDefaultSeries numeric columns: text columns (String,
    // Binary) cannot be plotted, so the ones found are passed over and the
    // next columns read in their place.
    const results::ResultTable names = results::read_result(o.result, [](const std::string&) { return false; }, o.format);
    std::set<std::string> text;
    std::vector<std::string> text_in_order;
    for (;;) {
      std::set<std::string> first;
      for (std::size_t k = 0; k < names.all_names.size() && first.size() < kDefaultSeries; ++k)
        if (text.count(names.all_names[k]) == 0) first.insert(names.all_names[k]);
      table = results::read_result(
          o.result, [&](const std::string& name) { return first.count(name) > 0; }, o.format,
          results::NonNumeric::skip);
      if (table.skipped.empty()) break;
      for (const auto& name : table.skipped)
        if (text.insert(name).second) text_in_order.push_back(name);
    }
    const std::size_t numeric = names.all_names.size() - text.size();
    input.selection = numeric <= kDefaultSeries && text.empty()
                          ? "all columns"
                          : "the first " + std::to_string(table.series.size()) + (text.empty() ? "" : " numeric") +
                                " of " + std::to_string(names.all_names.size()) +
                                " columns (choose others with --vars)";
    if (!text_in_order.empty()) {
      std::string list;
      for (const auto& name : text_in_order) list += (list.empty() ? "" : ", ") + name;
      input.selection += "; not numeric: " + list;
    }
  }
  input.table = &table;
  input.panels = results::assign_panels(table, o.panels);

  // The statistics: --stats, else the HDF5 file's own.
  if (!o.stats.empty()) {
    std::ifstream in(o.stats, std::ios::binary);
    if (!in)
      throw Error(ErrorKind::usage, "lsdae report --stats → cannot be read → \"" + o.stats +
                                        "\" → give the file lsdae simulate --stats wrote");
    input.statistics_json.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    input.statistics_origin = o.stats;
  } else {
    input.statistics_json = results::read_hdf5_statistics(o.result);
    if (!input.statistics_json.empty()) input.statistics_origin = "stored in " + o.result;
  }

  if (!o.structure.empty()) {
    std::ifstream in(o.structure, std::ios::binary);
    if (!in)
      throw Error(ErrorKind::usage, "lsdae report --structure → cannot be read → \"" + o.structure +
                                        "\" → give the file lsdae info --structure --json MODEL.fmu > FILE wrote");
    input.structure_json.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    input.structure_origin = o.structure;
  }

  write_page(o.output, results::render_html_report(input));
  return 0;
}

}  // namespace

Runner add_report_command(CLI::App& app) {
  auto options = std::make_shared<ReportOptions>();
  app.add_option("result", options->result,
                 "The result file (.csv, .h5/.hdf5, .mat) of lsdae simulate, or the summary of lsdae sweep "
                 "(sweep-summary.csv or .h5: the sweep's report)")
      ->required();
  app.add_option("-o,--output", options->output, "The report to write: an .html file")->required();
  app.add_option("--vars", options->vars,
                 "The variables to plot: names or globs, comma-separated (default: the first 6 numeric columns)");
  app.add_option("--stats", options->stats,
                 "The run's statistics (the JSON of lsdae simulate --stats); HDF5 results hold their own");
  app.add_option("--structure", options->structure,
                 "The model's structure report: the JSON of lsdae info --structure --json (index, dummy "
                 "derivatives, BLT blocks, colours)");
  app.add_option("--panels", options->panels, "Number of panels for the plots (default: one per unit)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{64}));
  app.add_option("--format", options->format, "The result file's format when its extension does not say")
      ->check(CLI::IsMember({"csv", "hdf5", "mat"}));
  app.add_option("--title", options->title, "The page's heading (default: the FMU's name, or the summary's path)");
  app.add_option("--results-dir", options->results_dir,
                 "A sweep's report: the folder of lsdae sweep --results-dir; the worst scenarios' trajectories "
                 "are plotted (the columns of --vars, default the first 6)");
  app.add_option_function<std::size_t>(
         "--worst", [options](std::size_t n) { options->worst = n, options->worst_given = true; },
         "A sweep's report: the rows ranked for each metric (default 10)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000}));
  app.add_option_function<std::size_t>(
         "--trajectories",
         [options](std::size_t n) { options->trajectories = n, options->trajectories_given = true; },
         "A sweep's report with --results-dir: the worst scenarios of each metric plotted (default 3)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{50}));
  return [options]() { return run_report(*options); };
}

}  // namespace lsdae::cli
