// tests/models/powergrid/trapezoid.h -- a small fixed-step trapezoidal-rule
// DAE integrator over a GridFmuSession, for tests that need a trajectory
// before `lsdae simulate` exists (flat-run drift, fault run against the
// independent reference). Not a production solver: dense Jacobians from
// directional derivatives, modified Newton.
//
// Step from t_n to t_n+1 = t_n + h: with x'_n+1 = 2 (x_n+1 − x_n)/h − x'_n,
// solve R(x'_n+1, x_n+1, z_n+1) = 0 for (x_n+1, z_n+1) by Newton with the
// iteration matrix [R_x + (2/h) R_x', R_z] (kept while Newton converges in
// at most 4 iterations, rebuilt otherwise and after events). Time events
// end a step exactly at the event; after the event iteration the algebraic
// variables and derivatives are made consistent with x fixed (Newton on
// (x', z) with [R_x', R_z]). Second order; error O(h²).
#ifndef LSDAE_TESTS_MODELS_POWERGRID_TRAPEZOID_H
#define LSDAE_TESTS_MODELS_POWERGRID_TRAPEZOID_H

#include <functional>

#include "grid_fmu_session.h"

namespace lsdae::test {

class Trapezoid {
 public:
  Trapezoid(GridFmuSession& session, double step);

  // Makes (x', z) consistent at the current point (x from the FMU's states).
  void initialize();
  // Integrates to `stop`, calling `sample(t, x, z)` after every step (and at t = 0).
  void run(double stop, const std::function<void(double, const Eigen::VectorXd&, const Eigen::VectorXd&)>& sample);

  int steps() const { return steps_; }
  int newton_iterations() const { return iterations_; }
  int jacobians() const { return jacobians_; }

 private:
  void consistent();
  void step(double h);
  Eigen::VectorXd evaluate(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& z, const Eigen::VectorXd& xdot);

  GridFmuSession& s_;
  double h_;
  double t_ = 0;
  Eigen::VectorXd x_, z_, xdot_;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_;
  double lu_h_ = 0;  // the h the iteration matrix was built for (0: none)
  int steps_ = 0, iterations_ = 0, jacobians_ = 0;
};

}  // namespace lsdae::test

#endif  // LSDAE_TESTS_MODELS_POWERGRID_TRAPEZOID_H
