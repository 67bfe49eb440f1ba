// runtime/simulation/simulation_projection.cpp -- Simulation::Impl: the
// projection method's glue to ConstraintProjector (constraint_projection.h;
// docs/simulation.md, "Projection").
//
// make_projector(): with --constraints project and a model that has
// projection constraints (lower-order formulations, invariants), a projector
// over residuals[0] in IDA's unknowns, with directional derivatives when the
// Jacobian uses them and the unknowns' nominals for finite differences.
// project_start_values(): before IDA starts, the smallest change of the
// start values onto the constraints, in a norm where fixed starts
// (initial="exact") cost 1000 times more to move than guesses.
// project_after_event(): after an event that left the constraints, before
// IDA restarts (docs/simulation.md, "Events"): the integration over the
// impulse (impulse_reinitialization.h) when a velocity constraint switched
// on, otherwise the same projection of the post-event point as at the start,
// with IDA's weights.
// reinitialize_switched_on(): with dummy derivatives, at an event that
// switched a constraint on (the FMU's mode: reselect_at), the same
// integration over the impulse on the projection view of the system.
// project_in_step(): inside IDA's step (projecting_nonlinear_solver.h), at
// every step by default (a given --projection-tolerance: when max|C|
// exceeds it), with IDA's error weights; counts stats.projections and the
// largest correction. Errors: the projector's Error(solver).
// project_if_needed(): after an accepted step, measures the drift of the
// methods that do not project (--constraints none, dummy derivatives with
// invariants left as checks).
#include <algorithm>
#include <cmath>
#include <limits>

#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/log.h"
#include "simulation/impulse_reinitialization.h"
#include "simulation/simulation_impl.h"

