// runtime/cli/simulate_run.cpp -- see simulate_run.h.
//
// The FMU's binary runs in a supervised child process (lsdae/supervise.h;
// `--no-isolate`: in this one). The child loads the binary, integrates,
// writes the result rows (flushed one by one) and the statistics
// (run/run_to_files.h). With `-o -` the rows go to the original stdout and
// whatever the FMU prints goes to stderr.
//
// Ctrl-C (SIGINT), SIGTERM and SIGHUP (and --timeout) stop the run at its
// next IDA step (run/run_loop.h: a watcher thread calls Simulation::cancel(),
// so a long output interval does not delay it): the rows written so far stay,
// the statistics are written with "interrupted": true, and the exit code is
// 130. A second signal, or an FMU call that has not returned 2 s after the
// first, stops the child at once. A failure mid-run (solver or FMU) keeps the
// rows written so far, writes the statistics with the error, and says where
// it stopped. When the child crashes (exit 10) or a watchdog stops it (exit
// 11, `--timeout`, `--call-timeout`), this process says in which FMU call, at
// what time, writes the statistics, and leaves the result file ending at the
// last complete row.
#include "cli/simulate_run.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/log.h"
#include "lsdae/simulation.h"
#include "run/output_plan.h"
#include "run/run_to_files.h"
#include "run/statistics.h"
#include "simulation/output_channels.h"

