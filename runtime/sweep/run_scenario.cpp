// runtime/sweep/run_scenario.cpp -- one scenario on an opened model, its
// summary row (lsdae/sweep.h: the points sampled, early termination, shared
// stretches: a scenario with stages starts from the snapshot of the run it
// shares with others, kept by its ScenarioRunner). The
// one place that runs a scenario, through the run layer's loop
// (run/run_loop.h); its Simulation comes from a ScenarioRunner
// (sweep/scenario_runner.h: reset() of the previous scenario's, or new).
#include <chrono>
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/sweep.h"
#include "run/output_plan.h"
#include "run/run_loop.h"
#include "sweep/metrics.h"
#include "sweep/scenario_runner.h"
#include "sweep/stretch_queue.h"

namespace lsdae::sweep {

SweepPlan::~SweepPlan() = default;

std::shared_ptr<const SweepPlan> SweepPlan::compile(std::shared_ptr<const Model> model, const SweepOptions& options) {
  if (!model) throw Error(ErrorKind::usage, "sweep: no model → open one with Fmu::open or System::create");
  if (options.jobs < 1) throw Error(ErrorKind::usage, "sweep: jobs = 0 → run at least one job");
  std::shared_ptr<SweepPlan> plan(new SweepPlan());
  plan->options_ = options;
  plan->checks_ = std::make_unique<CompiledChecks>(compile_checks(*model, options));
  plan->model_ = std::move(model);
  return plan;
}

std::shared_ptr<const SweepPlan> SweepPlan::compile(std::shared_ptr<Fmu> fmu, const SweepOptions& options) {
  if (!fmu) throw Error(ErrorKind::usage, "sweep: no FMU → open one with Fmu::open");
  auto plan = std::const_pointer_cast<SweepPlan>(compile(std::shared_ptr<const Model>(fmu), options));
  plan->fmu_ = std::move(fmu);
  return plan;
}

SummaryRow run_scenario(const SweepPlan& plan, const Scenario& scenario, const ObserverFactory& observe) {
  ScenarioRunner fresh(plan.model(), plan.options().simulation, /*reuse=*/false);
  return run_scenario(plan, scenario, fresh, observe);
}

// The key of the run a scenario shares up to the event of stage j
// (stretch_queue.h): its shared sets, the stages before j (times and
// values) and stage j's time.
std::string stretch_key(const Scenario& s, std::size_t j) {
  std::string key;
  auto add = [&key](const std::vector<std::pair<std::string, std::string>>& sets) {
    for (const auto& [name, value] : sets) key += name + "=" + value + "\n";
  };
  add(s.shared_sets);
  for (std::size_t i = 0; i < j; ++i) {
    key += "@" + format_number(s.stages[i].at) + "\n";
    add(s.stages[i].sets);
  }
  return key + "@" + format_number(s.stages[j].at);
}

namespace {

// The rows of a scenario's run (run/run_loop.h): the sampled points, where
// the metrics, the stop conditions and the settle test are evaluated.
class ScenarioSink final : public run::RowSink {
 public:
  ScenarioSink(const SweepPlan& plan, ScenarioObserver* observer)
      : checks_(plan.checks()), observer_(observer), metrics_(checks_), reader_(checks_.channels),
        samples_(checks_.channels.size()), der_vrs_(plan.model()->derivatives()), ders_(der_vrs_.size()) {}

  void row(Simulation& sim, run::RowKind kind) override {
    const int phase = static_cast<int>(kind);  // 0 an output point, 1 just before an event, 2 just after
    const bool event = phase != 0;
    if (observer_) observer_->sampled(sim, phase);
    reader_.read(sim);
    reader_.numbers(samples_);
    const double t = sim.time();
    sampled_ = true;
    const std::string hit = metrics_.sample(t, samples_);
    if (!hit.empty() && stop_reason_.empty()) stop_reason_ = hit + " at t = " + format_number(t);
    if (checks_.settle && stop_reason_.empty()) {
      const double from = checks_.settle->from.value_or(sim.start_time());
      if (event || t < from) {
        settled_since_.reset();
        return;
      }
      sim.get(der_vrs_, ders_);
      double largest = 0;
      for (double d : ders_) largest = std::max(largest, std::isnan(d) ? HUGE_VAL : std::fabs(d));
      if (largest >= checks_.settle->tol) settled_since_.reset();
      else if (!settled_since_) settled_since_ = t;
      if (settled_since_ && t - *settled_since_ >= checks_.settle->duration)
        stop_reason_ = "settled: every derivative below " + format_number(checks_.settle->tol) + " from t = " +
                       format_number(*settled_since_) + " to " + format_number(t);
    }
  }
  // A stop condition or the settle test ends the scenario at the next output point.
  bool finished() override { return !stop_reason_.empty(); }

