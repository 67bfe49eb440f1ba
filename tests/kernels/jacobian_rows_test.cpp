// tests/kernels/jacobian_rows_test.cpp -- what the kernels ask of a model's
// directional derivatives through ResidualFunction::jacobian_columns_at_rows:
// only the rows each colour's entries are in, and `same_point` only where
// the model's previous call was at the same point (kernels/
// compressed_jacobian.h, kernels/derivative_claims.h).
//
// The model poisons every row it was not asked for (NaN) and records a
// `same_point` given after a call at another point, after a failed call, or
// after a residual call in between: a kernel that read an unasked row would
// put a NaN in its result, one that vouched wrongly is counted.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "kernels/compressed_jacobian.h"
#include "kernels/derivative_claims.h"
#include "structure/coloring.h"
#include "structure/coloring_varying.h"
#include "structure/pattern.h"

namespace lsdae::kernels {
namespace {

// G_i = m_i·y'_i − (y_{i−1} − 2y_i + y_{i+1}) + y_i³ (a chain).
class RowsChain : public ResidualFunction {
 public:
  explicit RowsChain(std::size_t n) : n_(n) {}
  std::size_t size() const override { return n_; }
  double mass(std::size_t i) const { return 1.0 + 0.25 * static_cast<double>(i % 4); }
  EvalStatus residual(double t, std::span<const double> y, std::span<const double> yp, std::span<double> r) override {
    hold(t, y, yp, false);
    for (std::size_t i = 0; i < n_; ++i) {
      const double left = i > 0 ? y[i - 1] : 0.0, right = i + 1 < n_ ? y[i + 1] : 0.0;
      r[i] = mass(i) * yp[i] - (left - 2 * y[i] + right) + y[i] * y[i] * y[i];
    }
    return EvalStatus::ok;
  }
  bool has_jacobian_columns() const override { return true; }
  EvalStatus jacobian_columns(double t, std::span<const double> y, std::span<const double> yp, double cj,
                              std::span<const std::size_t> columns, std::span<double> jv) override {
    return jacobian_columns_split(t, y, yp, 1.0, cj, columns, jv);
  }
  EvalStatus jacobian_columns_split(double t, std::span<const double> y, std::span<const double> yp, double ys,
                                    double yps, std::span<const std::size_t> columns, std::span<double> jv) override {
    hold(t, y, yp, false);
    full(y, ys, yps, columns, jv);
    return EvalStatus::ok;
  }
  EvalStatus jacobian_columns_at_rows(double t, std::span<const double> y, std::span<const double> yp, double ys,
                                      double yps, std::span<const std::size_t> columns,
                                      std::span<const std::size_t> rows, bool same_point,
                                      std::span<double> jv) override {
    hold(t, y, yp, same_point);
    ++row_calls;
    rows_asked += rows.size();
    std::vector<double> all(n_);
    full(y, ys, yps, columns, all);
    std::fill(jv.begin(), jv.end(), std::numeric_limits<double>::quiet_NaN());
    for (std::size_t r : rows) jv[r] = all[r];
    return EvalStatus::ok;
  }
  std::size_t row_calls = 0, rows_asked = 0, wrong_vouches = 0, vouched = 0;

 private:
  void full(std::span<const double> y, double ys, double yps, std::span<const std::size_t> columns,
            std::span<double> jv) const {
    std::fill(jv.begin(), jv.end(), 0.0);
    for (std::size_t j : columns) {
      jv[j] += yps * mass(j) + ys * (2 + 3 * y[j] * y[j]);
      if (j > 0) jv[j - 1] -= ys;
      if (j + 1 < n_) jv[j + 1] -= ys;
    }
  }
  // The point this object was last given; a vouch must match it.
  void hold(double t, std::span<const double> y, std::span<const double> yp, bool same_point) {
    if (same_point) {
      ++vouched;
      if (!have_ || t != t_ || !std::equal(y.begin(), y.end(), y_.begin()) ||
          !std::equal(yp.begin(), yp.end(), yp_.begin()))
        ++wrong_vouches;
    }
    have_ = true;
    t_ = t;
    y_.assign(y.begin(), y.end());
    yp_.assign(yp.begin(), yp.end());
  }
  std::size_t n_;
  bool have_ = false;
  double t_ = 0.0;
  std::vector<double> y_, yp_;
};

structure::Pattern chain_pattern(std::size_t n) {
  std::vector<std::vector<std::size_t>> rows(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) rows[i].push_back(i - 1);
    rows[i].push_back(i);
    if (i + 1 < n) rows[i].push_back(i + 1);
  }
  return structure::Pattern::from_rows(n, rows);
}

struct Point {
  explicit Point(std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      y.push_back(std::sin(0.3 * static_cast<double>(i)));
      yp.push_back(std::cos(0.7 * static_cast<double>(i)));
    }
  }
  std::vector<double> y, yp;
};