namespace lsdae::cli {

namespace {

void print_summary(Simulation& sim, std::size_t rows, const std::string& output) {
  const SimulationStats& s = sim.statistics();
  std::cerr << "lsdae: simulated " << sim.model().display_name() << " from " << format_number(sim.start_time()) << " to "
            << format_number(s.reached_time) << ": " << count_of(s.steps, "step") << ", "
            << count_of(s.residual_calls, "residual call")
            << (s.synthesis_evaluations > 0
                    ? " (+" + count_of(s.synthesis_evaluations, "evaluation") + " for the synthesized derivatives)"
                    : std::string())
            << ", " << count_of(s.jacobian_evaluations, "Jacobian")
            << (s.jacobian_reforms > 0 ? " (+" + std::to_string(s.jacobian_reforms) + " re-formed for a new cj)"
                                       : std::string())
            << " (" << s.jacobian_method << ", " << count_of(s.colors, "colour") << ", "
            << count_of(s.jacobian_nonzeros, "nonzero") << ", " << count_of(s.threads, "thread") << ")"
            << (s.varying_colors != s.colors ? ", " + count_of(s.varying_colors, "colour") + " per Jacobian with " +
                                                   count_of(s.constant_entries, "constant entry", "constant entries") +
                                                   " evaluated once"
                                             : std::string())
            << (s.eliminated > 0 ? ", " + count_of(s.eliminated, "linear unknown") + " eliminated" : std::string())
            << ", KLU L+U "
            << count_of(s.klu_lnz + s.klu_unz, "nonzero") << "; "
            << (s.time_events + s.state_events + s.step_events > 0
                    ? count_of(s.time_events + s.state_events + s.step_events, "event") + "; "
                    : std::string())
            << (s.reselections > 0 ? count_of(s.reselections, "dummy re-selection") + "; " : std::string())
            << (s.projections > 0 ? count_of(s.projections, "projection") + " (largest correction " +
                                        format_number(s.largest_projection) + " in IDA's error norm, 1 = the tolerance); "
                                  : std::string())
            << (s.events_continued > 0
                    ? count_of(s.events_continued, "event") + " without a restart (IDA went on from its history); "
                    : std::string())
            << (s.first_step_retries > 0
                    ? count_of(s.first_step_retries, "first step") + " tried again smaller; "
                    : std::string())
            << (s.projection_rejections > 0
                    ? count_of(s.projection_rejections, "step") + " rejected and retried smaller for a large correction; "
                    : std::string())
            << (s.largest_drift > 0 ? "largest drift " + format_number(s.largest_drift) +
                                          (s.largest_drift_constraint.empty() ? std::string()
                                                                              : " (\"" + s.largest_drift_constraint + "\")") +
                                          "; "
                                    : std::string())
            << "integration " << format_number(s.time_integrate)
            << " s; " << count_of(rows, "row") << " in " << (output == "-" ? "standard output" : output) << '\n';
}

// The statistics of a run whose child was stopped or crashed: what the
// parent knows (rows and time reached from the child's progress).
run::RunStatistics crash_statistics(const std::string& model, double wall, std::uint64_t rows, const RunOutcome& r) {
  run::RunStatistics s;
  s.model = model;
  s.command_line = command_line();
  s.interrupted = r.end == RunEnd::interrupted;
  s.error = r.message;
  s.rows = rows;
  s.wall_time = wall;
  return s;
}

}  // namespace

int simulate(RunContext& ctx, const SimulateRequest& o, const std::shared_ptr<const Model>& model,
             const std::function<double()>& wall) {
  auto sim = Simulation::create(model, o.settings.simulation);
  const run::OutputPlan plan = run::plan_output(*sim, o.settings.output, o.settings.check_jacobian);
  for (const auto& assignment : o.sets) {
    auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
      throw Error(ErrorKind::usage, "--set \"" + assignment + "\": expected name=value → e.g. --set k=2.5");
    sim->set(assignment.substr(0, eq), assignment.substr(eq + 1));  // parsed for the variable's type
  }
  if (!o.input.empty()) sim->set_input(o.input);
  std::vector<std::string> patterns;
  for (const auto& list : o.output_vars)
    for (auto& p : simulation::split_output_patterns(list)) patterns.push_back(std::move(p));
  run::FileRunSpec spec;
  spec.results = o.output;
  spec.format = o.result_format;
  spec.statistics = o.stats;
  spec.stdout_fd = ctx.results_fd();
  spec.options = o.settings.results;
  spec.channels = simulation::select_output_channels(*model, patterns, o.settings.results.all, o.settings.results.roles);
  spec.model_name = model->display_name();
  spec.command_line = command_line();
  spec.wall = wall;
  const bool show_progress = o.progress && isatty(STDERR_FILENO) && o.output != "-";
  run::FileRunReport report;
  // The verdict of --jacobian check is the answer asked for: shown whether or not -v is given.
  report.jacobian_checked = [](const JacobianCheck& check) {
    if (check.agree()) std::cerr << "lsdae: " << to_string(check) << '\n';
    else log_warning(to_string(check));
  };
  report.row = [&ctx](std::size_t rows, double t) { ctx.report_progress(rows, t); };
  int last_percent = -1;
  if (show_progress)
    report.point = [&](std::int64_t k, std::int64_t points, double t) {
      const int percent = static_cast<int>(100.0 * static_cast<double>(k) / static_cast<double>(points));
      if (percent == last_percent) return;
      last_percent = percent;
      std::string bar(static_cast<std::size_t>(percent / 4), '#');
      std::fprintf(stderr, "\r[%-25s] %3d%%  t = %-12s", bar.c_str(), percent, format_number(t).c_str());
    };
  // A stop request (a signal, --timeout) ends the run at its next step; a
  // time limit makes it a failure.
  const run::StopToken stop([&ctx] { return ctx.stop_requested(); },
                            [&ctx, &o, &model]() -> std::string {
                              if (!ctx.stop_for_timeout()) return {};
                              return model->display_name() + ": the run took longer than its limit of " +
                                     format_number(o.isolation.timeout) +
                                     " s → raise --timeout, or simulate a shorter time span";
                            });
  run::FileRunOutcome r;
  try {
    r = run::run_to_files(*sim, plan, spec, stop, report);
  } catch (const Error&) {
    if (show_progress) std::fprintf(stderr, "\n");
    throw;
  }
  if (r.end == run::Ending::terminated)
    std::cerr << "lsdae: the FMU asked to terminate at t = " << format_number(sim->time()) << '\n';
  if (show_progress) std::fprintf(stderr, "\n");
  const std::string results_name = o.output == "-" ? "standard output" : o.output;
  if (r.end == run::Ending::stopped) {
    if (!r.results_error.empty()) std::cerr << "lsdae: error: " << r.results_error << '\n';
    std::cerr << "lsdae: interrupted at t = " << format_number(sim->time()) << "; " << count_of(r.rows, "row")
              << " kept in " << results_name << '\n';
    if (!r.stats_error.empty()) std::cerr << "lsdae: error: " << r.stats_error << '\n';
    return exit_code(ErrorKind::interrupted);
  }
  print_summary(*sim, r.rows, o.output);
  // The results and statistics are complete and closed: a crash of the FMU
  // while `sim` frees its instances (fmi3FreeInstance) no longer loses them,
  // and is reported as such (exit kExitCompletedThenCrashed, finish_run).
  ctx.report_completed(model->display_name());
  sim.reset();
  return 0;
}

int finish_run(const RunOutcome& r, const SimulateRequest& o, const std::string& fmu_name, double wall) {
  if (r.end == RunEnd::completed) return r.exit_code;
  if (r.end == RunEnd::failed) throw Error(r.error_kind, r.message);
  if (r.completed_before_end && (r.end == RunEnd::crashed || r.end == RunEnd::exited)) {
    // Complete results and statistics (written before the crash): kept as they are.
    std::cerr << "lsdae: error: " << r.message << '\n';
    return kExitCompletedThenCrashed;
  }
  if (!r.killed && r.end == RunEnd::interrupted) {
    // It stopped by itself; a signal after its last check still counts.
    if (r.exit_code != exit_code(ErrorKind::interrupted)) std::cerr << "lsdae: " << r.message << '\n';
    return exit_code(ErrorKind::interrupted);
  }
  if (o.progress && isatty(STDERR_FILENO) && o.output != "-") std::cerr << '\n';  // end the child's progress bar
  const std::uint64_t rows = r.rows.value_or(0);
  if (o.output != "-") results::keep_complete_rows(o.output, o.result_format);
  const std::string kept = "\n  (" + count_of(rows, "row") + " kept in " + (o.output == "-" ? "standard output" : o.output) +
                           (r.reached_time ? ", up to t = " + format_number(*r.reached_time) : std::string()) + ")";
  std::string stats_error;
  if (r.killed || r.end != RunEnd::run_timeout)
    stats_error = run::write_statistics(o.stats, crash_statistics(fmu_name, wall, rows, r));
  if (!stats_error.empty()) stats_error = "\n  " + stats_error;
  if (r.end == RunEnd::interrupted) {
    std::cerr << "lsdae: " << r.message << kept << stats_error << '\n';
    return exit_code(ErrorKind::interrupted);
  }
  throw Error(r.kind(), r.message + kept + stats_error);
}

}  // namespace lsdae::cli
