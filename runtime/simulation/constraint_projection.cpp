// runtime/simulation/constraint_projection.cpp -- ConstraintProjector (constraint_projection.h):
// the Newton projection (project), A = J D⁻¹ Jᵀ assembled and
// factorized, and what failures report. The other concerns: constraint_projection_messages.h.
#include "simulation/constraint_projection.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "common/format.h"
#include "lsdae/error.h"
#include "simulation/constraint_projection_messages.h"

namespace lsdae::simulation {

namespace messages = projection_messages;
using projection_messages::quoted;
using projection_messages::kPivotTolerance;
using projection_messages::kNearlySingular;

double ConstraintProjector::max_abs() const {
  double v = 0;
  for (const double c : c_) {
    if (std::isnan(c)) return c;
    v = std::max(v, std::fabs(c));
  }
  return v;
}

std::vector<std::size_t> ConstraintProjector::largest(double above) const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < c_.size(); ++i)
    if (!(std::fabs(c_[i]) <= above)) out.push_back(i);
  std::stable_sort(out.begin(), out.end(),
                   [&](std::size_t a, std::size_t b) { return std::fabs(c_[a]) > std::fabs(c_[b]); });
  return out;
}

std::vector<std::size_t> ConstraintProjector::factorize() {
  double* a = a_.valuePtr();
  std::fill(a, a + a_.nonZeros(), 0.0);
  for (std::size_t k = 0; k + 1 < pair_ptr_.size(); ++k)
    for (std::size_t q = pair_ptr_[k]; q < pair_ptr_[k + 1]; ++q) {
      const Pair& pr = pairs_[q];
      a[pr.slot] += jac_[pr.j_r] * jac_[pr.j_s] * d_inv_[k];
    }
  ldlt_.factorize(a_);
  // Dependent constraints: a zero W-gradient, or a collapsed pivot. Pivot q of
  // P·A·Pᵀ = L·D·Lᵀ belongs to constraint Pinv(q). SimplicialLDLT stops at an
  // exactly zero pivot (NumericalIssue); the pivots after it are not computed.
  std::vector<std::size_t> dependent;
  for (std::size_t i = 0; i < diagonal_slot_.size(); ++i)
    if (!(a[diagonal_slot_[i]] > 0)) dependent.push_back(i);
  const auto& pinv = ldlt_.permutationPinv().indices();
  const auto& d = ldlt_.vectorD();
  const bool complete = ldlt_.info() == Eigen::Success;
  for (Eigen::Index q = 0; q < d.size(); ++q) {
    const auto i = static_cast<std::size_t>(pinv(q));
    const double diagonal = a[diagonal_slot_[i]];
    if (!complete && d(q) != 0) continue;
    if (!(d(q) > kPivotTolerance * diagonal) && diagonal > 0) dependent.push_back(i);
    if (!complete) break;  // the first zero pivot; nothing after it was computed
  }
  if (!complete && dependent.empty())
    for (std::size_t i = 0; i < diagonal_slot_.size(); ++i) dependent.push_back(i);
  std::sort(dependent.begin(), dependent.end());
  dependent.erase(std::unique(dependent.begin(), dependent.end()), dependent.end());
  // The condition estimate of the equilibrated A (Jacobi-scaled, so the
  // constraints' units do not count): 1 / min_q d_q / A_ii, the smallest
  // relative pivot naming the weakest constraint.
  condition_ = {};
  if (!complete || !dependent.empty()) {
    condition_.condition = std::numeric_limits<double>::infinity();
    if (!dependent.empty()) condition_.weakest = dependent.front();
    return dependent;
  }
  double smallest = 1.0;
  for (Eigen::Index q = 0; q < d.size(); ++q) {
    const auto i = static_cast<std::size_t>(pinv(q));
    const double relative = d(q) / a[diagonal_slot_[i]];
    if (relative < smallest) smallest = relative, condition_.weakest = i;
  }
  condition_.condition = 1.0 / smallest;
  return dependent;
}

void ConstraintProjector::restore(std::span<double> y) const {
  for (std::size_t k = 0; k < moved_.size(); ++k) y[moved_[k]] = y_start_[k];
}

