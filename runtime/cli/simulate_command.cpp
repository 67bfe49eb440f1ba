// runtime/cli/simulate_command.cpp -- `lsdae simulate model.fmu [options]`:
// integrate, stream the results to CSV, write the run statistics as JSON.
//
// Ctrl-C (SIGINT) and SIGTERM stop the run at the next output point: the rows
// written so far stay, the statistics are written with "interrupted": true,
// and the exit code is 130. A failure mid-run (solver or FMU) keeps the rows
// written so far, writes the statistics with the error, and says where it
// stopped.
#include <CLI/CLI.hpp>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <fstream>
#include <iostream>
#include <memory>

#include "common/format.h"
#include "cli/commands.h"
#include "cli/json_writer.h"
#include "import/temp_dir.h"
#include "lsdae/error.h"
#include "lsdae/simulation.h"
#include "simulation/csv_writer.h"
#include "simulation/output_channels.h"

namespace lsdae::cli {

namespace {

std::atomic<int> g_stop_signal{0};
extern "C" void on_stop_signal(int signo) { g_stop_signal.store(signo); }

struct SimulateOptions {
  std::string path;
  std::optional<double> start, stop, rtol, atol, interval;
  std::string jacobian = "auto";
  std::size_t threads = 1;
  std::string output = "result.csv";
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
  std::string row_order = "matched";
  bool strict = false;
};

void write_stats(const std::string& path, const Simulation* sim, const std::string& fmu_name, double wall,
                 std::size_t rows, bool interrupted, const std::string& error) {
  if (path.empty()) return;
  std::ofstream out(path);
  if (!out) {
    std::cerr << "lsdae: error: cannot write the statistics to \"" << path << "\"\n";
    return;
  }
  JsonWriter j(out);
  j.begin_object();
  j.field("fmu", fmu_name);
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
    j.end_object();
    j.key("jacobian").begin_object();
    j.field("method", s.jacobian_method);
    j.field("nonzeros", static_cast<std::uint64_t>(s.jacobian_nonzeros));
    j.field("colors", static_cast<std::uint64_t>(s.colors));
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
    j.field("time_events", static_cast<std::int64_t>(s.time_events));
    j.field("state_events", static_cast<std::int64_t>(s.state_events));
    j.field("step_events", static_cast<std::int64_t>(s.step_events));
    j.field("reselections", static_cast<std::int64_t>(s.reselections));
    j.field("projections", static_cast<std::int64_t>(s.projections));
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
    j.end_object();
  }
  j.end_object();
}

void print_summary(Simulation& sim, std::size_t rows, const std::string& output) {
  const SimulationStats& s = sim.statistics();
  std::cerr << "lsdae: simulated " << sim.fmu().display_name() << " from " << format_number(sim.start_time()) << " to "
            << format_number(s.reached_time) << ": " << s.steps << " steps, " << s.residual_calls << " residual calls, "
            << s.jacobian_evaluations << " Jacobians (" << s.jacobian_method << ", " << s.colors << " colours, "
            << s.jacobian_nonzeros << " nonzeros, " << s.threads << " thread" << (s.threads == 1 ? "" : "s")
            << "), KLU L+U " << (s.klu_lnz + s.klu_unz) << " nonzeros; "
            << (s.time_events + s.state_events + s.step_events > 0
                    ? std::to_string(s.time_events + s.state_events + s.step_events) + " events; "
                    : std::string())
            << (s.reselections > 0 ? std::to_string(s.reselections) + " dummy re-selections; " : std::string())
            << (s.projections > 0 ? std::to_string(s.projections) + " projections (largest correction " +
                                        format_number(s.largest_projection) + "); "
                                  : std::string())
            << (s.largest_drift > 0 ? "largest drift " + format_number(s.largest_drift) +
                                          (s.largest_drift_constraint.empty() ? std::string()
                                                                              : " (\"" + s.largest_drift_constraint + "\")") +
                                          "; "
                                    : std::string())
            << "integration " << format_number(s.time_integrate)
            << " s; " << rows << " rows in " << output << '\n';
}

}  // namespace

