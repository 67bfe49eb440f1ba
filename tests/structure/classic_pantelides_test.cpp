// tests/structure/classic_pantelides_test.cpp -- structure/classic_pantelides.h
#include "structure/classic_pantelides.h"

#include <gtest/gtest.h>

#include "test_models.h"

namespace lsdae::structure {
namespace {

using V = std::vector<std::size_t>;

ClassicPantelidesResult run(const DaeInput& in) { return classic_pantelides(build_system(in)); }

TEST(ClassicPantelides, PendulumIsIndexThree) {
  // The textbook result: the position constraint twice, the velocity
  // definitions der(x) = vx, der(y) = vy once.
  const ClassicPantelidesResult p = run(test::pendulum_without_group());
  ASSERT_TRUE(p.success);
  EXPECT_EQ(p.differentiations, (V{1, 1, 0, 0, 2}));
  EXPECT_EQ(p.structural_index, 3u);
  // der(der(x)) and der(der(y)) were created; der(x) now has a derivative.
  EXPECT_EQ(p.variables, 9u + 2u);
  EXPECT_NE(p.var_to_diff[0], no_index);
  EXPECT_EQ(p.var_to_diff[p.var_to_diff[0]], no_index);
  EXPECT_EQ(p.var_to_diff[4], 0u);  // x → der(x)
  EXPECT_EQ(p.equations, 5u + 4u);  // c0', c0'', r[1]', r[2]'
}

TEST(ClassicPantelides, Index2ExampleCaseOne) {
  const ClassicPantelidesResult p = run(test::index2_example(1));
  ASSERT_TRUE(p.success);
  EXPECT_EQ(p.differentiations, (V{0, 0, 1}));
  EXPECT_EQ(p.structural_index, 2u);
}

TEST(ClassicPantelides, CircuitsAndMasses) {
  const ClassicPantelidesResult cauer = run(test::cauer_low_pass());
  ASSERT_TRUE(cauer.success);
  EXPECT_EQ(cauer.differentiations, (V{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1}));
  EXPECT_EQ(cauer.structural_index, 2u);
  const ClassicPantelidesResult caps = run(test::two_capacitors_without_derivative());
  ASSERT_TRUE(caps.success);
  EXPECT_EQ(caps.differentiations, (V{0, 0, 0, 0, 0, 1, 0}));
  EXPECT_EQ(caps.structural_index, 2u);
  const ClassicPantelidesResult masses = run(test::coupled_masses());
  ASSERT_TRUE(masses.success);
  EXPECT_EQ(masses.differentiations, (V{0, 0, 0, 0, 1}));
  EXPECT_EQ(masses.structural_index, 2u);
}

TEST(ClassicPantelides, IndexOneAndOde) {
  const ClassicPantelidesResult hello = run(test::hello_world_fully_implicit());
  ASSERT_TRUE(hello.success);
  EXPECT_EQ(hello.structural_index, 1u);
  const DaeInput ode = test::ModelBuilder(DaeForm::fully_implicit)
                           .state("x").state("v")
                           .residual({{"r1", 0, {"der(x)", "v"}}})
                           .residual({{"r2", 0, {"der(v)", "x"}}})
                           .build();
  const ClassicPantelidesResult o = run(ode);
  ASSERT_TRUE(o.success);
  EXPECT_EQ(o.structural_index, 0u);
}

TEST(ClassicPantelides, StructurallySingularSystemHitsTheGuard) {
  const DaeInput singular = test::ModelBuilder(DaeForm::fully_implicit)
                                .algebraic("z1").algebraic("z2")
                                .residual({{"e1", 0, {"z1"}}})
                                .residual({{"e2", 0, {"z1"}}})
                                .build();
  const ClassicPantelidesResult p = classic_pantelides(build_system(singular), 4);
  EXPECT_FALSE(p.success);
  EXPECT_EQ(p.runaway,
            "structure: classic Pantelides stopped: residual \"e2\" would be differentiated to order 5, beyond the "
            "limit of 4 → the equations keep competing for the same variables, so the system is structurally "
            "singular or its dependencies are incomplete; check the dependencies of \"e2\" and of the equations "
            "sharing its variables");
}

}  // namespace
}  // namespace lsdae::structure
