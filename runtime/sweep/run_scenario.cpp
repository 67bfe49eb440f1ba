// runtime/sweep/run_scenario.cpp -- one scenario on an opened model, its
// summary row (lsdae/sweep.h: the points sampled, early termination). The
// one place that runs a scenario; its Simulation comes from a ScenarioRunner
// (sweep/scenario_runner.h: reset() of the previous scenario's, or new).
#include <chrono>
#include <cmath>

#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/sweep.h"
#include "sweep/metrics.h"
#include "sweep/scenario_runner.h"

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

SummaryRow run_scenario(const SweepPlan& plan, const Scenario& scenario, ScenarioRunner& runner,
                        const ObserverFactory& observe) {
  const auto t0 = std::chrono::steady_clock::now();
  const CompiledChecks& checks = plan.checks();
  SummaryRow row;
  row.id = scenario.id;
  MetricAccumulator metrics(checks);
  bool sampled = false;
  Simulation* sim = nullptr;
  std::string stop_reason;
  std::unique_ptr<ScenarioObserver> observer;
  try {
    if (observe) observer = observe(scenario);
    sim = &runner.next({});
    for (const auto& [name, value] : plan.options().sets) sim->set(name, value);
    for (const auto& [name, value] : scenario.sets) sim->set(name, value);
    if (observer) observer->started(*sim);
    simulation::OutputReader reader(checks.channels);
    std::vector<double> samples(checks.channels.size());
    const std::vector<ValueReference>& der_vrs = plan.model()->derivatives();
    std::vector<double> ders(der_vrs.size());
    std::optional<double> settled_since;
    double last_sample = std::nan("");
    const auto sample = [&](int phase) {
      const bool event = phase != 0;
      if (observer) observer->sampled(*sim, phase);
      reader.read(*sim);
      for (std::size_t c = 0; c < samples.size(); ++c) samples[c] = reader.number(c);
      const double t = sim->time();
      last_sample = t;
      sampled = true;
      std::string hit = metrics.sample(t, samples);
      if (!hit.empty() && stop_reason.empty())
        stop_reason = hit + " at t = " + format_number(t);
      if (checks.settle && stop_reason.empty()) {
        const double from = checks.settle->from.value_or(sim->start_time());
        if (event || t < from) {
          settled_since.reset();
          return;
        }
        sim->get(der_vrs, ders);
        double largest = 0;
        for (double d : ders) largest = std::max(largest, std::isnan(d) ? HUGE_VAL : std::fabs(d));
        if (largest >= checks.settle->tol) settled_since.reset();
        else if (!settled_since) settled_since = t;
        if (settled_since && t - *settled_since >= checks.settle->duration)
          stop_reason = "settled: every derivative below " + format_number(checks.settle->tol) + " from t = " +
                        format_number(*settled_since) + " to " + format_number(t);
      }
    };
    sim->observe_events([&](double, EventPhase phase) { sample(phase == EventPhase::before ? 1 : 2); });
    sim->initialize();
    sample(0);
    const double start = sim->start_time(), stop = sim->stop_time(), interval = sim->output_interval();
    const auto points = static_cast<std::int64_t>(std::ceil((stop - start) / interval - 1e-9));
    row.status = Status::ok;
    for (std::int64_t k = 1; k <= points && stop_reason.empty(); ++k) {
      sim->advance_to(k == points ? stop : start + static_cast<double>(k) * interval);
      if (sim->time() != last_sample) sample(0);
      if (sim->terminated()) {
        row.message = "the FMU asked to terminate at t = " + format_number(sim->time());
        break;
      }
    }
    if (!stop_reason.empty()) {
      row.status = Status::stopped_early;
      row.message = stop_reason;
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
    // The Simulation outlives this call (the runner keeps it): drop the
    // observers that point into it (reset() would too, before the next run).
    sim->observe_events({});
    sim->observe_steps({});
  }
  if (sampled) row.metrics = metrics.results();
  else row.metrics.assign(checks.metrics.size(), std::nullopt);
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
