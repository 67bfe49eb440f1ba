// runtime/run/output_plan.h -- where a run's rows go: the output points of
// every front door (lsdae simulate, the sweep's sampled points, lsdae_run,
// Python's run), computed once here.
//
//   check_run_length   start, stop and interval finite, stop − start finite;
//     the rows of the interval grid, ⌈(stop − start)/interval⌉ + 1, at most
//     `max_rows` (default kDefaultMaxRows = 10^8: tens of GB of CSV already)
//     -- `--stop 1e20 --output-interval 1` is refused instead of overflowing
//     the row counter; the interval at least kTimeResolution (10^-12) ×
//     max(|start|, |stop|), so that consecutive output times are distinct
//     doubles with room for IDA's steps between them (Error(usage)). It
//     returns the number of output intervals (at least 1), which then fits in
//     64 bits.
//
//   plan_output        the output points after the start for the output
//     control options (--output-times, --output-grid log, --output-steps,
//     --output-every), each grid checked the same way: listed times finite,
//     strictly increasing, inside [start, stop]; a log grid's first offset
//     positive and below the span; the number of rows at most `max_rows`
//     (usage errors; listed and log grids after decimation, the interval
//     grid before it, as check_run_length). With --output-steps the rows are
//     the solver's steps, unknown in advance: the interval grid is kept for
//     the progress and stop checks only, and the run (run_loop.h) stops with
//     Error(output) when its rows pass max_rows.
//
// The messages name the options as the command line spells them (--max-rows);
// the C and Python front doors respell them (respell.h).
// Cost: O(points) for listed and log grids (the times are stored), O(1) else.
#ifndef LSDAE_RUNTIME_RUN_OUTPUT_PLAN_H
#define LSDAE_RUNTIME_RUN_OUTPUT_PLAN_H

#include <cstdint>
#include <string>
#include <vector>

namespace lsdae {
class Simulation;
}

namespace lsdae::run {

inline constexpr std::int64_t kDefaultMaxRows = 100'000'000;
inline constexpr std::int64_t kLargestMaxRows = 1'000'000'000'000'000;  // 10^15: row times stay exact
inline constexpr double kTimeResolution = 1e-12;

std::int64_t check_run_length(double start, double stop, double interval, std::int64_t max_rows);

// How rows are placed (the options as given: the output options of the
// options table, options.h).
struct OutputControl {
  std::string times;             // --output-times "t1,t2,...": "" for none
  std::string grid = "linear";   // --output-grid linear|log
  double log_first = 1e-6;       // --output-first: the log grid's first time after the start
  std::int64_t per_decade = 10;  // --output-per-decade: log grid points per factor of 10
  bool steps = false;            // --output-steps
  std::int64_t every = 1;        // --output-every K: every K-th point (events, start and stop always)
  std::int64_t max_rows = kDefaultMaxRows;  // --max-rows
};

// The output points after the start: point k (1..points) is at(k); the
// last is the stop time. `record_points` is false with --output-steps (the
// points are only where the run checks for a stop request; every K-th step
// IDA accepts is a row, at most max_rows rows).
struct OutputPlan {
  std::int64_t points = 0;
  bool record_points = true;
  std::int64_t every = 1;
  std::int64_t max_rows = kDefaultMaxRows;
  double start = 0, stop = 0, interval = 0;
  std::vector<double> times;  // listed or log times (empty: the interval grid)
  // --jacobian check: run() compares the finite-difference and directional
  // Jacobians once the simulation is initialized and hands the verdict to
  // its sink, before the first row.
  bool check_jacobian = false;
  double at(std::int64_t k) const;
  // Whether point k gets a row (decimation; the last always does).
  bool records(std::int64_t k) const { return record_points && (k == points || k % every == 0); }
};

OutputPlan plan_output(double start, double stop, double interval, const OutputControl& control);
// The plan for a created Simulation: its start, stop and output interval.
OutputPlan plan_output(const Simulation& sim, const OutputControl& control, bool check_jacobian = false);

}  // namespace lsdae::run

#endif  // LSDAE_RUNTIME_RUN_OUTPUT_PLAN_H
