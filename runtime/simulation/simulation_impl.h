// runtime/simulation/simulation_impl.h -- the private state of
// lsdae::Simulation (lsdae/simulation.h): the collaborators one run is made
// of, and the operations that compose them. Private to runtime/simulation/.
//
// Simulation::Impl owns one of each collaborator; each owns its data (private
// members) and states its invariants in its header:
//   RunSettings          run_settings.h          what create() decided: model, options, times,
//                                                tolerances, Jacobian source, threads (read-only)
//   ModelEvaluation      model_evaluation.h      the instances, the DAE, the structure in use,
//                                                the residuals, nominals, invariants, inputs
//   IntegrationSession   integration_session.h   IDA's integrator, elimination, constant
//                                                entries; the point (t, y, y') and t_ida
//   EventLoop            event_loop.h            the FMU's event iteration, pending events,
//                                                next time event, chattering, observers
//   DummyReselector      dummy_reselector.h      the numeric choice of dummy derivatives
//   ProjectionController projection_controller.h the projection method, drift, impulses
//   FmuConstraintGuard   fmu_constraint_guard.h  an FMI 2.0 FMU's own (Najafi) constraints
//   ConstraintRecord     projection_controller.h the run's constraint statistics, written by
//                                                the two constraint collaborators
// The files of Simulation compose them and touch no collaborator's members:
//   simulation.cpp            create(), set/get, statistics(): the public API
//   simulation_run.cpp        initialize() and advance_to(): the run loop
//   simulation_events.cpp     an event: iteration, new states, invariants, restart
//   simulation_structure.cpp  a new index-1 system: residuals, integrator, (re)selection
//   simulation_jacobian.cpp   check_jacobian() and jacobian() at the current point
//   simulation_reset.cpp      reset(): back to create()'s state for the next scenario
//   simulation_snapshot.cpp   pause before an event, snapshot(), restore() (run_snapshot.h)
//
// Invariants between calls (what the composition keeps):
//   - Collaborators that refer to the evaluation's residuals or structure
//     (the session's integrator, the projector, the selection values) are
//     retired before the evaluation replaces them and made after
//     (rebuild_residuals(), make_integrator(); simulation_structure.cpp).
//   - After initialize(): the session's integrator exists and its point is
//     the run's (t <= t_ida); IDA's stop time is the event loop's.
//   - Members are declared in the order they may refer to each other, so
//     they are destroyed the other way round.
#ifndef LSDAE_RUNTIME_SIMULATION_SIMULATION_IMPL_H
#define LSDAE_RUNTIME_SIMULATION_SIMULATION_IMPL_H

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <span>

#include "lsdae/simulation.h"
#include "simulation/dummy_reselector.h"
#include "simulation/event_loop.h"
#include "simulation/fmu_constraint_guard.h"
#include "simulation/integration_session.h"
#include "simulation/model_evaluation.h"
#include "simulation/projection_controller.h"
#include "simulation/run_settings.h"

namespace lsdae {

namespace simulation {
inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace simulation

struct Simulation::Impl {
  Impl(std::shared_ptr<const simulation::RunSettings> run_settings,
       std::unique_ptr<simulation::ModelEvaluation> model_evaluation);

  // ---- the collaborators
  std::shared_ptr<const simulation::RunSettings> settings;  // shared with the next run (reset())
  std::unique_ptr<simulation::ModelEvaluation> evaluation;  // handed to the next run (reset())
  simulation::ConstraintRecord constraint_record;
  simulation::IntegrationSession session;
  simulation::EventLoop events;
  simulation::DummyReselector reselector;
  simulation::ProjectionController projection;
  simulation::FmuConstraintGuard fmu_constraints;

  // ---- the run's own state
  // Timings, the structural index, threads and re-selections; statistics()
  // assembles the rest from the collaborators.
  SimulationStats stats;
  bool initialized = false;
  std::atomic<bool> cancel_requested{false};  // Simulation::cancel(), from any thread
  // pause_before_event_at(): the next event at or after pause_at is left
  // pending (paused); advance_to() handles it first when called again.
  std::optional<double> pause_at;
  bool paused = false;
  bool sets_at_event = false;  // set() while paused: the event loop sets the values at this event
  // The event being handled was paused before (a snapshot may restore the run
  // there, with a new integrator): IDA restarts after it, never goes on from
  // its history, so the restored run and this one stay bitwise the same.
  bool event_after_pause = false;

