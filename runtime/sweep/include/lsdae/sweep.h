// lsdae/sweep.h -- run many scenarios of one model (parameter sweeps, Monte
// Carlo, N-1 contingencies) and summarise each in one row. The model is one
// FMU (lsdae::Fmu) or a system of FMUs (lsdae::System, lsdae/system.h: names
// "component.variable"); both run the same way.
//
//   auto fmu = lsdae::Fmu::open("PowerGrid_case39.fmu");
//   lsdae::sweep::SweepOptions options;
//   options.metrics = {"max:maxdev(gen[*].delta)", "min:min(bus[*].Vr)"};
//   options.stop_when = {"maxdev(gen[*].delta) > 3.14159"};
//   options.jobs = 2;
//   auto plan = lsdae::sweep::SweepPlan::compile(fmu, options);   // checks every name and metric
//   std::vector<lsdae::sweep::Scenario> scenarios = ...;             // sweep/scenario_sources.h, or a source below
//   lsdae::sweep::run_sweep(plan, scenarios, [](std::size_t k, const lsdae::sweep::SummaryRow& row) {
//     std::cout << row.to_csv() << '\n';                              // in the order they finish
//   });
//   // or one at a time, in this process (a pipeline's own loop), the model
//   // kept from one scenario to the next (ScenarioRunner: runtime/sweep/
//   // scenario_runner.h, installed as lsdae/sweep/scenario_runner.h):
//   lsdae::sweep::ScenarioRunner runner(*plan);
//   for (const auto& s : scenarios) rows.push_back(lsdae::sweep::run_scenario(*plan, s, runner));
//
// The contract:
// - run_scenario takes a Simulation (from `runner`: the one of the previous
//   scenario, reset(), unless SweepOptions::reuse is false or the reset
//   failed; without a runner a new one), applies the common sets then the
//   scenario's, initialises and integrates over the output grid of `lsdae
//   simulate` (start, start + k·interval, stop) plus the points just before
//   and after every event. Metrics and stop conditions are evaluated at each
//   of these points, so a metric equals what the same computation over
//   `lsdae simulate`'s default result rows gives, exactly. It never throws for
//   a scenario's own failure: the row says status failed and the message;
//   the metrics keep what was computed up to there. A row does not depend
//   on whether the Simulation was reused (Simulation::reset's contract),
//   except for its wall time.
// - Early termination: a --stop-when condition true at a point, or the
//   settle test (every continuous-state derivative below tol in magnitude at
//   every point over `duration`, counted from `from`; reset by events), ends
//   the scenario at the next output point: status stopped_early and the
//   reason.
// - run_sweep runs the scenarios in `jobs` worker processes forked from this
//   one (SweepOptions::isolate; call it before any FMU binary is loaded or
//   OpenMP runs here: lsdae/supervise.h), each opening its Simulation from
//   the shared, already unpacked Fmu, so an FMU that may be instantiated once
//   per process is fine. Each worker (or this process, not isolated) keeps
//   one ScenarioRunner for all the scenarios it runs: the binary loaded, the
//   structural analysis and the instances made once per worker, reset
//   between scenarios (SweepOptions::reuse = false: a new Simulation for
//   every scenario, the baseline to compare with). A worker that crashes or passes the per-scenario
//   time limit is killed and replaced; its scenario gets a failed row saying
//   so, and the sweep goes on. Rows are delivered to the callback as they
//   finish (any order); the rows themselves do not depend on the number of
//   jobs. A stop signal (StopSignals) ends the sweep: running scenarios are
//   abandoned without a row (a --resume runs them again).
// - Rows serialise to one CSV record and back (to_csv, from_csv) exactly:
//   numbers in the shortest text that reads back to the same double.
// - A scenario runs through the run layer's loop (runtime/run/run_loop.h),
//   as `lsdae simulate` runs: the same points, the same --jacobian check.
// - Scenario sources a model brings with it (the MATPOWER contingencies of
//   the PowerGrid FMU: models/powergrid/scenarios/) register themselves by
//   name (register_scenario_source) with the options that select and shape
//   them; the generic sweep knows them only through this interface, and the
//   front doors offer their options (`lsdae sweep --contingencies ...`).
//
// This header includes only public headers (lsdae/*.h).
#ifndef LSDAE_SWEEP_H
#define LSDAE_SWEEP_H

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <limits>
#include <utility>

