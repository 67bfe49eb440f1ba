// runtime/cli/sweep_command.cpp -- `lsdae sweep model.fmu [scenario source]
// [--metric ...] [--jobs N] [--summary out.csv]`: many runs of one FMU, or of
// a system of FMUs (system.ssp / .ssd: names "component.variable"), one
// summary row each (docs/sweeps.md; the engine: lsdae/sweep.h).
//
// Scenario sources: --scenarios table.csv, --monte-carlo N with --draw and
// --seed, the sources models register (the PowerGrid FMU's --contingencies
// chgtab.m with --case, offered here from the registry lsdae/sweep.h keeps
// and the composition root fills: compose/), and --grid axes (alone, or
// crossed with one of the others). The simulation options are the options
// table's (run/options.h), as for `lsdae simulate`. Every name, value, metric
// and stop condition is checked before the first scenario runs.
//
// The summary (CSV, or HDF5 for a .h5/.hdf5 name: sweep/summary_file.h, the
// writer lsdae_sweep uses too) is written row by row as scenarios finish, so
// a killed sweep keeps its rows; --resume continues one, skipping the ids it
// holds (what a kill cut short is dropped). An existing summary is neither
// overwritten nor appended to without --overwrite or --resume, and neither
// the summary nor a --results-dir file may be an input of the sweep
// (common/output_clash.h: the model, --scenarios, a source's file).
//
// Exit code: 0 when every scenario ran (ok or stopped-early), 12 when the
// sweep ran to its end but some scenario failed, 130 when a signal stopped
// it, and the usual codes (2 usage, 9 output, ...) for what stops it before.
#include <CLI/CLI.hpp>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "cli/commands.h"
#include "cli/option_values.h"
#include "cli/table_options.h"
#include "common/format.h"
#include "common/output_clash.h"
#include "import/temp_dir.h"
#include "lsdae/error.h"
#include "lsdae/supervise.h"
#include "lsdae/sweep.h"
#include "results/result_writer.h"
#include "run/model_files.h"
#include "run/open_model.h"
#include "run/options.h"
#include "simulation/output_channels.h"
#include "sweep/scenario_sources.h"
#include "sweep/summary_file.h"
#include "sweep/sweep_report.h"
#ifdef LSDAE_HAVE_MPI
#include "sweep/mpi_scheduler.h"
#include "sweep/stretch_queue.h"
#endif

