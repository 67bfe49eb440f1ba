// runtime/simulation/fmu_constraint_guard.h -- the constraints an FMI 2.0 FMU
// declares itself with Najafi et al.'s extension (maxNumberOfConstraints,
// providesConstraints, providesProjection), measured after every accepted
// IDA step and, unless --constraints none, projected onto
// (fmu_constraint_projection.h; docs/fmi2.md "Najafi's constraint functions").
// A collaborator of lsdae::Simulation (simulation_impl.h); it is about one
// FMU's own functions, hence the name.
//
// After an accepted step at t_ida (after_step): IDA's point is set in the FMU;
// max|C| over the active constraints goes to the run's largest drift; when it
// exceeds half the projection tolerance (--projection-tolerance, default
// 10·max(atol, rtol): half, so that the output rows interpolated inside the
// next step, which drift further, stay below it), the states are projected to
// a thousandth of it and IDA restarts from the projected point with y' from
// the FMU's derivatives (IDACalcIC). A projection the FMU discards, or one
// that does not converge, stops the run (Error(solver)); an fmi2Error from a
// constraint function is the instance's Error(fmu_call) naming it.
//
// Rejecting a step (issue 16; reject_step). IDA accepts a step when its local
// error estimate is at most 1 in the WRMS norm ‖e‖ = sqrt(Σ_k (w_k e_k)² / N),
// w_k = 1/(rtol·|y_k| + atol_k). The projection's correction Δ is an error the
// step made that the test did not see; the part of it this step caused is
// estimated as
//     share = ‖Δ‖ · (1 − C_start / C_end),   C = max_i |C_i|
// (to first order the correction is proportional to the violation; C_start
// is max|C| at the step's start: the drift carried in from earlier steps,
// each accepted below half the tolerance, does not count against this one).
// A share above kLargeCorrection (1: as large as a local error IDA would
// refuse) is "large": the step is rejected after the fact, as IDA rejects a
// failed error test -- IDA restarts at the step's start (kept by
// before_step) with a quarter of the step (IDA reduces a step by a factor of
// at least 1/4 after a failed test), before any output row inside the step,
// fmi2CompletedIntegratorStep or event check. At most kMaxRejections until a
// step ends past the furthest rejected one (so that a jump no step size cures
// -- constraints inconsistent with the equations, or a discontinuity the FMU
// does not report -- cannot shrink the steps without end): then the step is
// accepted and projected as before, with a warning. Cost: when a step needs
// projecting and is not rejected, the projection is computed twice (here, and
// again before the next step, after the rows inside this one are interpolated).
//
// Owns: the FMU's constraint projector (none when the FMU declares no
// constraints, or the binary lacks the functions), whether it projects, the
// tolerance, the step's start point and max|C| there, the rejection count and
// horizon, and whether an accepted step awaits its check.
// Invariants: the projector refers to instance 0 of the evaluation; the kept
// start point (step_y_, step_yp_) is IDA's point at step_start_, measured
// (violation_) at violation_time_.
#ifndef LSDAE_RUNTIME_SIMULATION_FMU_CONSTRAINT_GUARD_H
#define LSDAE_RUNTIME_SIMULATION_FMU_CONSTRAINT_GUARD_H

#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "simulation/fmu_constraint_projection.h"
#include "simulation/integration_session.h"
#include "simulation/model_evaluation.h"
#include "simulation/projection_controller.h"
#include "simulation/run_settings.h"

namespace lsdae::simulation {

class FmuConstraintGuard {
 public:
  // `settings` and `record` must outlive this object.
  FmuConstraintGuard(const RunSettings& settings, ConstraintRecord& record) : settings_(settings), record_(record) {}
  ~FmuConstraintGuard();

  // After the instances are initialized: the projector when the FMU declares
  // maxNumberOfConstraints > 0 and providesConstraints, with a note for each
  // declared function the binary lacks.
  void make(ModelEvaluation& evaluation);
  void drop() { constraints_.reset(); }
  bool active() const { return constraints_ != nullptr; }

  // After an accepted step at the session's t_ida (or the start point,
  // `at_start`): measures and, when projecting and it exceeds the tolerance,
  // projects the states and restarts IDA there (see the file comment).
  void after_step(ModelEvaluation& evaluation, IntegrationSession& session, bool at_start);
  // Before IDA's next step: keeps its start point and max|C| there.
  void before_step(ModelEvaluation& evaluation, const IntegrationSession& session);
  // Right after IDA accepted a step: true when it is rejected (IDA restarted
  // at the step's start with a quarter of the step; the loop takes it again).
  bool reject_step(ModelEvaluation& evaluation, IntegrationSession& session);
  // An accepted step awaits after_step() before the next one.
  void step_accepted() { due_ = true; }
  bool take_due() { return std::exchange(due_, false); }

  long rejections() const { return rejections_; }

 private:
  const RunSettings& settings_;
  ConstraintRecord& record_;
  std::unique_ptr<FmuConstraintProjector> constraints_;
  bool project_ = false;   // projected onto (else --constraints none: measured only)
  bool due_ = false;       // an accepted step not yet checked (at t_ida)
  double tolerance_ = 0;   // --projection-tolerance, else 10·max(atol, rtol)
  double step_start_ = 0;                    // IDA's time before the current step
  std::vector<double> step_y_, step_yp_;     // … and its point (empty: not kept)
  double violation_ = 0;                     // max|C| measured at …
  double violation_time_ = std::numeric_limits<double>::quiet_NaN();  // … this time
  int step_retries_ = 0;                     // rejections since a step last ended past …
  double rejected_until_ = -std::numeric_limits<double>::infinity();  // … the furthest rejected step end
  long rejections_ = 0;                      // steps rejected (statistics: projection_rejections)
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_FMU_CONSTRAINT_GUARD_H
