// runtime/simulation/model_residual.cpp -- see model_residual.h.
#include "simulation/model_residual.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "lsdae/error.h"

namespace lsdae::simulation {

using structure::UnknownKind;

ModelResidual::ModelResidual(Instance& instance, const ModelDae& dae, const structure::DaeSystem& system,
                         const structure::Index1System& index1)
    : instance_(instance),
      fully_implicit_(dae.fully_implicit),
      state_stands_for_derivative_(dae.state_stands_for_derivative),
      unknowns_(index1.unknowns),
      synthesis_(instance, dae, state_nominals(instance.model_description(), dae)) {
  const std::size_t n = dae.state_vrs.size(), m = dae.algebraic_vrs.size();
  constexpr std::size_t none = structure::no_index;
  x_from_.assign(n, none);
  xdot_from_.assign(n, none);
  xdot_in_yp_.assign(n, false);
  z_from_.assign(m, none);
  for (std::size_t k = 0; k < unknowns_.size(); ++k) {
    const auto& u = unknowns_[k];
    switch (u.kind) {
      case UnknownKind::differential: x_from_[u.index] = k; xdot_from_[u.index] = k; xdot_in_yp_[u.index] = true; break;
      case UnknownKind::dummy_state: x_from_[u.index] = k; break;
      case UnknownKind::dummy_derivative: xdot_from_[u.index] = k; break;
      case UnknownKind::algebraic: z_from_[u.index] = k; break;
    }
  }
  for (std::size_t i = 0; i < n; ++i)
    if (x_from_[i] == none || xdot_from_[i] == none)
      throw Error(ErrorKind::internal, "simulation: state " + std::to_string(i) + " has no IDA unknown");
  for (std::size_t j = 0; j < m; ++j)
    if (z_from_[j] == none)
      throw Error(ErrorKind::internal, "simulation: algebraic variable " + std::to_string(j) + " has no IDA unknown");
  for (const auto& e : index1.rows) {
    if (e.kind == structure::EquationRef::Kind::invariant) {
      invariant_row_invariant_.push_back(e.id);
      invariant_row_.push_back(rows_.size());
      invariant_offset_.push_back(0.0);
      rows_.push_back({RowKind::model_variable, row_vrs_.size()});
      row_vrs_.push_back(dae.invariant_vrs.at(e.id));
      continue;
    }
    std::size_t g = system.formulation_group[e.id];
    std::size_t level = system.level_of(e.id);
    std::size_t source = system.group_source[g];
    if (system.group_kind[g] == structure::GroupKind::state_equation) {
      if (level != 0)
        throw Error(ErrorKind::internal, "simulation: a differentiated state equation has no FMU variable");
      rows_.push_back({RowKind::state_equation, source});
    } else if (dae.is_synthesized(source, level)) {
      rows_.push_back({RowKind::synthesized, synthesis_.add_row(source, level)});
    } else {
      rows_.push_back({RowKind::model_variable, row_vrs_.size()});
      row_vrs_.push_back(dae.residual_vrs.at(source).at(level));
    }
  }
  synth_values_.resize(synthesis_.rows());
  state_vrs_ = dae.state_vrs;
  derivative_vrs_ = dae.derivative_vrs;
  algebraic_vrs_ = dae.algebraic_vrs;
  x_.resize(n);
  xdot_.resize(n);
  z_.resize(m);
  row_values_.resize(row_vrs_.size());
  f_.resize(n);
  // Directional derivatives: unknowns are fixed; knowns grow to at most 2n + m.
  unknown_vrs_ = row_vrs_;
  if (!fully_implicit_) unknown_vrs_.insert(unknown_vrs_.end(), derivative_vrs_.begin(), derivative_vrs_.end());
  sensitivity_.resize(unknown_vrs_.size());
  asked_vrs_.reserve(rows_.size());
  known_vrs_.reserve(2 * n + m);
  seeds_.reserve(2 * n + m);
  direct_.resize(n);

  natural_unknowns_ = unknowns_.size() == n + m;
  for (std::size_t k = 0; k < unknowns_.size() && natural_unknowns_; ++k)
    natural_unknowns_ = k < n ? unknowns_[k] == structure::IdaUnknown{UnknownKind::differential, k}
                              : unknowns_[k] == structure::IdaUnknown{UnknownKind::algebraic, k - n};
  while (state_rows_ < rows_.size() && rows_[state_rows_].kind == RowKind::state_equation &&
         rows_[state_rows_].index == state_rows_)
    ++state_rows_;
  natural_rows_ = state_rows_ + row_vrs_.size() == rows_.size();
  for (std::size_t k = state_rows_; k < rows_.size() && natural_rows_; ++k)
    natural_rows_ = rows_[k].kind == RowKind::model_variable && rows_[k].index == k - state_rows_;
}

void ModelResidual::set_invariant_values(std::span<const double> per_invariant) {
  for (std::size_t i = 0; i < invariant_row_.size(); ++i)
    invariant_offset_[i] = invariant_row_invariant_[i] < per_invariant.size()
                               ? per_invariant[invariant_row_invariant_[i]]
                               : 0.0;
}

void ModelResidual::states_from(std::span<const double> y, std::span<const double> yp, std::span<double> x,
                              std::span<double> xdot) const {
  for (std::size_t i = 0; i < x_from_.size(); ++i) {
    x[i] = y[x_from_[i]];
    xdot[i] = xdot_in_yp_[i] ? yp[xdot_from_[i]] : y[xdot_from_[i]];
  }
}

kernels::EvalStatus ModelResidual::apply(double t, std::span<const double> y, std::span<const double> yp) {
  auto fail = [](CallStatus s) { return s == CallStatus::discard; };
  if (natural_unknowns_) {
    const std::size_t n = x_.size(), m = z_.size();
    if (fail(instance_.set_time(t))) return kernels::EvalStatus::recoverable;
    if (inputs_ != nullptr && fail(inputs_->apply(instance_, t, false))) return kernels::EvalStatus::recoverable;
    if (n > 0 && fail(instance_.set_continuous_states(y.first(n)))) return kernels::EvalStatus::recoverable;
    if (m > 0 && fail(instance_.set_float64(algebraic_vrs_, y.subspan(n, m)))) return kernels::EvalStatus::recoverable;
    if (fully_implicit_ && n > 0 && fail(instance_.set_float64(derivative_vrs_, yp.first(n))))
      return kernels::EvalStatus::recoverable;
    return kernels::EvalStatus::ok;
  }
  states_from(y, yp, x_, xdot_);
  for (std::size_t j = 0; j < z_.size(); ++j) z_[j] = y[z_from_[j]];
  if (fail(instance_.set_time(t))) return kernels::EvalStatus::recoverable;
  if (inputs_ != nullptr && fail(inputs_->apply(instance_, t, false))) return kernels::EvalStatus::recoverable;
  if (!x_.empty() && fail(instance_.set_continuous_states(x_))) return kernels::EvalStatus::recoverable;
  if (!z_.empty() && fail(instance_.set_float64(algebraic_vrs_, z_))) return kernels::EvalStatus::recoverable;
  if (fully_implicit_ && !xdot_.empty() && fail(instance_.set_float64(derivative_vrs_, xdot_)))
    return kernels::EvalStatus::recoverable;
  return kernels::EvalStatus::ok;
}

kernels::EvalStatus ModelResidual::residual(double t, std::span<const double> y, std::span<const double> yp,
                                          std::span<double> r) {
  ++calls_;
  if (!synthesis_.empty()) {
    states_from(y, yp, x_, xdot_);
    if (auto s = synthesis_.evaluate(t, x_, xdot_, synth_values_); s != kernels::EvalStatus::ok) return s;
  }
  if (auto s = apply(t, y, yp); s != kernels::EvalStatus::ok) return s;
  if (natural_unknowns_ && natural_rows_) {
    // Residual variables straight into r; state equations ẋ − f from y' (ẋ_i = y'_i here).
    if (!row_vrs_.empty() &&
        instance_.get_float64(row_vrs_, r.subspan(state_rows_, row_vrs_.size())) == CallStatus::discard)
      return kernels::EvalStatus::recoverable;
    if (state_rows_ > 0) {
      if (instance_.get_continuous_state_derivatives(f_) == CallStatus::discard)
        return kernels::EvalStatus::recoverable;
      for (std::size_t i = 0; i < state_rows_; ++i) r[i] = yp[i] - f_[i];
    }
    for (std::size_t i = 0; i < invariant_row_.size(); ++i) r[invariant_row_[i]] -= invariant_offset_[i];
    return kernels::EvalStatus::ok;
  }
  if (natural_unknowns_ && synthesis_.empty())  // apply() skipped the gather: the state rows below read ẋ from xdot_
    std::copy(yp.begin(), yp.begin() + static_cast<std::ptrdiff_t>(xdot_.size()), xdot_.begin());
  if (!row_vrs_.empty() && instance_.get_float64(row_vrs_, row_values_) == CallStatus::discard)
    return kernels::EvalStatus::recoverable;
  if (!fully_implicit_ && !f_.empty() &&
      instance_.get_continuous_state_derivatives(f_) == CallStatus::discard)
    return kernels::EvalStatus::recoverable;
  for (std::size_t k = 0; k < rows_.size(); ++k) {
    const Row& row = rows_[k];
    switch (row.kind) {
      case RowKind::model_variable: r[k] = row_values_[row.index]; break;
      case RowKind::state_equation: r[k] = xdot_[row.index] - f_[row.index]; break;
      case RowKind::synthesized: r[k] = synth_values_[row.index]; break;
    }
  }
  for (std::size_t i = 0; i < invariant_row_.size(); ++i) r[invariant_row_[i]] -= invariant_offset_[i];
  return kernels::EvalStatus::ok;
}

bool ModelResidual::known_derivative_part(std::vector<DerivativeEntry>& out) const {
  if (fully_implicit_ || state_stands_for_derivative_ || !synthesis_.empty()) return false;
  for (std::size_t k = 0; k < rows_.size(); ++k)
    if (rows_[k].kind == RowKind::state_equation && xdot_in_yp_[rows_[k].index])
      out.push_back({k, xdot_from_[rows_[k].index], 1.0});
  return true;
}

kernels::EvalStatus ModelResidual::jacobian_columns(double t, std::span<const double> y, std::span<const double> yp,
                                                  double cj, std::span<const std::size_t> columns,
                                                  std::span<double> jv) {
  return jacobian_columns_split(t, y, yp, 1.0, cj, columns, jv);
}

kernels::EvalStatus ModelResidual::jacobian_columns_split(double t, std::span<const double> y,
                                                        std::span<const double> yp, double y_seed, double yp_seed,
                                                        std::span<const std::size_t> columns, std::span<double> jv) {
  return directional(t, y, yp, y_seed, yp_seed, columns, {}, false, jv);
}

kernels::EvalStatus ModelResidual::jacobian_columns_at_rows(double t, std::span<const double> y,
                                                          std::span<const double> yp, double y_seed, double yp_seed,
                                                          std::span<const std::size_t> columns,
                                                          std::span<const std::size_t> rows, bool same_point,
                                                          std::span<double> jv) {
  return directional(t, y, yp, y_seed, yp_seed, columns, rows, same_point, jv);
}

kernels::EvalStatus ModelResidual::directional(double t, std::span<const double> y, std::span<const double> yp,
                                               double y_seed, double yp_seed, std::span<const std::size_t> columns,
                                               std::span<const std::size_t> rows, bool same_point,
                                               std::span<double> jv) {
  if (!synthesis_.empty())  // has_jacobian_columns() is false
    throw Error(ErrorKind::internal, "simulation: directional derivatives requested for synthesized rows");
  if (state_stands_for_derivative_)  // Fmu::directional_derivatives_available() is false for this form
    throw Error(ErrorKind::internal, "simulation: directional derivatives requested for the OpenModelica form, "
                                     "where a state's value reference stands for x and ẋ");
  if (!same_point)
    if (auto s = apply(t, y, yp); s != kernels::EvalStatus::ok) return s;
  known_vrs_.clear();
  seeds_.clear();
  std::fill(direct_.begin(), direct_.end(), 0.0);
  // A known seeded with 0 is left out: it adds nothing (the split passes).
  auto seed = [&](ValueReference vr, double value) {
    if (value == 0.0) return;
    known_vrs_.push_back(vr);
    seeds_.push_back(value);
  };
  for (std::size_t k : columns) {
    const auto& u = unknowns_[k];
    switch (u.kind) {
      case UnknownKind::differential:
        seed(state_vrs_[u.index], y_seed);
        if (fully_implicit_) seed(derivative_vrs_[u.index], yp_seed);
        else direct_[u.index] = yp_seed;
        break;
      case UnknownKind::dummy_state: seed(state_vrs_[u.index], y_seed); break;
      case UnknownKind::dummy_derivative:
        if (fully_implicit_) seed(derivative_vrs_[u.index], y_seed);
        else direct_[u.index] = y_seed;
        break;
      case UnknownKind::algebraic: seed(algebraic_vrs_[u.index], y_seed); break;
    }
  }
  const std::size_t f_offset = row_vrs_.size();
  // The unknown (a position in unknown_vrs_) whose sensitivity row k reads.
  auto unknown_of = [&](const Row& row) {
    return row.kind == RowKind::model_variable ? row.index : f_offset + row.index;
  };
  // Every unknown asked (rows empty), or only those of `rows` (capacity
  // reserved: no allocation).
  const bool every_row = rows.empty();
  if (!every_row) {
    asked_vrs_.clear();
    for (std::size_t k : rows) asked_vrs_.push_back(unknown_vrs_[unknown_of(rows_[k])]);
  }
  const std::vector<ValueReference>& asked_vrs = every_row ? unknown_vrs_ : asked_vrs_;
  const std::span<double> asked(sensitivity_.data(), asked_vrs.size());
  if (known_vrs_.empty()) {
    std::fill(asked.begin(), asked.end(), 0.0);
  } else if (instance_.get_directional_derivative(asked_vrs, known_vrs_, seeds_, asked) == CallStatus::discard) {
    return kernels::EvalStatus::recoverable;
  }
  // Row k's value from its variable's sensitivity s (a state row ẋ − f: its own ẋ part less f's).
  auto store = [&](std::size_t k, double s) {
    const Row& row = rows_[k];
    jv[k] = row.kind == RowKind::model_variable ? s : direct_[row.index] - s;
  };
  if (every_row)
    for (std::size_t k = 0; k < rows_.size(); ++k) store(k, asked[unknown_of(rows_[k])]);
  else
    for (std::size_t i = 0; i < rows.size(); ++i) store(rows[i], asked[i]);
  return kernels::EvalStatus::ok;
}

}  // namespace lsdae::simulation