#include "lsdae/fmu.h"
#include "lsdae/model.h"
#include "lsdae/simulation.h"

namespace lsdae::sweep {

// One scenario of a sweep: an id and the values set (by name, as text,
// parsed for the variable's type by Simulation::set) on top of the settings
// every scenario shares. The id names the scenario in the summary (and in
// --resume); it is unique within a sweep. The sets are applied in order after
// the sweep's common --set values, so a scenario's value wins.
//
// Shared stretches (optional; docs/sweeps.md, "Shared stretches"): a source
// that knows its model may say that the scenario is also the run that starts
// with `shared_sets` (instead of `sets`) and, at the event at stages[j].at,
// sets stages[j].sets in Event Mode (the variables must be settable there:
// tunable parameters), and that this run's rows equal those of `sets` -- for
// the PowerGrid FMU the pre-fault run does not depend on the fault bus, nor
// the fault-on run on the tripped branch. Scenarios with the same
// shared_sets and the same first j stages then share their run up to the
// event of stage j: a sweep computes it once and starts each of them from a
// snapshot there (Simulation::snapshot), when the model can be snapshot and
// no observer (--results-dir) reads the rows; otherwise, and for a scenario
// whose staged run fails or ends before a stage, it runs `sets` from the start.
struct ScenarioStage {
  double at = 0;                                          // the event's time
  std::vector<std::pair<std::string, std::string>> sets = {};  // set in its Event Mode
};
struct Scenario {
  std::string id;
  std::vector<std::pair<std::string, std::string>> sets;  // name → text value
  std::vector<std::pair<std::string, std::string>> shared_sets = {};  // with stages: the run's start
  std::vector<ScenarioStage> stages = {};                             // in time order; empty: no sharing
};

// Exit code of `lsdae sweep` when the sweep ran to its end but at least one
// scenario failed (README "Exit codes").
inline constexpr int kExitScenariosFailed = 12;

struct Settle {
  double tol = 0, duration = 0;
  std::optional<double> from;  // default: the start time
};

// A label for the rows whose run ends with `indicator` > 0 (a scenario
// source's, e.g. the PsseGrid FMU's islands): the row keeps its status and its
// message begins "<label>: <amount> = <value> <unit> (<indicator> = <value>)",
// e.g. "islanded: islands.lost_load = 153.2 MW (islands.dead_buses = 2)".
struct OutcomeLabel {
  std::string label, indicator, amount, unit;
};

struct SweepOptions {
  SimulationOptions simulation;
  std::optional<OutcomeLabel> outcome;  // from the scenario source (SourceScenarios::outcome)
  bool check_jacobian = false;         // --jacobian check: compared at each scenario's start (logged)
  std::vector<std::pair<std::string, std::string>> sets;  // common to every scenario
  std::vector<std::string> metrics;    // "STAT:SELECTOR", e.g. "max:gen[1].delta" (see docs/sweeps.md)
  std::vector<std::string> stop_when;  // "SELECTOR OP NUMBER", e.g. "maxdev(gen[*].delta) > 3.14159"
  std::optional<Settle> settle;
  std::size_t jobs = 1;
  bool isolate = true;                 // worker processes; false: in this process, one at a time
  double scenario_timeout = 0;         // seconds per scenario (isolated only); 0: none
  bool reuse = true;                   // one Simulation per worker, reset between scenarios
  bool share_stretches = true;         // scenarios with stages start from kept snapshots (Scenario)
};

enum class Status { ok, stopped_early, failed };
const char* to_string(Status status) noexcept;

struct SummaryRow {
  std::string id;
  Status status = Status::failed;
  std::string message;                         // failed: the error; stopped_early: the reason
  std::optional<double> reached_time;
  long steps = 0;
  double wall_time = 0;                        // seconds
  std::vector<std::optional<double>> metrics;  // empty when never evaluated (NaN: no finite sample)

