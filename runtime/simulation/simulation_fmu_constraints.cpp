// runtime/simulation/simulation_fmu_constraints.cpp -- Simulation::Impl: the
// constraints an FMI 2.0 FMU declares itself with Najafi et al.'s extension
// (maxNumberOfConstraints, providesConstraints, providesProjection), measured
// after every accepted IDA step and, unless --constraints none, projected onto
// (fmu_constraint_projection.h; docs/fmi2.md "Najafi's constraint functions").
//
// After an accepted step at t_ida: IDA's point is set in the FMU; max|C| over
// the active constraints goes to stats.largest_drift; when it exceeds the
// half the projection tolerance (--projection-tolerance, default
// 10·max(atol, rtol):
// half, so that the output rows interpolated inside the next step, which
// drift further, stay below it), the states are projected to a thousandth of it and IDA restarts from the projected
// point with y' from the FMU's derivatives (restart(): IDACalcIC). A
// projection the FMU discards, or one that does not converge, stops the run
// (Error(solver)); an fmi2Error from a constraint function is the instance's
// Error(fmu_call) naming it.
//
// Rejecting a step (issue 16). IDA accepts a step when its local error
// estimate is at most 1 in the WRMS norm ‖e‖ = sqrt(Σ_k (w_k e_k)² / N),
// w_k = 1/(rtol·|y_k| + atol_k). The projection's correction Δ is an error
// the step made that the test did not see; the part of it this step caused
// is estimated as
//     share = ‖Δ‖ · (1 − C_start / C_end),   C = max_i |C_i|
// (to first order the correction is proportional to the violation; C_start
// is max|C| at the step's start: the drift carried in from earlier steps,
// each accepted below half the tolerance, does not count against this one).
// A share above kLargeCorrection (1: as large as a local error IDA would
// refuse) is "large": the step is rejected after the fact, as IDA rejects a
// failed error test -- IDA restarts at the step's start (kept by
// fmu_constraints_before_step) with a quarter of the step (IDA reduces a
// step by a factor of at least 1/4 after a failed test), before any output
// row inside the step, fmi2CompletedIntegratorStep or event check. At most
// kMaxRejections until a step ends past the furthest rejected one (so that a
// jump no step size cures -- constraints inconsistent with the equations, or
// a discontinuity the FMU does not report -- cannot shrink the steps without
// end): then the step is accepted and projected as before, with a warning. Cost: when a step needs projecting
// and is not rejected, the projection is computed twice (here, and again
// before the next step, after the rows inside this one are interpolated).
#include <algorithm>
#include <cmath>

#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/log.h"
#include "simulation/simulation_impl.h"

