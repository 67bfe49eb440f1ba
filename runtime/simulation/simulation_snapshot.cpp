// runtime/simulation/simulation_snapshot.cpp -- Simulation's snapshots
// (lsdae/simulation.h; what a snapshot holds and why it is exact:
// run_snapshot.h): pause before an event, snapshot(), restore() on the
// Simulation after reset(), release_snapshot().
//
// restore() composes the collaborators as initialize() does, from the
// snapshot instead of the FMU's initialization: every instance's FMU state
// set back (with lsdae's side of its mode machine), a new integrator over
// the evaluation's structure (the one create() made: snapshots need an
// index-1 model without re-selection), the session's point and counters, the
// event loop's state, the run's counters; then the run is paused at the
// snapshot's event, which the next advance_to() handles (its restart makes
// IDA's first start on the new integrator: IDAInit where the original made
// IDAReInit, the same arithmetic from a consistent point).
#include <string>

#include "common/format.h"
#include "lsdae/error.h"
#include "simulation/dummy_reselector.h"
#include "simulation/run_snapshot.h"
#include "simulation/simulation_impl.h"

namespace lsdae {

bool Simulation::can_snapshot() const {
  const Impl& m = *impl_;
  simulation::ModelEvaluation& evaluation = *m.evaluation;
  for (std::size_t i = 0; i < evaluation.instance_count(); ++i)
    if (!evaluation.instance(i).can_get_and_set_fmu_state()) return false;
  return !simulation::DummyReselector::active(evaluation) && !m.projection.active() && !m.fmu_constraints.active() &&
         evaluation.dae().invariant_vrs.empty() && evaluation.inputs() == nullptr;
}

void Simulation::pause_before_event_at(double t) {
  if (!(t == t))
    throw Error(ErrorKind::usage, "simulate: pause_before_event_at(NaN) → give the time of the event to pause at");
  impl_->pause_at = t;
}

bool Simulation::paused_at_event() const { return impl_->paused; }

Simulation::SnapshotId Simulation::snapshot() {
  Impl& m = *impl_;
  if (!m.paused)
    throw Error(ErrorKind::usage, "simulate: snapshot() at t = " + format_number(m.session.time()) +
                                      " is not at a paused event → call pause_before_event_at(t) and advance_to past t "
                                      "first");
  if (!can_snapshot())
    throw Error(ErrorKind::usage, "simulate: snapshot(): " + m.evaluation->model().display_name() +
                                      " cannot be snapshot (every instance needs canGetAndSetFMUState; no dummy "
                                      "derivatives, projection, FMU constraints, invariants or --input) → run each "
                                      "scenario from the start");
  auto s = std::make_unique<simulation::RunSnapshot>();
  simulation::ModelEvaluation& evaluation = *m.evaluation;
  for (std::size_t i = 0; i < evaluation.instance_count(); ++i) {
    Instance& inst = evaluation.instance(i);
    s->instances.push_back(&inst);
    s->fmu_states.emplace_back();
    inst.get_fmu_state(s->fmu_states.back());
  }
  s->t = m.session.time();
  s->y.assign(m.session.y().begin(), m.session.y().end());
  s->yp.assign(m.session.yp().begin(), m.session.yp().end());
  s->integrator = m.session.stats();
  s->learned = m.session.learned();
  s->events = m.events.save();
  s->stats = m.stats;
  return evaluation.snapshots().add(std::move(s));
}

void Simulation::restore(SnapshotId id) {
  Impl& m = *impl_;
  simulation::ModelEvaluation& evaluation = *m.evaluation;
  const simulation::RunSnapshot* s = evaluation.snapshots().find(id);
  if (s == nullptr)
    throw Error(ErrorKind::usage, "simulate: restore(" + std::to_string(id) +
                                      "): no such snapshot of this Simulation (released, or taken on another) → "
                                      "restore an id snapshot() returned here");
  if (m.initialized)
    throw Error(ErrorKind::usage, "simulate: restore() after initialize() → call reset() first");
  for (std::size_t i = 0; i < evaluation.instance_count(); ++i) evaluation.instance(i).set_fmu_state(s->fmu_states[i]);
  evaluation.clear_set_values();
  const double time_instantiate = m.stats.time_instantiate;
  m.stats = s->stats;
  m.stats.time_instantiate = time_instantiate;
  // The point first; then what the run knew of the FMU's claims and its
  // constant Jacobian entries at the snapshot, so that make() makes the
  // integrator as that run had it instead of checking the claims again at
  // this point (session_learned.h).
  m.session.restore(s->t, s->y, s->yp, s->integrator);
  m.session.adopt(s->learned);
  m.make_integrator();
  m.events.restore(s->events);
  m.initialized = true;
  m.paused = true;
  m.pause_at.reset();
}

void Simulation::release_snapshot(SnapshotId id) { impl_->evaluation->snapshots().release(id); }

std::size_t Simulation::snapshot_bytes(SnapshotId id) const {
  const simulation::RunSnapshot* s = impl_->evaluation->snapshots().find(id);
  return s == nullptr ? 0 : s->own_bytes();
}

std::size_t Simulation::snapshots_bytes() const { return impl_->evaluation->snapshots().bytes(); }

}  // namespace lsdae
