// runtime/run/output_plan.cpp -- see output_plan.h.
#include "run/output_plan.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/simulation.h"

namespace lsdae::run {

namespace {

[[noreturn]] void refuse(const std::string& text) { throw Error(ErrorKind::usage, text); }

void check_row_count(double rows, std::int64_t every, std::int64_t max_rows, const std::string& what) {
  const double kept = std::ceil(rows / static_cast<double>(every)) + 1;
  if (kept > static_cast<double>(max_rows))
    refuse("simulate: " + what + " makes " + format_number(kept) + " output rows, more than --max-rows " +
           std::to_string(max_rows) + " → write fewer rows (--output-every K), or raise --max-rows if you mean it");
}

std::vector<double> listed_times(const std::string& list, double start, double stop) {
  std::vector<double> out;
  std::size_t at = 0;
  while (at <= list.size()) {
    std::size_t comma = list.find(',', at);
    if (comma == std::string::npos) comma = list.size();
    std::string item = list.substr(at, comma - at);
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    double t = 0;
    const auto r = std::from_chars(item.data(), item.data() + item.size(), t);
    if (item.empty() || r.ec != std::errc() || r.ptr != item.data() + item.size() || !std::isfinite(t))
      refuse("--output-times: \"" + item + "\" is not a time → give decimal times separated by commas, "
             "e.g. --output-times 0.1,0.5,2");
    if (t < start || t > stop)
      refuse("--output-times: " + item + " lies outside the run from " + format_number(start) + " to " +
             format_number(stop) + " → list times inside it, or set --start/--stop");
    if (!out.empty() && !(t > out.back()))
      refuse("--output-times: " + item + " does not come after " + format_number(out.back()) +
             " → list the times in increasing order, each once");
    if (t > start) out.push_back(t);
    at = comma + 1;
  }
  if (out.empty() || out.back() < stop) out.push_back(stop);  // the run's end is always a row
  return out;
}

}  // namespace

std::int64_t check_run_length(double start, double stop, double interval, std::int64_t max_rows) {
  auto refuse_run = [](const std::string& text) { refuse("simulate: " + text); };
  if (!std::isfinite(start)) refuse_run("start time " + format_number(start) + " is not a finite number → set --start");
  if (!std::isfinite(stop)) refuse_run("stop time " + format_number(stop) + " is not a finite number → set --stop");
  if (!std::isfinite(interval) || !(interval > 0))
    refuse_run("output interval " + format_number(interval) + " is not a positive finite number → set --output-interval");
  const double span = stop - start;
  if (!std::isfinite(span))
    refuse_run("the span from start " + format_number(start) + " to stop " + format_number(stop) +
               " overflows double precision → choose times closer together");
  const double magnitude = std::max(std::fabs(start), std::fabs(stop));
  const double intervals = std::ceil(span / interval - 1e-9);
  const double rows = intervals + 1;
  if (!(rows <= static_cast<double>(max_rows))) {
    const double suggested = span / 500.0;
    refuse_run("from t = " + format_number(start) + " to " + format_number(stop) + " every " + format_number(interval) +
               " makes " + format_number(rows) + " output rows, more than --max-rows " + std::to_string(max_rows) +
               " → choose a larger --output-interval (e.g. " + format_number(suggested) +
               " for 501 rows), or raise --max-rows if you mean it");
  }
  if (interval < kTimeResolution * magnitude)
    refuse_run("output interval " + format_number(interval) + " is below what double-precision times near " +
               format_number(magnitude) + " resolve → use an --output-interval of at least " +
               format_number(kTimeResolution * magnitude) + ", or times nearer 0");
  return static_cast<std::int64_t>(std::max(intervals, 1.0));
}

double OutputPlan::at(std::int64_t k) const {
  if (!times.empty()) return times[static_cast<std::size_t>(k - 1)];
  return k == points ? stop : start + static_cast<double>(k) * interval;
}

OutputPlan plan_output(double start, double stop, double interval, const OutputControl& control) {
  OutputPlan plan;
  plan.start = start;
  plan.stop = stop;
  plan.interval = interval;
  plan.every = control.every;
  plan.max_rows = control.max_rows;
  const int grids = (!control.times.empty() ? 1 : 0) + (control.grid == "log" ? 1 : 0) + (control.steps ? 1 : 0);
  if (grids > 1) refuse("simulate: --output-times, --output-grid log and --output-steps each place the rows → choose one");
  if (control.every < 1) refuse("--output-every: at least 1");
  if (!control.times.empty()) {
    plan.times = listed_times(control.times, start, stop);
    check_row_count(static_cast<double>(plan.times.size()), control.every, control.max_rows, "--output-times");
  } else if (control.grid == "log") {
    const double span = stop - start;
    if (!(control.log_first > 0) || !(control.log_first < span))
      refuse("--output-first " + format_number(control.log_first) + ": the log grid's first time after the start "
             "must be positive and below the span " + format_number(span) + " → e.g. --output-first " +
             format_number(span * 1e-9));
    if (control.per_decade < 1 || control.per_decade > 1000)
      refuse("--output-per-decade " + std::to_string(control.per_decade) + ": from 1 to 1000");
    const double decades = std::log10(span / control.log_first);
    check_row_count(std::ceil(decades * static_cast<double>(control.per_decade)) + 1, control.every,
                    control.max_rows,
                    "--output-grid log from " + format_number(control.log_first) + " with " +
                        std::to_string(control.per_decade) + " per decade");
    for (std::int64_t j = 0;; ++j) {
      const double offset =
          control.log_first * std::pow(10.0, static_cast<double>(j) / static_cast<double>(control.per_decade));
      const double t = start + offset;
      if (!(offset < span) || !(t < stop)) break;
      if (plan.times.empty() || t > plan.times.back()) plan.times.push_back(t);
    }
    plan.times.push_back(stop);
  }
  if (!plan.times.empty()) {
    plan.points = static_cast<std::int64_t>(plan.times.size());
  } else {
    // --max-rows counts the grid's points before decimation; with
    // --output-steps the grid only paces the stop checks.
    plan.points = check_run_length(start, stop, interval, control.steps ? kLargestMaxRows : control.max_rows);
  }
  plan.record_points = !control.steps;
  return plan;
}

OutputPlan plan_output(const Simulation& sim, const OutputControl& control, bool check_jacobian) {
  OutputPlan plan = plan_output(sim.start_time(), sim.stop_time(), sim.output_interval(), control);
  plan.check_jacobian = check_jacobian;
  return plan;
}

}  // namespace lsdae::run
