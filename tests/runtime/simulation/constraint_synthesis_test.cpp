// tests/runtime/simulation/constraint_synthesis_test.cpp -- the difference
// stencils behind lsdae's synthesized constraint derivatives
// (runtime/simulation/constraint_synthesis.h) on functions whose first and
// second time derivatives along a curve are known in closed form.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <optional>
#include <span>
#include <vector>

#include "simulation/constraint_synthesis.h"

namespace lsdae::simulation {
namespace {

// g(t, x) = exp(0.3 t)·sin(x0) + x1³/3 − 0.5, along x(τ) = x + τ·v + τ²/2·a.
// Along the curve: ẋ = v, ẍ = a at τ = 0, so
//   dg/dτ   = 0.3 e·sin x0 + e·cos x0·v0 + x1²·v1
//   d²g/dτ² = 0.09 e·sin x0 + 0.6 e·cos x0·v0 − e·sin x0·v0² + e·cos x0·a0
//             + 2 x1·v1² + x1²·a1                       (e = exp(0.3 t)).
std::optional<double> g(double t, std::span<const double> x) {
  return std::exp(0.3 * t) * std::sin(x[0]) + x[1] * x[1] * x[1] / 3.0 - 0.5;
}

TEST(ConstraintSynthesis, TheSecondDifferenceAlongACurveMatchesTheExactSecondDerivative) {
  const double t = 0.7;
  const std::vector<double> x{0.4, -1.3}, v{2.5, 0.8}, a{-9.81, 3.0};
  const double e = std::exp(0.3 * t), s = std::sin(x[0]), c = std::cos(x[0]);
  const double exact = 0.09 * e * s + 0.6 * e * c * v[0] - e * s * v[0] * v[0] + e * c * a[0] +
                       2 * x[1] * v[1] * v[1] + x[1] * x[1] * a[1];
  // The time scale on which the curve moves a state by its own size.
  const double scale = std::min({1.0, 1.0 / v[0], std::sqrt(1.0 / std::fabs(a[0]))});
  const std::optional<double> value = second_derivative_along(g, t, x, v, a, second_difference_step(scale));
  ASSERT_TRUE(value.has_value());
  // Measured: 6e-11 (|exact| ≈ 9); asserted with a margin of 30. The 3-point
  // second difference below gets 6e-8.
  EXPECT_NEAR(*value, exact, 2e-10 * (1 + std::fabs(exact)));
  // The plain 3-point second difference at its own best step is far worse:
  // what the stencil buys.
  const double h3 = std::pow(2.2e-16, 0.25) * scale;
  auto at = [&](double tau) {
    std::vector<double> p(2);
    for (std::size_t i = 0; i < 2; ++i) p[i] = x[i] + tau * v[i] + 0.5 * tau * tau * a[i];
    return *g(t + tau, p);
  };
  const double three_point = (at(h3) - 2 * at(0.0) + at(-h3)) / (h3 * h3);
  EXPECT_GT(std::fabs(three_point - exact), 10 * std::fabs(*value - exact));
}

TEST(ConstraintSynthesis, TheFirstDifferenceAlongALineMatchesTheExactDerivative) {
  const double t = -0.2;
  const std::vector<double> x{1.1, 0.6}, v{-0.7, 1.9};
  const double e = std::exp(0.3 * t);
  const double exact = 0.3 * e * std::sin(x[0]) + e * std::cos(x[0]) * v[0] + x[1] * x[1] * v[1];
  const double scale = std::min({1.0, 1.0 / std::fabs(v[0]), 1.0 / std::fabs(v[1])});
  const std::optional<double> value = first_derivative_along(g, t, x, v, first_difference_step(scale));
  ASSERT_TRUE(value.has_value());
  EXPECT_NEAR(*value, exact, 2e-12 * (1 + std::fabs(exact)));  // measured 1e-13
}

// The pendulum's constraint |r|² − l² along c(τ) is a polynomial of degree 4
// in τ: the 7-point stencil has no truncation error, only rounding.
TEST(ConstraintSynthesis, APolynomialConstraintIsDifferentiatedToRounding) {
  const double l = 0.8;
  auto rod = [&](double, std::span<const double> r) -> std::optional<double> {
    return r[0] * r[0] + r[1] * r[1] - l * l;
  };
  const std::vector<double> r{0.6, -std::sqrt(l * l - 0.36)}, u{-1.2, 1.2 * 0.6 / std::sqrt(l * l - 0.36)},
      du{3.0, -4.0};
  const double exact = 2 * (u[0] * u[0] + u[1] * u[1]) + 2 * (r[0] * du[0] + r[1] * du[1]);
  for (const double scale : {0.05, 0.2, 1.0}) {
    const std::optional<double> value = second_derivative_along(rod, 0.0, r, u, du, second_difference_step(scale));
    ASSERT_TRUE(value.has_value());
    EXPECT_NEAR(*value, exact, 1e-10 * (1 + std::fabs(exact)) / (scale * scale)) << scale;
  }
}

TEST(ConstraintSynthesis, ADiscardedEvaluationGivesNoValue) {
  int calls = 0;
  auto discards = [&](double, std::span<const double>) -> std::optional<double> {
    return ++calls == 3 ? std::nullopt : std::optional<double>(1.0);
  };
  const std::vector<double> x{0.0}, v{1.0}, a{0.0};
  EXPECT_FALSE(second_derivative_along(discards, 0.0, x, v, a, 1e-3).has_value());
  calls = 0;
  EXPECT_FALSE(first_derivative_along(discards, 0.0, x, v, 1e-3).has_value());
}

TEST(ConstraintSynthesis, TheStencilsAreExactOnLowDegreePolynomials) {
  // f(τ) = 2 + 3τ − τ² + 0.5τ³ at τ = k·h: f'(0) = 3, f''(0) = −2.
  const double h = 0.1;
  auto f = [&](double tau) { return 2 + 3 * tau - tau * tau + 0.5 * tau * tau * tau; };
  const std::array<double, 4> first{f(-2 * h), f(-h), f(h), f(2 * h)};
  const std::array<double, 7> second{f(-3 * h), f(-2 * h), f(-h), f(0), f(h), f(2 * h), f(3 * h)};
  EXPECT_NEAR(first_difference(first, h), 3.0, 1e-13);
  EXPECT_NEAR(second_difference(second, h), -2.0, 1e-11);
}

}  // namespace
}  // namespace lsdae::simulation
