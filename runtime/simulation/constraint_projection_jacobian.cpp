// runtime/simulation/constraint_projection_jacobian.cpp -- ConstraintProjector (constraint_projection.h):
// C and its Jacobian J over the moved columns at a point (directional
// derivatives per colour, or forward differences), the invariants' values, the violation.
#include "simulation/constraint_projection.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/format.h"
#include "lsdae/error.h"
#include "simulation/constraint_projection_messages.h"

namespace lsdae::simulation {

using structure::no_index;
namespace messages = projection_messages;

ConstraintProjector::Eval ConstraintProjector::read(double t, std::span<const double> y, std::span<const double> yp,
                                                    std::span<double> out) {
  if (synthesis_) {
    residual_.states_from(y, yp, x_work_, xdot_work_);
    if (synthesis_->evaluate(t, x_work_, xdot_work_, synth_values_) != kernels::EvalStatus::ok) return Eval::discard;
  }
  if (residual_.apply(t, y, yp) != kernels::EvalStatus::ok) return Eval::discard;
  if (!out.empty() && instance_.get_float64(vrs_, out) == CallStatus::discard) return Eval::discard;
  for (const auto& [constraint, slot] : synthesized_) out[constraint] = synth_values_[slot];
  if (!offset_.empty())
    for (std::size_t i = 0; i < out.size(); ++i) out[i] -= offset_[i];
  return Eval::ok;
}

void ConstraintProjector::set_invariant_values(std::span<const double> per_invariant) {
  offset_.assign(vrs_.size(), 0.0);
  bool any = false;
  for (std::size_t i = 0; i < vrs_.size(); ++i)
    if (invariant_of_[i] != structure::no_index && invariant_of_[i] < per_invariant.size()) {
      offset_[i] = per_invariant[invariant_of_[i]];
      any = true;
    }
  if (!any) offset_.clear();
}

double ConstraintProjector::violation(double t, std::span<const double> y, std::span<const double> yp) {
  if (y.size() != n_) throw Error(ErrorKind::usage, messages::wrong_size("y", y.size(), n_));
  if (yp.size() != n_) throw Error(ErrorKind::usage, messages::wrong_size("y'", yp.size(), n_));
  if (c_.empty()) return 0.0;
  if (read(t, y, yp, c_) == Eval::discard) return std::numeric_limits<double>::infinity();
  return max_abs();
}

ConstraintProjector::Eval ConstraintProjector::evaluate_jacobian(double t, std::span<const double> y,
                                                                 std::span<const double> yp,
                                                                 std::span<const double> weights) {
  const auto& col_ptr = pattern_.col_ptr();
  const auto& row_idx = pattern_.row_idx();
  if (directional_) {
    if (residual_.apply(t, y, yp) != kernels::EvalStatus::ok) return Eval::discard;
    for (std::size_t g = 0; g < coloring_.colors; ++g) {
      const auto group = coloring_.group(g);
      known_vrs_.clear();
      for (const std::size_t k : group) known_vrs_.push_back(moved_vrs_[k]);
      if (instance_.get_directional_derivative(vrs_, known_vrs_, std::span(seeds_).first(group.size()), scratch_) ==
          CallStatus::discard)
        return Eval::discard;
      // The columns of one colour share no row: row r's sensitivity is ∂C_r/∂(its column).
      for (const std::size_t k : group)
        for (std::size_t idx = col_ptr[k]; idx < col_ptr[k + 1]; ++idx) jac_[idx] = scratch_[row_idx[idx]];
    }
    return Eval::ok;
  }
  // Forward differences from c_, which holds C at (t, y, y').
  static const double sqrt_eps = std::sqrt(std::numeric_limits<double>::epsilon());
  std::copy(y.begin(), y.end(), y_work_.begin());
  for (std::size_t g = 0; g < coloring_.colors; ++g) {
    const auto group = coloring_.group(g);
    for (const std::size_t k : group) {
      const std::size_t u = moved_[k];
      const double nominal = options_.nominal.empty() ? 1.0 : options_.nominal[u];
      const double inc = sqrt_eps * std::max({std::fabs(y[u]), 1.0 / weights[u], nominal});
      y_work_[u] = y[u] + inc;
      increment_[k] = y_work_[u] - y[u];  // the increment actually represented
    }
    const Eval status = read(t, y_work_, yp, scratch_);
    for (const std::size_t k : group) y_work_[moved_[k]] = y[moved_[k]];
    if (status == Eval::discard) return status;
    for (const std::size_t k : group)
      for (std::size_t idx = col_ptr[k]; idx < col_ptr[k + 1]; ++idx)
        jac_[idx] = (scratch_[row_idx[idx]] - c_[row_idx[idx]]) / increment_[k];
  }
  return Eval::ok;
}

}  // namespace lsdae::simulation
