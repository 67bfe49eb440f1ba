// runtime/simulation/projection_controller.cpp -- see projection_controller.h.
#include "simulation/projection_controller.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/log.h"
#include "simulation/impulse_reinitialization.h"

namespace lsdae::simulation {

ProjectionController::~ProjectionController() = default;

ProjectionOptions::Jacobian ProjectionController::jacobian_source(const ModelEvaluation& evaluation,
                                                                  bool directional) const {
  // The constraints are FMU variables even when the index-1 rows include
  // synthesized derivatives: their J may come from directional derivatives
  // then (unless the claims check found them wrong).
  if (settings_.use_directional && !directional) return ProjectionOptions::Jacobian::finite_differences;
  return settings_.use_directional             ? ProjectionOptions::Jacobian::directional
         : evaluation.dae().any_synthesized() ? ProjectionOptions::Jacobian::automatic
                                               : ProjectionOptions::Jacobian::finite_differences;
}

void ProjectionController::retire() {
  if (projector_) retired_synthesis_evaluations_ += static_cast<long>(projector_->synthesis_evaluations());
  projector_.reset();
}

void ProjectionController::make(ModelEvaluation& evaluation, bool directional) {
  retire();
  directional_trusted_ = directional;
  const auto& constraints = evaluation.index1().projection_constraints;
  if (settings_.options.constraints == ConstraintMethod::dummy_derivatives || constraints.empty()) return;
  ProjectionOptions po;
  po.jacobian = jacobian_source(evaluation, directional);
  po.nominal = evaluation.nominal();
  // In-step projection at every step (CPODES): J kept from step to step, and
  // the Newton projection stops once its increment is a tenth of IDA's local
  // error tolerance (CVODE's default eps_proj).
  po.keep_jacobian = true;
  po.correction_tolerance = kStepCorrectionTolerance;
  projector_ = std::make_unique<ConstraintProjector>(evaluation.residual(0), evaluation.dae(), evaluation.system(),
                                                     evaluation.index1(), constraints, po);
  projector_->set_invariant_values(evaluation.invariant_values());
}

bool ProjectionController::projects_in_step() const {
  return projector_ && settings_.options.constraints == ConstraintMethod::projection;
}

void ProjectionController::set_invariant_values(std::span<const double> values) {
  if (projector_) projector_->set_invariant_values(values);
}

long ProjectionController::synthesis_evaluations() const {
  return retired_synthesis_evaluations_ + (projector_ ? static_cast<long>(projector_->synthesis_evaluations()) : 0);
}

void ProjectionController::project_start_values(const ModelEvaluation& evaluation, std::span<double> y,
                                                std::span<const double> yp) {
  if (!projector_) return;
  std::vector<double> weights(y.size());
  const ModelDescription& md = evaluation.model().model_description();
  const auto& unknowns = evaluation.index1().unknowns;
  for (std::size_t k = 0; k < y.size(); ++k) {
    const auto& u = unknowns[k];
    double scale = 1.0 / (settings_.rtol * std::fabs(y[k]) + settings_.atol * evaluation.nominal_of(k));
    bool fixed = false;
    if (u.kind == structure::UnknownKind::differential || u.kind == structure::UnknownKind::dummy_state) {
      const Variable* x = md.find(evaluation.dae().state_vrs[u.index]);
      fixed = x != nullptr && x->initial == Initial::exact;
    }
    weights[k] = fixed ? 1000.0 * scale : scale;
  }
  ProjectionResult r = projector_->project(settings_.t_start, y, yp, weights, settings_.projection_tolerance);
  if (r.projected)
    log_info(evaluation.model().display_name() + ": start values projected onto the constraints (violation " +
             format_number(r.violation_before) + " -> " + format_number(r.violation_after) + ")");
}

void ProjectionController::after_event(ModelEvaluation& evaluation, double t, std::span<double> y,
                                       std::span<const double> yp) {
  if (!projector_ || settings_.options.constraints != ConstraintMethod::projection) return;
  const std::string& name = evaluation.model().display_name();
  // A velocity constraint switched on: integrate over the impulse (momentum
  // conserved); anything else: the minimum-norm projection below.
  ImpulseResult impulse = reinitialize_over_impulse(evaluation.residual(0), *projector_, evaluation.system(),
                                                    evaluation.index1(), t, y, yp, settings_.projection_tolerance,
                                                    evaluation.nominal());
  if (impulse.applied) {
    log_info(name + ": t = " + format_number(t) + ": the event left " + impulse.constraints +
             "; re-initialized over the impulse (violation " + format_number(impulse.violation_before) + " -> " +
             format_number(impulse.violation_after) + ", " + std::to_string(impulse.iterations) + " iterations)");
    return;
  }
  if (!impulse.not_applicable.empty())
    log_info(name + ": t = " + format_number(t) + ": the event left " + impulse.constraints +
             "; not re-initialized over an impulse (" + impulse.not_applicable + "): projected instead");
  std::vector<double> weights(y.size());
  for (std::size_t k = 0; k < y.size(); ++k)
    weights[k] = 1.0 / (settings_.rtol * std::fabs(y[k]) + settings_.atol * evaluation.nominal_of(k));
  ProjectionResult r;
  try {
    r = projector_->project(t, y, yp, weights, settings_.projection_tolerance);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::solver) throw;
    // Say that it is the point the event produced, not a drift between steps.
    throw Error(ErrorKind::solver, name + ": t = " + format_number(t) + ": the event left the constraints " +
                                       impulse.constraints + "; no re-initialization over an impulse applies (" +
                                       impulse.not_applicable + "), and projecting back failed: " + e.what());
  }
  if (r.discarded)
    throw Error(ErrorKind::fmu_call, name + ": t = " + format_number(t) +
                                         ": the FMU discarded evaluating its constraints after the event → the FMU "
                                         "cannot evaluate the point its event produced");
  if (!r.projected) return;
  ++record_.projections;
  record_.largest_projection = std::max(record_.largest_projection, r.correction);
  log_info(name + ": t = " + format_number(t) + ": the event left the constraints; the point was projected back (violation " +
           format_number(r.violation_before) + " -> " + format_number(r.violation_after) + ")");
}