ProjectionResult ConstraintProjector::project(double t, std::span<double> y, std::span<const double> yp,
                                              std::span<const double> weights, double tolerance) {
  if (y.size() != n_) throw Error(ErrorKind::usage, messages::wrong_size("y", y.size(), n_));
  if (yp.size() != n_) throw Error(ErrorKind::usage, messages::wrong_size("y'", yp.size(), n_));
  if (weights.size() != n_) throw Error(ErrorKind::usage, messages::wrong_size("weights", weights.size(), n_));
  if (!(tolerance > 0 && std::isfinite(tolerance))) throw Error(ErrorKind::usage, messages::bad_tolerance(tolerance));
  ProjectionResult result;
  if (c_.empty()) return result;
  for (std::size_t k = 0; k < moved_.size(); ++k) {
    const double w = weights[moved_[k]];
    if (!(w > 0 && std::isfinite(w))) throw Error(ErrorKind::usage, messages::bad_weight(moved_[k], w));
    d_inv_[k] = 1.0 / (w * w);
    y_start_[k] = y[moved_[k]];
  }
  auto finite_or_throw = [&](double v) {
    if (std::isfinite(v)) return;
    std::size_t i = 0;
    while (std::isfinite(c_[i])) ++i;
    restore(y);
    throw Error(ErrorKind::solver, messages::not_finite(t, names_[i], c_[i]));
  };
  auto discarded = [&]() {
    restore(y);
    have_jacobian_ = false;
    result.projected = false;
    result.discarded = true;
    result.violation_after = result.violation_before;
    return result;
  };

  if (read(t, y, yp, c_) == Eval::discard) {
    result.discarded = true;
    return result;
  }
  double v = max_abs();
  finite_or_throw(v);
  result.violation_before = result.violation_after = v;
  if (v <= tolerance) return result;

  const double target = options_.target * tolerance;
  const auto& col_ptr = pattern_.col_ptr();
  const auto& row_idx = pattern_.row_idx();
  // A kept J (from an earlier call) needs only A with this call's weights.
  bool need_jacobian = !(options_.keep_jacobian && have_jacobian_);
  bool need_factorization = true;
  bool fresh = false;  // J was evaluated in this call
  bool converged = false;
  ConditionReport worst;  // over the Jacobians factorized in this call
  while (result.iterations < options_.max_iterations) {
    if (need_jacobian) {
      have_jacobian_ = false;
      if (evaluate_jacobian(t, y, yp, weights) == Eval::discard) return discarded();
      ++result.jacobians;
      need_jacobian = false;
      need_factorization = fresh = true;
    }
    if (need_factorization) {
      if (const std::vector<std::size_t> dependent = factorize(); !dependent.empty()) {
        if (!fresh) {  // a kept J gone stale: judge the constraints on a fresh one
          need_jacobian = true;
          continue;
        }
        restore(y);
        throw Error(ErrorKind::solver, messages::singular(t, quoted(names_, dependent), result.violation_before,
                                                          condition_.condition));
      }
      have_jacobian_ = true;
      need_factorization = false;
      if (condition_.condition > worst.condition) worst.condition = condition_.condition, worst.weakest = condition_.weakest;
    }
    // y ← y − D⁻¹Jᵀ A⁻¹ C(y)
    mu_ = ldlt_.solve(Eigen::Map<const Eigen::VectorXd>(c_.data(), static_cast<Eigen::Index>(c_.size())));
    if (result.iterations == 0) {
      // Constraint i's share of the correction, D⁻¹J_iᵀμ_i, has W-norm |μ_i|·sqrt(A_ii):
      // the largest names the constraint whose gradient is too small for its value.
      double share = -1;
      for (std::size_t i = 0; i < diagonal_slot_.size(); ++i) {
        const double s_i = std::fabs(mu_(static_cast<Eigen::Index>(i))) * std::sqrt(a_.valuePtr()[diagonal_slot_[i]]);
        if (s_i > share) share = s_i, worst.steepest = i;
      }
    }
    double increment = 0;  // Σ (w_k δ_k)²
    for (std::size_t k = 0; k < moved_.size(); ++k) {
      double s = 0;
      for (std::size_t idx = col_ptr[k]; idx < col_ptr[k + 1]; ++idx)
        s += jac_[idx] * mu_(static_cast<Eigen::Index>(row_idx[idx]));
      const double delta = d_inv_[k] * s;
      if (result.iterations == 0) {  // the first correction against the size of what it moves
        const double size = std::max(std::fabs(y[moved_[k]]), 1.0 / weights[moved_[k]]);
        worst.step_ratio = std::max(worst.step_ratio, std::fabs(delta) / size);
      }
      y[moved_[k]] -= delta;
      const double wd = weights[moved_[k]] * delta;
      increment += wd * wd;
    }
    ++result.iterations;
    if (options_.correction_tolerance > 0 &&
        std::sqrt(increment / static_cast<double>(n_)) <= options_.correction_tolerance) {
      converged = true;  // what is left of C is negligible against IDA's local error
      break;
    }
    if (read(t, y, yp, c_) == Eval::discard) return discarded();
    const double v_new = max_abs();
    finite_or_throw(v_new);
    if (v_new <= target) {
      v = v_new;
      converged = true;
      break;
    }
    if (v_new > options_.refresh_ratio * v) need_jacobian = true;  // slow contraction: J from here
    v = v_new;
  }
  if (!converged && options_.keep_jacobian && !fresh) {
    // A kept J that did not converge gets one more chance, fresh, from the start.
    restore(y);
    have_jacobian_ = false;
    return project(t, y, yp, weights, tolerance);
  }
  if (!converged) {
    have_jacobian_ = false;
    const std::vector<std::size_t> far = largest(target);
    restore(y);
    if (worst.condition >= kNearlySingular)
      throw Error(ErrorKind::solver, messages::nearly_singular(t, quoted(names_, {worst.weakest}), worst,
                                                               result.iterations, result.violation_before, v, target));
    if (worst.step_ratio >= kNearlySingular)
      throw Error(ErrorKind::solver, messages::nearly_singular(t, quoted(names_, {worst.steepest}),
                                                               worst, result.iterations, result.violation_before, v,
                                                               target));
    throw Error(ErrorKind::solver,
                messages::not_converged(t, result.iterations, quoted(names_, far), v, target, worst.condition));
  }
  result.condition = worst.condition;
  double sum = 0;
  for (std::size_t k = 0; k < moved_.size(); ++k) {
    const double e = weights[moved_[k]] * (y[moved_[k]] - y_start_[k]);
    sum += e * e;
  }
  result.projected = true;
  result.violation_after = v;
  result.correction = std::sqrt(sum / static_cast<double>(n_));
  return result;
}

}  // namespace lsdae::simulation
