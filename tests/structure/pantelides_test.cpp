// tests/structure/pantelides_test.cpp -- structure/pantelides.h
#include "structure/pantelides.h"

#include <gtest/gtest.h>

#include "structure/error.h"
#include "test_models.h"

namespace lsdae::structure {
namespace {

using V = std::vector<std::size_t>;

PantelidesResult run(const DaeInput& in, const PantelidesOptions& options = {}) {
  return pantelides(build_system(in), options);
}

TEST(Pantelides, PendulumDifferentiatesThePositionConstraintTwice) {
  const DaeSystem s = build_system(test::pendulum());
  const PantelidesResult p = pantelides(s);
  ASSERT_TRUE(p.success);
  EXPECT_EQ(p.level, (V{0, 0, 0, 0, 2}));
  EXPECT_EQ(p.differentiations, 2u);
  EXPECT_EQ(s.formulation_names[p.active[4]], "c2");
  EXPECT_TRUE(p.matching.perfect());
  // c2 takes an acceleration, lambda goes to r[3] or r[4].
  const std::size_t c2_unknown = p.matching.row_to_column[4];
  EXPECT_TRUE(s.unknown_name(c2_unknown) == "der(vx)" || s.unknown_name(c2_unknown) == "der(vy)");
}

TEST(Pantelides, UnsubstitutedDerivativesStillNeedNoFormulationForTheStateEquations) {
  // c1' = x der(x) + y der(y) competes with r[1], r[2] for der(x), der(y):
  // the singular subset is {c1', r[1], r[2]}; only c1' has a next formulation.
  const PantelidesResult p = run(test::pendulum_unsubstituted());
  ASSERT_TRUE(p.success);
  EXPECT_EQ(p.level, (V{0, 0, 0, 0, 2}));
}

TEST(Pantelides, MissingFormulationIsReportedWithTheOrderNeeded) {
  const PantelidesResult p = run(test::pendulum_without_group());
  EXPECT_FALSE(p.success);
  ASSERT_EQ(p.missing.size(), 1u);
  EXPECT_EQ(p.missing[0].group, 4u);
  EXPECT_EQ(p.missing[0].order_needed, 1u);
  EXPECT_TRUE(p.runaway.empty());
}

TEST(Pantelides, Index2ExampleCases) {
  for (const int manifest_case : {1, 2}) {
    const PantelidesResult p = run(test::index2_example(manifest_case));
    EXPECT_FALSE(p.success) << manifest_case;
    ASSERT_EQ(p.missing.size(), 1u);
    EXPECT_EQ(p.missing[0].group, 2u);
    EXPECT_EQ(p.missing[0].order_needed, 1u);
  }
  const PantelidesResult p = run(test::index2_example(3));
  ASSERT_TRUE(p.success);
  EXPECT_EQ(p.level, (V{0, 0, 1}));
}

TEST(Pantelides, TwoCapacitorsUseTheGroupedDerivative) {
  const PantelidesResult p = run(test::two_capacitors());
  ASSERT_TRUE(p.success);
  EXPECT_EQ(p.level, (V{0, 0, 0, 0, 0, 1, 0}));
  const PantelidesResult q = run(test::two_capacitors_without_derivative());
  ASSERT_EQ(q.missing.size(), 1u);
  EXPECT_EQ(q.missing[0].group, 5u);
}

TEST(Pantelides, CauerDifferentiatesTheFourCapacitorLoopConstraints) {
  const PantelidesResult p = run(test::cauer_low_pass());
  ASSERT_TRUE(p.success);
  EXPECT_EQ(p.level, (V{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1}));
  EXPECT_EQ(p.differentiations, 4u);
}

TEST(Pantelides, CoupledMassesSemiExplicit) {
  const PantelidesResult p = run(test::coupled_masses());
  ASSERT_TRUE(p.success);
  EXPECT_EQ(p.level, (V{0, 0, 0, 0, 1}));
}

TEST(Pantelides, IndexOneModelsNeedNothing) {
  for (const DaeInput& in : {test::hello_world_fully_implicit(), test::hello_world_semi_explicit(),
                             test::robertson_semi_explicit(), test::transmission_line(40), test::chain(100)}) {
    const PantelidesResult p = run(in);
    ASSERT_TRUE(p.success);
    EXPECT_EQ(p.differentiations, 0u);
  }
}

TEST(Pantelides, EveryMissingDerivativeIsListedInOneRun) {
  // Two copies of the index-2 example's case 1 in one model.
  const DaeInput in = test::ModelBuilder(DaeForm::fully_implicit)
                          .state("x1").state("x2").state("x3").state("x4")
                          .algebraic("y").algebraic("w")
                          .residual({{"r1", 0, {"y", "der(x1)"}}})
                          .residual({{"r2", 0, {"y", "der(x2)"}}})
                          .residual({{"r3", 0, {"x1", "x2"}}})
                          .residual({{"s1", 0, {"w", "der(x3)"}}})
                          .residual({{"s2", 0, {"w", "der(x4)"}}})
                          .residual({{"s3", 0, {"x3", "x4"}}})
                          .build();
  const PantelidesResult p = run(in);
  ASSERT_EQ(p.missing.size(), 2u);
  EXPECT_EQ(p.missing[0].group, 2u);
  EXPECT_EQ(p.missing[1].group, 5u);
}

TEST(Pantelides, GuardStopsWithAClearMessage) {
  PantelidesOptions options;
  options.max_differentiations = 1;
  const PantelidesResult p = run(test::pendulum(), options);
  EXPECT_FALSE(p.success);
  EXPECT_EQ(p.runaway,
            "structure: Pantelides stopped: residual \"c0\" would be differentiated to order 2, beyond the limit of 1 "
            "→ the equations keep competing for the same variables, so the system is structurally singular or its "
            "dependencies are incomplete; check the dependencies of \"c0\" and of the equations sharing its "
            "variables");
}

TEST(Pantelides, UnbalancedInputIsAContractViolation) {
  DaeInput in = test::hello_world_fully_implicit();
  in.residuals.pop_back();
  EXPECT_THROW((void)run(in), StructureError);
}

TEST(ExtendedMatching, StateAndDerivativeCountOnce) {
  // r3 = x1 - x2 has no unknown but holds two states: regular.
  EXPECT_TRUE(extended_matching(build_system(test::index2_example(1))).perfect());
  EXPECT_TRUE(extended_matching(build_system(test::pendulum_without_group())).perfect());
  // Two residuals in z1 only, z2 nowhere: singular whatever is differentiated.
  const DaeInput singular = test::ModelBuilder(DaeForm::fully_implicit)
                                .algebraic("z1").algebraic("z2")
                                .residual({{"e1", 0, {"z1"}}})
                                .residual({{"e2", 0, {"z1"}}})
                                .build();
  const Matching m = extended_matching(build_system(singular));
  EXPECT_EQ(m.size, 1u);
  EXPECT_EQ(m.unmatched_rows(), (V{1}));
  EXPECT_EQ(m.unmatched_columns(), (V{1}));
}

TEST(UnknownIncidence, DropsTheStateBlock) {
  const DaeSystem s = build_system(test::pendulum());
  const Pattern u = unknown_incidence(s);
  EXPECT_EQ(u.cols(), 5u);
  EXPECT_TRUE(u.row(s.formulation(4, 0)).empty());  // c0: states only
  EXPECT_TRUE(u.row(s.formulation(4, 1)).empty());  // c1: states only
  EXPECT_EQ(std::vector<std::size_t>(u.row(6).begin(), u.row(6).end()), (V{2, 3}));  // c2: der(vx), der(vy)
  EXPECT_EQ(std::vector<std::size_t>(u.row(2).begin(), u.row(2).end()), (V{2, 4}));  // r[3]: der(vx), lambda
}

}  // namespace
}  // namespace lsdae::structure