namespace lsdae {

namespace {
constexpr double kLargeCorrection = 1.0;  // the step's share of ‖Δ‖ (IDA's WRMS norm) that rejects it
constexpr int kMaxRejections = 5;         // before a step ends past the furthest rejected end (4⁵ = 1024 × smaller)
}  // namespace

void Simulation::Impl::fmu_constraints_before_step() {
  if (!fmu_constraints_project) return;
  fmu_step_start = integrator->time();
  fmu_step_y.assign(integrator->y().begin(), integrator->y().end());
  fmu_step_yp.assign(integrator->yp().begin(), integrator->yp().end());
  if (fmu_violation_time == fmu_step_start) return;  // measured there already (the last step's end)
  // A restart (an event, a projection) moved the point: measure it.
  fmu_violation = 0;
  fmu_violation_time = fmu_step_start;
  if (residuals[0]->apply(fmu_step_start, fmu_step_y, fmu_step_yp) != kernels::EvalStatus::ok) return;
  const simulation::FmuConstraintValues v = fmu_constraints->measure();
  if (!v.discarded) fmu_violation = v.violation;
}

bool Simulation::Impl::fmu_constraints_reject_step() {
  if (!fmu_constraints_project || fmu_step_y.empty()) return false;
  const double at = integrator->time();
  const std::span<const double> yy = integrator->y(), yyp = integrator->yp();
  if (residuals[0]->apply(at, yy, yyp) != kernels::EvalStatus::ok) return false;
  const simulation::FmuConstraintValues v = fmu_constraints->measure();
  if (v.discarded || v.active == 0) return false;  // fmu_constraints_after_step reports it
  const double c_start = fmu_violation;
  fmu_violation = v.violation;
  fmu_violation_time = at;
  if (at > fmu_rejected_until) fmu_step_retries = 0;  // past every rejected step: a fresh count
  if (v.violation <= 0.5 * fmu_projection_tolerance) return false;
  // The correction the projection makes here, in IDA's error norm (y, yp
  // hold the last kept point meanwhile: borrowed, then restored).
  std::vector<double> y_kept(y), yp_kept(yp);
  std::copy(yy.begin(), yy.end(), y.begin());
  std::copy(yyp.begin(), yyp.end(), yp.begin());
  VariableValues values = values_by_variable();
  const simulation::FmuProjectionResult r = fmu_constraints->project(values.x, 1e-3 * fmu_projection_tolerance);
  double norm = 0;
  if (r.failed.empty() && r.projected) {
    load_values(values);
    std::vector<double> w(y.size());
    integrator->error_weights(w);
    double sum = 0;
    for (std::size_t k = 0; k < y.size(); ++k) sum += std::pow(w[k] * (y[k] - yy[k]), 2);
    norm = std::sqrt(sum / static_cast<double>(std::max<std::size_t>(y.size(), 1)));
  }
  y.swap(y_kept);
  yp.swap(yp_kept);
  const double share = norm * std::max(0.0, 1.0 - c_start / v.violation);
  if (!(share > kLargeCorrection)) return false;
  if (fmu_step_retries >= kMaxRejections) {
    log_warning(model->display_name() + ": t = " + format_number(at) + ": the FMU's projection still corrects the step by " +
                format_number(share) + " (IDA's error norm) after " + std::to_string(kMaxRejections) +
                " rejected steps with smaller and smaller steps; accepted and projected → the model's constraints may be inconsistent "
                "with its equations, or they jump where the FMU reports no event");
    fmu_step_retries = 0;
    fmu_rejected_until = at;
    return false;
  }
  const double h = at - fmu_step_start;
  ++fmu_step_retries;
  fmu_rejected_until = std::max(fmu_rejected_until, at);
  ++stats.projection_rejections;
  log_debug(model->display_name() + ": t = " + format_number(at) + ": step of " + format_number(h) +
            " rejected: the FMU's projection corrects it by " + format_number(norm) + " (its share " +
            format_number(share) + ", max|C| " + format_number(c_start) + " -> " + format_number(v.violation) +
            "); retried from t = " + format_number(fmu_step_start) + " with " + format_number(h / 4));
  std::copy(fmu_step_y.begin(), fmu_step_y.end(), y.begin());
  std::copy(fmu_step_yp.begin(), fmu_step_yp.end(), yp.begin());
  integrator->set_next_initial_step(h / 4);
  fmu_violation = c_start;
  restart(fmu_step_start);
  fmu_violation_time = fmu_step_start;
  return true;
}

void Simulation::Impl::make_fmu_constraints() {
  fmu_constraints.reset();
  const ModelDescription& md = model->model_description();
  const std::size_t max_constraints = md.max_number_of_constraints.value_or(0);
  if (max_constraints == 0 || !md.model_exchange ||
      md.model_exchange->provides_constraints == ModelExchange::Constraints::none)
    return;
  const ModelExchange& me = *md.model_exchange;
  Instance& inst = *instances[0];
  const std::string name = model->display_name();
  if (!inst.has_constraints()) {
    log_info(name + ": providesConstraints is declared, but the binary does not export fmi2GetNumberOfConstraints "
                    "and fmi2Constraint: the FMU's constraints are not used");
    return;
  }
  if (me.provides_constraints == ModelExchange::Constraints::with_jacobian && !inst.has_constraint_jacobian())
    log_info(name + ": providesConstraints=\"withJacobian\" is declared, but the binary does not export "
                    "fmi2ConstraintJacobian: lsdae differentiates fmi2Constraint by finite differences instead");
  if (me.provides_projection && !inst.has_projection())
    log_info(name + ": providesProjection is declared, but the binary does not export fmi2Projection: lsdae "
                    "projects by its own Gauss-Newton iteration instead");
  const std::size_t states = model->states().size();
  if (dae.fully_implicit || dae.state_vrs.size() != states) {
    log_info(name + ": the FMU's constraints are not used: they apply to its continuous states, which this model's "
                    "formulation (an LS-DAE or fully implicit form) does not integrate as such");
    return;
  }
  fmu_constraints = std::make_unique<simulation::FmuConstraintProjector>(inst, states, max_constraints);
  // By default 10 times the looser of atol and rtol: each accepted step may
  // drift by about that much, so a tighter default (10·atol alone, with
  // --rtol 1e-4 --atol 1e-12) projected -- and restarted IDA -- after every
  // step, at ever smaller steps.
  fmu_projection_tolerance =
      projection_tolerance_given ? projection_tolerance : 10.0 * std::max(atol, rtol);
  fmu_constraints_project = options.constraints != ConstraintMethod::none;
  if (fmu_constraints_project)
    log_info(name + ": keeps the states on the FMU's constraints (maxNumberOfConstraints = " +
             std::to_string(max_constraints) + ") by " + simulation::to_string(fmu_constraints->path()) +
             ", projecting after a step when max|C| exceeds " + format_number(fmu_projection_tolerance));
  else
    log_info(name + ": measures the FMU's constraints after every step, without projecting (--constraints none)");
}

void Simulation::Impl::fmu_constraints_after_step() {
  if (!fmu_constraints) return;
  const double at = t_ida;
  if (residuals[0]->apply(at, integrator->y(), integrator->yp()) != kernels::EvalStatus::ok) return;
  const simulation::FmuConstraintValues v = fmu_constraints->measure();
  if (v.discarded)
    throw Error(ErrorKind::fmu_call, model->display_name() + ": t = " + format_number(at) +
                                         ": fmi2Constraint returned fmi2Discard at a point IDA accepted → the FMU "
                                         "cannot evaluate its constraints there; check its parameters, or run with "
                                         "--constraints none");
  if (v.active == 0) return;
  if (!(v.violation <= stats.largest_drift)) {
    stats.largest_drift = v.violation;
    stats.largest_drift_constraint = "fmi2Constraint C[" + std::to_string(v.worst) + "]";
  }
  if (!fmu_constraints_project || v.violation <= 0.5 * fmu_projection_tolerance) return;

  std::copy(integrator->y().begin(), integrator->y().end(), y.begin());
  std::copy(integrator->yp().begin(), integrator->yp().end(), yp.begin());
  t = at;
  VariableValues values = values_by_variable();
  const simulation::FmuProjectionResult r = fmu_constraints->project(values.x, 1e-3 * fmu_projection_tolerance);
  const bool at_start = !initialized;  // initialize(): the start values
  if (!r.failed.empty() && at_start)
    throw Error(ErrorKind::solver,
                model->display_name() + ": t = " + format_number(at) + ": the start values violate the FMU's constraints (max|C| = " +
                    format_number(v.violation) + " at C[" + std::to_string(v.worst) + "], tolerance " +
                    format_number(fmu_projection_tolerance) + ") and projecting them by " +
                    simulation::to_string(fmu_constraints->path()) + " failed: " + r.failed +
                    " → give start values (--set) on or near the constraints, or run with --constraints none");
  if (!r.failed.empty())
    throw Error(ErrorKind::solver,
                model->display_name() + ": t = " + format_number(at) + ": the states left the FMU's constraints (max|C| = " +
                    format_number(v.violation) + " at C[" + std::to_string(v.worst) + "], tolerance " +
                    format_number(fmu_projection_tolerance) + ") and projecting back by " +
                    simulation::to_string(fmu_constraints->path()) + " failed: " + r.failed +
                    " → lower --rtol or --max-step so that the steps stay closer to the constraints, raise "
                    "--projection-tolerance, or run with --constraints none to only measure the drift");
  if (!r.projected) return;
  // The FMU holds the projected states: its derivatives there are y'.
  instances[0]->get_continuous_state_derivatives(values.xdot);
  load_values(values);
  restart(at);
  fmu_violation = r.violation_after;
  fmu_violation_time = at;
  ++stats.projections;
  stats.largest_projection = std::max(stats.largest_projection, r.correction);
}

}  // namespace lsdae