  const std::string& stop_reason() const { return stop_reason_; }
  bool sampled() const { return sampled_; }
  std::vector<std::optional<double>> metrics() const { return metrics_.results(); }

 private:
  const CompiledChecks& checks_;
  ScenarioObserver* observer_;
  MetricAccumulator metrics_;
  simulation::OutputReader reader_;
  std::vector<double> samples_;
  const std::vector<ValueReference>& der_vrs_;
  std::vector<double> ders_;
  std::optional<double> settled_since_;
  std::string stop_reason_;
  bool sampled_ = false;
};

// The source's label when the run ended with its indicator above zero
// (lsdae/sweep.h OutcomeLabel); a value the model cannot give leaves the row as it is.
void label_outcome(const OutcomeLabel& o, Simulation& sim, SummaryRow& row) {
  try {
    if (!sim.initialized()) return;
    const double indicator = sim.get(o.indicator);
    if (!(indicator > 0)) return;
    const double amount = sim.get(o.amount);
    std::string text = o.label + ": " + o.amount + " = " + format_number(amount) + (o.unit.empty() ? "" : " " + o.unit) +
                       " (" + o.indicator + " = " + format_number(indicator) + ")";
    row.message = row.message.empty() ? text : text + "; " + row.message;
  } catch (const std::exception&) {
  }
}

// A scenario with stages from the shared stretches (lsdae/sweep.h): from the
// deepest stretch the runner keeps, or from the start (keeping each stretch
// it passes). nullopt when this cannot give the scenario's row as a fresh run
// gives it -- the model cannot be snapshot, a stage's event is not where the
// stage says, the run ends before a stage, or anything fails (the fresh run
// then gives the failure its own message) -- and the caller runs it fresh.
std::optional<SummaryRow> run_staged(const SweepPlan& plan, const Scenario& scenario, ScenarioRunner& runner) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<ScenarioStage>& stages = scenario.stages;
  SummaryRow row;
  row.id = scenario.id;
  std::shared_ptr<ScenarioSink> sink;
  Simulation* sim = nullptr;
  auto keep = [&](std::size_t j) {
    const std::string key = stretch_key(scenario, j);
    if (!runner.stretch(key)) runner.keep(key, {sim->snapshot(), std::make_shared<const ScenarioSink>(*sink)});
  };
  try {
    std::size_t next = stages.size();
    const ScenarioRunner::Stretch* kept = nullptr;
    while (next-- > 0)
      if ((kept = runner.stretch(stretch_key(scenario, next))) != nullptr) break;
    run::OutputControl control;
    control.max_rows = run::kLargestMaxRows;
    std::optional<run::OutputPlan> points;
    if (kept != nullptr) {
      sink = std::make_shared<ScenarioSink>(*std::static_pointer_cast<const ScenarioSink>(kept->rows));
      sim = &runner.resume(*kept);
      points = run::plan_output(*sim, control, false);
    } else {
      next = 0;
      sim = &runner.next({});
      runner.set_snapshots(sim->can_snapshot());
      if (!sim->can_snapshot()) return std::nullopt;
      for (const auto& [name, value] : plan.options().sets) sim->set(name, value);
      for (const auto& [name, value] : scenario.shared_sets) sim->set(name, value);
      sink = std::make_shared<ScenarioSink>(plan, nullptr);
      points = run::plan_output(*sim, control, false);
      sim->pause_before_event_at(stages[0].at);
      if (run::run(*sim, *points, *sink) != run::Ending::paused) return std::nullopt;
      keep(0);
    }
    for (std::size_t i = next; i < stages.size(); ++i) {
      if (!sim->paused_at_event() || sim->time() != stages[i].at) return std::nullopt;
      for (const auto& [name, value] : stages[i].sets) sim->set(name, value);
      if (i + 1 < stages.size()) {
        sim->pause_before_event_at(stages[i + 1].at);
        if (run::run(*sim, *points, *sink) != run::Ending::paused) return std::nullopt;
        keep(i + 1);
        continue;
      }
      row.status = Status::ok;
      if (run::run(*sim, *points, *sink) == run::Ending::terminated)
        row.message = "the FMU asked to terminate at t = " + format_number(sim->time());
    }
    if (!sink->stop_reason().empty()) {
      row.status = Status::stopped_early;
      row.message = sink->stop_reason();
    }
    row.reached_time = sim->time();
    row.steps = sim->statistics().steps;
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (plan.options().outcome) label_outcome(*plan.options().outcome, *sim, row);  // as a fresh run's row
  row.metrics = sink->sampled() ? sink->metrics()
                                : std::vector<std::optional<double>>(plan.checks().metrics.size(), std::nullopt);
  row.wall_time = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return row;
}

}  // namespace

SummaryRow run_scenario(const SweepPlan& plan, const Scenario& scenario, ScenarioRunner& runner,
                        const ObserverFactory& observe) {
  const auto t0 = std::chrono::steady_clock::now();
  SummaryRow row;
  row.id = scenario.id;
  Simulation* sim = nullptr;
  std::unique_ptr<ScenarioObserver> observer;
  std::optional<ScenarioSink> sink;
  try {
    if (observe) observer = observe(scenario);
    // Shared stretches: without an observer (it would see the shared rows as
    // the shared run had them), with reuse (one Simulation to keep snapshots
    // on), without --jacobian check (made at the start of each scenario).
    if (!scenario.stages.empty() && plan.options().share_stretches && !observer && runner.reuses() &&
        runner.snapshots() != false && !plan.options().check_jacobian)
    {
      if (std::optional<SummaryRow> staged = run_staged(plan, scenario, runner)) return *staged;
      runner.count_start_over();
    }
    sim = &runner.next({});
    for (const auto& [name, value] : plan.options().sets) sim->set(name, value);
    for (const auto& [name, value] : scenario.sets) sim->set(name, value);
    if (observer) observer->started(*sim);
    sink.emplace(plan, observer.get());
    // The points `lsdae simulate` writes by default: a sweep has no row limit.
    run::OutputControl control;
    control.max_rows = run::kLargestMaxRows;
    const run::OutputPlan points = run::plan_output(*sim, control, plan.options().check_jacobian);
    row.status = Status::ok;
    if (run::run(*sim, points, *sink) == run::Ending::terminated)
      row.message = "the FMU asked to terminate at t = " + format_number(sim->time());
    if (!sink->stop_reason().empty()) {
      row.status = Status::stopped_early;
      row.message = sink->stop_reason();
    }
  } catch (const Error& e) {
    row.status = Status::failed;
    row.message = e.what();
  } catch (const std::exception& e) {
    row.status = Status::failed;
    row.message = std::string("internal error: ") + e.what() + " → please report this with the FMU";
  }
  if (sim) {
    try {
      if (sim->initialized()) row.reached_time = sim->time();
      row.steps = sim->statistics().steps;
    } catch (const std::exception&) {
    }
  }
  if (sim && row.status != Status::failed && plan.options().outcome) label_outcome(*plan.options().outcome, *sim, row);
  if (sink && sink->sampled()) row.metrics = sink->metrics();
  else row.metrics.assign(plan.checks().metrics.size(), std::nullopt);
  if (observer) {
    try {
      observer->finished(row);
    } catch (const std::exception& e) {
      row.message = row.status == Status::failed ? row.message + "\n  " + e.what() : e.what();
      row.status = Status::failed;
    }
  }
  row.wall_time = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return row;
}

}  // namespace lsdae::sweep
