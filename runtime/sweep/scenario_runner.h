// runtime/sweep/scenario_runner.h -- scenario after scenario on one opened
// model: what makes a sweep fast.
//
//   auto fmu = lsdae::Fmu::open("PowerGrid_case39.fmu");
//   lsdae::sweep::ScenarioRunner runner(fmu, options);
//   for (const auto& scenario : scenarios) {
//     lsdae::Simulation& sim = runner.next(scenario.sets);   // created once, then reset()
//     sim.initialize();
//     while (sim.time() < sim.stop_time()) sim.advance_to(...);
//   }
//
// The first next() makes the Simulation (Simulation::create: DAE, structural
// analysis, binary, instances); every later one calls Simulation::reset()
// (lsdae/simulation.h): the FMU stays unpacked and parsed, the structural
// analysis and the instances are reused (fmi3Reset), and a run gives the same
// values and counters as a run on a fresh Simulation. When the reset fails
// (an FMU that returned fmi3Error/Fatal cannot always be reset) a new
// Simulation is made instead, and fresh_after_failed_reset() counts it.
// `sets` are applied with Simulation::set(name, text): an unknown name or a
// bad value is Error(usage) naming them, as for `lsdae simulate --set`.
//
// The model is an FMU or a system of FMUs (lsdae/system.h): a System resets
// like an Fmu (every component instance reset, the system's parameter values
// and DAE switches set again). ScenarioRunner(plan) is the runner of a sweep
// (lsdae/sweep.h run_scenario): the plan's model, simulation options and
// SweepOptions::reuse.
//
// Public (installed as lsdae/sweep/scenario_runner.h): with run_scenario
// (lsdae/sweep.h) it is the C++ form of the C API's scenario runner
// (lsdae_scenario_runner_open, lsdae.h) and of Python's lsdae.ScenarioRunner.
//
// Shared stretches: resume() starts a scenario from a stretch kept with
// keep() on the same Simulation (run_scenario does both for scenarios with
// stages); resume() and next() count as scenarios, resume() as reused.
//
// Not thread-safe (one runner per thread or process). Under
// lsdae::run_isolated the runner lives in the child: reuse spans the
// scenarios that child runs.
#ifndef LSDAE_RUNTIME_SWEEP_SCENARIO_RUNNER_H
#define LSDAE_RUNTIME_SWEEP_SCENARIO_RUNNER_H

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "lsdae/fmu.h"
#include "lsdae/model.h"
#include "lsdae/simulation.h"
#include "lsdae/sweep.h"

namespace lsdae::sweep {

class ScenarioRunner {
 public:
  // reuse = false makes a new Simulation for every scenario (the baseline a
  // benchmark compares with).
  ScenarioRunner(std::shared_ptr<const Model> model, SimulationOptions options, bool reuse = true);
  explicit ScenarioRunner(const SweepPlan& plan);

  // The Simulation for the next scenario, its `sets` applied, not yet
  // initialized. Valid until the next call.
  Simulation& next(std::span<const std::pair<std::string, std::string>> sets);

  // ---- shared stretches (lsdae/sweep.h Scenario::stages; run_scenario.cpp)
  // A run paused before an event, kept (Simulation::snapshot), with the
  // state of the row sink that saw its rows (opaque to the runner).
  struct Stretch {
    Simulation::SnapshotId snapshot = 0;
    std::shared_ptr<const void> rows;
  };
  // The stretch kept under `key`, or nullptr; marks it recently used.
  const Stretch* stretch(const std::string& key);
  // Keeps a stretch of the current Simulation; past kMaxStretches the least
  // recently used one is released (a stretch holds the FMU's state and two
  // doubles per unknown: about 1 MB for ACTIVSg10k).
  void keep(const std::string& key, Stretch stretch);
  static constexpr std::size_t kMaxStretches = 64;
  // The Simulation for the next scenario, reset and restored from `stretch`
  // (paused at its event: Simulation::restore). Error as reset() throws it
  // (the stretches are then gone with the Simulation).
  Simulation& resume(const Stretch& stretch);
  // Whether the model's Simulation can take snapshots, once a run found out (nullopt before).
  std::optional<bool> snapshots() const { return snapshots_; }
  void set_snapshots(bool can) { snapshots_ = can; }
  bool reuses() const { return reuse_; }
  std::size_t resumed() const { return resumed_; }  // resume() calls
  // Scenarios with stages that were run again from their start (run_scenario: the staged run did not fit).
  void count_start_over() { ++started_over_; }
  std::size_t started_over() const { return started_over_; }

  std::size_t scenarios() const { return scenarios_; }    // next() calls
  std::size_t reused() const { return reused_; }          // of them served by reset()
  std::size_t fresh_after_failed_reset() const { return fresh_after_failed_reset_; }

 private:
  std::shared_ptr<const Model> model_;
  SimulationOptions options_;
  bool reuse_;
  std::unique_ptr<Simulation> simulation_;
  std::size_t scenarios_ = 0, reused_ = 0, fresh_after_failed_reset_ = 0, resumed_ = 0, started_over_ = 0;
  // Stretches of simulation_, most recently used last.
  std::vector<std::pair<std::string, Stretch>> stretches_;
  std::optional<bool> snapshots_;
};

}  // namespace lsdae::sweep

#endif  // LSDAE_RUNTIME_SWEEP_SCENARIO_RUNNER_H
