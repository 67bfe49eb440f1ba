// tests/models/powergrid/trapezoid.cpp -- see trapezoid.h.
#include "trapezoid.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace lsdae::test {

namespace {
constexpr double kNewtonTolerance = 1e-11;
constexpr int kMaxIterations = 8;
}  // namespace

Trapezoid::Trapezoid(GridFmuSession& session, double step) : s_(session), h_(step) {}

Eigen::VectorXd Trapezoid::evaluate(double t, const Eigen::VectorXd& x, const Eigen::VectorXd& z,
                                    const Eigen::VectorXd& xdot) {
  s_.set_time(t);
  s_.set_states(x);
  s_.set_algebraic(z);
  return s_.residual(xdot);
}

void Trapezoid::initialize() {
  x_ = s_.get(s_.states());
  z_ = s_.get(s_.fmu().algebraic);
  xdot_ = Eigen::VectorXd::Zero(x_.size());
  consistent();
}

void Trapezoid::consistent() {
  const Eigen::Index nx = x_.size(), nz = z_.size();
  for (int it = 0; it < kMaxIterations; ++it) {
    const Eigen::VectorXd r = evaluate(t_, x_, z_, xdot_);
    Eigen::MatrixXd r_x, r_z, r_xdot;
    s_.jacobians(r_x, r_z, r_xdot);
    ++jacobians_;
    Eigen::MatrixXd m(r.size(), nx + nz);
    m << r_xdot, r_z;
    const Eigen::VectorXd d = m.partialPivLu().solve(r);
    xdot_ -= d.head(nx);
    z_ -= d.tail(nz);
    if (d.lpNorm<Eigen::Infinity>() <= kNewtonTolerance) return;
  }
  throw std::runtime_error("trapezoid: no consistent (x', z) at t = " + std::to_string(t_));
}

void Trapezoid::step(double h) {
  const Eigen::Index nx = x_.size(), nz = z_.size();
  const double t1 = t_ + h;
  Eigen::VectorXd x1 = x_ + h * xdot_, z1 = z_;
  auto xdot_of = [&](const Eigen::VectorXd& x) -> Eigen::VectorXd { return 2.0 / h * (x - x_) - xdot_; };
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (std::abs(lu_h_ - h) > 1e-9 * h) {  // h varies in the last bits between grid steps
      evaluate(t1, x1, z1, xdot_of(x1));
      Eigen::MatrixXd r_x, r_z, r_xdot;
      s_.jacobians(r_x, r_z, r_xdot);
      ++jacobians_;
      Eigen::MatrixXd m(r_x.rows(), nx + nz);
      m << r_x + 2.0 / h * r_xdot, r_z;
      lu_.compute(m);
      lu_h_ = h;
    }
    for (int it = 0; it < kMaxIterations; ++it) {
      ++iterations_;
      const Eigen::VectorXd d = lu_.solve(evaluate(t1, x1, z1, xdot_of(x1)));
      x1 -= d.head(nx);
      z1 -= d.tail(nz);
      if (d.lpNorm<Eigen::Infinity>() <= kNewtonTolerance) {
        if (it >= 4) lu_h_ = 0;  // slow: rebuild next step
        xdot_ = xdot_of(x1);
        x_ = x1;
        z_ = z1;
        t_ = t1;
        ++steps_;
        return;
      }
    }
    lu_h_ = 0;  // retry once with a fresh iteration matrix
    x1 = x_ + h * xdot_;
    z1 = z_;
  }
  throw std::runtime_error("trapezoid: Newton does not converge at t = " + std::to_string(t1));
}

void Trapezoid::run(double stop,
                    const std::function<void(double, const Eigen::VectorXd&, const Eigen::VectorXd&)>& sample) {
  sample(t_, x_, z_);
  long k = 0;  // steps on the grid t = k h, so output times land exactly on it
  while (t_ < stop - 1e-12) {
    const double grid_next = static_cast<double>(k + 1) * h_;
    const std::optional<double> event = s_.next_time_event();
    if (event && *event <= grid_next + 1e-12 && *event > t_) {
      step(*event - t_);
      t_ = *event;
      if (std::abs(*event - grid_next) <= 1e-12) ++k;
      s_.set_time(t_);
      s_.handle_event();
      consistent();
      lu_h_ = 0;
      sample(t_, x_, z_);
      continue;
    }
    step(grid_next - t_);
    t_ = grid_next;
    ++k;
    sample(t_, x_, z_);
  }
}

}  // namespace lsdae::test
