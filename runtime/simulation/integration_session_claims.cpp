// runtime/simulation/integration_session_claims.cpp -- the session's part of
// the checks of the FMU's claims (jacobian_claims.h, jacobian_recheck.h):
// the directional derivatives and the pattern at the start, the recheck where
// Newton fails with fresh Jacobians, the columns taken by finite differences,
// and the pattern with the hidden dependencies added. See integration_session.h.
#include <algorithm>
#include <map>
#include <span>
#include <string>
#include <utility>

#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/log.h"
#include "simulation/integration_session.h"
#include "simulation/jacobian_claims.h"
#include "simulation/jacobian_constancy.h"
#include "simulation/jacobian_cost.h"
#include "structure/coloring_varying.h"

namespace lsdae::simulation {
namespace {

// --jacobian auto's cost rule (jacobian_cost.h): whether finite differences
// are the cheaper Jacobian for this run. Measured first with every colour:
// a directional Jacobian of fewer colours costs no more, so where that one
// is not costlier (nearly always) the run is decided without more work. Only
// otherwise, where the run keeps constant entries, its directional Jacobians
// evaluate only the varying colours (by the entries' declared kinds, checked
// later: an estimate): those are coloured and measured again. Logs the choice.
bool finite_differences_cheaper(ModelEvaluation& evaluation, double t, std::span<const double> y,
                                std::span<const double> yp, bool constant_entries, bool mixed) {
  const structure::Coloring& full = *evaluation.structure().coloring;
  const ModelResidual::Uncounted uncounted(evaluation.residual(0));
  auto measure = [&](const structure::Coloring& directional) {
    const JacobianCosts costs =
        measure_jacobian_costs(evaluation.residual(0), directional, full, t, y, yp, evaluation.nominal());
    log_debug(evaluation.model().display_name() + ": one Jacobian by directional derivatives " +
              format_number(costs.directional) + " s (" + std::to_string(costs.directional_colours) +
              " calls), by finite differences " + format_number(costs.finite_differences) + " s (" +
              std::to_string(costs.colours) + " residual calls)");
    return directional_costs_more(costs);
  };
  std::string reason = measure(full);
  if (reason.empty()) return false;
  if (constant_entries && !mixed) {
    const structure::Pattern& iteration = evaluation.structure().iteration;
    const kernels::ConstantEntries kinds =
        classify_jacobian_entries(evaluation.dae(), evaluation.system(), evaluation.index1(), iteration);
    std::vector<bool> constant(iteration.nnz());
    for (std::size_t p = 0; p < constant.size(); ++p)
      constant[p] = kinds.lifetime[p] != kernels::EntryLifetime::varying;
    reason = measure(structure::color_varying_columns(iteration, constant).coloring);
    if (reason.empty()) return false;
  }
  log_info(evaluation.model().display_name() + ": --jacobian auto takes finite differences: " + reason +
           " → --jacobian directional uses the FMU's derivatives regardless");
  return true;
}

}  // namespace

void IntegrationSession::note_wrong_columns(ModelEvaluation& evaluation, const std::vector<std::size_t>& columns) {
  // By the unknown's name and its derivative's: a re-selection of dummy
  // derivatives can turn der(x) into an algebraic unknown of its own.
  for (const std::size_t c : columns) {
    const std::string name = evaluation.unknown_name(c);
    wrong_unknowns_.insert(name);
    wrong_unknowns_.insert("der(" + name + ")");
  }
}

void IntegrationSession::keep_constants_of_right_columns(const structure::Pattern& pattern) {
  if (jacobian_constants_.lifetime.size() != pattern.nnz() || finite_difference_columns_.size() != pattern.cols())
    return;
  const auto& col_ptr = pattern.col_ptr();
  for (std::size_t c = 0; c < pattern.cols(); ++c)
    if (finite_difference_columns_[c])
      for (std::size_t p = col_ptr[c]; p < col_ptr[c + 1]; ++p)
        jacobian_constants_.lifetime[p] = kernels::EntryLifetime::varying;
}

bool IntegrationSession::mark_wrong_columns(ModelEvaluation& evaluation) {
  finite_difference_columns_.clear();
  if (wrong_unknowns_.empty()) return false;
  const std::size_t n = evaluation.structure().iteration.cols();
  finite_difference_columns_.assign(n, false);
  bool any = false;
  for (std::size_t k = 0; k < n; ++k)
    if (const std::string name = evaluation.unknown_name(k);
        wrong_unknowns_.count(name) != 0 || wrong_unknowns_.count("der(" + name + ")") != 0)
      finite_difference_columns_[k] = any = true;
  return any;
}

void IntegrationSession::check_derivative_claims(ModelEvaluation& evaluation) {
  if (std::exchange(derivatives_checked_, true)) return;
  const SimulationOptions& options = settings_.options;
  // auto and check compare the FMU's directional derivatives; a forced
  // `directional` uses them as told, `fd` never calls them.
  const bool compare = options.jacobian == JacobianMode::automatic && options.jacobian_claims != JacobianClaims::trust;
  const DerivativeVerdict verdict =
      distrust_false_derivatives(evaluation, evaluation.structure().iteration, t_, y_, yp_, directional_,
                                 compare || options.jacobian_claims == JacobianClaims::refuse, options.jacobian_claims);
  directional_ = verdict.use_directional;
  if (directional_ && compare &&
      finite_differences_cheaper(evaluation, t_, y_, yp_, options.constant_jacobian_entries,
                                 !verdict.wrong_columns.empty())) {
    directional_ = false;
    // Finite differences for every colour: the directional derivatives' wrong
    // columns do not matter (and `hidden` is empty: a hidden dependency turns
    // the directional derivatives off before this rule is asked).
    return;
  }
  note_wrong_columns(evaluation, verdict.wrong_columns);
  for (const auto& [row, column] : verdict.hidden)
    hidden_dependencies_.emplace_back(evaluation.row_name(row), evaluation.unknown_name(column));
}

JacobianRevision IntegrationSession::recheck_claims(ModelEvaluation& evaluation, const JacobianCall& call) {
  JacobianRevision revision;
  const bool constants = !constants_rechecked_ &&
                         (elimination_ ? full_kinds_.has_value()
                                       : varying_coloring_ && varying_coloring_->constant_entries > 0);
  const bool derivatives = directional_ && !derivatives_rechecked_;
  if (!(constants || derivatives) || !newton_watch_.due(call)) return revision;
  if (elimination_) return recheck_claims_eliminated(evaluation, call, constants, derivatives);
  const SimulationOptions& options = settings_.options;
  const structure::Pattern& iteration = evaluation.structure().iteration;
  auto varying = [this] {
    return std::count(jacobian_constants_.lifetime.begin(), jacobian_constants_.lifetime.end(),
                      kernels::EntryLifetime::varying);
  };
  const auto varying_before = varying();
  if (constants) {
    constants_rechecked_ = true;
    distrust_false_constants(evaluation, iteration, jacobian_constants_, call.t, call.y, call.yp,
                             options.jacobian_claims, reported_claims_, true);
  }
  if (derivatives) {
    derivatives_rechecked_ = true;
    const DerivativeVerdict verdict = distrust_false_derivatives(evaluation, iteration, call.t, call.y, call.yp, true,
                                                                 true, options.jacobian_claims, true,
                                                                 finite_difference_columns_);
    if (!verdict.wrong_columns.empty()) {
      note_wrong_columns(evaluation, verdict.wrong_columns);
      mark_wrong_columns(evaluation);
      revision.finite_difference_columns_changed = true;
      // The wrong columns' constants were taken by their wrong derivatives:
      // they vary from here on; the other columns' stay.
      keep_constants_of_right_columns(iteration);
    }
  }
  if (varying() != varying_before) {
    std::vector<bool> constant(iteration.nnz());
    for (std::size_t p = 0; p < constant.size(); ++p)
      constant[p] = jacobian_constants_.lifetime[p] != kernels::EntryLifetime::varying;
    *varying_coloring_ = structure::color_varying_columns(iteration, constant);  // in place: the integrator holds it
    revision.constants_changed = true;
  }
  return revision;
}

JacobianRevision IntegrationSession::recheck_claims_eliminated(ModelEvaluation& evaluation, const JacobianCall& call,
                                                              bool constants, bool derivatives) {
  const structure::Pattern& iteration = evaluation.structure().iteration;
  const std::size_t n = iteration.cols();
  std::vector<double> y(n), yp(n);
  {
    const ModelResidual::Uncounted uncounted(evaluation.residual(0));
    if (reduced_residuals_[0]->expand(call.t, call.y, call.yp, y, yp) != kernels::EvalStatus::ok) return {};
  }
  const JacobianClaims mode = settings_.options.jacobian_claims;
  bool false_claim = false;
  if (constants) {
    constants_rechecked_ = true;
    const std::size_t reported_before = reported_claims_.size();
    const auto varying_before =
        std::count(full_kinds_->lifetime.begin(), full_kinds_->lifetime.end(), kernels::EntryLifetime::varying);
    distrust_false_constants(evaluation, iteration, *full_kinds_, call.t, y, yp, mode, reported_claims_, true);
    false_claim = reported_claims_.size() != reported_before ||
                  std::count(full_kinds_->lifetime.begin(), full_kinds_->lifetime.end(),
                             kernels::EntryLifetime::varying) != varying_before;
  }
  if (derivatives) {
    derivatives_rechecked_ = true;
    const DerivativeVerdict verdict = distrust_false_derivatives(evaluation, iteration, call.t, y, yp, true, true,
                                                                 mode, true);
    if (!verdict.wrong_columns.empty()) {
      note_wrong_columns(evaluation, verdict.wrong_columns);
      false_claim = true;
    }
  }
  // Only out of a step (step() catches it); elsewhere (IDACalcIC's Jacobians)
  // the next make() plans without what was found false.
  if (false_claim && stepping_) throw ReplanWithoutElimination{};
  return {};
}

void IntegrationSession::replan_without_elimination() {
  ModelEvaluation& evaluation = *made_for_;
  double at = integrator_->time();  // the last point IDA accepted (a failed attempt leaves it)
  try {
    integrator_->interpolate(at, y_, yp_);
  } catch (const Error&) {  // no step since the restart (IDA has no history yet): the restart point
    at = t_ida_;
  }
  elimination_given_up_ = true;
  log_info(evaluation.model().display_name() + ": a claim the linear elimination relies on was found false at t = " +
           format_number(at) + "; the elimination is given up for this run and IDA integrates all " +
           std::to_string(evaluation.index1().unknowns.size()) + " unknowns from there");
  make(evaluation, made_step_projection_, made_projecting_);
  start_consistent(at, true);
}

void IntegrationSession::distrust_reported_claims(ModelEvaluation& evaluation, const structure::Pattern& pattern,
                                                  kernels::ConstantEntries& kinds) const {
  if (reported_claims_.empty() || kinds.lifetime.size() != pattern.nnz()) return;
  const auto& col_ptr = pattern.col_ptr();
  const auto& row_idx = pattern.row_idx();
  for (std::size_t c = 0; c < pattern.cols(); ++c)
    for (std::size_t p = col_ptr[c]; p < col_ptr[c + 1]; ++p)
      if (kinds.lifetime[p] != kernels::EntryLifetime::varying &&
          reported_claims_.count(evaluation.row_name(row_idx[p]) + "/" + evaluation.unknown_name(c)) != 0)
        kinds.lifetime[p] = kernels::EntryLifetime::varying;
}

void IntegrationSession::augment_pattern(ModelEvaluation& evaluation) {
  augmented_.reset();
  if (hidden_dependencies_.empty()) return;
  const structure::Pattern& iteration = evaluation.structure().iteration;
  std::map<std::string, std::size_t> row_of, column_of;
  for (std::size_t k = 0; k < iteration.rows(); ++k) row_of[evaluation.row_name(k)] = k;
  for (std::size_t k = 0; k < iteration.cols(); ++k) column_of[evaluation.unknown_name(k)] = k;
  std::vector<std::vector<std::size_t>> rows(iteration.rows());
  for (std::size_t r = 0; r < iteration.rows(); ++r) {
    const auto columns = iteration.row(r);
    rows[r].assign(columns.begin(), columns.end());
  }
  std::size_t added = 0;
  for (const auto& [row, column] : hidden_dependencies_) {
    const auto r = row_of.find(row), c = column_of.find(column);
    if (r == row_of.end() || c == column_of.end()) continue;  // not in this index-1 system
    rows[r->second].push_back(c->second);
    ++added;
  }
  if (added == 0) return;
  augmented_ = structure::Pattern::from_rows(iteration.cols(), rows);
  augmented_coloring_ = structure::color_columns(*augmented_);
}

}  // namespace lsdae::simulation
