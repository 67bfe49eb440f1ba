// models/kit/instance_constraints.cpp -- Instance's functions of the FMI 2.0
// constraint extension (Najafi et al.; instance.h, projection.h).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "kit/instance.h"
#include "kit/projection.h"

namespace lsdae::kit {

namespace {

class DenseJacobianSink final : public ConstraintJacobianSink {
 public:
  DenseJacobianSink(const Description& d, std::size_t rows, std::vector<double>& J) : d_(d), rows_(rows), J_(J) {
    column_.assign(d.variables.size(), kNoValueRef);
    for (std::size_t i = 0; i < d.states.size(); ++i) column_[d.states[i]] = static_cast<ValueRef>(i);
    J_.assign(rows * d.states.size(), 0.0);
  }
  void add(std::size_t row, ValueRef state, double value) override {
    if (row >= rows_ || state >= column_.size() || column_[state] == kNoValueRef)
      throw std::logic_error("constraint_jacobian(): entry (" + std::to_string(row) + ", value reference " +
                             std::to_string(state) + ") is not an active row and a continuous state");
    J_[row * d_.states.size() + column_[state]] += value;
  }

 private:
  const Description& d_;
  std::size_t rows_;
  std::vector<double>& J_;
  std::vector<ValueRef> column_;
};

double max_abs(const double* v, std::size_t n) {
  double m = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(v[i])) return HUGE_VAL;
    m = std::max(m, std::fabs(v[i]));
  }
  return m;
}

}  // namespace

bool Instance::check_constraint_call(const char* function, bool provided, const char* flag) {
  if (!provided) {
    log(fmi3Error, "logStatusError",
        std::string(function) + ": this FMU does not provide it (" + flag + " is false or absent)");
    return false;
  }
  return check_mode(function, {Mode::initialization, Mode::event, Mode::continuous_time});
}

std::size_t Instance::active_constraints() {
  ensure_computed();
  Context c = context();
  const std::size_t n = model_->number_of_constraints(c, desc_.max_constraints);
  if (n > desc_.max_constraints)
    throw std::logic_error("number_of_constraints() = " + std::to_string(n) + " exceeds maxNumberOfConstraints = " +
                           std::to_string(desc_.max_constraints));
  return n;
}

void Instance::evaluate_constraints(double C[]) {
  ensure_computed();
  Context c = context();
  model_->constraint_residuals(c, C);
}

void Instance::evaluate_constraint_jacobian(std::size_t active, std::vector<double>& J) {
  ensure_computed();
  DenseJacobianSink sink(desc_, active, J);
  Context c = context();
  model_->constraint_jacobian(c, sink);
}

fmi3Status Instance::get_number_of_constraints(size_t* n) {
  if (!check_constraint_call("fmi2GetNumberOfConstraints", desc_.exports_constraint_functions(),
                             "every provides* flag of the constraint extension"))
    return fmi3Error;
  *n = active_constraints();
  return fmi3OK;
}

fmi3Status Instance::constraints(double C[]) {
  if (!check_constraint_call("fmi2Constraint", desc_.provides_constraints != Description::Constraints::none,
                             "providesConstraints"))
    return fmi3Error;
  active_constraints();  // checks the model's count
  evaluate_constraints(C);
  return fmi3OK;
}

fmi3Status Instance::constraint_jacobian(double J[]) {
  if (!check_constraint_call("fmi2ConstraintJacobian",
                             desc_.provides_constraints == Description::Constraints::with_jacobian,
                             "providesConstraints=\"withJacobian\""))
    return fmi3Error;
  std::vector<double> dense;
  evaluate_constraint_jacobian(active_constraints(), dense);
  std::copy(dense.begin(), dense.end(), J);
  return fmi3OK;
}

fmi3Status Instance::projection_step(double S[]) {
  if (!check_constraint_call("fmi2ProjectionStep", desc_.provides_projection_step, "providesProjectionStep"))
    return fmi3Error;
  const std::size_t m = active_constraints();
  std::vector<double> C(desc_.max_constraints, 0.0), J;
  evaluate_constraints(C.data());
  evaluate_constraint_jacobian(m, J);
  if (!minimum_norm_step(J.data(), C.data(), m, desc_.states.size(), S)) {
    log(fmi3Error, "logStatusError",
        "fmi2ProjectionStep: the constraint Jacobian is rank-deficient or not finite at time " +
            std::to_string(time_) + " (" + std::to_string(m) +
            " constraints): no projection step; try the previous state or a smaller step");
    return fmi3Error;
  }
  return fmi3OK;
}

fmi3Status Instance::projection(double P[], double tolerance, size_t iteration_limit, bool apply) {
  if (!check_constraint_call("fmi2Projection", desc_.provides_projection, "providesProjection")) return fmi3Error;
  const std::size_t n = desc_.states.size();
  if (!(tolerance > 0.0) || !std::isfinite(tolerance)) {
    log(fmi3Error, "logStatusError",
        "fmi2Projection: projectionTolerance is " + std::to_string(tolerance) + "; give a positive finite tolerance");
    return fmi3Error;
  }
  std::vector<double> start(n), x(n), C(desc_.max_constraints, 0.0), J, S(n);
  for (std::size_t i = 0; i < n; ++i) start[i] = x[i] = f64_[desc_.states[i]];
  auto put = [&](const std::vector<double>& values) {
    for (std::size_t i = 0; i < n; ++i) f64_[desc_.states[i]] = values[i];
    touch();
  };
  std::size_t iterations = 0;
  double residual = HUGE_VAL;
  std::string failure;
  try {
    for (;;) {
      const std::size_t m = active_constraints();
      std::fill(C.begin(), C.end(), 0.0);
      evaluate_constraints(C.data());
      residual = max_abs(C.data(), m);
      if (residual <= tolerance) break;
      if (iterations >= iteration_limit) {
        failure = "max|C| = " + std::to_string(residual) + " > projectionTolerance = " + std::to_string(tolerance) +
                  " after iterationLimit = " + std::to_string(iteration_limit) + " steps";
        break;
      }
      evaluate_constraint_jacobian(m, J);
      if (!minimum_norm_step(J.data(), C.data(), m, n, S.data())) {
        failure = "the constraint Jacobian is rank-deficient or not finite after " + std::to_string(iterations) +
                  " steps (max|C| = " + std::to_string(residual) + ")";
        break;
      }
      for (std::size_t i = 0; i < n; ++i) x[i] += S[i];
      put(x);
      ++iterations;
    }
  } catch (...) {
    put(start);
    throw;
  }
  if (!failure.empty()) {
    put(start);
    std::fill(P, P + n, 0.0);
    log(fmi3Discard, "logStatusWarning",
        "fmi2Projection: no projection onto the constraints at time " + std::to_string(time_) + ": " + failure +
            "; states unchanged (retry from a smaller step)");
    return fmi3Discard;
  }
  for (std::size_t i = 0; i < n; ++i) P[i] = x[i] - start[i];
  if (!apply) put(start);
  return fmi3OK;
}

}  // namespace lsdae::kit
