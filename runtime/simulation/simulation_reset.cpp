// runtime/simulation/simulation_reset.cpp -- Simulation::reset()
// (lsdae/simulation.h): the next scenario on the same model without opening,
// analysing and instantiating it again.
//
// How: a new Impl, as create() makes it, from the parts of the old one that
// do not depend on the run: the settings (model, options and their derived
// values) and the model evaluation (the DAE built from the manifest,
// create()'s structure, the instances after fmi3Reset:
// ModelEvaluation::reset_for_next_run). Every other collaborator --
// integration session, event loop, re-selector, projection, the FMU's
// constraints, the counters, pending set() values, observers -- starts as
// create() starts it, so a run after reset() follows the same path as a fresh
// one (same counters, same values: tests/runtime/sweep/scenario_runner_test.cpp
// checks it on the PowerGrid FMU). What is saved: unpacking, parsing, the
// structural analysis and colouring, loading the binary and fmi3Instantiate,
// and KLU's symbolic analysis (handed from the old integrator to the next
// run's first one when the pattern is the same: ida/klu_symbolic_reuse.h; the
// factors and the run are bitwise those of a new analysis, which reads the
// pattern only).
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
  simulation::KluAnalysisPtr klu_analysis = old.session.hand_over_klu_analysis();
  // Drop what refers to the old structure and instances first (simulation_impl.h invariants).
  old.session.drop();
  old.projection.drop();
  old.fmu_constraints.drop();
  old.reselector.forget_values();
  old.evaluation->reset_for_next_run();

  auto fresh = std::make_unique<Impl>(old.settings, std::move(old.evaluation));
  fresh->stats.structural_index = old.stats.structural_index;
  fresh->stats.threads = old.stats.threads;
  fresh->session.carry_klu_analysis(std::move(klu_analysis));
  impl_ = std::move(fresh);
  impl_->rebuild_residuals();
  impl_->stats.time_instantiate = simulation::seconds_since(t0);
}

}  // namespace lsdae
