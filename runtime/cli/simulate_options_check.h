// runtime/cli/simulate_options_check.h -- what `lsdae simulate` checks
// after parsing its options and before the run writes anything.
//
// Single values (a finite --stop, a positive --rtol, ...) are checked while
// parsing (option_values.h). The checks here combine values, or look at the
// file system, and run in this order in simulate_command.cpp:
//
//   check_output_files   after the FMU is opened, before anything is loaded:
//     - `-o -` and `--stats -` together: both would go to standard output
//       (usage error);
//     - an output that is the FMU itself, by file identity (device and
//       inode, as stat(2) sees them after following links: another spelling,
//       a symlink or a hard link of model.fmu counts), or an existing file
//       inside an unpacked FMU folder, which lsdae never modifies (usage);
//     - -o and --stats naming the same file (usage);
//     - an output that cannot be created: its folder missing, not a folder
//       or not writable, or the path a folder or a file not writable
//       (Error(output), exit 9). Nothing is created or truncated here; the
//       files are opened once the run has initialised.
//
//   check_run_length     after Simulation::create, which knows the
//   DefaultExperiment's values the options left open:
//     - start, stop and interval finite, stop − start finite (usage);
//     - the number of output rows, ⌈(stop − start)/interval⌉ + 1, at most
//       `max_rows` (--max-rows, default kDefaultMaxRows = 10^8: tens of GB
//       of CSV already) -- `--stop 1e20 --output-interval 1` is refused
//       instead of overflowing the row counter;
//     - the interval at least kTimeResolution (10^-12) × max(|start|, |stop|),
//       so that consecutive output times are distinct doubles with room for
//       IDA's steps between them (usage).
//     It returns the number of output intervals, which then fits in 64 bits.
//
//   plan_output          right after, for the output control options
//     (--output-times, --output-grid log, --output-steps, --output-every):
//     the output points after the start, each grid checked the same way --
//     listed times finite, strictly increasing, inside [start, stop]; a log
//     grid's first offset positive and below the span; the number of rows
//     at most `max_rows` (usage errors; listed and log grids after
//     decimation, the interval grid before it, as check_run_length). With
//     --output-steps the rows are the solver's steps, unknown in advance:
//     the interval grid is kept for the progress and stop checks only, and
//     the run stops (Error(output)) when its rows pass max_rows.
#ifndef LSDAE_RUNTIME_CLI_SIMULATE_OPTIONS_CHECK_H
#define LSDAE_RUNTIME_CLI_SIMULATE_OPTIONS_CHECK_H

#include <cstdint>
#include <string>
#include <vector>

namespace lsdae::cli {

inline constexpr std::int64_t kDefaultMaxRows = 100'000'000;
inline constexpr std::int64_t kLargestMaxRows = 1'000'000'000'000'000;  // 10^15: row times stay exact
inline constexpr double kTimeResolution = 1e-12;

struct RunFiles {
  std::string fmu;         // the FMU as given (file or unpacked folder)
  std::string results;     // -o: a path, or "-" for standard output
  std::string statistics;  // --stats: a path, "-" for standard output, "" for none
};

void check_output_files(const RunFiles& files);

std::int64_t check_run_length(double start, double stop, double interval, std::int64_t max_rows);

// How rows are placed (the options as given).
struct OutputControl {
  std::string times;             // --output-times "t1,t2,...": "" for none
  std::string grid = "linear";   // --output-grid linear|log
  double log_first = 1e-6;       // --output-first: the log grid's first time after the start
  std::int64_t per_decade = 10;  // --output-per-decade: log grid points per factor of 10
  bool steps = false;            // --output-steps
  std::int64_t every = 1;        // --output-every K: every K-th point (events, start and stop always)
};

// The output points after the start: point k (1..points) is at(k); the
// last is the stop time. `record_points` is false with --output-steps (the
// points are only where the run checks for a stop request).
struct OutputPlan {
  std::int64_t points = 0;
  bool record_points = true;
  std::int64_t every = 1;
  double start = 0, stop = 0, interval = 0;
  std::vector<double> times;  // listed or log times (empty: the interval grid)
  double at(std::int64_t k) const;
  // Whether point k gets a row (decimation; the last always does).
  bool records(std::int64_t k) const { return record_points && (k == points || k % every == 0); }
};

OutputPlan plan_output(double start, double stop, double interval, const OutputControl& control,
                       std::int64_t max_rows);

}  // namespace lsdae::cli

#endif  // LSDAE_RUNTIME_CLI_SIMULATE_OPTIONS_CHECK_H
