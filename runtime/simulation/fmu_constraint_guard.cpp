// runtime/simulation/fmu_constraint_guard.cpp -- see fmu_constraint_guard.h.
#include "simulation/fmu_constraint_guard.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/log.h"

namespace lsdae::simulation {

namespace {
constexpr double kLargeCorrection = 1.0;  // the step's share of ‖Δ‖ (IDA's WRMS norm) that rejects it
constexpr int kMaxRejections = 5;         // before a step ends past the furthest rejected end (4⁵ = 1024 × smaller)
}  // namespace

FmuConstraintGuard::~FmuConstraintGuard() = default;

void FmuConstraintGuard::before_step(ModelEvaluation& evaluation, const IntegrationSession& session) {
  if (!project_) return;
  const IdaIntegrator& integrator = session.integrator();
  step_start_ = integrator.time();
  step_y_.assign(integrator.y().begin(), integrator.y().end());
  step_yp_.assign(integrator.yp().begin(), integrator.yp().end());
  if (violation_time_ == step_start_) return;  // measured there already (the last step's end)
  // A restart (an event, a projection) moved the point: measure it.
  violation_ = 0;
  violation_time_ = step_start_;
  if (evaluation.residual(0).apply(step_start_, step_y_, step_yp_) != kernels::EvalStatus::ok) return;
  const FmuConstraintValues v = constraints_->measure();
  if (!v.discarded) violation_ = v.violation;
}

bool FmuConstraintGuard::reject_step(ModelEvaluation& evaluation, IntegrationSession& session) {
  if (!project_ || step_y_.empty()) return false;
  IdaIntegrator& integrator = session.integrator();
  const double at = integrator.time();
  const std::span<const double> yy = integrator.y(), yyp = integrator.yp();
  if (evaluation.residual(0).apply(at, yy, yyp) != kernels::EvalStatus::ok) return false;
  const FmuConstraintValues v = constraints_->measure();
  if (v.discarded || v.active == 0) return false;  // after_step reports it
  const double c_start = violation_;
  violation_ = v.violation;
  violation_time_ = at;
  if (at > rejected_until_) step_retries_ = 0;  // past every rejected step: a fresh count
  if (v.violation <= 0.5 * tolerance_) return false;
  // The correction the projection makes here, in IDA's error norm.
  DaePoint values = evaluation.point_at(at, yy, yyp);
  const FmuProjectionResult r = constraints_->project(values.x, 1e-3 * tolerance_);
  double norm = 0;
  if (r.failed.empty() && r.projected) {
    std::vector<double> y, yp;
    evaluation.to_unknowns(values, y, yp);
    std::vector<double> w(y.size());
    integrator.error_weights(w);
    double sum = 0;
    for (std::size_t k = 0; k < y.size(); ++k) sum += std::pow(w[k] * (y[k] - yy[k]), 2);
    norm = std::sqrt(sum / static_cast<double>(std::max<std::size_t>(y.size(), 1)));
  }
  const double share = norm * std::max(0.0, 1.0 - c_start / v.violation);
  if (!(share > kLargeCorrection)) return false;
  const std::string& name = evaluation.model().display_name();
  if (step_retries_ >= kMaxRejections) {
    log_warning(name + ": t = " + format_number(at) + ": the FMU's projection still corrects the step by " +
                format_number(share) + " (IDA's error norm) after " + std::to_string(kMaxRejections) +
                " rejected steps with smaller and smaller steps; accepted and projected → the model's constraints may be inconsistent "
                "with its equations, or they jump where the FMU reports no event");
    step_retries_ = 0;
    rejected_until_ = at;
    return false;
  }
  const double h = at - step_start_;
  ++step_retries_;
  rejected_until_ = std::max(rejected_until_, at);
  ++rejections_;
  log_debug(name + ": t = " + format_number(at) + ": step of " + format_number(h) +
            " rejected: the FMU's projection corrects it by " + format_number(norm) + " (its share " +
            format_number(share) + ", max|C| " + format_number(c_start) + " -> " + format_number(v.violation) +
            "); retried from t = " + format_number(step_start_) + " with " + format_number(h / 4));
  session.set_point(step_y_, step_yp_);
  integrator.set_next_initial_step(h / 4);
  violation_ = c_start;
  session.restart(step_start_);
  violation_time_ = step_start_;
  return true;
}

void FmuConstraintGuard::make(ModelEvaluation& evaluation) {
  constraints_.reset();
  const Model& model = evaluation.model();
  const ModelDescription& md = model.model_description();
  const std::size_t max_constraints = md.max_number_of_constraints.value_or(0);
  if (max_constraints == 0 || !md.model_exchange ||
      md.model_exchange->provides_constraints == ModelExchange::Constraints::none)
    return;
  const ModelExchange& me = *md.model_exchange;
  Instance& inst = evaluation.instance(0);
  const std::string& name = model.display_name();
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
  const std::size_t states = model.states().size();
  const ModelDae& dae = evaluation.dae();
  if (dae.fully_implicit || dae.state_vrs.size() != states) {
    log_info(name + ": the FMU's constraints are not used: they apply to its continuous states, which this model's "
                    "formulation (an LS-DAE or fully implicit form) does not integrate as such");
    return;
  }
  constraints_ = std::make_unique<FmuConstraintProjector>(inst, states, max_constraints);
  // By default 10 times the looser of atol and rtol: each accepted step may
  // drift by about that much, so a tighter default (10·atol alone, with
  // --rtol 1e-4 --atol 1e-12) projected -- and restarted IDA -- after every
  // step, at ever smaller steps.
  tolerance_ = settings_.projection_tolerance_given ? settings_.projection_tolerance
                                                    : 10.0 * std::max(settings_.atol, settings_.rtol);
  project_ = settings_.options.constraints != ConstraintMethod::none;
  if (project_)
    log_info(name + ": keeps the states on the FMU's constraints (maxNumberOfConstraints = " +
             std::to_string(max_constraints) + ") by " + to_string(constraints_->path()) +
             ", projecting after a step when max|C| exceeds " + format_number(tolerance_));
  else
    log_info(name + ": measures the FMU's constraints after every step, without projecting (--constraints none)");
}

void FmuConstraintGuard::after_step(ModelEvaluation& evaluation, IntegrationSession& session, bool at_start) {
  if (!constraints_) return;
  const double at = session.ida_time();
  IdaIntegrator& integrator = session.integrator();
  if (evaluation.residual(0).apply(at, integrator.y(), integrator.yp()) != kernels::EvalStatus::ok) return;
  const FmuConstraintValues v = constraints_->measure();
  const std::string& name = evaluation.model().display_name();
  if (v.discarded)
    throw Error(ErrorKind::fmu_call, name + ": t = " + format_number(at) +
                                         ": fmi2Constraint returned fmi2Discard at a point IDA accepted → the FMU "
                                         "cannot evaluate its constraints there; check its parameters, or run with "
                                         "--constraints none");
  if (v.active == 0) return;
  if (!(v.violation <= record_.largest_drift)) {
    record_.largest_drift = v.violation;
    record_.largest_drift_constraint = "fmi2Constraint C[" + std::to_string(v.worst) + "]";
  }
  if (!project_ || v.violation <= 0.5 * tolerance_) return;

  session.keep_point();
  DaePoint values = evaluation.point_at(at, session.y(), session.yp());
  const FmuProjectionResult r = constraints_->project(values.x, 1e-3 * tolerance_);
  if (!r.failed.empty() && at_start)
    throw Error(ErrorKind::solver,
                name + ": t = " + format_number(at) + ": the start values violate the FMU's constraints (max|C| = " +
                    format_number(v.violation) + " at C[" + std::to_string(v.worst) + "], tolerance " +
                    format_number(tolerance_) + ") and projecting them by " + to_string(constraints_->path()) +
                    " failed: " + r.failed +
                    " → give start values (--set) on or near the constraints, or run with --constraints none");
  if (!r.failed.empty())
    throw Error(ErrorKind::solver,
                name + ": t = " + format_number(at) + ": the states left the FMU's constraints (max|C| = " +
                    format_number(v.violation) + " at C[" + std::to_string(v.worst) + "], tolerance " +
                    format_number(tolerance_) + ") and projecting back by " + to_string(constraints_->path()) +
                    " failed: " + r.failed +
                    " → lower --rtol or --max-step so that the steps stay closer to the constraints, raise "
                    "--projection-tolerance, or run with --constraints none to only measure the drift");
  if (!r.projected) return;
  // The FMU holds the projected states: its derivatives there are y'.
  evaluation.instance(0).get_continuous_state_derivatives(values.xdot);
  std::vector<double> y, yp;
  evaluation.to_unknowns(values, y, yp);
  session.set_point(std::move(y), std::move(yp));
  session.restart(at);
  violation_ = r.violation_after;
  violation_time_ = at;
  ++record_.projections;
  record_.largest_projection = std::max(record_.largest_projection, r.correction);
}

}  // namespace lsdae::simulation
