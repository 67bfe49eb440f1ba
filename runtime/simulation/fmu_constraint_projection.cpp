// runtime/simulation/fmu_constraint_projection.cpp -- the FMU-declared
// constraint projection (fmu_constraint_projection.h).
#include "simulation/fmu_constraint_projection.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Dense>

#include "common/format.h"

namespace lsdae::simulation {

std::string to_string(FmuProjectionPath path) {
  switch (path) {
    case FmuProjectionPath::fmu_projection: return "the FMU's fmi2Projection";
    case FmuProjectionPath::jacobian: return "Gauss-Newton with fmi2ConstraintJacobian";
    case FmuProjectionPath::projection_step: return "Gauss-Newton with the FMU's fmi2ProjectionStep";
    case FmuProjectionPath::finite_differences: return "Gauss-Newton with finite differences of fmi2Constraint";
  }
  return "";
}

FmuConstraintProjector::FmuConstraintProjector(Instance& instance, std::size_t states, std::size_t max_constraints)
    : instance_(instance), nx_(states), max_(max_constraints), c_(max_constraints), jac_(max_constraints * states),
      c_plus_(max_constraints) {
  path_ = instance.has_projection()            ? FmuProjectionPath::fmu_projection
          : instance.has_constraint_jacobian() ? FmuProjectionPath::jacobian
          : instance.has_projection_step()     ? FmuProjectionPath::projection_step
                                               : FmuProjectionPath::finite_differences;
}

FmuConstraintValues FmuConstraintProjector::measure() {
  FmuConstraintValues v;
  v.active = instance_.number_of_constraints();
  if (v.active == 0) return v;
  if (instance_.constraints(c_) != CallStatus::ok) {
    v.discarded = true;
    return v;
  }
  for (std::size_t i = 0; i < v.active; ++i) {
    const double a = std::fabs(c_[i]);
    if (!(a <= v.violation)) v.violation = a, v.worst = i;  // NaN counts as the worst
  }
  return v;
}

bool FmuConstraintProjector::jacobian_at(std::span<double> x, std::size_t m) {
  if (path_ == FmuProjectionPath::jacobian) return instance_.constraint_jacobian(jac_) == CallStatus::ok;
  // Forward differences, one column per state; c_ holds C(x).
  const double root_eps = std::sqrt(std::numeric_limits<double>::epsilon());
  for (std::size_t j = 0; j < nx_; ++j) {
    const double keep = x[j];
    const double h = root_eps * std::max(std::fabs(keep), 1.0);
    x[j] = keep + h;
    const double step = x[j] - keep;
    instance_.set_continuous_states(x);
    const bool ok = instance_.constraints(c_plus_) == CallStatus::ok;
    x[j] = keep;
    if (!ok) {
      instance_.set_continuous_states(x);
      return false;
    }
    for (std::size_t i = 0; i < m; ++i) jac_[i * nx_ + j] = (c_plus_[i] - c_[i]) / step;
  }
  instance_.set_continuous_states(x);
  return true;
}

FmuProjectionResult FmuConstraintProjector::project(std::span<double> x, double target, std::size_t iteration_limit) {
  FmuProjectionResult r;
  const std::vector<double> start(x.begin(), x.end());
  auto finish = [&] {
    for (std::size_t j = 0; j < nx_; ++j) r.correction = std::max(r.correction, std::fabs(x[j] - start[j]));
    return r;
  };
  FmuConstraintValues v = measure();
  if (v.discarded) return r.failed = "fmi2Constraint returned fmi2Discard", r;
  r.violation_before = r.violation_after = v.violation;
  if (v.active == 0 || v.violation <= target) return r;
  if (path_ == FmuProjectionPath::fmu_projection) {
    std::vector<double> p(nx_, 0.0);
    if (instance_.projection(p, target, iteration_limit, true) != CallStatus::ok) {
      // The FMU leaves its states unchanged on Discard; make sure of it.
      instance_.set_continuous_states(x);
      return r.failed = "fmi2Projection returned fmi2Discard (tolerance " + format_number(target) + ", " +
                        std::to_string(iteration_limit) + " iterations at most)",
             r;
    }
    instance_.get_continuous_states(x);
    r.iterations = 1;
    v = measure();
    if (v.discarded) return r.failed = "fmi2Constraint returned fmi2Discard after fmi2Projection", finish();
    r.violation_after = v.violation;
    r.projected = true;
    if (!(v.violation <= target))
      r.failed = "after fmi2Projection, max|C| = " + format_number(v.violation) + " is still above " +
                 format_number(target);
    return finish();
  }
  while (true) {
    const std::size_t m = v.active;
    if (r.iterations >= iteration_limit) {
      r.failed = "Gauss-Newton did not reach max|C| <= " + format_number(target) + " in " +
                 std::to_string(iteration_limit) + " iterations (max|C| = " + format_number(v.violation) + ")";
      return finish();
    }
    if (path_ == FmuProjectionPath::projection_step) {
      // The FMU's own Gauss-Newton step S at its current states (x).
      std::vector<double> s(nx_, 0.0);
      if (instance_.projection_step(s) != CallStatus::ok)
        return r.failed = "fmi2ProjectionStep returned fmi2Discard", finish();
      for (std::size_t j = 0; j < nx_; ++j) x[j] += s[j];
      instance_.set_continuous_states(x);
      ++r.iterations;
      r.projected = true;
      v = measure();
      if (v.discarded) return r.failed = "fmi2Constraint returned fmi2Discard at a Gauss-Newton iterate", finish();
      r.violation_after = v.violation;
      if (v.violation <= target) return finish();
      continue;
    }
    if (!jacobian_at(x, m))
      return r.failed = std::string(path_ == FmuProjectionPath::jacobian ? "fmi2ConstraintJacobian" : "fmi2Constraint") +
                        " returned fmi2Discard",
             finish();
    const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> d(
        jac_.data(), static_cast<Eigen::Index>(m), static_cast<Eigen::Index>(nx_));
    const Eigen::Map<const Eigen::VectorXd> c(c_.data(), static_cast<Eigen::Index>(m));
    const Eigen::VectorXd s = Eigen::MatrixXd(d).completeOrthogonalDecomposition().solve(-c);
    for (std::size_t j = 0; j < nx_; ++j) x[j] += s[static_cast<Eigen::Index>(j)];
    instance_.set_continuous_states(x);
    ++r.iterations;
    r.projected = true;
    v = measure();
    if (v.discarded) return r.failed = "fmi2Constraint returned fmi2Discard at a Gauss-Newton iterate", finish();
    r.violation_after = v.violation;
    if (v.violation <= target) return finish();
  }
}

}  // namespace lsdae::simulation