namespace lsdae::cli {

namespace {

// An option of a registered scenario source (lsdae/sweep.h), as given.
struct SourceOption {
  std::string source, name;
  std::string text;
  bool flag = false;
  CLI::Option* option = nullptr;
};

struct SweepCliOptions {
  std::string path;
  std::string scenarios;
  std::vector<std::string> grid, draws, sets, metrics, stop_when;
  std::int64_t monte_carlo = 0;
  std::uint64_t seed = 1;
  std::vector<std::unique_ptr<SourceOption>> source_options;
  std::string settle;
  std::shared_ptr<TableOptions> table;  // the simulation options of the options table (run/options.h)
  std::string summary = "sweep-summary.csv";
  bool resume = false, overwrite = false;
  std::size_t jobs = 1;
  bool no_isolate = false;
  bool no_reuse = false;
  bool no_shared_stretches = false;
  double scenario_timeout = 0;
  bool progress = true;
  std::string results_dir, results_format = "csv";
  std::vector<std::string> output_vars;
};

[[noreturn]] void refuse(const std::string& message) { throw Error(ErrorKind::usage, message); }

// The scenarios of the options (sweep/scenario_sources.h make_scenarios); the
// change-table entries that are not single branch outages are listed.
std::vector<sweep::Scenario> build_scenarios(const SweepCliOptions& o, const Model& model,
                                             std::optional<double>& settle_from,
                                             std::optional<sweep::OutcomeLabel>& outcome) {
  sweep::ScenarioSourceSpec spec;
  spec.table = o.scenarios;
  spec.grid = o.grid;
  spec.monte_carlo = o.monte_carlo;
  spec.draws = o.draws;
  spec.seed = o.seed;
  for (const auto& given : o.source_options) {
    if (given->option->count() == 0) continue;
    auto it = std::find_if(spec.sources.begin(), spec.sources.end(), [&](const auto& s) { return s.first == given->source; });
    if (it == spec.sources.end()) it = spec.sources.insert(spec.sources.end(), {given->source, {}});
    it->second.emplace_back(given->name, given->flag ? "1" : given->text);
  }
  sweep::ScenarioList list = sweep::make_scenarios(spec, model);
  if (!list.skipped.empty()) {
    std::cerr << "lsdae: note: --" << list.skipped_by << ": " << count_of(list.skipped.size(), "entry", "entries")
              << " skipped (only single branch outages are swept):\n";
    for (std::size_t i = 0; i < list.skipped.size() && i < 5; ++i) std::cerr << "  " << list.skipped[i] << '\n';
    if (list.skipped.size() > 5) std::cerr << "  ... and " << list.skipped.size() - 5 << " more\n";
  }
  settle_from = list.settle_from;
  outcome = list.outcome;
  return std::move(list.scenarios);
}

class Progress {
 public:
  Progress(std::size_t total, bool enabled) : total_(total), tty_(enabled && isatty(STDERR_FILENO) != 0),
                                               enabled_(enabled), start_(std::chrono::steady_clock::now()) {}
  void update(const sweep::SweepOutcome& o, bool last = false) {
    if (!enabled_) return;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const std::string counts = std::to_string(o.ran) + "/" + std::to_string(total_) + " scenarios: " +
                               std::to_string(o.ok) + " ok, " + std::to_string(o.stopped_early) +
                               " stopped early, " + std::to_string(o.failed) + " failed";
    if (tty_) {
      const int width = 25;
      const int filled = total_ == 0 ? width : static_cast<int>(width * o.ran / total_);
      std::fprintf(stderr, "\r[%-*s] %s  %s s", width, std::string(static_cast<std::size_t>(filled), '#').c_str(),
                   counts.c_str(), format_number(elapsed).c_str());
      if (last) std::fprintf(stderr, "\n");
    } else if (!last && elapsed - last_line_ >= 10.0) {
      last_line_ = elapsed;
      std::fprintf(stderr, "lsdae: sweep: %s (%s s)\n", counts.c_str(), format_number(elapsed).c_str());
    }
  }

 private:
  std::size_t total_;
  bool tty_, enabled_;
  std::chrono::steady_clock::time_point start_;
  double last_line_ = 0;
};

// --results-dir: each scenario's rows (the sampled points: the output grid
// and both sides of every event, as `lsdae simulate` writes them) in
// DIR/<id>.<ext>, written by the process that runs the scenario.
class ResultFileObserver final : public sweep::ScenarioObserver {
 public:
  ResultFileObserver(std::filesystem::path path, results::ResultFormat format,
                     const std::vector<simulation::OutputChannel>& channels, std::string model)
      : path_(std::move(path)), format_(format), reader_(channels), model_(std::move(model)) {}
  void started(Simulation&) override {
    results::WriterOptions options;
    options.model_name = model_;
    writer_ = results::open_result_writer(format_, path_, simulation::result_columns(reader_.channels()), options);
  }
  void sampled(Simulation& sim, int phase) override {
    reader_.read(sim);
    writer_->write_row(sim.time(), reader_, static_cast<results::RowKind>(phase));
  }
  void finished(const sweep::SummaryRow&) override {
    if (writer_) writer_->finish("");
  }