void ProjectionController::reinitialize_switched_on(ModelEvaluation& evaluation, double at, DaePoint& v) const {
  const auto& analysis = evaluation.structure().analysis;
  const auto& system = analysis.system;
  const std::string& name = evaluation.model().display_name();
  // The projection view: every state differential, the active formulations as
  // rows, the lower formulations (and invariants) as the constraints.
  const structure::Index1System view = structure::make_projection_system(system, analysis.pantelides);
  if (view.projection_constraints.empty()) return;
  ModelResidual residual(evaluation.instance(0), evaluation.dae(), system, view);
  if (InputTable* inputs = evaluation.inputs()) residual.set_inputs(inputs);
  ProjectionOptions po;
  po.jacobian = jacobian_source(evaluation, directional_trusted_);
  const auto& current = evaluation.index1();
  std::vector<double> yv(view.unknowns.size()), ypv(view.unknowns.size()), nominal_view(view.unknowns.size(), 1.0);
  for (std::size_t k = 0; k < view.unknowns.size(); ++k) {
    const auto& u = view.unknowns[k];
    const structure::VarRef var =
        u.kind == structure::UnknownKind::algebraic ? structure::algebraic(u.index) : structure::state(u.index);
    nominal_view[k] = evaluation.nominal_of(current.column_to_unknown[system.layout.column(var)]);
    if (u.kind == structure::UnknownKind::algebraic) {
      yv[k] = v.z[u.index];
    } else {
      yv[k] = v.x[u.index];
      ypv[k] = v.xdot[u.index];
    }
  }
  po.nominal = nominal_view;
  ConstraintProjector projector_view(residual, evaluation.dae(), system, view, view.projection_constraints, po);
  projector_view.set_invariant_values(evaluation.invariant_values());
  ImpulseResult impulse = reinitialize_over_impulse(residual, projector_view, system, view, at, yv, ypv,
                                                    settings_.projection_tolerance, nominal_view);
  if (!impulse.applied) {
    if (!impulse.not_applicable.empty())
      log_info(name + ": t = " + format_number(at) + ": the event left " + impulse.constraints +
               "; not re-initialized over an impulse (" + impulse.not_applicable +
               "): the new system's consistent initialization moves its dummy states instead");
    return;
  }
  for (std::size_t k = 0; k < view.unknowns.size(); ++k)
    if (view.unknowns[k].kind == structure::UnknownKind::differential) v.x[view.unknowns[k].index] = yv[k];
  log_info(name + ": t = " + format_number(at) + ": the event left " + impulse.constraints +
           "; re-initialized over the impulse (violation " + format_number(impulse.violation_before) + " -> " +
           format_number(impulse.violation_after) + ", " + std::to_string(impulse.iterations) + " iterations)");
}

int ProjectionController::project_in_step(double at, std::span<double> yy, std::span<const double> yyp,
                                          std::span<const double> weights) {
  // Default: every step is projected (the smallest positive trigger), so each
  // correction is of the order of that step's local error and IDA's error
  // test judges it; a given --projection-tolerance lets the constraints drift
  // up to it first (larger, rarer corrections: less accurate).
  const double trigger = settings_.projection_tolerance_given ? settings_.projection_tolerance
                                                               : std::numeric_limits<double>::min();
  ProjectionResult r = projector_->project(at, yy, yyp, weights, trigger);
  if (r.discarded) return 1;
  if (r.violation_before > record_.largest_drift) {
    record_.largest_drift = r.violation_before;
    record_.largest_drift_constraint.clear();
  }
  if (!r.projected) return 0;
  ++record_.projections;
  record_.largest_projection = std::max(record_.largest_projection, r.correction);
  return 0;
}

void ProjectionController::measure_drift(double t, std::span<const double> y, std::span<const double> yp) {
  if (!projector_) return;
  // The projection method projects inside IDA's steps (project_in_step).
  if (settings_.options.constraints == ConstraintMethod::projection) return;
  const double violation = projector_->violation(t, y, yp);
  if (!(violation <= record_.largest_drift)) {
    record_.largest_drift = violation;
    std::size_t worst = 0;
    const auto c = projector_->values();
    for (std::size_t i = 1; i < c.size(); ++i)
      if (std::fabs(c[i]) > std::fabs(c[worst])) worst = i;
    record_.largest_drift_constraint = c.empty() ? std::string() : projector_->constraint_name(worst);
  }
}

}  // namespace lsdae::simulation
