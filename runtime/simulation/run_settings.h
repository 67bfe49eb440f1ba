// runtime/simulation/run_settings.h -- what Simulation::create() decides once
// for a run, from the model and SimulationOptions, and every collaborator of
// the simulation reads (simulation_impl.h).
//
// Owns: the model; the options as given; the resolved times, tolerances and
// output interval (options, else the model's DefaultExperiment, else the
// defaults of lsdae/simulation.h); the structural pipeline's options; the
// Jacobian source; the instance count; the FMU's needs (fmi3CompletedIntegratorStep,
// event indicators); the projection tolerance.
// Invariants: t_stop > t_start, rtol > 0, atol > 0, interval > 0, threads ≥ 1,
// options.klu_ordering one of amd, colamd, metis (make_run_settings() checks
// them: Error(usage) naming the value and the option); projection_tolerance >
// 0 once create() has checked it. Never changed after create(): reset() keeps
// the same object (the collaborators hold it by reference).
#ifndef LSDAE_RUNTIME_SIMULATION_RUN_SETTINGS_H
#define LSDAE_RUNTIME_SIMULATION_RUN_SETTINGS_H

#include <cstddef>
#include <memory>

#include "lsdae/model.h"
#include "lsdae/simulation.h"
#include "simulation/ida/klu_ordering.h"
#include "simulation/model_dae.h"
#include "structure/pipeline.h"

namespace lsdae::simulation {

struct RunSettings {
  std::shared_ptr<const Model> model;  // an Fmu, or a System of FMUs (lsdae/model.h)
  SimulationOptions options;
  double t_start = 0, t_stop = 1, interval = 0.002, rtol = 1e-6, atol = 1e-6;
  structure::PipelineOptions pipeline;
  std::size_t threads = 1;        // instances (one per Jacobian thread)
  bool use_directional = false;   // the Jacobians from directional derivatives
  bool step_callback = false;     // the FMU needs fmi3CompletedIntegratorStep
  std::size_t indicators = 0;     // event indicators
  double projection_tolerance = 0;          // start values; in-step trigger when given
  bool projection_tolerance_given = false;  // --projection-tolerance: in-step trigger on max|C|

  KluOrdering klu_ordering() const;
};

// The times, tolerances, interval and pipeline options from `options` and the
// model's DefaultExperiment; Error(usage) for a value out of range (the
// invariants above). Leaves the fields create() decides later at their defaults.
RunSettings make_run_settings(std::shared_ptr<const Model> model, const SimulationOptions& options);

// How many instances: options.threads, or 1 with a warning when the FMU
// declares canBeInstantiatedOnlyOncePerProcess.
std::size_t usable_threads(const RunSettings& settings);

// Whether the Jacobians use directional derivatives (options.jacobian and
// what the model provides; rows lsdae synthesizes have none). Error(usage)
// when the options ask for directional derivatives the model cannot give.
bool choose_directional(const RunSettings& settings, const ModelDae& dae);

// The model's notes on its DAE, and a warning for each synthesized second
// derivative whose accuracy the tolerances exceed (constraint_synthesis.h).
void log_dae_notes(const RunSettings& settings, const ModelDae& dae);

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_RUN_SETTINGS_H
