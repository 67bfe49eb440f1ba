// runtime/simulation/integration_session.cpp -- see integration_session.h.
#include "simulation/integration_session.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "lsdae/log.h"
#include "simulation/elimination_plan.h"
#include "simulation/error_test_mask.h"
#include "simulation/jacobian_claims.h"
#include "simulation/jacobian_constancy.h"

namespace lsdae::simulation {

IntegrationSession::IntegrationSession(const RunSettings& settings)
    : settings_(settings),
      directional_(settings.use_directional),
      stop_time_(settings.t_stop),
      t_(settings.t_start),
      t_ida_(settings.t_start) {}

IntegrationSession::~IntegrationSession() = default;

void IntegrationSession::retire() {
  if (integrator_) {
    finished_ += integrator_->stats();
    integrator_.reset();
  }
}

void IntegrationSession::make(ModelEvaluation& evaluation, StepProjection step_projection, bool projecting) {
  retire();
  made_for_ = &evaluation;
  made_step_projection_ = step_projection;
  made_projecting_ = projecting;
  const SimulationOptions& options = settings_.options;
  const ModelDae& dae = evaluation.dae();
  const auto& index1 = evaluation.index1();
  const std::size_t N = index1.unknowns.size();
  const std::vector<double>& nominal = evaluation.nominal();
  IntegratorOptions io;
  io.rtol = settings_.rtol;
  io.atol.resize(nominal.size());
  for (std::size_t k = 0; k < io.atol.size(); ++k) io.atol[k] = settings_.atol * nominal[k];
  io.id = index1.ida_id();
  // A restored run (adopt): what the run it continues learned, for this make() only.
  std::optional<SessionLearned> adopted = std::exchange(adopted_, std::nullopt);
  // The OpenModelica form's incidence cannot tell x from ẋ (one value
  // reference for both): every unknown stays in the test there. The mask
  // depends on the structure alone, which a restored run shares with the run
  // it continues: taken from that run (an O(nnz·√N) matching saved).
  error_test_.reset();
  if (!dae.state_stands_for_derivative) {
    if (adopted && adopted->error_test && adopted->error_test->size() == N)
      error_test_ = adopted->error_test;
    else
      error_test_ = std::make_shared<const std::vector<double>>(error_test_mask(evaluation.system(), index1));
    io.error_test = *error_test_;
  }
  if (const auto left_out = std::count(io.error_test.begin(), io.error_test.end(), 0.0);
      left_out > 0 && !std::exchange(error_test_logged_, true)) {
    std::string names;
    std::size_t shown = 0;
    for (std::size_t k = 0; k < N && shown < 5; ++k)
      if (io.error_test[k] == 0.0) names += (shown++ > 0 ? ", " : "") + evaluation.unknown_name(k);
    log_info(evaluation.model().display_name() + ": IDA's error test leaves out " + std::to_string(left_out) +
             " algebraic unknown(s) that follow from state derivatives (" + names + (left_out > 5 ? ", ..." : "") +
             "); they are solved at every step, and their output rows interpolated");
  }
  io.nominal = nominal;
  io.max_steps_per_output = options.max_steps;
  // Without unknowns IDA's steps only grow (its clock has no error): keep
  // them to an output interval so that an event indicator cannot cross
  // zero and back inside one step unseen.
  io.max_step = options.max_step > 0 ? options.max_step : (N == 0 ? settings_.interval : 0.0);
  io.newton_dcj = options.newton_dcj;

  io.ordering = settings_.klu_ordering();
  io.threads = evaluation.instance_count();
  io.linear_solver = options.dense_linear_solver ? LinearSolverKind::dense
                     : options.klu_64bit_indices ? LinearSolverKind::klu64
                                                 : LinearSolverKind::klu;
  io.keep_klu_analysis = options.keep_klu_analysis;
  io.jacobian_reuse = options.jacobian_reuse;
  jacobian_constants_ = {};
  varying_coloring_.reset();
  // The FMU's claims are checked before anything relies on them: its
  // directional derivatives and pattern once (at the start), the kinds of
  // its entries at every make() (the start, a restart after an event, a new
  // selection), before the elimination plan and the constant entries use them.
  if (!options.uncolored_jacobian) check_derivative_claims(evaluation);
  if (!directional_)
    for (std::size_t i = 0; i < evaluation.instance_count(); ++i) evaluation.residual(i).distrust_directional();
  io.jacobian = directional_ ? JacobianSource::directional : JacobianSource::finite_differences;
  augment_pattern(evaluation);
  const structure::Pattern& iteration = evaluation.structure().iteration;
  // Directional derivatives only: constants taken once by finite differences
  // carry that one evaluation's rounding for the whole run, which moved
  // event-sensitive runs (the Reference FMUs' BouncingBall coming to rest
  // takes one more event); finite-difference Jacobians stay as they were.
  // With wrong directional derivatives in some columns, the constants of the
  // others (whose derivatives were found right) are kept; the wrong columns'
  // entries vary (keep_constants_of_right_columns).
  const bool mixed = mark_wrong_columns(evaluation);
  const std::shared_ptr<const DeclaredKinds> declared = std::exchange(declared_, nullptr);  // this make() only
  const bool constants = options.constant_jacobian_entries && !options.uncolored_jacobian && directional_;
  std::optional<kernels::ConstantEntries> checked;
  // Without constant entries or an elimination nothing relies on the kinds:
  // they are still checked once, so that a false one is named.
  // An elimination is possible only on the plain index-1 system
  // (may_eliminate): runs with dummy derivatives or projection check the
  // kinds once, as with --eliminate off.
  const bool eliminable = may_eliminate(evaluation, projecting);
  // A restored run (adopt): the kinds as the run it continues had them,
  // checked at that run's start, not again here.
  const bool kinds_adopted =
      adopted && adopted->kinds && constants && adopted->kinds->lifetime.size() == iteration.nnz();
  if (kinds_adopted) {
    checked = *adopted->kinds;  // the session's own copy (recheck_claims changes it); the snapshots share theirs
    shared_kinds_ = adopted->kinds;
  } else if (constants || eliminable ||
             (!std::exchange(kinds_checked_, true) && !options.uncolored_jacobian)) {
    // create() classified them already when it counted the instances.
    checked = declared && declared->iteration == iteration
                  ? declared->kinds
                  : classify_jacobian_entries(dae, evaluation.system(), index1, iteration);
    distrust_false_constants(evaluation, iteration, *checked, t_, y_, yp_, options.jacobian_claims,
                             reported_claims_);
    distrust_reported_claims(evaluation, iteration, *checked);
  }
  // With the kinds adopted the plan is the one the run it continues made:
  // where that run declined an elimination, it is not planned again.
  const bool eliminating = plan_elimination(evaluation, projecting, checked ? &*checked : nullptr,
                                            kinds_adopted && adopted->elimination_declined);
  full_kinds_.reset();
  if (eliminating && checked) full_kinds_ = *checked;
  // With an elimination the reduced system's entries are classified from the
  // full ones (classify_reduced_entries: constant where every entry that
  // makes them up is).
  if (constants) {
    jacobian_constants_ = std::move(*checked);
    if (mixed) keep_constants_of_right_columns(iteration);
    if (eliminating) jacobian_constants_ = classify_reduced_entries(jacobian_constants_, iteration, *elimination_);
    const structure::Pattern& pattern = eliminating ? elimination_->reduced : iteration;
    const std::vector<bool> constant = not_varying(jacobian_constants_);
    if (kinds_adopted && adopted->varying_coloring && !eliminating) {
      varying_coloring_ = *adopted->varying_coloring;
      shared_varying_coloring_ = adopted->varying_coloring;
    } else if (declared && !eliminating && declared->iteration == pattern && not_varying(declared->kinds) == constant) {
      varying_coloring_ = declared->varying;  // the claims check left the kinds as declared
    } else {
      varying_coloring_ = structure::color_varying_columns(pattern, constant);
    }
    if (varying_coloring_->constant_entries > 0) {
      io.constant_entries = &jacobian_constants_;
      io.varying_coloring = &varying_coloring_->coloring;
    }
  }
  // The claims checked again where Newton fails with fresh Jacobians
  // (jacobian_recheck.h); with an elimination on the full system at the
  // expanded point (recheck_claims_eliminated).
  const auto claimed = [](kernels::EntryLifetime l) { return l != kernels::EntryLifetime::varying; };
  const bool claimed_constants =
      eliminating ? full_kinds_ && std::any_of(full_kinds_->lifetime.begin(), full_kinds_->lifetime.end(), claimed)
                  : io.constant_entries != nullptr;
  if (!options.uncolored_jacobian && options.jacobian_claims != JacobianClaims::trust &&
      ((claimed_constants && !constants_rechecked_) || (directional_ && !derivatives_rechecked_))) {
    newton_watch_ = {};
    io.before_jacobian = [this, &evaluation](const JacobianCall& call) { return recheck_claims(evaluation, call); };
  }
  if (directional_ && !eliminating && !augmented_) io.finite_difference_columns = &finite_difference_columns_;
  if (step_projection) io.step_projection = std::move(step_projection);
  io.names.row_name = [&evaluation](std::size_t k) { return evaluation.row_name(k); };
  io.names.unknown_name = [&evaluation](std::size_t k) { return evaluation.unknown_name(k); };
  io.names.row_value_name = [&evaluation](std::size_t k) { return evaluation.row_value_name(k); };
  io.names.explain_failure = [&evaluation] { return evaluation.discard_report(); };
  const bool io_constants = io.constant_entries != nullptr;
  if (eliminating) {
    std::vector<kernels::ResidualFunction*> pool;
    for (auto& r : reduced_residuals_) pool.push_back(r.get());
    io.expansion = reduced_residuals_[0].get();
    integrator_ = std::make_unique<IdaIntegrator>(*reduced_residuals_[0], pool, elimination_->reduced,
                                                  reduced_coloring_, std::move(io));
  } else {
    integrator_ = std::make_unique<IdaIntegrator>(evaluation.residual(0), evaluation.residual_pool(),
                                                  augmented_ ? *augmented_ : iteration,
                                                  augmented_ ? augmented_coloring_ : *evaluation.structure().coloring,
                                                  std::move(io));
  }
  // The previous scenario's analysis (reset()), when it fits this pattern;
  // else it goes, and KLU analyses as usual.
  if (carried_klu_analysis_) {
    integrator_->adopt_klu_analysis(carried_klu_analysis_);
    carried_klu_analysis_.reset();
  }
  if (kinds_adopted && adopted->run_constants && !eliminating && io_constants) {
    integrator_->adopt_run_constants(*adopted->run_constants);
    run_constants_ = adopted->run_constants;
  }
  if (settings_.indicators > 0) {
    integrator_->set_root_function(settings_.indicators,
                                   [&evaluation, this](double tt, std::span<const double> yy,
                                                       std::span<const double> yyp, std::span<double> g) {
                                     const int status = evaluation.event_indicators(tt, yy, yyp, g);
                                     if (status == 0) indicator_domains_.map(tt, g);  // FMI's domains, not IDA's zeros
                                     return status;
                                   });
  }
}

bool IntegrationSession::plan_elimination(ModelEvaluation& evaluation, bool projecting,
                                          const kernels::ConstantEntries* checked, bool declined_before) {
  reduced_residuals_.clear();
  elimination_.reset();
  elimination_declined_ = false;
  const ModelDae& dae = evaluation.dae();
  const auto& index1 = evaluation.index1();
  const structure::Pattern& iteration = evaluation.structure().iteration;
  // Not after the elimination failed once, nor when the FMU's claims the
  // plan relies on (its pattern, its directional derivatives) proved false.
  // Event indicators are no obstacle: the reduced system's longer steps are
  // scanned for crossings inside them like any other (ida_interior_roots.cpp;
  // SliderCrank_dae, eliminated, used to step over its second latch).
  if (!may_eliminate(evaluation, projecting) || elimination_given_up_ || !hidden_dependencies_.empty() ||
      !wrong_unknowns_.empty())
    return false;
  if (declined_before) return elimination_declined_ = true, false;
  structure::LinearElimination plan = plan_model_elimination(dae, evaluation.system(), index1, iteration, checked);
  // Everything eliminated (a purely algebraic linear model) would leave IDA
  // its internal clock alone: nothing gained, so nothing is eliminated.
  if (!plan.any() || plan.kept.empty()) return elimination_declined_ = true, false;
  // Cost model (issue 30): every residual of the reduced system evaluates
  // the full one and moves full-length vectors (eliminated_residual.h), so
  // it costs what the full residual costs and a little more; what it saves
  // is IDA's and KLU's work on the eliminated unknowns. A few eliminated
  // among many save nothing and pay the extra: case13659pegase, 10 of 35 502
  // (0.03 %), ran 1.33× slower; TransmissionLine N = 1280, 3 841 of 6 403
  // (60 %), 1.75× faster. Below kMinEliminatedShare nothing is eliminated.
  if (!elimination_pays(plan.eliminated.size(), index1.unknowns.size())) {
    log_info(evaluation.model().display_name() + ": " + std::to_string(plan.eliminated.size()) + " of " +
             std::to_string(index1.unknowns.size()) + " unknowns could be eliminated, fewer than " +
             std::to_string(static_cast<int>(kMinEliminatedShare * 100)) +
             " %: the reduced residual would cost more than IDA saves, so none is");
    return elimination_declined_ = true, false;
  }
  // The second rule: the reduced Jacobian must not need more colours than the
  // full one. A partial Kron reduction of a network (PowerGrid case9: 8 → 10
  // colours, case39: 12 → 24) fills the machine buses' columns so that each
  // Jacobian costs more FMU calls, and its step count moves either way
  // (docs/performance.md, "--eliminate auto by default"); the
  // TransmissionLine's elimination leaves the ODE form (4 → 3 colours).
  structure::Coloring reduced_coloring = structure::color_columns(plan.reduced);
  if (const std::size_t full_colors = evaluation.structure().coloring->colors; reduced_coloring.colors > full_colors) {
    log_info(evaluation.model().display_name() + ": " + std::to_string(plan.eliminated.size()) +
             " unknowns could be eliminated, but the reduced Jacobian would need " +
             std::to_string(reduced_coloring.colors) + " colours instead of " + std::to_string(full_colors) +
             ": none is");
    return elimination_declined_ = true, false;
  }
  elimination_ = std::move(plan);
  elimination_z_coloring_ = structure::color_columns(elimination_->z_columns);
  reduced_coloring_ = std::move(reduced_coloring);
  for (std::size_t i = 0; i < evaluation.instance_count(); ++i)
    reduced_residuals_.push_back(std::make_unique<EliminatedResidual>(
        evaluation.residual(i), *elimination_, elimination_z_coloring_, evaluation.nominal(),
        [&evaluation](std::size_t k) { return evaluation.unknown_name(k); }));
  for (auto& r : reduced_residuals_) r->share_coefficients_of(reduced_residuals_[0].get());
  log_info(evaluation.model().display_name() + ": " + std::to_string(elimination_->eliminated.size()) +
           " linear algebraic unknown(s) eliminated in " + std::to_string(elimination_->blocks) +
           " block(s); IDA integrates " + std::to_string(elimination_->kept.size()) + " of " +
           std::to_string(index1.unknowns.size()) + " unknowns (Jacobian " +
           std::to_string(elimination_->reduced.nnz()) + " nonzeros, " + std::to_string(reduced_coloring_.colors) +
           " colours)");
  return true;
}

bool IntegrationSession::may_eliminate(const ModelEvaluation& evaluation, bool projecting) const {
  // Only the plain index-1 system: dummy derivatives re-select at run time
  // and projection moves IDA's point inside its steps; the OpenModelica
  // form's incidence cannot tell x from ẋ (elimination_not_planned); the
  // benchmark baselines (--no-coloring) stay as they are.
  const SimulationOptions& options = settings_.options;
  return options.eliminate_linear && !options.uncolored_jacobian && !projecting &&
         elimination_not_planned(evaluation.dae(), evaluation.index1()).empty();
}

void IntegrationSession::restart(double at, bool after_event) { start_consistent(at, true, after_event); }

bool IntegrationSession::try_restart(double at, bool after_event) { return start_consistent(at, false, after_event); }

void IntegrationSession::give_up_elimination_if_it_fails(double at) {
  if (reduced_residuals_.empty() || reduced_residuals_[0]->prepared() || made_for_ == nullptr) return;
  const auto& kept = elimination_->kept;
  std::vector<double> y_kept(kept.size()), yp_kept(kept.size());
  for (std::size_t i = 0; i < kept.size(); ++i) y_kept[i] = y_[kept[i]], yp_kept[i] = yp_[kept[i]];
  const std::optional<std::string> why = reduced_residuals_[0]->prepare_at(at, y_kept, yp_kept);
  if (!why) return;
  elimination_given_up_ = true;
  ModelEvaluation& evaluation = *made_for_;
  log_info(evaluation.model().display_name() + ": " + *why + "; the elimination is given up for this run and IDA " +
           "integrates all " + std::to_string(evaluation.index1().unknowns.size()) + " unknowns");
  make(evaluation, made_step_projection_, made_projecting_);
}

bool IntegrationSession::start_consistent(double at, bool throw_on_failure, bool after_event) {
  give_up_elimination_if_it_fails(at);
  integrator_->start(at, y_, yp_);
  indicator_domains_.arm(at);  // IDA's first root evaluation is at this point
  integrator_->set_stop_time(stop_time_);
  // IDACalcIC takes the direction and scale of the first step from tout1; it
  // refuses a tout1 at t0 ("tout1 too close to t0"), which an event exactly at
  // the stop time would give. The point is then made consistent for its
  // post-event row only, so a tout1 one output interval ahead serves.
  const double interval = settings_.interval;
  double t_next = std::min(at + interval, settings_.t_stop);
  if (!(t_next - at > 1e-10 * std::max(1.0, std::fabs(at))))
    t_next = at + std::max(interval, 1e-6 * std::max(1.0, std::fabs(at)));
  if (!integrator_->make_consistent(t_next, throw_on_failure, after_event)) return false;
  std::copy(integrator_->y().begin(), integrator_->y().end(), y_.begin());
  std::copy(integrator_->yp().begin(), integrator_->yp().end(), yp_.begin());
  t_ = t_ida_ = at;
  return true;
}

StepOutcome IntegrationSession::step(double t_target) {
  StepOutcome outcome;
  try {
    stepping_ = true;
    outcome = integrator_->one_step(t_target);
    stepping_ = false;
  } catch (const ReplanWithoutElimination&) {  // a false claim the elimination relied on (recheck)
    stepping_ = false;
    replan_without_elimination();
    outcome = integrator_->one_step(t_target);
  } catch (...) {
    stepping_ = false;
    throw;
  }
  t_ida_ = integrator_->time();
  return outcome;
}

void IntegrationSession::set_point(std::vector<double> y, std::vector<double> yp) {
  y_ = std::move(y);
  yp_ = std::move(yp);
}

void IntegrationSession::keep_point() {
  std::copy(integrator_->y().begin(), integrator_->y().end(), y_.begin());
  std::copy(integrator_->yp().begin(), integrator_->yp().end(), yp_.begin());
  t_ = t_ida_ = integrator_->time();
}

void IntegrationSession::interpolate_to(double t) {
  integrator_->interpolate(t, y_, yp_);
  t_ = t;
}

IntegratorStats IntegrationSession::stats() const {
  IntegratorStats s = finished_;
  if (integrator_) s += integrator_->stats();
  return s;
}

KluAnalysisPtr IntegrationSession::hand_over_klu_analysis() {
  KluAnalysisPtr analysis = std::move(carried_klu_analysis_);
  if (integrator_ && settings_.options.keep_klu_analysis) {
    if (auto mine = integrator_->release_klu_analysis()) analysis = std::move(mine);
  }
  return analysis;
}

SessionLearned IntegrationSession::learned() const {
  SessionLearned l;
  l.derivatives_checked = derivatives_checked_;
  l.kinds_checked = kinds_checked_;
  l.constants_rechecked = constants_rechecked_;
  l.derivatives_rechecked = derivatives_rechecked_;
  l.directional = directional_;
  l.reported_claims = reported_claims_;
  l.wrong_unknowns = wrong_unknowns_;
  l.hidden_dependencies = hidden_dependencies_;
  l.error_test = error_test_;
  l.elimination_declined = elimination_declined_;
  if (!elimination_ && varying_coloring_ && !jacobian_constants_.lifetime.empty()) {
    // Shared with the snapshots before while they are the same (O(entries)
    // to compare, where a copy per snapshot cost as much and kept it).
    if (!shared_kinds_ || *shared_kinds_ != jacobian_constants_)
      shared_kinds_ = std::make_shared<const kernels::ConstantEntries>(jacobian_constants_);
    l.kinds = shared_kinds_;
    if (!shared_varying_coloring_ || *shared_varying_coloring_ != *varying_coloring_)
      shared_varying_coloring_ = std::make_shared<const structure::VaryingColoring>(*varying_coloring_);
    l.varying_coloring = shared_varying_coloring_;
    if (integrator_) {
      auto values = integrator_->run_constants();
      if (values.taken) {
        if (!run_constants_ || !(*run_constants_ == values))
          run_constants_ = std::make_shared<const kernels::CompressedJacobian::RunConstants>(std::move(values));
        l.run_constants = run_constants_;
      }
    }
  }
  return l;
}

void IntegrationSession::adopt(const SessionLearned& learned) {
  derivatives_checked_ = learned.derivatives_checked;
  kinds_checked_ = learned.kinds_checked;
  constants_rechecked_ = learned.constants_rechecked;
  derivatives_rechecked_ = learned.derivatives_rechecked;
  directional_ = learned.directional;
  reported_claims_ = learned.reported_claims;
  wrong_unknowns_ = learned.wrong_unknowns;
  hidden_dependencies_ = learned.hidden_dependencies;
  adopted_ = learned;
}

}  // namespace lsdae::simulation
