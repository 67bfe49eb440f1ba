// runtime/cli/simulate_command.cpp -- `lsdae simulate model.fmu [options]`:
// integrate, stream the results to a file (CSV, HDF5 or MAT, one writer
// interface: results/result_writer.h), write the run statistics as JSON.
//
// The FMU's binary runs in a supervised child process (lsdae/supervise.h;
// `--no-isolate`: in this one). This process unpacks and reads the FMU and
// owns its extraction folder; the child loads the binary, integrates, writes
// the result rows (flushed one by one) and the statistics. With `-o -` the
// rows go to the original stdout and whatever the FMU prints goes to stderr.
//
// Ctrl-C (SIGINT), SIGTERM and SIGHUP (and --timeout) stop the run at its
// next IDA step (a watcher thread calls Simulation::cancel(), so a long
// output interval does not delay it): the rows written so far stay, the
// statistics are written with "interrupted": true, and the exit code is 130.
// A second signal, or an FMU call that has not returned 2 s after the first,
// stops the child at once. A failure mid-run (solver or FMU) keeps the rows
// written so far, writes the statistics with the error, and says where it
// stopped. When the child crashes (exit 10) or a watchdog stops it (exit 11,
// `--timeout`, `--call-timeout`), this process says in which FMU call, at
// what time, writes the statistics, and leaves the result file ending at the
// last complete row.
//
// Nothing is written before the run has initialised: option values are
// checked while parsing (option_values.h), the output files before the
// binary is loaded and the run length right after (simulate_options_check.h),
// --set values by Simulation::set, the FMU's initialisation by
// Simulation::initialize. Only then are the result and statistics files
// created (or truncated), so a refused command line leaves an earlier
// result.csv as it was. A result or statistics file that cannot be written
// is exit code 9 (ErrorKind::output); the file keeps its complete rows (an
// HDF5 file those of its last flush). The format follows --format or the
// file's extension, checked with the output files before anything runs.
#include <CLI/CLI.hpp>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <iostream>
#include <limits>
#include <memory>
#include <mutex>
#include <sstream>
#include <stop_token>
#include <thread>

#include "common/format.h"
#include "common/output_file.h"
#include "cli/commands.h"
#include "cli/isolation_option.h"
#include "cli/json_writer.h"
#include "cli/option_values.h"
#include "cli/simulate_options_check.h"
#include "import/temp_dir.h"
#include "lsdae/error.h"
#include "lsdae/log.h"
#include "lsdae/simulation.h"
#include "lsdae/ssp.h"
#include "lsdae/system.h"
#include "lsdae/supervise.h"
#include "results/result_writer.h"
#include "simulation/output_channels.h"

