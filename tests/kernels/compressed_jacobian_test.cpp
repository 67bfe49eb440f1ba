// tests/kernels/compressed_jacobian_test.cpp -- kernels/compressed_jacobian.cpp
// on a nonlinear tridiagonal residual with a known Jacobian.
#include "kernels/compressed_jacobian.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include "structure/coloring.h"
#include "structure/coloring_varying.h"
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

// Directional derivatives wrong in one column (the claims check found it,
// runtime/simulation/jacobian_claims.h): that column's colour by finite
// differences, bitwise as evaluate_finite_differences gives it; the other
// colours exactly, by directional derivatives.
class WrongColumn : public Tridiagonal {
 public:
  WrongColumn(std::size_t n, std::size_t wrong) : Tridiagonal(n), wrong_(wrong) {}
  EvalStatus jacobian_columns(double t, std::span<const double> y, std::span<const double> yp, double cj,
                              std::span<const std::size_t> columns, std::span<double> jv) override {
    const EvalStatus s = Tridiagonal::jacobian_columns(t, y, yp, cj, columns, jv);
    for (std::size_t j : columns)
      if (j == wrong_) jv[j] *= -1;
    return s;
  }

 private:
  std::size_t wrong_;
};

TEST(CompressedJacobian, WrongColumnsTakeTheirColourByFiniteDifferences) {
  Problem s(30);
  WrongColumn f(30, 7);
  f.residual(0.5, s.y, s.yp, s.r);
  ResidualFunction* pool[] = {&f};
  JacobianPoint point{0.5, s.y, s.yp, s.r, 1e3, 1e-3, s.weights, {}};
  std::vector<double> quotients(s.pattern.nnz()), mixed(s.pattern.nnz());
  CompressedJacobian plain(s.pattern, s.coloring, 1), jac(s.pattern, s.coloring, 1);
  ASSERT_EQ(plain.evaluate_finite_differences(pool, point, quotients), EvalStatus::ok);
  std::vector<bool> wrong(30, false);
  wrong[7] = true;
  jac.set_finite_difference_columns(wrong);
  EXPECT_EQ(jac.finite_difference_colors(), 1u);
  ASSERT_EQ(jac.evaluate_directional(pool, point, mixed), EvalStatus::ok);
  EXPECT_EQ(jac.counters().residual_calls, 1u);
  EXPECT_EQ(jac.counters().directional_calls, jac.colors() - 1);
  const std::size_t colour = s.coloring.color[7];
  for (std::size_t c = 0; c < s.pattern.cols(); ++c)
    for (std::size_t p = s.pattern.col_ptr()[c]; p < s.pattern.col_ptr()[c + 1]; ++p) {
      if (s.coloring.color[c] == colour) EXPECT_EQ(mixed[p], quotients[p]) << "column " << c;
      else EXPECT_DOUBLE_EQ(mixed[p], exact(s.pattern, p, c, s.y, 1e3)) << "column " << c;
    }
  // Cleared: every colour directional again (the wrong one too).
  jac.set_finite_difference_columns({});
  EXPECT_EQ(jac.finite_difference_colors(), 0u);
  ASSERT_EQ(jac.evaluate_directional(pool, point, mixed), EvalStatus::ok);
  EXPECT_EQ(jac.counters().directional_calls, 2 * jac.colors() - 1);
  EXPECT_THROW(jac.set_finite_difference_columns(std::vector<bool>(3, true)), std::invalid_argument);
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


// Constant entries (set_constant_entries). G_i = m_i·y'_i − (y_{i−1} − 2y_i +
// y_{i+1}) + k·y_i³: the off-diagonal −1 are constant; the diagonal
// cj·m_i + 2 + 3k·y_i² is varying when k ≠ 0, constant with a cj part when
// k = 0. Directional derivatives seed the y and y' parts apart.
class MassChain : public ResidualFunction {
 public:
  MassChain(std::size_t n, double k) : n_(n), k_(k) {}
  std::size_t size() const override { return n_; }
  double mass(std::size_t i) const { return 1.0 + 0.25 * static_cast<double>(i % 4); }
  // Column 10's coupling: a discrete parameter that changes at events.
  double weight(std::size_t j) const { return j == 10 ? g : 1.0; }
  double g = 1.0;
  EvalStatus residual(double, std::span<const double> y, std::span<const double> yp, std::span<double> r) override {
    ++calls;
    for (std::size_t i = 0; i < n_; ++i) {
      double left = i > 0 ? weight(i - 1) * y[i - 1] : 0.0, right = i + 1 < n_ ? weight(i + 1) * y[i + 1] : 0.0;
      r[i] = mass(i) * yp[i] - (left - 2 * y[i] + right) + k_ * y[i] * y[i] * y[i];
    }
    return EvalStatus::ok;
  }
  bool has_jacobian_columns() const override { return true; }
  EvalStatus jacobian_columns(double t, std::span<const double> y, std::span<const double> yp, double cj,
                              std::span<const std::size_t> columns, std::span<double> jv) override {
    return jacobian_columns_split(t, y, yp, 1.0, cj, columns, jv);
  }
  EvalStatus jacobian_columns_split(double, std::span<const double> y, std::span<const double>, double ys,
                                    double yps, std::span<const std::size_t> columns, std::span<double> jv) override {
    ++calls;
    std::fill(jv.begin(), jv.end(), 0.0);
    for (std::size_t j : columns) {
      jv[j] += yps * mass(j) + ys * (2 + 3 * k_ * y[j] * y[j]);
      if (j > 0) jv[j - 1] -= ys * weight(j);
      if (j + 1 < n_) jv[j + 1] -= ys * weight(j);
    }
    return EvalStatus::ok;
  }
  double exact(const structure::Pattern& pattern, std::size_t p, std::size_t col, std::span<const double> y,
               double cj) const {
    return pattern.row_idx()[p] == col ? cj * mass(col) + 2 + 3 * k_ * y[col] * y[col] : -weight(col);
  }
  std::size_t calls = 0;

 private:
  std::size_t n_;
  double k_;
};

ConstantEntries chain_entries(const structure::Pattern& pattern, bool diagonal_constant, EntryLifetime lifetime) {
  ConstantEntries e;
  e.lifetime.assign(pattern.nnz(), lifetime);
  e.derivative_part.assign(pattern.nnz(), false);
  for (std::size_t c = 0; c < pattern.cols(); ++c)
    for (std::size_t p = pattern.col_ptr()[c]; p < pattern.col_ptr()[c + 1]; ++p)
      if (pattern.row_idx()[p] == c) {
        e.derivative_part[p] = true;
        if (!diagonal_constant) e.lifetime[p] = EntryLifetime::varying;
      }
  return e;
}

std::vector<bool> constant_flags(const ConstantEntries& e) {
  std::vector<bool> f(e.lifetime.size());
  for (std::size_t p = 0; p < f.size(); ++p) f[p] = e.lifetime[p] != EntryLifetime::varying;
  return f;
}

TEST(CompressedJacobianConstants, OneColourForTheDiagonalWithTheConstantsSubtracted) {
  Problem s(100);
  MassChain f(100, 1.0);
  const ConstantEntries entries = chain_entries(s.pattern, false, EntryLifetime::run);
  const structure::VaryingColoring varying = structure::color_varying_columns(s.pattern, constant_flags(entries));
  EXPECT_EQ(varying.exclusive_colors, 3u) << "the full columns still share rows";
  EXPECT_EQ(varying.subtract_colors, 1u) << "the varying entries are the diagonal: one colour";
  ASSERT_TRUE(varying.subtracts);
  std::string why;
  ASSERT_TRUE(structure::verify_varying_coloring(s.pattern, constant_flags(entries), varying.coloring, &why)) << why;
  CompressedJacobian jac(s.pattern, s.coloring, 1);
  jac.set_constant_entries(entries, varying.coloring);
  EXPECT_EQ(jac.colors(), 3u);
  EXPECT_EQ(jac.varying_colors(), 1u);
  ResidualFunction* pool[] = {&f};
  std::vector<double> values(s.pattern.nnz());
  for (const double cj : {1e3, 2.5, 1e6}) {  // the constants taken at the first cj serve the others
    JacobianPoint point{0.0, s.y, s.yp, {}, cj, 1.0 / cj, {}, {}};
    ASSERT_EQ(jac.evaluate_directional(pool, point, values), EvalStatus::ok);
    for (std::size_t c = 0; c < s.pattern.cols(); ++c)
      for (std::size_t p = s.pattern.col_ptr()[c]; p < s.pattern.col_ptr()[c + 1]; ++p)
        EXPECT_NEAR(values[p], f.exact(s.pattern, p, c, s.y, cj), 4e-16 * (cj * 2 + 8)) << "column " << c;
  }
  // First Jacobian: 3 colours for the constants (y part only) + 1; then 1 each.
  EXPECT_EQ(jac.counters().constant_evaluations, 1u);
  EXPECT_EQ(jac.counters().constant_calls, 3u);
  EXPECT_EQ(jac.counters().directional_calls, 3u + 3u * 1u);
  EXPECT_EQ(f.calls, 6u);
}

// Directional derivatives wrong in one column (column 17 negated) with
// constant entries: the caller makes that column's entries varying, the
// other columns' constants are kept (taken by their right derivatives), and
// the varying colours holding column 17 go by difference quotients, with the
// constants of the other columns in them subtracted as finite differences do.
class WrongChainColumn : public MassChain {
 public:
  using MassChain::MassChain;
  EvalStatus jacobian_columns_split(double t, std::span<const double> y, std::span<const double> yp, double ys,
                                    double yps, std::span<const std::size_t> columns, std::span<double> jv) override {
    const EvalStatus s = MassChain::jacobian_columns_split(t, y, yp, ys, yps, columns, jv);
    for (std::size_t j : columns)
      if (j == 17)
        for (std::size_t i = j - 1; i <= j + 1; ++i) jv[i] = -jv[i];
    return s;
  }
};

TEST(CompressedJacobianConstants, WrongColumnsByDifferencesKeepTheOtherColumnsConstants) {
  Problem s(40);
  WrongChainColumn f(40, 1.0);
  ConstantEntries entries = chain_entries(s.pattern, false, EntryLifetime::run);
  for (std::size_t p = s.pattern.col_ptr()[17]; p < s.pattern.col_ptr()[18]; ++p)
    entries.lifetime[p] = EntryLifetime::varying;
  const structure::VaryingColoring varying = structure::color_varying_columns(s.pattern, constant_flags(entries));
  CompressedJacobian jac(s.pattern, s.coloring, 1);
  std::vector<bool> wrong(40, false);
  wrong[17] = true;
  jac.set_finite_difference_columns(wrong);  // before the constants: re-coloured by set_constant_entries
  jac.set_constant_entries(entries, varying.coloring);
  EXPECT_EQ(jac.constant_entry_count(), s.pattern.nnz() - 40 - 2) << "the diagonal and column 17 vary";
  EXPECT_EQ(jac.finite_difference_colors(), 1u);
  ResidualFunction* pool[] = {&f};
  std::vector<double> values(s.pattern.nnz());
  for (const double cj : {1e3, 2.5}) {
    f.residual(0.0, s.y, s.yp, s.r);
    JacobianPoint point{0.0, s.y, s.yp, s.r, cj, 1.0 / cj, s.weights, {}};
    ASSERT_EQ(jac.evaluate_directional(pool, point, values), EvalStatus::ok);
    for (std::size_t c = 0; c < s.pattern.cols(); ++c)
      for (std::size_t p = s.pattern.col_ptr()[c]; p < s.pattern.col_ptr()[c + 1]; ++p)
        EXPECT_NEAR(values[p], f.exact(s.pattern, p, c, s.y, cj), 1e-6 * (cj * 2 + 8)) << "column " << c;
  }
  EXPECT_EQ(jac.counters().constant_evaluations, 1u);
  EXPECT_EQ(jac.counters().residual_calls, 2u) << "one colour by differences per Jacobian";
  EXPECT_EQ(jac.counters().directional_calls, jac.counters().constant_calls + 2 * (jac.varying_colors() - 1));
}

TEST(CompressedJacobianConstants, FiniteDifferencesSubtractTheKnownIncrements) {
  Problem s(60);
  MassChain f(60, 1.0);
  const ConstantEntries entries = chain_entries(s.pattern, false, EntryLifetime::run);
  const structure::VaryingColoring varying = structure::color_varying_columns(s.pattern, constant_flags(entries));
  CompressedJacobian jac(s.pattern, s.coloring, 1);
  jac.set_constant_entries(entries, varying.coloring);
  ResidualFunction* pool[] = {&f};
  std::vector<double> values(s.pattern.nnz());
  for (const double cj : {1e3, 10.0}) {
    f.residual(0.0, s.y, s.yp, s.r);
    JacobianPoint point{0.0, s.y, s.yp, s.r, cj, 1.0 / cj, s.weights, {}};
    ASSERT_EQ(jac.evaluate_finite_differences(pool, point, values), EvalStatus::ok);
    for (std::size_t c = 0; c < s.pattern.cols(); ++c)
      for (std::size_t p = s.pattern.col_ptr()[c]; p < s.pattern.col_ptr()[c + 1]; ++p)
        EXPECT_NEAR(values[p], f.exact(s.pattern, p, c, s.y, cj), 1e-6 * (cj + 8)) << "column " << c;
  }
  EXPECT_EQ(jac.counters().residual_calls, 3u + 2u * 1u);
}

TEST(CompressedJacobianConstants, AllConstantNeedsNoCallAfterTheFirstAndKeepsTheCjPart) {
  Problem s(40);
  MassChain f(40, 0.0);  // linear: every entry constant, the diagonal with a cj part
  const ConstantEntries entries = chain_entries(s.pattern, true, EntryLifetime::run);
  const structure::VaryingColoring varying = structure::color_varying_columns(s.pattern, constant_flags(entries));
  EXPECT_EQ(varying.coloring.colors, 0u);
  CompressedJacobian jac(s.pattern, s.coloring, 1);
  jac.set_constant_entries(entries, varying.coloring);
  ResidualFunction* pool[] = {&f};
  std::vector<double> values(s.pattern.nnz());
  for (const double cj : {3.0, 7e4}) {
    JacobianPoint point{0.0, s.y, s.yp, {}, cj, 1.0 / cj, {}, {}};
    ASSERT_EQ(jac.evaluate_directional(pool, point, values), EvalStatus::ok);
    for (std::size_t c = 0; c < s.pattern.cols(); ++c)
      for (std::size_t p = s.pattern.col_ptr()[c]; p < s.pattern.col_ptr()[c + 1]; ++p)
        EXPECT_EQ(values[p], f.exact(s.pattern, p, c, s.y, cj)) << "column " << c;
  }
  EXPECT_EQ(f.calls, 3u + 3u) << "the y pass and the y' pass (the full colouring's 3 colours each), once";
  jac.invalidate_constants();  // run-long constants survive an event
  JacobianPoint point{0.0, s.y, s.yp, {}, 5.0, 0.2, {}, {}};
  ASSERT_EQ(jac.evaluate_directional(pool, point, values), EvalStatus::ok);
  EXPECT_EQ(f.calls, 6u);
}

TEST(CompressedJacobianConstants, SegmentConstantsAreTakenAgainAfterAnEventAndOnlyThey) {
  Problem s(40);
  MassChain f(40, 1.0);
  // Column 10's off-diagonal entries are `discrete` (per segment), the others `constant`.
  ConstantEntries entries = chain_entries(s.pattern, false, EntryLifetime::run);
  for (std::size_t p = s.pattern.col_ptr()[10]; p < s.pattern.col_ptr()[11]; ++p)
    if (s.pattern.row_idx()[p] != 10) entries.lifetime[p] = EntryLifetime::segment;
  const structure::VaryingColoring varying = structure::color_varying_columns(s.pattern, constant_flags(entries));
  CompressedJacobian jac(s.pattern, s.coloring, 1);
  jac.set_constant_entries(entries, varying.coloring);
  ResidualFunction* pool[] = {&f};
  std::vector<double> values(s.pattern.nnz());
  JacobianPoint point{0.0, s.y, s.yp, {}, 5.0, 0.2, {}, {}};
  ASSERT_EQ(jac.evaluate_directional(pool, point, values), EvalStatus::ok);
  ASSERT_EQ(jac.evaluate_directional(pool, point, values), EvalStatus::ok);
  EXPECT_EQ(jac.counters().constant_evaluations, 1u);
  EXPECT_EQ(jac.counters().constant_calls, 3u);
  f.g = 4.0;  // the event
  jac.invalidate_constants();
  ASSERT_EQ(jac.evaluate_directional(pool, point, values), EvalStatus::ok);
  EXPECT_EQ(jac.counters().constant_evaluations, 2u);
  EXPECT_EQ(jac.counters().constant_calls, 3u + 1u) << "only column 10's colour again";
  for (std::size_t c = 0; c < s.pattern.cols(); ++c)
    for (std::size_t p = s.pattern.col_ptr()[c]; p < s.pattern.col_ptr()[c + 1]; ++p)
      EXPECT_NEAR(values[p], f.exact(s.pattern, p, c, s.y, 5.0), 1e-14 * 20) << "column " << c;
}

TEST(CompressedJacobianConstants, TwoThreadsGiveBitwiseTheSameValues) {
  Problem s(500);
  MassChain a(500, 1.0), b(500, 1.0), c(500, 1.0);
  const ConstantEntries entries = chain_entries(s.pattern, false, EntryLifetime::run);
  const structure::VaryingColoring varying = structure::color_varying_columns(s.pattern, constant_flags(entries));
  std::vector<double> one(s.pattern.nnz()), two(s.pattern.nnz());
  JacobianPoint point{0.0, s.y, s.yp, {}, 50.0, 0.02, {}, {}};
  {
    CompressedJacobian jac(s.pattern, s.coloring, 1);
    jac.set_constant_entries(entries, varying.coloring);
    ResidualFunction* pool[] = {&a};
    ASSERT_EQ(jac.evaluate_directional(pool, point, one), EvalStatus::ok);
  }
  {
    CompressedJacobian jac(s.pattern, s.coloring, 2);
    jac.set_constant_entries(entries, varying.coloring);
    ResidualFunction* pool[] = {&b, &c};
    ASSERT_EQ(jac.evaluate_directional(pool, point, two), EvalStatus::ok);
  }
  EXPECT_EQ(one, two);
}

TEST(CompressedJacobianConstants, NoConstantEntryLeavesTodaysPath) {
  Problem s(30);
  MassChain f(30, 1.0);
  ConstantEntries entries;
  entries.lifetime.assign(s.pattern.nnz(), EntryLifetime::varying);
  entries.derivative_part.assign(s.pattern.nnz(), false);
  const structure::VaryingColoring varying = structure::color_varying_columns(s.pattern, constant_flags(entries));
  CompressedJacobian jac(s.pattern, s.coloring, 1);
  jac.set_constant_entries(entries, varying.coloring);
  EXPECT_EQ(jac.varying_colors(), 3u);
  EXPECT_EQ(jac.constant_entry_count(), 0u);
  ConstantEntries wrong;
  wrong.lifetime.assign(3, EntryLifetime::run);
  wrong.derivative_part.assign(3, false);
  EXPECT_THROW(jac.set_constant_entries(wrong, varying.coloring), std::invalid_argument);
}

// ---- re-forming for a new cj (CompressedJacobian::reform)

std::vector<ResidualFunction::DerivativeEntry> diagonal_derivative(std::size_t n, const MassChain* chain) {
  std::vector<ResidualFunction::DerivativeEntry> b;
  for (std::size_t i = 0; i < n; ++i) b.push_back({i, i, chain != nullptr ? chain->mass(i) : 1.0});
  return b;
}

// ∂G/∂y unchanged (the same y): the matrix re-formed for a new cj is the one
// a fresh evaluation gives there, without a model call; a varying entry with
// a y' part (the diagonal) to rounding, the constant entries bitwise.
TEST(CompressedJacobianReform, ANewCjGivesTheFreshMatrixWithoutACall) {
  for (const bool constants : {false, true}) {
    Problem s(60);
    MassChain f(60, 1.0), g(60, 1.0);  // g: the fresh evaluations' own
    const ConstantEntries entries = chain_entries(s.pattern, false, EntryLifetime::run);
    const structure::VaryingColoring varying = structure::color_varying_columns(s.pattern, constant_flags(entries));
    CompressedJacobian jac(s.pattern, s.coloring, 1), fresh(s.pattern, s.coloring, 1);
    if (constants) {
      jac.set_constant_entries(entries, varying.coloring);
      fresh.set_constant_entries(entries, varying.coloring);
    }
    ASSERT_TRUE(jac.set_known_derivative_part(diagonal_derivative(60, &f)));
    ResidualFunction* pool[] = {&f};
    ResidualFunction* fresh_pool[] = {&g};
    std::vector<double> values(s.pattern.nnz()), expected(s.pattern.nnz());
    EXPECT_FALSE(jac.can_reform()) << "nothing saved yet";
    JacobianPoint point{0.0, s.y, s.yp, {}, 40.0, 0.025, {}, {}};
    ASSERT_EQ(jac.evaluate_directional(pool, point, values), EvalStatus::ok);
    ASSERT_TRUE(jac.can_reform());
    const std::size_t calls = f.calls;
    for (const double cj : {75.0, 9.5, 4e4}) {
      jac.reform(cj, values);
      EXPECT_EQ(f.calls, calls) << "no model call";
      JacobianPoint at{0.0, s.y, s.yp, {}, cj, 1.0 / cj, {}, {}};
      ASSERT_EQ(fresh.evaluate_directional(fresh_pool, at, expected), EvalStatus::ok);
      for (std::size_t c = 0; c < s.pattern.cols(); ++c)
        for (std::size_t p = s.pattern.col_ptr()[c]; p < s.pattern.col_ptr()[c + 1]; ++p) {
          EXPECT_NEAR(values[p], expected[p], 4e-16 * (2 * cj + 8)) << "column " << c << " at cj " << cj;
          if (constants && s.pattern.row_idx()[p] != c) {
            EXPECT_EQ(values[p], expected[p]) << "a constant entry";
          }
        }
    }
    EXPECT_EQ(jac.counters().reforms, 3u);
    EXPECT_EQ(jac.counters().evaluations, 1u);
    jac.invalidate_constants();  // an event: the saved matrix is dropped
    EXPECT_FALSE(jac.can_reform());
    EXPECT_THROW(jac.reform(5.0, values), std::logic_error);
  }
}

// At the point and cj of the saved matrix (IDACalcIC's second setup at an
// unmoved point) the saved matrix is handed back bitwise, without a call;
// a point that differs in one bit of t, y, y' or cj is another point.
TEST(CompressedJacobianReform, AtTheSavedPointAndCjTheSavedMatrixItself) {
  Problem s(30);
  MassChain f(30, 1.0);
  CompressedJacobian jac(s.pattern, s.coloring, 1);
  ASSERT_TRUE(jac.set_known_derivative_part(diagonal_derivative(30, &f)));
  ResidualFunction* pool[] = {&f};
  std::vector<double> values(s.pattern.nnz()), again(s.pattern.nnz(), -1.0);
  const JacobianPoint point{0.5, s.y, s.yp, {}, 40.0, 0.025, {}, {}};
  EXPECT_FALSE(jac.saved_at(point)) << "nothing saved yet";
  ASSERT_EQ(jac.evaluate_directional(pool, point, values), EvalStatus::ok);
  EXPECT_TRUE(jac.saved_at(point));
  std::vector<double> y = s.y, yp = s.yp;
  y[7] = std::nextafter(y[7], 1e300);
  yp[3] += 1.0;
  EXPECT_FALSE(jac.saved_at({0.5, y, s.yp, {}, 40.0, 0.025, {}, {}})) << "y";
  EXPECT_FALSE(jac.saved_at({0.5, s.y, yp, {}, 40.0, 0.025, {}, {}})) << "y'";
  EXPECT_FALSE(jac.saved_at({0.6, s.y, s.yp, {}, 40.0, 0.025, {}, {}})) << "t";
  EXPECT_FALSE(jac.saved_at({0.5, s.y, s.yp, {}, 41.0, 0.025, {}, {}})) << "cj";
  const std::size_t calls = f.calls;
  jac.reform(point.cj, again);
  EXPECT_EQ(f.calls, calls) << "no model call";
  EXPECT_EQ(std::memcmp(again.data(), values.data(), values.size() * sizeof(double)), 0) << "bitwise";
  jac.invalidate_constants();  // an event
  EXPECT_FALSE(jac.saved_at(point));
}

// Difference quotients are not kept for re-forming (their truncation error
// would last), nor is a failed evaluation.
TEST(CompressedJacobianReform, NeitherDifferencesNorAFailedEvaluationAreKept) {
  Problem s(30);
  Tridiagonal f(30);
  CompressedJacobian jac(s.pattern, s.coloring, 1);
  ASSERT_TRUE(jac.set_known_derivative_part(diagonal_derivative(30, nullptr)));
  ResidualFunction* pool[] = {&f};
  std::vector<double> values(s.pattern.nnz());
  ASSERT_EQ(f.residual(0.0, s.y, s.yp, s.r), EvalStatus::ok);
  JacobianPoint point{0.0, s.y, s.yp, s.r, 10.0, 0.1, s.weights, {}};
  ASSERT_EQ(jac.evaluate_directional(pool, point, values), EvalStatus::ok);
  EXPECT_TRUE(jac.can_reform());
  ASSERT_EQ(jac.evaluate_finite_differences(pool, point, values), EvalStatus::ok);
  EXPECT_FALSE(jac.can_reform()) << "difference quotients";
  ASSERT_EQ(jac.evaluate_directional(pool, point, values), EvalStatus::ok);
  jac.set_finite_difference_columns(std::vector<bool>(30, false));
  EXPECT_FALSE(jac.can_reform()) << "a revision of the columns drops it";
  std::vector<bool> wrong(30, false);
  wrong[7] = true;
  jac.set_finite_difference_columns(wrong);
  ASSERT_EQ(jac.evaluate_directional(pool, point, values), EvalStatus::ok);
  EXPECT_FALSE(jac.can_reform()) << "a colour taken by differences";
  jac.set_finite_difference_columns({});
  ASSERT_EQ(jac.evaluate_directional(pool, point, values), EvalStatus::ok);
  EXPECT_TRUE(jac.can_reform());
  f.fail_at_calls = f.calls + 1;
  EXPECT_EQ(jac.evaluate_finite_differences(pool, point, values), EvalStatus::recoverable);
  EXPECT_FALSE(jac.can_reform());
}

// B must be the whole of ∂G/∂y' inside the pattern: an entry outside it, or
// twice, makes re-forming unavailable.
TEST(CompressedJacobianReform, ADerivativePartOutsideThePatternIsRefused) {
  Problem s(10);
  CompressedJacobian jac(s.pattern, s.coloring, 1);
  std::vector<ResidualFunction::DerivativeEntry> b = diagonal_derivative(10, nullptr);
  b.push_back({0, 9, 1.0});
  EXPECT_FALSE(jac.set_known_derivative_part(b));
  b.pop_back();
  b.push_back(b.front());
  EXPECT_FALSE(jac.set_known_derivative_part(b));
  b.pop_back();
  EXPECT_TRUE(jac.set_known_derivative_part(b));
}

}  // namespace
}  // namespace lsdae::kernels