  std::string to_csv() const;  // one record, no line break (message quoted when needed)
  // Error(usage) when `record` is not a row of `metric_count` metrics.
  static SummaryRow from_csv(const std::string& record, std::size_t metric_count);
};
// "id,status,message,reached_time,steps,wall_time_s,<metric>..."
std::vector<std::string> summary_header(const std::vector<std::string>& metrics);

struct CompiledChecks;  // metrics, stop conditions, settle: runtime/sweep/metrics.h

class SweepPlan {
 public:
  // Checks the metric and stop expressions and their variable names against
  // the model (Error(usage), naming the option, the text and what to do).
  static std::shared_ptr<const SweepPlan> compile(std::shared_ptr<const Model> model, const SweepOptions& options);
  // The same for one FMU (fmu() then gives it).
  static std::shared_ptr<const SweepPlan> compile(std::shared_ptr<Fmu> fmu, const SweepOptions& options);
  ~SweepPlan();
  const SweepOptions& options() const { return options_; }
  // The model every scenario runs: an Fmu or a System.
  const std::shared_ptr<const Model>& model() const { return model_; }
  // The model as an FMU; null when it is a system of FMUs.
  const std::shared_ptr<Fmu>& fmu() const { return fmu_; }
  const CompiledChecks& checks() const { return *checks_; }
  std::vector<std::string> header() const { return summary_header(options_.metrics); }