namespace lsdae {

void Simulation::Impl::make_projector() {
  retire_projector();
  const auto& constraints = structure.index1->projection_constraints;
  if (options.constraints == ConstraintMethod::dummy_derivatives || constraints.empty()) return;
  simulation::ProjectionOptions po;
  // The constraints are FMU variables even when the index-1 rows include
  // synthesized derivatives: their J may come from directional derivatives then.
  po.jacobian = use_directional      ? simulation::ProjectionOptions::Jacobian::directional
                : dae.any_synthesized() ? simulation::ProjectionOptions::Jacobian::automatic
                                        : simulation::ProjectionOptions::Jacobian::finite_differences;
  po.nominal = nominals();
  // In-step projection at every step (CPODES): J kept from step to step, and
  // the Newton projection stops once its increment is a tenth of IDA's local
  // error tolerance (CVODE's default eps_proj).
  po.keep_jacobian = true;
  po.correction_tolerance = kStepCorrectionTolerance;
  projector = std::make_unique<simulation::ConstraintProjector>(*residuals[0], dae, structure.analysis.system,
                                                                *structure.index1, constraints, po);
  projector->set_invariant_values(invariant_values);
}

void Simulation::Impl::read_invariant_values() {
  invariant_values.assign(dae.invariant_vrs.size(), 0.0);
  if (invariant_values.empty()) return;
  if (instances[0]->get_float64(dae.invariant_vrs, invariant_values) == CallStatus::discard)
    throw Error(ErrorKind::fmu_call, model->display_name() + ": t = " + format_number(t) +
                                         ": the FMU discarded reading its invariants → the FMU cannot evaluate them here");
  for (std::size_t i = 0; i < invariant_values.size(); ++i)
    if (!std::isfinite(invariant_values[i]))
      throw Error(ErrorKind::fmu_call, model->display_name() + ": t = " + format_number(t) + ": invariant \"" +
                                           structure.analysis.system.invariant_names[i] + "\" is " +
                                           format_number(invariant_values[i]) + " → fix the FMU's invariant");
  apply_invariant_values();
}

void Simulation::Impl::apply_invariant_values() {
  for (auto& r : residuals) r->set_invariant_values(invariant_values);
  if (projector) projector->set_invariant_values(invariant_values);
}

void Simulation::Impl::project_start_values() {
  if (!projector) return;
  std::vector<double> weights(y.size());
  const ModelDescription& md = model->model_description();
  for (std::size_t k = 0; k < y.size(); ++k) {
    const auto& u = structure.index1->unknowns[k];
    double scale = 1.0 / (rtol * std::fabs(y[k]) + atol * nominal_of(k));
    bool fixed = false;
    if (u.kind == structure::UnknownKind::differential || u.kind == structure::UnknownKind::dummy_state) {
      const Variable* x = md.find(dae.state_vrs[u.index]);
      fixed = x != nullptr && x->initial == Initial::exact;
    }
    weights[k] = fixed ? 1000.0 * scale : scale;
  }
  simulation::ProjectionResult r = projector->project(t_start, y, yp, weights, projection_tolerance);
  if (r.projected)
    log_info(model->display_name() + ": start values projected onto the constraints (violation " +
             format_number(r.violation_before) + " -> " + format_number(r.violation_after) + ")");
}

void Simulation::Impl::project_after_event() {
  if (!projector || options.constraints != ConstraintMethod::projection) return;
  // A velocity constraint switched on: integrate over the impulse (momentum
  // conserved); anything else: the minimum-norm projection below.
  simulation::ImpulseResult impulse = simulation::reinitialize_over_impulse(
      *residuals[0], *projector, structure.analysis.system, *structure.index1, t, y, yp, projection_tolerance, nominal);
  if (impulse.applied) {
    log_info(model->display_name() + ": t = " + format_number(t) + ": the event left " + impulse.constraints +
             "; re-initialized over the impulse (violation " + format_number(impulse.violation_before) + " -> " +
             format_number(impulse.violation_after) + ", " + std::to_string(impulse.iterations) + " iterations)");
    return;
  }
  if (!impulse.not_applicable.empty())
    log_info(model->display_name() + ": t = " + format_number(t) + ": the event left " + impulse.constraints +
             "; not re-initialized over an impulse (" + impulse.not_applicable + "): projected instead");
  std::vector<double> weights(y.size());
  for (std::size_t k = 0; k < y.size(); ++k) weights[k] = 1.0 / (rtol * std::fabs(y[k]) + atol * nominal_of(k));
  simulation::ProjectionResult r;
  try {
    r = projector->project(t, y, yp, weights, projection_tolerance);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::solver) throw;
    // Say that it is the point the event produced, not a drift between steps.
    throw Error(ErrorKind::solver, model->display_name() + ": t = " + format_number(t) +
                                       ": the event left the constraints " + impulse.constraints +
                                       "; no re-initialization over an impulse applies (" + impulse.not_applicable +
                                       "), and projecting back failed: " + e.what());
  }
  if (r.discarded)
    throw Error(ErrorKind::fmu_call, model->display_name() + ": t = " + format_number(t) +
                                         ": the FMU discarded evaluating its constraints after the event → the FMU "
                                         "cannot evaluate the point its event produced");
  if (!r.projected) return;
  ++stats.projections;
  stats.largest_projection = std::max(stats.largest_projection, r.correction);
  log_info(model->display_name() + ": t = " + format_number(t) +
           ": the event left the constraints; the point was projected back (violation " +
           format_number(r.violation_before) + " -> " + format_number(r.violation_after) + ")");
}

