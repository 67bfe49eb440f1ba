// tests/kernels/compressed_jacobian_test.cpp -- kernels/compressed_jacobian.cpp
// on a nonlinear tridiagonal residual with a known Jacobian.
#include "kernels/compressed_jacobian.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "structure/coloring.h"
#include "structure/pattern.h"

namespace lsdae::kernels {
namespace {

// G_i = y'_i − (y_{i−1} − 2y_i + y_{i+1}) + y_i³ + t, Dirichlet ends.
// J = cj·I − L + diag(3y_i²).
class Tridiagonal : public ResidualFunction {
 public:
  explicit Tridiagonal(std::size_t n) : n_(n) {}
  std::size_t size() const override { return n_; }
  EvalStatus residual(double t, std::span<const double> y, std::span<const double> yp, std::span<double> r) override {
    ++calls;
    if (fail_at_calls != 0 && calls == fail_at_calls) return EvalStatus::recoverable;
    for (std::size_t i = 0; i < n_; ++i) {
      double left = i > 0 ? y[i - 1] : 0.0, right = i + 1 < n_ ? y[i + 1] : 0.0;
      r[i] = yp[i] - (left - 2 * y[i] + right) + y[i] * y[i] * y[i] + t;
    }
    return EvalStatus::ok;
  }
  bool has_jacobian_columns() const override { return true; }
  EvalStatus jacobian_columns(double, std::span<const double> y, std::span<const double>, double cj,
                              std::span<const std::size_t> columns, std::span<double> jv) override {
    std::fill(jv.begin(), jv.end(), 0.0);
    for (std::size_t j : columns) {
      jv[j] += cj + 2 + 3 * y[j] * y[j];
      if (j > 0) jv[j - 1] -= 1;
      if (j + 1 < n_) jv[j + 1] -= 1;
    }
    return EvalStatus::ok;
  }
  std::size_t calls = 0;
  std::size_t fail_at_calls = 0;

 private:
  std::size_t n_;
};

structure::Pattern tridiagonal_pattern(std::size_t n) {
  std::vector<std::vector<std::size_t>> rows(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) rows[i].push_back(i - 1);
    rows[i].push_back(i);
    if (i + 1 < n) rows[i].push_back(i + 1);
  }
  return structure::Pattern::from_rows(n, rows);
}

double exact(const structure::Pattern& pattern, std::size_t p, std::size_t col, const std::vector<double>& y, double cj) {
  std::size_t row = pattern.row_idx()[p];
  return row == col ? cj + 2 + 3 * y[col] * y[col] : -1.0;
}

struct Problem {
  explicit Problem(std::size_t n) : pattern(tridiagonal_pattern(n)), coloring(structure::color_columns(pattern)) {
    for (std::size_t i = 0; i < n; ++i) {
      y.push_back(std::sin(0.3 * static_cast<double>(i)));
      yp.push_back(std::cos(0.7 * static_cast<double>(i)));
    }
    r.resize(n);
    weights.assign(n, 1e6);
  }
  structure::Pattern pattern;
  structure::Coloring coloring;
  std::vector<double> y, yp, r, weights;
};

TEST(CompressedJacobian, FiniteDifferencesMatchTheAnalyticJacobian) {
  Problem s(200);
  Tridiagonal f(200);
  f.residual(0.5, s.y, s.yp, s.r);
  CompressedJacobian jac(s.pattern, s.coloring, 1);
  EXPECT_EQ(jac.colors(), 3u) << "a tridiagonal pattern needs exactly three colours";
  std::vector<double> values(s.pattern.nnz());
  ResidualFunction* pool[] = {&f};
  JacobianPoint point{0.5, s.y, s.yp, s.r, 1e3, 1e-3, s.weights, {}};
  f.calls = 0;
  ASSERT_EQ(jac.evaluate_finite_differences(pool, point, values), EvalStatus::ok);
  EXPECT_EQ(f.calls, 3u) << "one residual call per colour";
  EXPECT_EQ(jac.counters().residual_calls, 3u);
  for (std::size_t c = 0; c < s.pattern.cols(); ++c)
    for (std::size_t p = s.pattern.col_ptr()[c]; p < s.pattern.col_ptr()[c + 1]; ++p)
      EXPECT_NEAR(values[p], exact(s.pattern, p, c, s.y, 1e3), 1e-6 * 1e3) << "column " << c;
}

TEST(CompressedJacobian, DirectionalIsExact) {
  Problem s(50);
  Tridiagonal f(50);
  CompressedJacobian jac(s.pattern, s.coloring, 1);
  std::vector<double> values(s.pattern.nnz());
  ResidualFunction* pool[] = {&f};
  JacobianPoint point{0.0, s.y, s.yp, {}, 20.0, 0.05, {}, {}};
  ASSERT_EQ(jac.evaluate_directional(pool, point, values), EvalStatus::ok);
  EXPECT_EQ(jac.counters().directional_calls, 3u);
  for (std::size_t c = 0; c < s.pattern.cols(); ++c)
    for (std::size_t p = s.pattern.col_ptr()[c]; p < s.pattern.col_ptr()[c + 1]; ++p)
      EXPECT_DOUBLE_EQ(values[p], exact(s.pattern, p, c, s.y, 20.0));
}

TEST(CompressedJacobian, TwoThreadsGiveBitwiseTheSameValues) {
  Problem s(1000);
  Tridiagonal a(1000), b(1000), c(1000);
  a.residual(0.1, s.y, s.yp, s.r);
  std::vector<double> one(s.pattern.nnz()), two(s.pattern.nnz());
  JacobianPoint point{0.1, s.y, s.yp, s.r, 50.0, 0.02, s.weights, {}};
  {
    CompressedJacobian jac(s.pattern, s.coloring, 1);
    ResidualFunction* pool[] = {&a};
    ASSERT_EQ(jac.evaluate_finite_differences(pool, point, one), EvalStatus::ok);
  }
  {
    CompressedJacobian jac(s.pattern, s.coloring, 2);
    ResidualFunction* pool[] = {&b, &c};
    ASSERT_EQ(jac.evaluate_finite_differences(pool, point, two), EvalStatus::ok);
    EXPECT_EQ(jac.counters().residual_calls, jac.colors());
  }
  EXPECT_EQ(one, two);
}

TEST(CompressedJacobian, ARecoverableFailureIsReported) {
  Problem s(30);
  Tridiagonal f(30);
  f.residual(0.0, s.y, s.yp, s.r);
  f.calls = 0;
  f.fail_at_calls = 2;
  CompressedJacobian jac(s.pattern, s.coloring, 1);
  std::vector<double> values(s.pattern.nnz());
  ResidualFunction* pool[] = {&f};
  JacobianPoint point{0.0, s.y, s.yp, s.r, 1.0, 1.0, s.weights, {}};
  EXPECT_EQ(jac.evaluate_finite_differences(pool, point, values), EvalStatus::recoverable);
}

TEST(CompressedJacobian, RejectsMismatchedInputs) {
  auto rect = structure::Pattern::from_rows(3, {{0, 1}, {2}});
  auto coloring = structure::color_columns(rect);
  EXPECT_THROW(CompressedJacobian(rect, coloring, 1), std::invalid_argument);
}

}  // namespace
}  // namespace lsdae::kernels