 private:
  SweepPlan() = default;
  SweepOptions options_;
  std::shared_ptr<const Model> model_;
  std::shared_ptr<Fmu> fmu_;
  std::unique_ptr<CompiledChecks> checks_;
};

// Called with each finished row (in this process) and the scenario's index.
using RowSink = std::function<void(std::size_t index, const SummaryRow& row)>;

// Watches one scenario as it runs, in the process that runs it (e.g. writes
// its result file). What it throws (lsdae::Error) makes the scenario failed
// with that message.
class ScenarioObserver {
 public:
  virtual ~ScenarioObserver() = default;
  // After create() and the sets, before initialize().
  virtual void started(Simulation& /*sim*/) {}
  // At every sampled point (the metrics' points), sim at that point: phase 0
  // an output point, 1 just before an event, 2 just after it.
  virtual void sampled(Simulation& /*sim*/, int /*phase*/) {}
  // Once, at the end, whatever the status.
  virtual void finished(const SummaryRow& /*row*/) {}
};
using ObserverFactory = std::function<std::unique_ptr<ScenarioObserver>(const Scenario& scenario)>;

class ScenarioRunner;  // runtime/sweep/scenario_runner.h (installed as lsdae/sweep/scenario_runner.h)

// One scenario on the runner's Simulation (made for `plan`: ScenarioRunner(plan)).
SummaryRow run_scenario(const SweepPlan& plan, const Scenario& scenario, ScenarioRunner& runner,
                        const ObserverFactory& observe = {});
// One scenario on a new Simulation.
SummaryRow run_scenario(const SweepPlan& plan, const Scenario& scenario, const ObserverFactory& observe = {});

struct SweepOutcome {
  std::size_t ran = 0, ok = 0, stopped_early = 0, failed = 0;
  bool interrupted = false;  // a stop signal ended it
  // Reuse, counted: models made (Simulation::create: binary loaded,
  // structural analysis, instances) and worker processes started. With
  // reuse, one model per worker process (more when a worker was replaced or
  // a reset failed); without, one per scenario.
  std::size_t models_made = 0, processes = 0;
};
// Runs scenarios[i] for every i in `indices` (all when empty).
SweepOutcome run_sweep(const SweepPlan& plan, const std::vector<Scenario>& scenarios, const RowSink& sink,
                       const std::vector<std::size_t>& indices = {}, const ObserverFactory& observe = {});

// Scenarios one at a time, chosen by the caller as it goes (an MPI rank's
// share of a sweep, sweep/mpi_scheduler.h): the worker of run_sweep with
// jobs = 1, kept from one run() to the next. Isolated (SweepOptions::isolate),
// one watched worker process, started at the first run() and kept: its
// ScenarioRunner reuses the model across the scenarios it runs. A crash, an
// exit() or the per-scenario time limit costs that scenario a failed row (the
// same messages as run_sweep's) and the worker; the next run() starts a new
// one. Not isolated, the ScenarioRunner lives in this process. `plan`,
// `scenarios` and `observe` must outlive the object. Not thread-safe; use
// it from one thread (a worker process is watched by the thread that
// started it: PR_SET_PDEATHSIG ends it with that thread).
class ScenarioWorker {
 public:
  ScenarioWorker(const SweepPlan& plan, const std::vector<Scenario>& scenarios, const ObserverFactory& observe = {});
  ~ScenarioWorker();  // ends the worker process
  ScenarioWorker(const ScenarioWorker&) = delete;
  ScenarioWorker& operator=(const ScenarioWorker&) = delete;
  // The row of scenarios[index]; nullopt when a stop signal (StopSignals)
  // came first: the scenario was abandoned without a row (its worker ended).
  std::optional<SummaryRow> run(std::size_t index);
  // ran: rows returned; models_made, processes: as in run_sweep's outcome.
  const SweepOutcome& outcome() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// ---- Scenario sources a model brings with it ----------------------------------

// An option of a source, named as the command line spells it without the
// dashes ("contingencies" is --contingencies). The first option of a source
// selects it (its value is the source's input file, say); the others shape
// it and go only with it.
struct ScenarioSourceOption {
  enum class Kind { text, number, flag };
  std::string name;
  Kind kind = Kind::text;
  std::string value_name;  // in --help: "CHGTAB.m", "TIME"
  std::string help;
  // number: the values accepted (low and high may be ±infinity) and what
  // the value is, for the messages ("the fault duration", "--clear-after 0.1")
  double low = -std::numeric_limits<double>::infinity(), high = std::numeric_limits<double>::infinity();
  bool low_inclusive = true, high_inclusive = true;
  std::string meaning, example;
};

// The options given to a source: name → text ("1" for a flag given); a
// number's text was checked against its range.
using ScenarioSourceArguments = std::vector<std::pair<std::string, std::string>>;

struct SourceScenarios {
  std::vector<Scenario> scenarios;
  std::vector<std::string> skipped;   // entries of the input that make no scenario, for a note
  std::optional<double> settle_from;  // where the settle test starts for these scenarios (default: the start)
  std::optional<OutcomeLabel> outcome;  // labels rows by how the run ended (SweepOptions::outcome)
};

struct ScenarioSource {
  std::string name;     // = options[0].name
  std::string example;  // the selecting option's value in messages: "chgtab.m"
  std::string usage;    // how it is given: "--contingencies chgtab.m --case case.m"
  std::vector<ScenarioSourceOption> options;
  // The scenarios for `model`; Error(usage) for a bad input, naming the option.
  std::function<SourceScenarios(const Model& model, const ScenarioSourceArguments& arguments)> make;
  // Several models may bring a source of the same name (the MATPOWER
  // contingencies of the PowerGrid FMU and of the PsseGrid FMU): a source
  // with `serves` makes the scenarios of the models it serves, one without
  // serves those of every other model. `kind` tells two sources of one name
  // apart ("PsseGrid"; empty for the one without serves).
  std::string kind;
  std::function<bool(const Model& model)> serves;
};

// Adds a source. A name and kind registered already keeps its first source
// (registering twice is harmless). Thread-safe.
void register_scenario_source(ScenarioSource source);
// The sources registered, one per name in the order the names were first
// registered: the sources of one name merged, their options the union (the
// first source's, then the options the others add), `make` the first source
// whose `serves` accepts the model, else the one without `serves`.
std::vector<ScenarioSource> scenario_sources();

}  // namespace lsdae::sweep

#endif  // LSDAE_SWEEP_H