void Simulation::Impl::reinitialize_switched_on(double at, VariableValues& v) {
  const auto& analysis = structure.analysis;
  const auto& system = analysis.system;
  // The projection view: every state differential, the active formulations as
  // rows, the lower formulations (and invariants) as the constraints.
  const structure::Index1System view = structure::make_projection_system(system, analysis.pantelides);
  if (view.projection_constraints.empty()) return;
  simulation::ModelResidual residual(*instances[0], dae, system, view);
  if (inputs) residual.set_inputs(&*inputs);
  simulation::ProjectionOptions po;
  po.jacobian = use_directional         ? simulation::ProjectionOptions::Jacobian::directional
                : dae.any_synthesized() ? simulation::ProjectionOptions::Jacobian::automatic
                                        : simulation::ProjectionOptions::Jacobian::finite_differences;
  const auto& current = *structure.index1;
  std::vector<double> yv(view.unknowns.size()), ypv(view.unknowns.size()), nominal_view(view.unknowns.size(), 1.0);
  for (std::size_t k = 0; k < view.unknowns.size(); ++k) {
    const auto& u = view.unknowns[k];
    const structure::VarRef var =
        u.kind == structure::UnknownKind::algebraic ? structure::algebraic(u.index) : structure::state(u.index);
    nominal_view[k] = nominal_of(current.column_to_unknown[system.layout.column(var)]);
    if (u.kind == structure::UnknownKind::algebraic) {
      yv[k] = v.z[u.index];
    } else {
      yv[k] = v.x[u.index];
      ypv[k] = v.xdot[u.index];
    }
  }
  po.nominal = nominal_view;
  simulation::ConstraintProjector projector_view(residual, dae, system, view, view.projection_constraints, po);
  projector_view.set_invariant_values(invariant_values);
  simulation::ImpulseResult impulse = simulation::reinitialize_over_impulse(
      residual, projector_view, system, view, at, yv, ypv, projection_tolerance, nominal_view);
  if (!impulse.applied) {
    if (!impulse.not_applicable.empty())
      log_info(model->display_name() + ": t = " + format_number(at) + ": the event left " + impulse.constraints +
               "; not re-initialized over an impulse (" + impulse.not_applicable +
               "): the new system's consistent initialization moves its dummy states instead");
    return;
  }
  for (std::size_t k = 0; k < view.unknowns.size(); ++k)
    if (view.unknowns[k].kind == structure::UnknownKind::differential) v.x[view.unknowns[k].index] = yv[k];
  log_info(model->display_name() + ": t = " + format_number(at) + ": the event left " + impulse.constraints +
           "; re-initialized over the impulse (violation " + format_number(impulse.violation_before) + " -> " +
           format_number(impulse.violation_after) + ", " + std::to_string(impulse.iterations) + " iterations)");
}

int Simulation::Impl::project_in_step(double at, std::span<double> yy, std::span<const double> yyp,
                                      std::span<const double> weights) {
  // Default: every step is projected (the smallest positive trigger), so each
  // correction is of the order of that step's local error and IDA's error
  // test judges it; a given --projection-tolerance lets the constraints drift
  // up to it first (larger, rarer corrections: less accurate).
  const double trigger = projection_tolerance_given ? projection_tolerance : std::numeric_limits<double>::min();
  simulation::ProjectionResult r = projector->project(at, yy, yyp, weights, trigger);
  if (r.discarded) return 1;
  if (r.violation_before > stats.largest_drift) {
    stats.largest_drift = r.violation_before;
    stats.largest_drift_constraint.clear();
  }
  if (!r.projected) return 0;
  ++stats.projections;
  stats.largest_projection = std::max(stats.largest_projection, r.correction);
  return 0;
}

void Simulation::Impl::project_if_needed() {
  if (!projector) return;
  auto record_drift = [&](double violation) {
    if (!(violation <= stats.largest_drift)) {
      stats.largest_drift = violation;
      std::size_t worst = 0;
      const auto c = projector->values();
      for (std::size_t i = 1; i < c.size(); ++i)
        if (std::fabs(c[i]) > std::fabs(c[worst])) worst = i;
      stats.largest_drift_constraint = c.empty() ? std::string() : projector->constraint_name(worst);
    }
  };
  if (options.constraints != ConstraintMethod::projection)
    record_drift(projector->violation(t_ida, integrator->y(), integrator->yp()));
  // The projection method projects inside IDA's steps (project_in_step).
}

}  // namespace lsdae
