// runtime/simulation/projection_controller.h -- the projection method at run
// time (--constraints project; Hairer, Lubich & Wanner, Geometric Numerical
// Integration, IV.4; docs/simulation/index-reduction.md, "Projection"), the drift measured
// when nothing projects, and the re-initialization over an impulse after
// events (impulse_reinitialization.h). A collaborator of lsdae::Simulation
// (simulation_impl.h); the projection itself is constraint_projection.h.
//
// make(): with --constraints project (or none) and a model that has
// projection constraints (lower formulations, invariants), a projector over
// residual 0 of the evaluation, in IDA's unknowns, with directional
// derivatives when the Jacobian uses them and the claims check found them
// right, and the unknowns' nominals for
// finite differences; J kept from step to step and the Newton projection
// stopped once its increment is kStepCorrectionTolerance in IDA's WRMS norm.
// project_start_values(): before IDA starts, the smallest change of the
// start values onto the constraints, in a norm where fixed starts
// (initial="exact") cost 1000 times more to move than guesses.
// after_event(): after an event that left the constraints, before IDA
// restarts: the integration over the impulse when a velocity constraint
// switched on, otherwise the same projection as at the start, with IDA's
// weights.
// reinitialize_switched_on(): with dummy derivatives, at an event that
// switched a constraint on (the FMU's mode), the same integration over the
// impulse on the projection view of the system (every state differential).
// project_in_step(): inside IDA's step (projecting_nonlinear_solver.h), at
// every step by default (a given --projection-tolerance: when max|C|
// exceeds it), with IDA's error weights.
// measure_drift(): after an accepted step, the drift of the methods that do
// not project (--constraints none).
//
// Owns: the projector and the synthesis evaluations of the projectors it
// replaced. Writes the projections and the largest drift into the run's
// ConstraintRecord (shared with the FMU-constraint guard).
// Invariants: the projector refers to residual 0, the DaeSystem and the
// index-1 system of the evaluation: retire() before the evaluation replaces
// its residuals, make() after; it holds the evaluation's invariant values
// (set_invariant_values() whenever they are read again).
// Errors: the projector's Error(solver) (singular, no convergence) with the
// time and what the event left; Error(fmu_call) when the FMU discards the
// constraints at a post-event point.
#ifndef LSDAE_RUNTIME_SIMULATION_PROJECTION_CONTROLLER_H
#define LSDAE_RUNTIME_SIMULATION_PROJECTION_CONTROLLER_H

#include <memory>
#include <span>
#include <string>

#include "simulation/constraint_projection.h"
#include "simulation/model_evaluation.h"
#include "simulation/run_settings.h"

namespace lsdae::simulation {

// The constraint statistics of one run, written by the projection controller
// and the FMU-constraint guard in the order their measurements happen.
struct ConstraintRecord {
  long projections = 0;
  double largest_projection = 0;  // IDA's weighted RMS norm of the largest correction
  double largest_drift = 0;
  std::string largest_drift_constraint;  // where it was largest
};

class ProjectionController {
 public:
  // In-step projection: converged when its Newton increment is at most this
  // in IDA's WRMS norm (a tenth of the local error IDA accepts; CVODE's eps_proj).
  static constexpr double kStepCorrectionTolerance = 0.1;

  // `settings` and `record` must outlive this object.
  ProjectionController(const RunSettings& settings, ConstraintRecord& record) : settings_(settings), record_(record) {}
  ~ProjectionController();

  // The projector for the evaluation's projection constraints (none when the
  // method is dummy derivatives or there are none); the old one retired.
  // `directional`: whether the FMU's directional derivatives may give dC/dx
  // -- the claims check's verdict (IntegrationSession::trusts_directional()),
  // not the settings' choice: wrong ones take finite differences.
  void make(ModelEvaluation& evaluation, bool directional);
  // Whether the projector takes dC/dx from directional derivatives.
  bool uses_directional() const { return projector_ && projector_->uses_directional_derivatives(); }
  // Drops the projector, keeping its synthesis count.
  void retire();
  // Drops it without counting (reset(): the run is over).
  void drop() { projector_.reset(); }
  bool active() const { return projector_ != nullptr; }
  // The projection method with constraints: IDA projects inside its steps.
  bool projects_in_step() const;
  void set_invariant_values(std::span<const double> values);
  long synthesis_evaluations() const;

  // Moves (y, y') at the start onto the constraints (y in place).
  void project_start_values(const ModelEvaluation& evaluation, std::span<double> y, std::span<const double> yp);
  // After an event at t, before IDA restarts (y in place; see the file comment).
  void after_event(ModelEvaluation& evaluation, double t, std::span<double> y, std::span<const double> yp);
  // Dummy derivatives, an event at `at` that switched constraints on: moves
  // v.x over the impulse when it applies (else v is left, with a note).
  void reinitialize_switched_on(ModelEvaluation& evaluation, double at, DaePoint& v) const;
  // Inside IDA's step: 0, or 1 when the FMU discarded (IDA retries smaller).
  int project_in_step(double at, std::span<double> yy, std::span<const double> yyp, std::span<const double> weights);
  // After an accepted step at (t, y, y'): the drift of a method that does not project.
  void measure_drift(double t, std::span<const double> y, std::span<const double> yp);

 private:
  ProjectionOptions::Jacobian jacobian_source(const ModelEvaluation& evaluation, bool directional) const;

  const RunSettings& settings_;
  ConstraintRecord& record_;
  std::unique_ptr<ConstraintProjector> projector_;  // projection method (or none) with constraints only
  long retired_synthesis_evaluations_ = 0;         // of projectors replaced
  bool directional_trusted_ = true;                // make()'s `directional`: the claims check's verdict
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_PROJECTION_CONTROLLER_H
