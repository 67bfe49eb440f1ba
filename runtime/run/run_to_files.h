// runtime/run/run_to_files.h -- a run whose rows go to a result file and
// whose statistics go to a JSON file: `lsdae simulate`, lsdae_run (C) and
// Python's run(result_file=..., statistics_file=...), the same code, so the
// same run gives the same files from each.
//
//   FileRunSpec spec;                        // files, format, columns, names
//   FileRunOutcome r = run_to_files(sim, plan, spec, stop);
//
// The files are created (or truncated) only once the run has initialised
// (RowSink::begin): a failed initialisation leaves an earlier result file
// and statistics file exactly as they were. Each row is written as it is
// computed (results/result_writer.h), so a failure or a stop keeps every
// row so far. At the end the result file gets the statistics where its format
// has room (HDF5: an attribute), is closed, and the statistics JSON
// (statistics.h) is written.
//
// How it ends:
//   - completed, terminated (the FMU asked), stopped (a stop request without
//     a reason: an interruption): the outcome; the statistics say
//     "interrupted" for a stop. A result or statistics file that could not
//     be finished is Error(output) -- after a stop, outcome.results_error and
//     outcome.stats_error say it instead, for the caller to print with the
//     interruption;
//   - a failure (what run() throws after the files were opened): the result
//     file is closed, the statistics are written with the error, and the
//     error is thrown again with where it stopped and what was kept:
//       "<error>\n  (stopped at t = 0.5; 12 rows kept in r.csv)"
//     (no such line without a result file); before the files were opened
//     it is thrown as it is;
//   - a stop with a reason (a time limit, StopToken::reason): as a failure,
//     Error(timeout) with that reason.
// The messages name what the caller named: the file names as given, the
// options in the command line's spelling (C and Python respell them).
#ifndef LSDAE_RUNTIME_RUN_RUN_TO_FILES_H
#define LSDAE_RUNTIME_RUN_RUN_TO_FILES_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lsdae/simulation.h"
#include "results/result_writer.h"
#include "run/options.h"
#include "run/output_plan.h"
#include "run/run_loop.h"
#include "run/statistics.h"
#include "simulation/output_channels.h"

namespace lsdae::run {

struct FileRunSpec {
  std::string results;     // the result file; "-": standard output (CSV); "": none
  results::ResultFormat format = results::ResultFormat::csv;  // result_format_for(results, options.format)
  std::string statistics;  // the statistics JSON; "-": standard output; "": none
  int stdout_fd = 1;       // what "-" stands for (lsdae/supervise.h RunContext::results_fd)
  ResultOptions options;   // CSV units and events, HDF5 deflate
  std::vector<simulation::OutputChannel> channels;  // the columns (simulation/output_channels.h)
  std::string model_name;
  std::vector<std::string> command_line;  // for the statistics
  std::function<double()> wall;           // seconds since the run began
};

// What the caller shows as the run goes (all optional).
struct FileRunReport {
  std::function<void(const JacobianCheck&)> jacobian_checked;  // default: logged (RowSink::jacobian_checked)
  std::function<void(std::int64_t k, std::int64_t points, double t)> point;  // after output point k
  std::function<void(std::size_t rows, double t)> row;                      // after each row
  // Every row's values, as written (Python keeps them as columns).
  std::function<void(const simulation::OutputReader& values, double t, RowKind kind)> values;
};

struct FileRunOutcome {
  Ending end = Ending::completed;
  std::size_t rows = 0;
  double reached = 0;       // the time reached
  std::string results_error, stats_error;  // after a stop: files that could not be finished
};

FileRunOutcome run_to_files(Simulation& sim, const OutputPlan& plan, const FileRunSpec& spec,
                            const StopToken& stop = {}, const FileRunReport& report = {});

// The statistics JSON for a run that ended outside its process (the child
// running it crashed, or a watchdog stopped it): no simulation's part. "" when
// written (or `path` is ""), else the message of the failed write.
std::string write_statistics(const std::string& path, const RunStatistics& stats, int stdout_fd = 1);

}  // namespace lsdae::run

#endif  // LSDAE_RUNTIME_RUN_RUN_TO_FILES_H
