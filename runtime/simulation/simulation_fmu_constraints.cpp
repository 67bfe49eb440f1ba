// runtime/simulation/simulation_fmu_constraints.cpp -- Simulation::Impl: the
// constraints an FMI 2.0 FMU declares itself with Najafi et al.'s extension
// (maxNumberOfConstraints, providesConstraints, providesProjection), measured
// after every accepted IDA step and, unless --constraints none, projected onto
// (fmu_constraint_projection.h; docs/fmi2.md "Najafi's constraint functions").
//
// After an accepted step at t_ida: IDA's point is set in the FMU; max|C| over
// the active constraints goes to stats.largest_drift; when it exceeds the
// half the projection tolerance (--projection-tolerance, default 10·atol:
// half, so that the output rows interpolated inside the next step, which
// drift further, stay below it), the states are projected to a thousandth of it and IDA restarts from the projected
// point with y' from the FMU's derivatives (restart(): IDACalcIC). A
// projection the FMU discards, or one that does not converge, stops the run
// (Error(solver)); an fmi2Error from a constraint function is the instance's
// Error(fmu_call) naming it.
#include <algorithm>
#include <cmath>

#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/log.h"
#include "simulation/simulation_impl.h"

namespace lsdae {

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
  fmu_constraints_project = options.constraints != ConstraintMethod::none;
  if (fmu_constraints_project)
    log_info(name + ": keeps the states on the FMU's constraints (maxNumberOfConstraints = " +
             std::to_string(max_constraints) + ") by " + simulation::to_string(fmu_constraints->path()) +
             ", projecting after a step when max|C| exceeds " + format_number(projection_tolerance));
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
  if (!fmu_constraints_project || v.violation <= 0.5 * projection_tolerance) return;

  std::copy(integrator->y().begin(), integrator->y().end(), y.begin());
  std::copy(integrator->yp().begin(), integrator->yp().end(), yp.begin());
  t = at;
  VariableValues values = values_by_variable();
  const simulation::FmuProjectionResult r = fmu_constraints->project(values.x, 1e-3 * projection_tolerance);
  const bool at_start = !initialized;  // initialize(): the start values
  if (!r.failed.empty() && at_start)
    throw Error(ErrorKind::solver,
                model->display_name() + ": t = " + format_number(at) + ": the start values violate the FMU's constraints (max|C| = " +
                    format_number(v.violation) + " at C[" + std::to_string(v.worst) + "], tolerance " +
                    format_number(projection_tolerance) + ") and projecting them by " +
                    simulation::to_string(fmu_constraints->path()) + " failed: " + r.failed +
                    " → give start values (--set) on or near the constraints, or run with --constraints none");
  if (!r.failed.empty())
    throw Error(ErrorKind::solver,
                model->display_name() + ": t = " + format_number(at) + ": the states left the FMU's constraints (max|C| = " +
                    format_number(v.violation) + " at C[" + std::to_string(v.worst) + "], tolerance " +
                    format_number(projection_tolerance) + ") and projecting back by " +
                    simulation::to_string(fmu_constraints->path()) + " failed: " + r.failed +
                    " → lower --rtol or --max-step so that the steps stay closer to the constraints, raise "
                    "--projection-tolerance, or run with --constraints none to only measure the drift");
  if (!r.projected) return;
  // The FMU holds the projected states: its derivatives there are y'.
  instances[0]->get_continuous_state_derivatives(values.xdot);
  load_values(values);
  restart(at);
  ++stats.projections;
  stats.largest_projection = std::max(stats.largest_projection, r.correction);
}

}  // namespace lsdae