 private:
  std::filesystem::path path_;
  results::ResultFormat format_;
  simulation::OutputReader reader_;
  std::string model_;
  std::unique_ptr<results::ResultWriter> writer_;
};

// A scenario id as a file name: characters other than letters, digits, '.',
// '-' and '_' become '_'.
// The report finds the files by the same name (sweep/sweep_report.h).
std::string file_name_of(const std::string& id) { return sweep::result_file_stem(id); }

// What a sweep reads, which no output may name: the model (run/model_files.h),
// the --scenarios table, and the files a scenario source's options name
// (--contingencies, --case: any given value that is an existing file).
std::vector<files::ReadPath> sweep_inputs(const SweepCliOptions& o, const Model& model) {
  std::vector<files::ReadPath> inputs = run::model_files(model, o.path, "the model being swept");
  if (!o.scenarios.empty()) inputs.push_back({o.scenarios, "the --scenarios table"});
  for (const auto& given : o.source_options) {
    std::error_code ec;
    if (given->option->count() > 0 && !given->flag && std::filesystem::is_regular_file(given->text, ec))
      inputs.push_back({given->text, "the --" + given->name + " file"});
  }
  return inputs;
}

int run_sweep_command(const SweepCliOptions& o) {
#ifdef LSDAE_HAVE_MPI
  // Under mpirun (sweep/mpi_scheduler.h): every rank reads the FMU and makes
  // the same scenario list; rank 0 hands scenarios out and writes the
  // summary. Without a launcher no MPI call is made (one rank).
  sweep::MpiSession mpi;
  const bool distributed = mpi.size() > 1;
  const bool coordinator = mpi.coordinator();
#else
  [[maybe_unused]] const bool distributed = false;
  const bool coordinator = true;
#endif
  import::TempDir::set_signal_cleanup(false);
  StopSignals stop_signals;
  sweep::SweepOptions options;
  const run::RunSettings settings = o.table->settings("sweep ");
  options.simulation = settings.simulation;
  options.check_jacobian = settings.check_jacobian;
  for (const auto& assignment : o.sets) {
    const auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
      refuse("--set \"" + assignment + "\": expected name=value → e.g. --set k=2.5");
    options.sets.emplace_back(assignment.substr(0, eq), assignment.substr(eq + 1));
  }
  options.metrics = o.metrics;
  options.stop_when = o.stop_when;
  options.jobs = o.jobs;
  options.isolate = !o.no_isolate;
  options.reuse = !o.no_reuse;
  options.share_stretches = !o.no_shared_stretches;
  options.scenario_timeout = o.scenario_timeout;

  // An .ssp or .ssd is a system of FMUs (lsdae/system.h), opened as
  // `lsdae simulate` opens it (run/open_model.h); the binaries are loaded only
  // by whoever runs the scenarios (the workers, after the fork).
  const run::OpenedModel opened = run::open_model(o.path);
  for (const auto& folder : opened.unpacked) StopSignals::remove_on_abort(folder);
  const std::shared_ptr<Fmu>& fmu = opened.fmu;
  const std::shared_ptr<const Model>& model = opened.model;
  std::error_code ec;
  std::optional<double> settle_from;
  const std::vector<sweep::Scenario> scenarios = build_scenarios(o, *model, settle_from, options.outcome);
  // Rows the source labels (islanded), and failures at an impasse point
  // (sweep_report.h: collapsed), counted for the last line.
  std::size_t labelled = 0, collapsed = 0;
  auto count_label = [&](const sweep::SummaryRow& row) {
    if (options.outcome && row.message.rfind(options.outcome->label + ":", 0) == 0) ++labelled;
    if (sweep::outcome_of(row) == sweep::Outcome::collapsed) ++collapsed;
  };
  std::vector<sweep::Scenario> common{{"common", options.sets}};
  sweep::check_names(model->model_description(), common, "--set");
  if (!o.settle.empty()) {
    std::vector<double> v;
    std::stringstream list(o.settle);
    for (std::string item; std::getline(list, item, ',');) {
      char* end = nullptr;
      const double x = std::strtod(item.c_str(), &end);
      if (item.empty() || *end != '\0' || !std::isfinite(x))
        refuse("--settle \"" + o.settle + "\": \"" + item + "\" is not a finite number → e.g. --settle 1e-4,1");
      v.push_back(x);
    }
    if (v.size() < 2 || v.size() > 3)
      refuse("--settle \"" + o.settle + "\": expected TOL,DURATION[,FROM] → e.g. --settle 1e-4,1 (all derivatives "
             "below 1e-4 for 1 s)");
    options.settle = sweep::Settle{v[0], v[1], v.size() == 3 ? std::optional<double>(v[2]) : settle_from};
  }
  auto plan = fmu ? sweep::SweepPlan::compile(fmu, options) : sweep::SweepPlan::compile(model, options);

  // The summary: refuse to lose an earlier sweep's rows by accident.
  std::set<std::string> finished;
  const bool exists = coordinator && std::filesystem::exists(o.summary, ec);
#ifdef LSDAE_HAVE_MPI
  // What only rank 0 can find wrong (its summary file) would leave the other
  // ranks waiting for scenarios: say it and end the whole job.
  auto refuse_on_coordinator = [&](const std::function<void()>& check) {
    if (!distributed) return check();
    try {
      check();
    } catch (const Error& e) {
      std::cerr << "lsdae: error: " << e.what() << '\n';
      mpi.abort(exit_code(e.kind()));
    }
  };
#else
  auto refuse_on_coordinator = [](const std::function<void()>& check) { check(); };
#endif
  // What the sweep writes: the summary, and with --results-dir one file per scenario.
  const std::string results_ext = o.results_format == "hdf5" ? ".h5" : "." + o.results_format;
  std::vector<files::WritePath> outputs{{"--summary", o.summary, "--summary sweep-summary.csv"}};
  if (coordinator && !o.results_dir.empty())
    for (const auto& s : scenarios)
      outputs.push_back({"--results-dir", (std::filesystem::path(o.results_dir) / (file_name_of(s.id) + results_ext)).string(),
                         "--results-dir results"});
  // The summary (CSV or HDF5 by the extension: sweep/summary_file.h), on
  // rank 0 only; its rows are written as the scenarios finish.
  std::unique_ptr<sweep::SummaryFile> summary;
  refuse_on_coordinator([&] {
    if (!coordinator) return;
    // No output may be an input (common/output_clash.h): --overwrite (or
    // --resume) of the model, of a file of an unpacked FMU folder, of the
    // --scenarios table or a source's file (--contingencies, --case) would
    // destroy it, as would a scenario's --results-dir file named like one.
    if (const std::string clash = files::output_over_input(outputs, sweep_inputs(o, *model)); !clash.empty())
      refuse(clash);
    if (const auto pair = files::same_output(outputs); pair && pair->first == 0)
      refuse("--summary \"" + o.summary + "\" and --results-dir \"" + o.results_dir + "\" both name \"" +
             outputs[pair->second].path + "\" → give the summary a file outside the results folder, e.g. --summary "
             "sweep-summary.csv");
    if (exists && !o.resume && !o.overwrite)
      refuse("--summary \"" + o.summary + "\" exists → --resume to continue that sweep, --overwrite to start again, "
             "or choose another --summary file");
    summary = sweep::open_summary(o.summary, options.metrics, o.resume, model->display_name());
    finished = summary->finished();
  });
  std::string write_error;
  auto append = [&](const sweep::SummaryRow& row) {
    if (!write_error.empty() || !summary) return;
    try {
      summary->append(row);
    } catch (const Error& e) {
      write_error = e.what();
    }
  };

  sweep::ObserverFactory observe;
  if (!o.results_dir.empty()) {
    const std::string& ext = results_ext;
    const auto format = results::result_format_for("x" + ext, o.results_format);
    std::vector<std::string> patterns;
    for (const auto& list : o.output_vars)
      for (auto& p : simulation::split_output_patterns(list)) patterns.push_back(std::move(p));
    const auto channels = simulation::select_output_channels(*model, patterns, false);
    std::filesystem::create_directories(o.results_dir, ec);
    if (ec || !std::filesystem::is_directory(o.results_dir))
      throw Error(ErrorKind::output, "--results-dir \"" + o.results_dir + "\": cannot be created (" +
                                         ec.message() + ") → give a folder you can write to");
    std::map<std::string, std::string> names;
    for (const auto& s : scenarios) {
      auto [it, inserted] = names.emplace(file_name_of(s.id), s.id);
      if (!inserted)
        refuse("--results-dir: scenario ids \"" + it->second + "\" and \"" + s.id + "\" give the same file name \"" +
               it->first + ext + "\" → give the scenarios ids that differ in letters, digits, '.', '-' or '_'");
    }
    const std::filesystem::path dir = o.results_dir;
    const std::string model_name = model->display_name();
    observe = [dir, ext, format, channels, model_name](const sweep::Scenario& s) -> std::unique_ptr<sweep::ScenarioObserver> {
      return std::make_unique<ResultFileObserver>(dir / (file_name_of(s.id) + ext), format, channels, model_name);
    };
  } else if (!o.output_vars.empty()) {
    refuse("--output-vars: only with --results-dir DIR (the summary's columns are the --metric options)");
  }

  const std::vector<std::size_t> todo = sweep::unfinished(scenarios, finished);
  if (!finished.empty() && coordinator)
    std::cerr << "lsdae: sweep: resuming: " << count_of(scenarios.size() - todo.size(), "scenario")
              << " already in " << o.summary << ", " << todo.size() << " to run\n";
  Progress progress(todo.size(), o.progress && coordinator);
  sweep::SweepOutcome outcome;
  std::string reuse_detail;  // MPI: the models made on each rank
#ifdef LSDAE_HAVE_MPI
  if (distributed) {
    // One task per scenario not yet in the summary, run by this rank's
    // ScenarioWorker: one watched worker process per rank for the whole
    // sweep (as --jobs 1), the model made once and reset between scenarios
    // (--no-reuse: made for each); a crashing FMU costs its scenario a
    // failed row and the worker, not the rank. Its row goes to rank 0 as a
    // CSV record. Tasks are scenario indices (the same list on every rank);
    // rank 0 alone knows which are already in the summary (resume).
    if (coordinator && o.jobs > 1)
      std::cerr << "lsdae: note: --jobs " << o.jobs << " is not used under MPI: each rank runs one scenario at a "
                << "time → start more ranks (mpirun -np N) instead\n";
    sweep::ScenarioWorker worker(*plan, scenarios, observe);
    auto run_task = [&](std::size_t task) {
      const std::optional<sweep::SummaryRow> row = worker.run(task);
      sweep::TaskOutcome t;
      if (!row) t.abandoned = true;  // a stop signal: no row, --resume runs it again
      else t = sweep::TaskOutcome{row->status == sweep::Status::failed, false, row->to_csv()};
      return t;
    };
    auto on_row = [&](std::size_t, int, const sweep::TaskOutcome& t) {
      const auto row = sweep::SummaryRow::from_csv(t.row, options.metrics.size());
      append(row);
      count_label(row);
      if (row.status == sweep::Status::ok) ++outcome.ok;
      else if (row.status == sweep::Status::stopped_early) ++outcome.stopped_early;
      else ++outcome.failed;
      ++outcome.ran;
      progress.update(outcome);
    };
    sweep::ScheduleOptions schedule;
    schedule.failure_row = [&](std::size_t task, const std::string& message) {
      sweep::SummaryRow row;
      row.id = scenarios.at(task).id;
      row.message = message;
      row.metrics.assign(options.metrics.size(), std::nullopt);
      return row.to_csv();
    };
    schedule.already_done = [&](std::size_t task) { return finished.count(scenarios.at(task).id) != 0; };
    schedule.stop_requested = [] { return StopSignals::received() != 0; };
    // A rank keeps to the outages of one shared stretch (stretch_queue.h).
    if (options.share_stretches)
      schedule.task_group = [&](std::size_t task) { return sweep::deepest_stretch_key(scenarios.at(task)); };
    // What the rank's worker did, for rank 0's reuse line: "ran models processes".
    schedule.farewell = [&] {
      const sweep::SweepOutcome& w = worker.outcome();
      return std::to_string(w.ran) + " " + std::to_string(w.models_made) + " " + std::to_string(w.processes);
    };
    const sweep::ScheduleSummary done = sweep::run_schedule(mpi, scenarios.size(), run_task, on_row, schedule);
    outcome.interrupted = done.interrupted;
    if (coordinator) {
      std::string per_rank;
      for (std::size_t r = 0; r < done.farewells.size(); ++r) {
        std::istringstream words(done.farewells[r]);
        std::size_t ran = 0, models = 0, processes = 0;
        words >> ran >> models >> processes;
        outcome.models_made += models;
        outcome.processes += processes;
        per_rank += (r == 0 ? "" : ", ") + std::string("rank ") + std::to_string(r) + ": " + std::to_string(ran) +
                    " on " + count_of(models, "model");
      }
      reuse_detail = " (" + per_rank + ")";
    }
    if (!coordinator) return 0;  // rank 0 reports for the whole job
  } else
#endif
  if (!todo.empty())
    outcome = sweep::run_sweep(*plan, scenarios, [&](std::size_t, const sweep::SummaryRow& row) {
      append(row);
      count_label(row);
      if (row.status == sweep::Status::ok) ++outcome.ok;
      else if (row.status == sweep::Status::stopped_early) ++outcome.stopped_early;
      else ++outcome.failed;
      ++outcome.ran;
      progress.update(outcome);
    }, todo, observe);
  progress.update(outcome, true);
  if (!write_error.empty()) throw Error(ErrorKind::output, write_error);
  if (outcome.interrupted) {
    std::cerr << "lsdae: sweep interrupted: " << count_of(outcome.ran, "scenario") << " of " << todo.size()
              << " kept in " << o.summary << " → --resume continues it\n";
    return exit_code(ErrorKind::interrupted);
  }
  std::cerr << "lsdae: sweep: " << count_of(outcome.ran, "scenario") << ": " << outcome.ok << " ok, "
            << outcome.stopped_early << " stopped early, " << outcome.failed << " failed"
            << (options.outcome ? " (" + std::to_string(labelled) + " of them " + options.outcome->label + ")" : "")
            << (collapsed > 0 ? " (" + std::to_string(collapsed) + " of them collapsed: " + sweep::kImpasseWords + ")"
                              : "")
            << "; summary in " << o.summary << '\n';
  // Reuse, counted: with it one model per worker process (more when a worker
  // was replaced after a crash); with --no-reuse one per scenario.
  if (outcome.ran > 0)
    std::cerr << "lsdae: sweep: " << count_of(outcome.models_made, "model") << " made for "
              << count_of(outcome.ran, "scenario")
              << (outcome.processes > 0 ? " in " + count_of(outcome.processes, "worker process", "worker processes")
                                        : std::string(" without worker processes (--no-isolate)"))
              << reuse_detail << '\n';
  return outcome.failed > 0 ? sweep::kExitScenariosFailed : 0;
}

}  // namespace

Runner add_sweep_command(CLI::App& app) {
  auto o = std::make_shared<SweepCliOptions>();
  const double inf = std::numeric_limits<double>::infinity();
  app.add_option("fmu", o->path,
                 "The .fmu file (or an unpacked FMU folder), or a system of FMUs (.ssp, .ssd: names component.variable)")
      ->required();
  app.add_option("--scenarios", o->scenarios,
                 "CSV table: one scenario per row, columns are variable names (and an optional id)")
      ->type_name("CSV")->group("Scenarios");
  app.add_option("--grid", o->grid, "A full factorial axis name=v1,v2,... (repeatable; crossed with the other source)")
      ->type_name("NAME=V1,V2")->group("Scenarios");
  app.add_option("--monte-carlo", o->monte_carlo, "Number of Monte Carlo scenarios (with --draw)")
      ->type_name("N")
      ->transform(count_value(1, 100000000, "the number of Monte Carlo scenarios", "--monte-carlo 100"))
      ->group("Scenarios");
  app.add_option("--draw", o->draws,
                 "A random parameter: name=uniform(lo,hi) or name=normal(mean,sd[,lo,hi]) (repeatable)")
      ->type_name("SPEC")->group("Scenarios");
  app.add_option("--seed", o->seed, "Monte Carlo seed: scenario k's draws depend only on it and k")
      ->transform(count_value(0, std::numeric_limits<std::int64_t>::max(), "the seed", "--seed 42"))
      ->capture_default_str()->group("Scenarios");
  // The options of the scenario sources models register (the PowerGrid FMU's
  // --contingencies and what goes with it), installed in the registry by the
  // program's composition root (compose/lsdae_main.cpp) before it parses.
  for (const sweep::ScenarioSource& source : sweep::scenario_sources())
    for (const sweep::ScenarioSourceOption& option : source.options) {
      auto given = std::make_unique<SourceOption>();
      given->source = source.name;
      given->name = option.name;
      const std::string flag = "--" + option.name;
      if (option.kind == sweep::ScenarioSourceOption::Kind::flag) {
        given->option = app.add_flag(flag, given->flag, option.help);
      } else {
        given->option = app.add_option(flag, given->text, option.help)->type_name(option.value_name);
        if (option.kind == sweep::ScenarioSourceOption::Kind::number)
          given->option->check(real_value({option.low, option.high, option.low_inclusive, option.high_inclusive,
                                           option.meaning, option.example}));
      }
      given->option->group("Scenarios");
      o->source_options.push_back(std::move(given));
    }
  app.add_option("--set", o->sets, "A value for every scenario: name=value (repeatable; a scenario's own wins)");
  app.add_option("--metric", o->metrics,
                 "STAT:SELECTOR, STAT min, max, final, tmax or tmin (STAT@FROM: the samples at t >= FROM only); "
                 "SELECTOR a name, hypot(A,B), min|max|mean|spread|maxdev(GLOB) or mean|maxdev(GLOB,WEIGHTS) "
                 "(repeatable), e.g. 'max:maxdev(gen[*].delta)', 'min@1.2:min(hypot(bus[*].Vr,bus[*].Vi))'")
      ->group("Summary");
  app.add_option("--stop-when", o->stop_when,
                 "End a scenario early (stopped-early) when SELECTOR OP NUMBER holds, e.g. 'maxdev(gen[*].delta) > 3.14159' "
                 "(repeatable)")
      ->group("Summary");
  app.add_option("--settle", o->settle,
                 "End a scenario early when every derivative stays below TOL for DURATION s (from FROM; contingencies: "
                 "from the clearing time)")
      ->type_name("TOL,DURATION[,FROM]")->group("Summary");
  app.add_option("--summary", o->summary,
                 "Summary, one row per scenario, written as they finish: CSV, or HDF5 for a .h5/.hdf5 name")
      ->capture_default_str()->group("Summary");
  app.add_flag("--resume", o->resume, "Continue the sweep of an existing --summary: skip the ids it holds")
      ->group("Summary");
  app.add_flag("--overwrite", o->overwrite, "Replace an existing --summary")->group("Summary");
  app.add_option("--results-dir", o->results_dir,
                 "Also write each scenario's result file, DIR/<id>.csv (or .h5, .mat): the rows lsdae simulate writes")
      ->type_name("DIR")->group("Summary");
  app.add_option("--results-format", o->results_format, "Format of the --results-dir files: csv, hdf5 or mat")
      ->check(one_of({"csv", "hdf5", "mat"}))->capture_default_str()->group("Summary");
  app.add_option("--output-vars", o->output_vars,
                 "Variables in the --results-dir files: names or globs, comma-separated (default: outputs and states)")
      ->group("Summary");
  app.add_option("--jobs", o->jobs, "Worker processes, 1 to 1024")
      ->type_name("N")->transform(count_value(1, 1024, "the number of jobs", "--jobs 2"))->capture_default_str();
  app.add_option("--scenario-timeout", o->scenario_timeout, "Seconds one scenario may take (0: no limit)")
      ->type_name("SECONDS")
      ->check(real_value({0.0, inf, true, true, "the per-scenario time limit", "--scenario-timeout 60"}));
  app.add_flag("--no-isolate", o->no_isolate, "Run the scenarios in this process, one at a time (debugging)");
  app.add_flag("--no-reuse", o->no_reuse,
               "A new model instance (binary, structural analysis, instances) for every scenario instead of one "
               "per worker reset between scenarios: the same rows, slower (for comparison)");
  app.add_flag("--no-shared-stretches", o->no_shared_stretches,
               "Run every scenario from its start, also where a scenario source says scenarios share their "
               "start (contingencies: the pre-fault run, the fault-on run per bus): the same rows, slower (for "
               "comparison; docs/sweeps.md, \"Shared stretches\")");
  app.add_flag("!--no-progress", o->progress, "No progress bar or progress lines on stderr");
  // Every simulation option of the options table, as `lsdae simulate` has them.
  o->table = std::make_shared<TableOptions>(app, run::category::simulation);
  return [o]() { return run_sweep_command(*o); };
}

}  // namespace lsdae::cli