namespace lsdae::cli {

namespace {

struct SimulateOptions {
  std::string path;
  std::optional<double> start, stop, rtol, atol, interval;
  std::string jacobian = "auto";
  std::size_t threads = 1;
  std::string output = "result.csv";
  std::string format;  // --format; "" follows the extension
  results::ResultFormat result_format = results::ResultFormat::csv;
  bool csv_units = false;
  bool csv_events = false;
  int hdf5_deflate = 1;
  bool hdf5_compress_all = false;
  OutputControl output_control;
  std::vector<std::string> output_roles;
  std::string stats;
  std::vector<std::string> sets;
  std::string input;
  std::vector<std::string> output_vars;
  bool all = false;
  bool progress = true;
  std::string klu_ordering = "amd";
  long max_steps = 100000;
  double max_step = 0.0;
  std::string linear_solver = "klu";
  std::string constraints = "dummy";
  std::optional<double> projection_tolerance;
  bool no_reselect = false;
  bool no_coloring = false;
  bool no_constant_entries = false;
  bool klu_reanalyze = false;
  std::string eliminate = "off";
  std::string row_order = "matched";
  bool strict = false;
  IsolationFlags isolation;
  std::int64_t max_rows = kDefaultMaxRows;
};

// The statistics JSON as one text; written whole by write_stats.
// `results` is what the result writer did (format, seconds spent writing
// rows), when it ran in this process.
struct ResultsTiming {
  std::string format;
  double write_seconds = 0.0;
  std::vector<std::pair<std::string, std::uint64_t>> writer;  // the writer's statistics()
};

std::string stats_json(const Simulation* sim, const std::string& fmu_name, double wall, std::size_t rows,
                       bool interrupted, const std::string& error, const ResultsTiming* results = nullptr) {
  std::ostringstream out;
  JsonWriter j(out);
  j.begin_object();
  j.field("fmu", fmu_name);
  j.key("command_line").begin_array();
  for (const auto& word : command_line()) j.value(word);
  j.end_array();
  j.key("versions").begin_object();
  j.field("lsdae", kLsdaeVersion);
  j.end_object();
  j.field("completed", error.empty() && !interrupted);
  j.field("interrupted", interrupted);
  if (!error.empty()) j.field("error", error);
  j.field("rows_written", static_cast<std::uint64_t>(rows));
  j.field("wall_time_s", wall);
  if (sim != nullptr) {
    const SimulationStats& s = const_cast<Simulation*>(sim)->statistics();
    j.field("start_time", sim->start_time());
    j.field("stop_time", sim->stop_time());
    j.field("reached_time", s.reached_time);
    j.key("model").begin_object();
    j.field("unknowns", static_cast<std::uint64_t>(s.unknowns));
    j.field("differential", static_cast<std::uint64_t>(s.differential));
    j.field("algebraic", static_cast<std::uint64_t>(s.algebraic));
    j.field("structural_index", static_cast<std::uint64_t>(s.structural_index));
    j.field("eliminated", static_cast<std::uint64_t>(s.eliminated));
    j.end_object();
    j.key("jacobian").begin_object();
    j.field("method", s.jacobian_method);
    j.field("nonzeros", static_cast<std::uint64_t>(s.jacobian_nonzeros));
    j.field("colors", static_cast<std::uint64_t>(s.colors));
    j.field("varying_colors", static_cast<std::uint64_t>(s.varying_colors));
    j.field("constant_entries", static_cast<std::uint64_t>(s.constant_entries));
    j.field("threads", static_cast<std::uint64_t>(s.threads));
    j.end_object();
    j.key("counters").begin_object();
    j.field("steps", static_cast<std::int64_t>(s.steps));
    j.field("residual_calls", static_cast<std::int64_t>(s.residual_calls));
    j.field("jacobian_evaluations", static_cast<std::int64_t>(s.jacobian_evaluations));
    j.field("jacobian_residual_calls", static_cast<std::int64_t>(s.jacobian_residual_calls));
    j.field("directional_calls", static_cast<std::int64_t>(s.directional_calls));
    j.field("nonlinear_iterations", static_cast<std::int64_t>(s.nonlinear_iterations));
    j.field("nonlinear_convergence_failures", static_cast<std::int64_t>(s.nonlinear_convergence_failures));
    j.field("error_test_failures", static_cast<std::int64_t>(s.error_test_failures));
    j.field("linear_solver_setups", static_cast<std::int64_t>(s.linear_solver_setups));
    j.field("constant_evaluations", static_cast<std::int64_t>(s.constant_evaluations));
    j.field("constant_calls", static_cast<std::int64_t>(s.constant_calls));
    j.field("synthesis_evaluations", static_cast<std::int64_t>(s.synthesis_evaluations));
    j.field("klu_symbolic_analyses", static_cast<std::int64_t>(s.klu_symbolic_analyses));
    j.field("klu_restart_factorizations", static_cast<std::int64_t>(s.klu_restart_factorizations));
    j.field("time_events", static_cast<std::int64_t>(s.time_events));
    j.field("state_events", static_cast<std::int64_t>(s.state_events));
    j.field("step_events", static_cast<std::int64_t>(s.step_events));
    j.field("reselections", static_cast<std::int64_t>(s.reselections));
    j.field("projections", static_cast<std::int64_t>(s.projections));
    j.field("projection_rejections", static_cast<std::int64_t>(s.projection_rejections));
    j.field("first_step_retries", static_cast<std::int64_t>(s.first_step_retries));
    j.end_object();
    j.field("dummy_derivatives", s.dummy_derivatives);
    j.field("largest_projection", s.largest_projection);
    j.field("largest_drift", s.largest_drift);
    j.field("largest_drift_constraint", s.largest_drift_constraint);
    j.field("terminated_by_fmu", s.terminated_by_fmu);
    j.key("klu").begin_object();
    j.field("ordering", s.klu_ordering);
    j.field("lnz", static_cast<std::int64_t>(s.klu_lnz));
    j.field("unz", static_cast<std::int64_t>(s.klu_unz));
    j.field("fill_ratio", s.jacobian_nonzeros == 0 ? 0.0
                                                   : static_cast<double>(s.klu_lnz + s.klu_unz) /
                                                         static_cast<double>(s.jacobian_nonzeros));
    j.end_object();
    j.key("time_s").begin_object();
    j.field("structure", s.time_structure);
    j.field("instantiate", s.time_instantiate);
    j.field("initialize", s.time_initialize);
    j.field("integrate", s.time_integrate);
    if (results != nullptr) j.field("write_results", results->write_seconds);
    j.end_object();
    if (results != nullptr) {
      j.key("results").begin_object();
      j.field("format", results->format);
      for (const auto& [name, count] : results->writer) j.field(name, count);
      j.end_object();
    }
  }
  j.end_object();
  out << '\n';
  return out.str();
}

// Writes the statistics to `file` (nothing when it is null); "" when done,
// else the message of the failed write.
std::string write_stats(OutputFile* file, const Simulation* sim, const std::string& fmu_name, double wall,
                        std::size_t rows, bool interrupted, const std::string& error,
                        const ResultsTiming* results = nullptr) {
  if (file == nullptr) return {};
  const int failure = file->append(stats_json(sim, fmu_name, wall, rows, interrupted, error, results));
  if (failure == 0) return {};
  const std::string name = file->is_stdout() ? "standard output" : "\"" + file->path().string() + "\"";
  return "statistics: writing " + name + " failed: " + std::strerror(failure) + " → " +
         (failure == ENOSPC ? "free disk space" : "check the disk and the path") + " and run again";
}

// The same for a path (after the child running the simulation was stopped):
// "" when there is nothing to write or it was written.
std::string write_stats(const std::string& path, const std::string& fmu_name, double wall, std::size_t rows,
                        bool interrupted, const std::string& error) {
  if (path.empty()) return {};
  try {
    OutputFile file(path, "statistics");
    return write_stats(&file, nullptr, fmu_name, wall, rows, interrupted, error);
  } catch (const Error& e) {
    return e.what();
  }
}

void print_summary(Simulation& sim, std::size_t rows, const std::string& output) {
  const SimulationStats& s = sim.statistics();
  std::cerr << "lsdae: simulated " << sim.model().display_name() << " from " << format_number(sim.start_time()) << " to "
            << format_number(s.reached_time) << ": " << count_of(s.steps, "step") << ", "
            << count_of(s.residual_calls, "residual call")
            << (s.synthesis_evaluations > 0
                    ? " (+" + count_of(s.synthesis_evaluations, "evaluation") + " for the synthesized derivatives)"
                    : std::string())
            << ", " << count_of(s.jacobian_evaluations, "Jacobian")
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

// The simulation itself: in the supervised child (or in-process with
// --no-isolate). Returns 0, or 130 when a stop signal ended it; throws
// lsdae::Error for a failure (with where it stopped and the rows kept).
int simulate(RunContext& ctx, const SimulateOptions& o, const std::shared_ptr<const Model>& model,
             const SimulationOptions& options, const std::function<double()>& wall) {
  auto sim = Simulation::create(model, options);
  const OutputPlan plan =
      plan_output(sim->start_time(), sim->stop_time(), sim->output_interval(), o.output_control, o.max_rows);
  const std::int64_t intervals = plan.points;
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
  simulation::OutputReader reader(simulation::select_output_channels(*model, patterns, o.all, o.output_roles));
  // Created once the run has initialised (see the top of this file). With
  // `-o -` (or `--stats -`) they go to the original stdout; what the FMU
  // prints goes to stderr.
  std::unique_ptr<results::ResultWriter> writer;
  std::unique_ptr<OutputFile> stats;
  auto rows = [&] { return writer ? writer->rows() : std::size_t{0}; };
  const std::string results_name = o.output == "-" ? "standard output" : o.output;
  double last_row_time = std::nan("");
  ResultsTiming timing{results::to_string(o.result_format), 0.0, {}};
  auto record = [&](results::RowKind kind) {
    reader.read(*sim);
    const auto w0 = std::chrono::steady_clock::now();
    writer->write_row(sim->time(), reader, kind);
    timing.write_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
    last_row_time = sim->time();
    ctx.report_progress(writer->rows(), sim->time());
  };
  // The end of the run for the result file: the statistics go in where the
  // format has room (HDF5), the last rows are written, the file is closed.
  // After a failure this must not hide the first error: "" or its message.
  auto close_results = [&](bool interrupted, const std::string& error) -> std::string {
    if (!writer) return {};
    auto w0 = std::chrono::steady_clock::now();
    auto count_time = [&] {
      const auto now = std::chrono::steady_clock::now();
      timing.write_seconds += std::chrono::duration<double>(now - w0).count();
      w0 = now;
    };
    try {
      writer->close_rows();  // every row in the file: the writer's statistics are final
      count_time();
      timing.writer = writer->statistics();
      writer->finish(stats_json(sim.get(), model->display_name(), wall(), rows(), interrupted, error, &timing));
      count_time();
    } catch (const Error& e) {
      count_time();
      timing.writer = writer->statistics();
      return e.what();
    }
    return {};
  };
  // A row just before and just after every event (same time, two rows).
  sim->observe_events([&](double, EventPhase phase) {
    record(phase == EventPhase::after ? results::RowKind::after_event : results::RowKind::before_event);
  });
  // --output-steps: a row at every step IDA accepts (every K-th with
  // --output-every), as many as --max-rows allows.
  std::int64_t steps_seen = 0;
  if (o.output_control.steps)
    sim->observe_steps([&](double t) {
      if (++steps_seen % plan.every != 0 || t == last_row_time) return;
      if (static_cast<std::int64_t>(rows()) >= o.max_rows)
        throw Error(ErrorKind::output, "results: --output-steps reached --max-rows " + std::to_string(o.max_rows) +
                                           " rows at t = " + format_number(t) +
                                           " → raise --max-rows, keep every K-th step (--output-every K), or use "
                                           "an output grid");
      record(results::RowKind::ordinary);
    });
  const bool show_progress = o.progress && isatty(STDERR_FILENO) && o.output != "-";
  std::string error;
  bool interrupted = false;
  try {
    sim->initialize();
    if (o.jacobian == "check") {
      const JacobianCheck check = sim->check_jacobian();
      if (check.agree()) std::cerr << "lsdae: " << to_string(check) << '\n';
      else log_warning(to_string(check));
    }
    if (!o.stats.empty()) stats = std::make_unique<OutputFile>(o.stats, "statistics", ctx.results_fd());
    results::WriterOptions writer_options;
    writer_options.stdout_fd = ctx.results_fd();
    writer_options.csv_units = o.csv_units;
    writer_options.csv_events = o.csv_events;
    writer_options.model_name = model->display_name();
    writer_options.hdf5_deflate = o.hdf5_deflate;
    writer_options.hdf5_compress_all = o.hdf5_compress_all;
    writer = results::open_result_writer(o.result_format, o.output, simulation::result_columns(reader.channels()),
                                         writer_options);
    record(results::RowKind::ordinary);
    // A stop request (a signal, --timeout) reaches the run inside an output
    // interval too: this watcher cancels the simulation at its next IDA step,
    // so one long interval (tiny steps, a storm of events) does not hold the
    // stop up until its end. It goes (joined) when the loop is left.
    std::jthread stop_watch([&ctx, s = sim.get()](std::stop_token stop) {
      std::mutex m;
      std::condition_variable_any wake;
      std::unique_lock lock(m);
      while (!stop.stop_requested()) {
        if (ctx.stop_requested()) {
          s->cancel();
          return;
        }
        wake.wait_for(lock, stop, std::chrono::milliseconds(20), [] { return false; });
      }
    });
    int last_percent = -1;
    for (std::int64_t k = 1; k <= intervals; ++k) {
      if (ctx.stop_requested()) {
        interrupted = true;
        break;
      }
      const double target = plan.at(k);
      sim->advance_to(target);
      if (sim->terminated()) {
        if (sim->time() != last_row_time) record(results::RowKind::ordinary);
        std::cerr << "lsdae: the FMU asked to terminate at t = " << format_number(sim->time()) << '\n';
        break;
      }
      // An event at an output time already wrote its rows there.
      if (plan.records(k) && sim->time() != last_row_time) record(results::RowKind::ordinary);
      if (!plan.record_points && k == intervals && sim->time() != last_row_time) record(results::RowKind::ordinary);
      if (show_progress) {
        int percent = static_cast<int>(100.0 * static_cast<double>(k) / static_cast<double>(intervals));
        if (percent != last_percent) {
          last_percent = percent;
          std::string bar(static_cast<std::size_t>(percent / 4), '#');
          std::fprintf(stderr, "\r[%-25s] %3d%%  t = %-12s", bar.c_str(), percent, format_number(sim->time()).c_str());
        }
      }
    }
    // A stop requested during the last interval is honoured too.
    if (ctx.stop_requested()) interrupted = true;
    if (show_progress) std::fprintf(stderr, "\n");
  } catch (const Error& e) {
    if (show_progress) std::fprintf(stderr, "\n");
    if (!writer) throw;  // failed before the first row: nothing was written
    // The stop watcher's cancel(): a stop request like one seen between rows.
    if (e.kind() == ErrorKind::interrupted && ctx.stop_requested()) {
      interrupted = true;
    } else {
      error = e.what();
      const std::string results_error = close_results(false, error);
      const std::string stats_error =
          write_stats(stats.get(), sim.get(), model->display_name(), wall(), rows(), false, error, &timing);
      throw Error(e.kind(), std::string(e.what()) + "\n  (stopped at t = " + format_number(sim->time()) + "; " +
                                count_of(rows(), "row") + " kept in " + results_name + ")" +
                                (results_error.empty() || results_error == error ? "" : "\n  " + results_error) +
                                (stats_error.empty() ? "" : "\n  " + stats_error));
    }
  }
  if (interrupted && ctx.stop_for_timeout()) {
    error = model->display_name() + ": the run took longer than its limit of " + format_number(o.isolation.timeout) +
            " s → raise --timeout, or simulate a shorter time span";
    const std::string results_error = close_results(true, error);
    const std::string stats_error = write_stats(stats.get(), sim.get(), model->display_name(), wall(), rows(), true, error, &timing);
    throw Error(ErrorKind::timeout, error + "\n  (stopped at t = " + format_number(sim->time()) + "; " +
                                        count_of(rows(), "row") + " kept in " + results_name + ")" +
                                        (results_error.empty() ? "" : "\n  " + results_error) +
                                        (stats_error.empty() ? "" : "\n  " + stats_error));
  }
  const std::string results_error = close_results(interrupted, error);
  const std::string stats_error =
      write_stats(stats.get(), sim.get(), model->display_name(), wall(), rows(), interrupted, error, &timing);
  if (!results_error.empty()) {
    if (interrupted) std::cerr << "lsdae: error: " << results_error << '\n';
    else throw Error(ErrorKind::output, results_error + (stats_error.empty() ? "" : "\n  " + stats_error));
  }
  if (interrupted) {
    std::cerr << "lsdae: interrupted at t = " << format_number(sim->time()) << "; " << count_of(rows(), "row")
              << " kept in " << results_name << '\n';
    if (!stats_error.empty()) std::cerr << "lsdae: error: " << stats_error << '\n';
    return exit_code(ErrorKind::interrupted);
  }
  if (!stats_error.empty())
    throw Error(ErrorKind::output, stats_error + " (the results are complete: " + count_of(rows(), "row") + " in " +
                                       results_name + ")");
  print_summary(*sim, rows(), o.output);
  return 0;
}

// After the run: the child's own report when it ended by itself; otherwise
// (a crash, a watchdog, a signal that had to stop it) the message, the rows
// kept, the statistics and a result file that ends at its last complete row.
int finish_run(const RunOutcome& r, const SimulateOptions& o, const std::string& fmu_name, double wall) {
  if (r.end == RunEnd::completed) return r.exit_code;
  if (r.end == RunEnd::failed) throw Error(r.error_kind, r.message);
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
    stats_error = write_stats(o.stats, fmu_name, wall, static_cast<std::size_t>(rows), r.end == RunEnd::interrupted,
                              r.message);
  if (!stats_error.empty()) stats_error = "\n  " + stats_error;
  if (r.end == RunEnd::interrupted) {
    std::cerr << "lsdae: " << r.message << kept << stats_error << '\n';
    return exit_code(ErrorKind::interrupted);
  }
  throw Error(r.kind(), r.message + kept + stats_error);
}

}  // namespace

Runner add_simulate_command(CLI::App& app) {
  auto o = std::make_shared<SimulateOptions>();
  app.add_option("fmu", o->path, "The .fmu file (or an unpacked FMU folder), or a system of FMUs (.ssp, .ssd)")->required();
  // Every value is checked as text before CLI11 converts it (option_values.h).
  const double inf = std::numeric_limits<double>::infinity();
  app.add_option("--start", o->start, "Start time (default: DefaultExperiment startTime, else 0)")
      ->type_name("TIME")
      ->check(real_value({-inf, inf, true, true, "the start time", "--start 0"}));
  app.add_option("--stop", o->stop, "Stop time (default: DefaultExperiment stopTime, else start + 1)")
      ->type_name("TIME")
      ->check(real_value({-inf, inf, true, true, "the stop time", "--stop 10"}));
  app.add_option("--rtol", o->rtol,
                 "Relative tolerance, from 1e-15 to 1 (default: DefaultExperiment tolerance, else 1e-6)")
      ->type_name("NUMBER")
      ->check(real_value({1e-15, 1.0, true, true, "the relative tolerance", "--rtol 1e-6"}));
  app.add_option("--atol", o->atol, "Absolute tolerance, scaled by each variable's nominal (default: rtol)")
      ->type_name("NUMBER")
      ->check(real_value({0.0, inf, false, true, "the absolute tolerance", "--atol 1e-8"}));
  app.add_option("--output-interval", o->interval, "Time between output rows (default: DefaultExperiment stepSize)")
      ->type_name("TIME")
      ->check(real_value({0.0, inf, false, true, "the output interval", "--output-interval 0.01"}));
  app.add_option("--max-rows", o->max_rows,
                 "Refuse a run whose output interval gives more rows than this (events add theirs)")
      ->type_name("ROWS")
      ->transform(count_value(1, kLargestMaxRows, "the most output rows", "--max-rows 1000000000"))
      ->capture_default_str();
  app.add_option("--jacobian", o->jacobian,
                 "auto (directional if provided), fd (coloured finite differences), directional, or check "
                 "(compare both at the start and say whether they agree, then directional)")
      ->check(one_of({"auto", "fd", "directional", "check"}));
  app.add_option("--threads", o->threads, "Threads (and FMU instances) for Jacobian evaluation, 1 to 1024")
      ->type_name("N")
      ->transform(count_value(1, 1024, "the thread count", "--threads 4"));
  app.add_option("-o,--output", o->output,
                 "Result file: .csv, .h5/.hdf5 (HDF5) or .mat (Dymola layout); '-' for CSV on stdout")
      ->capture_default_str();
  app.add_option("--format", o->format, "Result format when the file name does not say it: csv, hdf5 or mat")
      ->check(one_of({"csv", "hdf5", "mat"}));
  app.add_flag("--csv-units", o->csv_units, "CSV: a second header line with each column's unit");
  app.add_flag("--csv-events", o->csv_events,
               "CSV: an \"event\" column after time: 1 on the row just before an event, 2 just after, else 0");
  app.add_option("--hdf5-deflate", o->hdf5_deflate,
                 "HDF5: deflate level of the values, 0 (no compression: fastest) to 9; chunks the writer thread "
                 "cannot compress in time are stored uncompressed (see --hdf5-compress-all)")
      ->type_name("LEVEL")
      ->transform(count_value(0, 9, "the deflate level", "--hdf5-deflate 1"))
      ->capture_default_str();
  app.add_flag("--hdf5-compress-all", o->hdf5_compress_all,
               "HDF5: compress every chunk, the run waiting for the writer thread when compression is slower "
               "than the run (the smallest file)");
  app.add_flag("--output-steps", o->output_control.steps,
               "A row at every step the solver accepts (and at events, the start and the stop), instead of a grid");
  app.add_option("--output-times", o->output_control.times,
                 "Rows at these times only (and at events, the start and the stop): increasing, comma-separated")
      ->type_name("T1,T2,...");
  app.add_option("--output-grid", o->output_control.grid,
                 "linear (every --output-interval) or log (from --output-first after the start to the stop, "
                 "--output-per-decade rows per factor of 10)")
      ->check(one_of({"linear", "log"}))
      ->capture_default_str();
  app.add_option("--output-first", o->output_control.log_first, "The log grid's first time after the start")
      ->type_name("TIME")
      ->check(real_value({0.0, inf, false, true, "the log grid's first time after the start", "--output-first 1e-6"}))
      ->capture_default_str();
  app.add_option("--output-per-decade", o->output_control.per_decade, "Rows per factor of 10 on the log grid")
      ->type_name("N")
      ->transform(count_value(1, 1000, "rows per decade", "--output-per-decade 10"))
      ->capture_default_str();
  app.add_option("--output-every", o->output_control.every,
                 "Keep every K-th output point or step (events, the start and the stop are always kept)")
      ->type_name("K")
      ->transform(count_value(1, kLargestMaxRows, "the decimation", "--output-every 10"));
  app.add_option("--output-roles", o->output_roles,
                 "Record variables by role: outputs, inputs, states, derivatives, algebraic, parameters, locals "
                 "(comma-separated; with --output-vars, both) (repeatable)")
      ->delimiter(',')
      ->check(one_of({"outputs", "inputs", "states", "derivatives", "algebraic", "parameters", "locals"}));
  app.add_option("--stats", o->stats, "Write the run statistics as JSON to this file ('-' for stdout)");
  app.add_option("--set", o->sets,
                 "Set a parameter, input or start value: name=value, parsed for the variable's type (an array: "
                 "A=\"1 2 3\" or one element A[2]=5) (repeatable)");
  app.add_option("--input", o->input,
                 "Time-varying inputs from a CSV file: a time column, then one column per input (continuous inputs "
                 "interpolated linearly, discrete ones held; two rows at one time make a step)");
  app.add_option("--output-vars", o->output_vars,
                 "Variables to record: names, array elements (A[2,3]) or globs (* and ?), comma-separated "
                 "(commas inside [] belong to the name) (repeatable)");
  app.add_flag("--all", o->all, "Record every variable (all types, every array element)");
  app.add_flag("!--no-progress", o->progress, "No progress bar on stderr");
  app.add_option("--klu-ordering", o->klu_ordering, "Fill-reducing ordering for KLU: amd, colamd, metis")
      ->check(one_of({"amd", "colamd", "metis"}))
      ->capture_default_str();
  app.add_option("--row-order", o->row_order,
                 "IDA's rows: matched (permuted onto a structural matching: a zero-free diagonal for KLU) or "
                 "declared (the manifest's order of residuals)")
      ->check(one_of({"matched", "declared"}))
      ->capture_default_str();
  app.add_option("--eliminate", o->eliminate,
                 "auto: eliminate the algebraic unknowns that enter every residual linearly with constant "
                 "coefficients (dependenciesKind constant, fixed) before IDA sees them, where that adds no "
                 "Jacobian nonzeros (`lsdae info --structure` lists them); off: IDA integrates every unknown")
      ->check(one_of({"auto", "off"}))
      ->capture_default_str();
  app.add_option("--max-steps", o->max_steps, "Most IDA steps between two output rows (at least 1)")
      ->type_name("N")
      ->transform(count_value(1, std::numeric_limits<long>::max(), "the most steps between two output rows",
                              "--max-steps 1000000"))
      ->capture_default_str();
  app.add_option("--max-step", o->max_step, "Largest IDA step size (0: no limit)")
      ->type_name("TIME")
      ->check(real_value({0.0, inf, true, true, "the largest step size (0: no limit)", "--max-step 0.001"}));
  app.add_option("--constraints", o->constraints,
                 "Higher-index models and invariants: dummy (dummy derivatives, re-selected at run time), "
                 "project (index-1 formulations, projected back onto the lower-order ones and the invariants "
                 "inside IDA's steps) or none (index-1 formulations only; the drift is measured and reported). An FMI 2.0 "
                 "FMU's own constraint functions (Najafi et al.) are projected onto after steps unless none")
      ->check(one_of({"dummy", "project", "none"}))
      ->capture_default_str();
  app.add_option("--projection-tolerance", o->projection_tolerance,
                 "With --constraints project: project only when a constraint exceeds this (default: every step, to a tenth of the local error); "
                 "an FMI 2.0 FMU's own constraints: kept below it (default 10 max(atol, rtol))")
      ->type_name("NUMBER")
      ->check(real_value({0.0, inf, false, true, "the projection tolerance", "--projection-tolerance 1e-8"}));
  app.add_flag("--no-reselect", o->no_reselect, "Keep the dummy derivatives chosen at the start");
  app.add_flag("--strict", o->strict,
               "Refuse an FMU that breaks any FMI rule `lsdae validate` reports as an error, also those "
               "simulation does not depend on (by default they are warnings)");
  app.add_option("--linear-solver", o->linear_solver,
                 "klu (sparse, the default) or dense (baseline for benchmarks: what dense importers do)")
      ->check(one_of({"klu", "dense"}))
      ->group("Benchmark baselines");
  app.add_flag("--no-constant-entries", o->no_constant_entries,
               "Evaluate the Jacobian entries the FMU declares constant (dependenciesKind) at every Jacobian, "
               "as the varying ones (for comparison and debugging)")
      ->group("Benchmark baselines");
  app.add_flag("--klu-reanalyze", o->klu_reanalyze,
               "Redo KLU's symbolic analysis at every event, as SUNDIALS does, instead of keeping the first "
               "(for comparison)")
      ->group("Benchmark baselines");
  app.add_flag("--no-coloring", o->no_coloring,
               "Evaluate the Jacobian one column at a time (baseline for benchmarks)")
      ->group("Benchmark baselines");
  add_isolation_options(app, o->isolation, "the simulation");
  return [o]() {
    // SIGINT, SIGTERM and SIGHUP are stop requests from here on: the run
    // stops at its next step and keeps everything; a second signal
    // (or a call that does not return within the grace period) stops the
    // process running the FMU at once. The extraction folder is removed by
    // the destructors on the way out, in every case.
    import::TempDir::set_signal_cleanup(false);
    StopSignals stop_signals;
    auto wall_start = std::chrono::steady_clock::now();
    auto wall = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count(); };

    SimulationOptions options;
    options.start_time = o->start;
    options.stop_time = o->stop;
    options.rtol = o->rtol;
    options.atol = o->atol;
    options.output_interval = o->interval;
    options.threads = o->threads;
    options.klu_ordering = o->klu_ordering;
    options.match_rows = o->row_order == "matched";
    options.max_steps = o->max_steps;
    options.max_step = o->max_step;
    options.dense_linear_solver = o->linear_solver == "dense";
    options.constraints = o->constraints == "project" ? ConstraintMethod::projection
                          : o->constraints == "none"  ? ConstraintMethod::none
                                                      : ConstraintMethod::dummy_derivatives;
    options.projection_tolerance = o->projection_tolerance;
    options.reselect = !o->no_reselect;
    options.uncolored_jacobian = o->no_coloring;
    options.constant_jacobian_entries = !o->no_constant_entries;
    options.keep_klu_analysis = !o->klu_reanalyze;
    options.eliminate_linear = o->eliminate == "auto";
    // --jacobian check: the run uses directional derivatives; the comparison
    // is made after initialisation, so that its verdict is printed.
    options.jacobian = o->jacobian == "fd" ? JacobianMode::finite_differences
                       : o->jacobian == "directional" || o->jacobian == "check" ? JacobianMode::directional
                                                                                 : JacobianMode::automatic;
    // This process unpacks and reads the FMU (and owns the extraction
    // folder); the binary is loaded only inside the run below.
    OpenOptions open;
    open.strict = o->strict;
    // An .ssp or .ssd is a system of FMUs (lsdae/system.h, docs/systems.md);
    // an .fmu the system of one component, run directly.
    std::shared_ptr<const Model> model;
    std::error_code ec;
    if (is_system_file(o->path)) {
      const SystemDescription description = read_system_description(o->path);
      if (!description.unpacked_dir.empty()) StopSignals::remove_on_abort(description.unpacked_dir);
      auto system = System::create(description, open);
      for (std::size_t c = 0; c < system->component_count(); ++c) {
        const Fmu& component = system->component_fmu(c);
        if (!std::filesystem::is_directory(component.path(), ec)) StopSignals::remove_on_abort(component.unpacked_dir());
      }
      model = std::move(system);
    } else {
      auto fmu = Fmu::open(o->path, open);
      if (!std::filesystem::is_directory(fmu->path(), ec)) StopSignals::remove_on_abort(fmu->unpacked_dir());
      model = std::move(fmu);
    }
    check_output_files({o->path, o->output, o->stats});
    o->result_format = results::result_format_for(o->output, o->format);
    auto run = [&](RunContext& ctx) { return simulate(ctx, *o, model, options, wall); };
    RunOutcome outcome = run_with_isolation(o->isolation, run, isolation_options(o->isolation, model->display_name()));
    return finish_run(outcome, *o, model->display_name(), wall());
  };
}

}  // namespace lsdae::cli