Runner add_simulate_command(CLI::App& app) {
  auto o = std::make_shared<SimulateOptions>();
  app.add_option("fmu", o->path, "The .fmu file (or an unpacked FMU folder)")->required();
  app.add_option("--start", o->start, "Start time (default: DefaultExperiment startTime, else 0)");
  app.add_option("--stop", o->stop, "Stop time (default: DefaultExperiment stopTime, else start + 1)");
  app.add_option("--rtol", o->rtol, "Relative tolerance (default: DefaultExperiment tolerance, else 1e-6)")
      ->check(CLI::PositiveNumber);
  app.add_option("--atol", o->atol, "Absolute tolerance, scaled by each variable's nominal (default: rtol)")
      ->check(CLI::PositiveNumber);
  app.add_option("--output-interval", o->interval, "Time between output rows (default: DefaultExperiment stepSize)")
      ->check(CLI::PositiveNumber);
  app.add_option("--jacobian", o->jacobian,
                 "auto (directional if provided), fd (coloured finite differences), directional, or check "
                 "(compare both at the start, then directional)")
      ->check(CLI::IsMember({"auto", "fd", "directional", "check"}));
  app.add_option("--threads", o->threads, "Threads (and FMU instances) for Jacobian evaluation")
      ->check(CLI::Range(1, 1024));
  app.add_option("-o,--output", o->output, "Result CSV file ('-' for stdout)")->capture_default_str();
  app.add_option("--stats", o->stats, "Write the run statistics as JSON to this file");
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
      ->check(CLI::IsMember({"amd", "colamd", "metis"}))
      ->capture_default_str();
  app.add_option("--row-order", o->row_order,
                 "IDA's rows: matched (permuted onto a structural matching: a zero-free diagonal for KLU) or "
                 "declared (the manifest's order of residuals)")
      ->check(CLI::IsMember({"matched", "declared"}))
      ->capture_default_str();
  app.add_option("--max-steps", o->max_steps, "Most IDA steps between two output rows")->capture_default_str();
  app.add_option("--max-step", o->max_step, "Largest IDA step size (0: no limit)");
  app.add_option("--constraints", o->constraints,
                 "Higher-index models and invariants: dummy (dummy derivatives, re-selected at run time), "
                 "project (index-1 formulations, projected back onto the lower-order ones and the invariants "
                 "inside IDA's steps) or none (index-1 formulations only; the drift is measured and reported)")
      ->check(CLI::IsMember({"dummy", "project", "none"}))
      ->capture_default_str();
  app.add_option("--projection-tolerance", o->projection_tolerance,
                 "With --constraints project: project when a constraint exceeds this (default 10·atol)")
      ->check(CLI::PositiveNumber);
  app.add_flag("--no-reselect", o->no_reselect, "Keep the dummy derivatives chosen at the start");
  app.add_flag("--strict", o->strict,
               "Refuse an FMU that breaks any FMI rule `lsdae validate` reports as an error, also those "
               "simulation does not depend on (by default they are warnings)");
  app.add_option("--linear-solver", o->linear_solver,
                 "klu (sparse, the default) or dense (baseline for benchmarks: what dense importers do)")
      ->check(CLI::IsMember({"klu", "dense"}))
      ->group("Benchmark baselines");
  app.add_flag("--no-coloring", o->no_coloring,
               "Evaluate the Jacobian one column at a time (baseline for benchmarks)")
      ->group("Benchmark baselines");
  return [o]() {
    // Ctrl-C stops at the next output point and keeps everything; the
    // extraction folder is removed by the destructors on the way out.
    import::TempDir::set_signal_cleanup(false);
    g_stop_signal.store(0);
    std::signal(SIGINT, on_stop_signal);
    std::signal(SIGTERM, on_stop_signal);
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
    options.jacobian = o->jacobian == "fd"            ? JacobianMode::finite_differences
                       : o->jacobian == "directional" ? JacobianMode::directional
                       : o->jacobian == "check"       ? JacobianMode::check
                                                      : JacobianMode::automatic;
    OpenOptions open;
    open.strict = o->strict;
    auto fmu = Fmu::open(o->path, open);
    auto sim = Simulation::create(fmu, options);
    for (const auto& assignment : o->sets) {
      auto eq = assignment.find('=');
      if (eq == std::string::npos || eq == 0)
        throw Error(ErrorKind::usage, "--set \"" + assignment + "\": expected name=value → e.g. --set k=2.5");
      sim->set(assignment.substr(0, eq), assignment.substr(eq + 1));  // parsed for the variable's type
    }
    if (!o->input.empty()) sim->set_input(o->input);
    std::vector<std::string> patterns;
    for (const auto& list : o->output_vars)
      for (auto& p : simulation::split_output_patterns(list)) patterns.push_back(std::move(p));
    simulation::OutputReader reader(simulation::select_output_channels(*fmu, patterns, o->all));
    const std::vector<std::string> names = reader.names();
    simulation::CsvWriter csv(o->output, names);
    auto record = [&] {
      reader.read(*sim);
      csv.write_row(sim->time(), reader);
    };
    // A row just before and just after every event (same time, two rows).
    double last_event_row = std::nan("");
    sim->observe_events([&](double t, EventPhase phase) {
      record();
      if (phase == EventPhase::after) last_event_row = t;
    });
    const bool show_progress = o->progress && isatty(STDERR_FILENO) && o->output != "-";
    std::string error;
    bool interrupted = false;
    try {
      sim->initialize();
      record();
      const double t0 = sim->start_time(), t1 = sim->stop_time(), dt = sim->output_interval();
      const auto intervals = static_cast<long>(std::ceil((t1 - t0) / dt - 1e-9));
      int last_percent = -1;
      for (long k = 1; k <= intervals; ++k) {
        if (g_stop_signal.load() != 0) {
          interrupted = true;
          break;
        }
        double target = k == intervals ? t1 : t0 + static_cast<double>(k) * dt;
        sim->advance_to(target);
        if (sim->terminated()) {
          if (sim->time() != last_event_row) record();
          std::cerr << "lsdae: the FMU asked to terminate at t = " << format_number(sim->time()) << '\n';
          break;
        }
        if (sim->time() != last_event_row) record();  // an event at an output time already wrote it
        if (show_progress) {
          int percent = static_cast<int>(100.0 * static_cast<double>(k) / static_cast<double>(intervals));
          if (percent != last_percent) {
            last_percent = percent;
            std::string bar(static_cast<std::size_t>(percent / 4), '#');
            std::fprintf(stderr, "\r[%-25s] %3d%%  t = %-12s", bar.c_str(), percent, format_number(sim->time()).c_str());
          }
        }
      }
      if (show_progress) std::fprintf(stderr, "\n");
    } catch (const Error& e) {
      if (show_progress) std::fprintf(stderr, "\n");
      error = e.what();
      write_stats(o->stats, sim.get(), fmu->display_name(), wall(), csv.rows(), false, error);
      throw Error(e.kind(), std::string(e.what()) + "\n  (stopped at t = " + format_number(sim->time()) + "; " +
                                std::to_string(csv.rows()) + " rows kept in " + o->output + ")");
    }
    write_stats(o->stats, sim.get(), fmu->display_name(), wall(), csv.rows(), interrupted, error);
    if (interrupted) {
      std::cerr << "lsdae: interrupted at t = " << format_number(sim->time()) << "; " << csv.rows() << " rows kept in "
                << o->output << '\n';
      return exit_code(ErrorKind::interrupted);
    }
    print_summary(*sim, csv.rows(), o->output);
    return 0;
  };
}

}  // namespace lsdae::cli
