// tests/runtime/simulation/error_test_mask_test.cpp -- runtime/simulation/error_test_mask.h:
// which unknowns IDA's local error test covers, on the hand-built structure
// models of tests/structure (no FMU).
#include "simulation/error_test_mask.h"

#include <gtest/gtest.h>

#include "structure/dummy_derivatives.h"
#include "structure/pantelides.h"
#include "test_models.h"

namespace lsdae::simulation {
namespace {

using Mask = std::vector<double>;

Mask projection_mask(const structure::DaeInput& input) {
  const structure::DaeSystem s = structure::build_system(input);
  const structure::PantelidesResult p = structure::pantelides(s);
  return error_test_mask(s, structure::make_projection_system(s, p));
}

// The multiplier of the index-1 pendulum follows from der(vx), der(vy): out.
TEST(ErrorTestMask, PendulumMultiplierIsLeftOut) {
  EXPECT_EQ(projection_mask(structure::test::pendulum()), (Mask{1, 1, 1, 1, 0}));
}

// Semi-explicit index 1: y3 follows from the states alone (0 = g(y1, y2, y3)): in.
TEST(ErrorTestMask, SemiExplicitAlgebraicStaysIn) {
  EXPECT_EQ(projection_mask(structure::test::robertson_semi_explicit()), (Mask{1, 1, 1}));
}

// ẋ_k = z_k, z_k = x_k + z_{k−1}: the rows ẋ_k − z_k also contain z_k, so a
// matching of the iteration pattern (x_k and ẋ_k merged) may pair them with
// z_k; the (ẋ, z) system pairs them with ẋ_k, and every z_k stays in.
TEST(ErrorTestMask, AlgebraicOfTheStatesStaysInWhateverTheRowOrder) {
  const Mask mask = projection_mask(structure::test::chain(6));
  for (std::size_t k = 0; k < mask.size(); ++k) EXPECT_EQ(mask[k], 1.0) << "unknown " << k;
}

// Dummy derivatives (x, vx dummies): the dummy states x, vx and der(x) = vx
// follow from y, vy; der(vx) and lambda follow from der(vy).
TEST(ErrorTestMask, DummyDerivativeFromTheMultiplierIsLeftOut) {
  const structure::DaeSystem s = structure::build_system(structure::test::pendulum());
  const structure::PantelidesResult p = structure::pantelides(s);
  structure::DummySelection sel;
  sel.success = true;
  sel.dummy_states = {0, 2};  // x, vx
  const structure::Index1System i =
      structure::make_dummy_derivative_system(s, p, structure::plan_dummy_derivatives(s, p, true), sel);
  // Unknowns: x 0, der(x) 1, y 2, vx 3, der(vx) 4, vy 5, lambda 6 (iteration_pattern_test.cpp).
  EXPECT_EQ(error_test_mask(s, i), (Mask{1, 1, 1, 1, 0, 1, 0}));
}

}  // namespace
}  // namespace lsdae::simulation