// The exact entry p (row, col) of ∂G/∂y + cj·∂G/∂y'.
double exact(const structure::Pattern& pattern, std::size_t p, std::size_t col, const Point& x, double cj,
             const RowsChain& f) {
  return pattern.row_idx()[p] == col ? cj * f.mass(col) + 2 + 3 * x.y[col] * x.y[col] : -1.0;
}

TEST(JacobianRows, EachColourAsksItsRowsOnceAndVouchesOnlyForItsOwnPoint) {
  const std::size_t n = 30;
  const structure::Pattern pattern = chain_pattern(n);
  const structure::Coloring coloring = structure::color_columns(pattern);
  for (const std::size_t threads : {1u, 2u}) {
    RowsChain a(n), b(n);
    ResidualFunction* pool[] = {&a, &b};
    CompressedJacobian jac(pattern, coloring, threads);
    std::vector<double> values(pattern.nnz());
    for (const double cj : {10.0, 0.5}) {
      Point x(n);
      x.y[3] += cj;  // another point for each Jacobian
      const JacobianPoint point{0.0, x.y, x.yp, {}, cj, 1.0 / cj, {}, {}};
      ASSERT_EQ(jac.evaluate_directional(pool, point, values), EvalStatus::ok);
      for (std::size_t c = 0; c < n; ++c)
        for (std::size_t p = pattern.col_ptr()[c]; p < pattern.col_ptr()[c + 1]; ++p)
          ASSERT_NEAR(values[p], exact(pattern, p, c, x, cj, a), 1e-13 * (cj + 8)) << threads << " threads, column " << c;
    }
    // A colour's rows are its entries' rows: every entry read once per Jacobian.
    EXPECT_EQ(a.rows_asked + b.rows_asked, 2 * pattern.nnz());
    EXPECT_EQ(a.row_calls + b.row_calls, 2 * coloring.colors);
    EXPECT_EQ(a.wrong_vouches + b.wrong_vouches, 0u);
    // Each object wrote the point at its first colour of each Jacobian and vouched for the rest.
    if (threads == 1) {
      EXPECT_EQ(a.vouched, 2 * (coloring.colors - 1));
    }
  }
}

TEST(JacobianRows, ConstantEntriesLeaveTheirRowsUnasked) {
  const std::size_t n = 30;
  const structure::Pattern pattern = chain_pattern(n);
  const structure::Coloring coloring = structure::color_columns(pattern);
  ConstantEntries entries;
  entries.lifetime.assign(pattern.nnz(), EntryLifetime::run);
  entries.derivative_part.assign(pattern.nnz(), false);
  std::vector<bool> constant(pattern.nnz(), true);
  for (std::size_t c = 0; c < n; ++c)
    for (std::size_t p = pattern.col_ptr()[c]; p < pattern.col_ptr()[c + 1]; ++p)
      if (pattern.row_idx()[p] == c) {
        entries.lifetime[p] = EntryLifetime::varying;  // the diagonal varies
        entries.derivative_part[p] = true;
        constant[p] = false;
      }
  const structure::VaryingColoring varying = structure::color_varying_columns(pattern, constant);
  RowsChain f(n);
  ResidualFunction* pool[] = {&f};
  CompressedJacobian jac(pattern, coloring, 1);
  jac.set_constant_entries(entries, varying.coloring);
  std::vector<double> values(pattern.nnz());
  Point x(n);
  const JacobianPoint point{0.0, x.y, x.yp, {}, 7.0, 1.0 / 7.0, {}, {}};
  ASSERT_EQ(jac.evaluate_directional(pool, point, values), EvalStatus::ok);
  for (std::size_t c = 0; c < n; ++c)
    for (std::size_t p = pattern.col_ptr()[c]; p < pattern.col_ptr()[c + 1]; ++p)
      EXPECT_NEAR(values[p], exact(pattern, p, c, x, 7.0, f), 1e-13) << "column " << c;
  EXPECT_EQ(f.rows_asked, n) << "the diagonal only";
  EXPECT_EQ(f.wrong_vouches, 0u);
}

TEST(JacobianRows, TheDerivativeCheckAsksThePatternsRowsAtItsPoints) {
  const std::size_t n = 12;
  const structure::Pattern pattern = chain_pattern(n);
  const structure::Coloring coloring = structure::color_columns(pattern);
  RowsChain f(n);
  Point x(n);
  const DerivativeCheck check = check_derivative_claims(f, pattern, coloring, {0.0, x.y, x.yp, {}}, true);
  EXPECT_TRUE(check.wrong.empty());
  EXPECT_TRUE(check.hidden.empty());
  EXPECT_EQ(f.row_calls, check.directional_calls);
  EXPECT_EQ(f.rows_asked, 2 * 2 * pattern.nnz()) << "two parts at two points, each entry's row once";
  EXPECT_GT(f.vouched, 0u);
  EXPECT_EQ(f.wrong_vouches, 0u);
}

}  // namespace
}  // namespace lsdae::kernels
