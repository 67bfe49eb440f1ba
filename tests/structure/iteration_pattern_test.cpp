// tests/structure/iteration_pattern_test.cpp -- structure/iteration_pattern.h
#include "structure/iteration_pattern.h"

#include <gtest/gtest.h>

#include "test_models.h"

namespace lsdae::structure {
namespace {

using V = std::vector<std::size_t>;
V vec(std::span<const std::size_t> s) { return {s.begin(), s.end()}; }

TEST(IterationPattern, DifferentialStatesMergeStateAndDerivative) {
  const DaeSystem s = build_system(test::pendulum());
  const PantelidesResult p = pantelides(s);
  const Index1System i = make_projection_system(s, p);
  const Pattern j = iteration_pattern(s, i);
  EXPECT_EQ(j.rows(), 5u);
  EXPECT_EQ(j.cols(), 5u);
  EXPECT_EQ(vec(j.row(0)), (V{0, 2}));        // r[1]: der(x) → x, vx
  EXPECT_EQ(vec(j.row(2)), (V{0, 2, 4}));     // r[3]: x, der(vx) → vx, lambda
  EXPECT_EQ(vec(j.row(4)), (V{0, 1, 2, 3}));  // c2
}

TEST(IterationPattern, DummyDerivativesAreTheirOwnColumns) {
  const DaeSystem s = build_system(test::pendulum());
  const PantelidesResult p = pantelides(s);
  DummySelection sel;
  sel.success = true;
  sel.dummy_states = {0, 2};  // x, vx
  const Index1System i = make_dummy_derivative_system(s, p, plan_dummy_derivatives(s, p, true), sel);
  const Pattern j = iteration_pattern(s, i);
  // Unknowns: x 0, der(x) 1, y 2, vx 3, der(vx) 4, vy 5, lambda 6.
  EXPECT_EQ(j.cols(), 7u);
  EXPECT_EQ(vec(j.row(0)), (V{1, 3}));        // r[1]: der(x), vx
  EXPECT_EQ(vec(j.row(2)), (V{0, 4, 6}));     // r[3]: x, der(vx), lambda
  EXPECT_EQ(vec(j.row(5)), (V{0, 2}));        // c0
  EXPECT_EQ(vec(j.row(6)), (V{0, 2, 3, 5}));  // c1
}

TEST(IterationPattern, TransmissionLineNonzeros) {
  // 13N + 7 dependency nonzeros (docs/models.md); res.filter_yd holds both
  // filter.yd and der(filter.yd), which merge into one column: 13N + 6.
  const std::size_t n = 80;
  const DaeSystem s = build_system(test::transmission_line(n));
  const PantelidesResult p = pantelides(s);
  const Pattern j = iteration_pattern(s, make_projection_system(s, p));
  EXPECT_EQ(j.rows(), 5 * n + 3);
  EXPECT_EQ(j.nnz(), 13 * n + 6);
  EXPECT_EQ(j.max_row_nnz(), 4u);
}

}  // namespace
}  // namespace lsdae::structure
