// runtime/simulation/simulation_reset.cpp -- Simulation::reset()
// (lsdae/simulation.h): the next scenario on the same model without opening,
// analysing and instantiating it again.
//
// How: a new Impl, as create() makes it, from the parts of the old one that
// do not depend on the run: the FMU, the options and their derived values,
// the DAE built from the manifest, create()'s structure (created_structure
// when the run may have replaced it), and the instances after fmi3Reset.
// Everything else -- integrator, residuals, projector, values, counters,
// pending set() values, observers -- starts as create() starts it, so a run
// after reset() follows the same path as a fresh one (same counters, same
// values: tests/runtime/sweep/scenario_runner_test.cpp checks it on the
// PowerGrid FMU). What is saved: unpacking, parsing, the structural
// analysis and colouring, loading the binary and fmi3Instantiate, and KLU's
// symbolic analysis (handed from the old integrator to the next run's first
// one when the pattern is the same: ida/klu_symbolic_reuse.h; the factors and
// the run are bitwise those of a new analysis, which reads the pattern only).
#include <chrono>

#include "lsdae/simulation.h"
#include "simulation/simulation_impl.h"

namespace lsdae {

void Simulation::reset() {
  auto t0 = std::chrono::steady_clock::now();
  Impl& old = *impl_;
  // KLU's symbolic analysis depends on the iteration pattern alone: the next
  // run's first integrator takes it over when its pattern is the same (the
  // usual case: create()'s structure again), so the next scenario does not
  // analyse again. From a run that failed before making its integrator,
  // the analysis it was handed is passed on.
  simulation::KluAnalysisPtr klu_analysis = std::move(old.carried_klu_analysis);
  if (old.integrator && old.options.keep_klu_analysis) {
    if (auto mine = old.integrator->release_klu_analysis()) klu_analysis = std::move(mine);
  }
  // Drop what refers to the old structure and instances first (simulation_impl.h invariants).
  old.integrator.reset();
  old.projector.reset();
  old.fmu_constraints.reset();
  old.residuals.clear();
  old.reselect_values.reset();
  old.selection_values.reset();
  for (auto& instance : old.instances) {
    instance->reset();
    if (old.model->manifest().present()) instance->enable_dae_mode();
  }

  auto fresh = std::make_unique<Impl>();
  Impl& m = *fresh;
  m.model = old.model;
  m.options = old.options;
  m.t_start = old.t_start;
  m.t_stop = old.t_stop;
  m.interval = old.interval;
  m.rtol = old.rtol;
  m.atol = old.atol;
  m.dae = std::move(old.dae);
  m.pipeline = old.pipeline;
  m.created_structure = old.created_structure;
  m.structure = m.created_structure ? *m.created_structure : std::move(old.structure);
  m.model_state_select = std::move(old.model_state_select);
  m.instances = std::move(old.instances);
  m.use_directional = old.use_directional;
  m.step_callback = old.step_callback;
  m.projection_tolerance = old.projection_tolerance;
  m.projection_tolerance_given = old.projection_tolerance_given;
  m.indicators = old.indicators;
  m.stats.structural_index = old.stats.structural_index;
  m.stats.threads = old.stats.threads;
  m.carried_klu_analysis = std::move(klu_analysis);
  m.t = m.t_ida = m.t_start;
  impl_ = std::move(fresh);
  impl_->make_residuals();
  impl_->stats.time_instantiate = simulation::seconds_since(t0);
}

}  // namespace lsdae