  // ---- a new index-1 system (simulation_structure.cpp)
  // The evaluation's residuals and the projector for its current structure.
  void rebuild_residuals();
  // A new integrator for the current structure (the old one retired), with
  // the projection inside IDA's steps when the method projects.
  void make_integrator();
  // IDA restarted at the session's point at `at`, with the event loop's stop time.
  void restart(double at);
  // A higher-index model: the dummy derivatives chosen from the FMU's own
  // Jacobian at the initial point (create() could only choose structurally).
  void select_dummy_derivatives_at_start();
  // At the end of a step (IDA's point at t_ida): switches to a better
  // conditioned selection; true when it switched (IDA restarted there).
  bool reselect_after_step();
  // The same at (at, y_at, yp_at) -- after an event, the post-event point;
  // y_at may be the session's own point. On a switch IDA restarts at `at`.
  bool reselect_at(double at, std::span<const double> y_at, std::span<const double> yp_at, bool at_event = false);

  // ---- events (simulation_events.cpp)
  // The pending event at the session's point: the iteration on every
  // instance, the new states, the invariants, re-selection or projection,
  // then IDA restarted with consistent values.
  void handle_event(simulation::EventLoop::Pending kind);
  // IDA's restart after an event (simulation_events.cpp): from the session's
  // point, and when IDACalcIC fails there, from the FMU's post-event
  // algebraic values (`fmu_algebraic`, by algebraic variable; empty: none);
  // first from the FMU's point (fmu_y, fmu_yp, as fmu_point() built it from
  // the session's point as it is; moved from) when given. `keep_step`: IDA's
  // first step is the last step it took (a state event that left the states
  // within tolerance).
  void restart_after_event(double t, const std::vector<double>& fmu_algebraic, bool keep_step,
                           std::vector<double>* fmu_y = nullptr, std::vector<double>* fmu_yp = nullptr);
  // The session's point with the FMU's post-event algebraic values in y, yp;
  // false (y, yp untouched) when they are the session's.
  bool fmu_point(double t, const std::vector<double>& fmu_algebraic, std::vector<double>& y,
                 std::vector<double>& yp) const;
  // Whether the event indicators lie in the same domains at the session's
  // point as at the FMU's post-event algebraic values (true when those are
  // the session's, or none were read). An FMU that solved its equations at
  // the event (PsseGrid's event solve) chose its modes there; IDA's point
  // differs within IDA's tolerance, and its root-function values at the
  // restart or continuation point are the reference of the next crossing:
  // an indicator on the other side there never changes domain again, its
  // switch lost (the PSS/E ladder's EXST1: the field-voltage ceiling kept to
  // 20 s at rtol 2e-6, never engaged at 1e-5 and 1e-4). IDACalcIC does not
  // repair it: its first correction, within its tolerance, is not applied.
  // Such an event restarts from the FMU's values (handle_event). On false,
  // y and yp hold the FMU's point (fmu_point()), the restart's first guess.
  bool fmu_indicators_agree(double t, const std::vector<double>& fmu_algebraic, std::vector<double>& y,
                            std::vector<double>& yp);
  // Instead of that restart, after a state event that left the states within
  // tolerance: IDA goes on from its own history when the integrator's rule
  // allows it (ida_event_continuation.cpp); `y_before`: the point before a
  // re-initialization (empty: none). false: nothing changed, restart.
  bool continue_after_event(double t, const std::vector<double>& y_before);
  // Whether the WRMS norm of after - before with IDA's error weights is <= 1.
  bool jump_within_tolerance(std::span<const double> before, std::span<const double> after) const;
  // The invariants' values read again (at the instance's point, time t) and
  // handed to the residuals and the projector.
  void refresh_invariants(double t);
  // Faults counted from here on: NaN residuals (the integrator) and fmi3Discard returns.
  void mark_faults();

 private:
  // Switches to `change` at the step boundary (same variables, new roles).
  void switch_selection(double at, simulation::DummyReselector::Switch change, std::span<const double> y_at,
                        std::span<const double> yp_at, bool at_event);
};

}  // namespace lsdae

#endif  // LSDAE_RUNTIME_SIMULATION_SIMULATION_IMPL_H
