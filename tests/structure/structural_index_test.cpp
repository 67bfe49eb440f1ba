// tests/structure/structural_index_test.cpp -- structure/structural_index.h
#include "structure/structural_index.h"

#include <gtest/gtest.h>

#include "structure/pantelides.h"
#include "test_models.h"

namespace lsdae::structure {
namespace {

using V = std::vector<std::size_t>;

struct Estimated {
  DaeSystem system;
  PantelidesResult p;
  IndexEstimate index;
};

Estimated estimate(const DaeInput& in) {
  Estimated e{build_system(in), {}, {}};
  e.p = pantelides(e.system);
  EXPECT_TRUE(e.p.success);
  const Blt blt = block_lower_triangular(e.p.active_view(), e.p.matching);
  std::vector<bool> algebraic(e.system.layout.unknowns(), false);
  for (std::size_t u = e.system.layout.states; u < algebraic.size(); ++u) algebraic[u] = true;
  e.index = estimate_index(e.p.active_view(), e.p.matching, blt, e.p.level, algebraic);
  return e;
}

TEST(EstimateIndex, PerGroupIndexIsDifferentiationsPlusOneWhereAlgebraicVariablesAreSolved) {
  const Estimated pendulum = estimate(test::pendulum());
  EXPECT_EQ(pendulum.index.structural_index, 3u);
  // r[1], r[2] only give der(x), der(y), which no other active row uses (c2
  // has vx, vy substituted): they are ODE rows, index 0.
  EXPECT_EQ(pendulum.index.group_index, (V{0, 0, 1, 1, 3}));

  const Estimated masses = estimate(test::coupled_masses());
  EXPECT_EQ(masses.index.structural_index, 2u);
  // Only gdot solves for Fz; the x' - f rows solve for derivatives nobody
  // else needs, so none of them is differentiated for the ODE.
  EXPECT_EQ(masses.index.group_index, (V{0, 0, 0, 0, 2}));

  EXPECT_EQ(estimate(test::hello_world_semi_explicit()).index.group_index, (V{0, 1, 1}));
  EXPECT_EQ(estimate(test::index2_example(3)).index.structural_index, 2u);
  EXPECT_EQ(estimate(test::cauer_low_pass()).index.structural_index, 2u);
  EXPECT_EQ(estimate(test::transmission_line(10)).index.structural_index, 1u);
}

TEST(EstimateIndex, OdeIsIndexZero) {
  const DaeInput ode = test::ModelBuilder(DaeForm::semi_explicit)
                           .state("x", StateSelect::normal, {"v"})
                           .state("v", StateSelect::normal, {"x"})
                           .build();
  EXPECT_EQ(estimate(ode).index.structural_index, 0u);
}

TEST(CheckDeclaredIndices, AgreementIsSilent) {
  for (const DaeInput& in : {test::pendulum(), test::coupled_masses(), test::two_capacitors(),
                             test::cauer_low_pass(), test::index2_example(3)}) {
    const Estimated e = estimate(in);
    const IndexCheck check = check_declared_indices(e.system, e.p.level, e.index.group_index);
    EXPECT_TRUE(check.warnings.empty());
    EXPECT_TRUE(check.notes.empty());
  }
}

TEST(CheckDeclaredIndices, DisagreementIsAWarningNamingBothValues) {
  DaeInput in = test::pendulum();
  in.residuals[4].formulations[1].declared_index = 3;
  const Estimated e = estimate(in);
  const IndexCheck check = check_declared_indices(e.system, e.p.level, e.index.group_index);
  ASSERT_EQ(check.warnings.size(), 1u);
  EXPECT_EQ(check.warnings[0],
            "structure: formulation \"c1\" declares index=\"3\", the structural analysis finds 2 → the FMU's index "
            "attribute and its dependencies disagree; the analysis follows the dependencies");
}

TEST(CheckDeclaredIndices, UnneededFormulationIsANote) {
  DaeInput in = test::hello_world_fully_implicit();
  in.residuals[1].formulations.push_back({"dr[2]", 0, std::vector<VarRef>{derivative_of(0)}});
  in.residuals[1].formulations[0].declared_index = 2;
  const Estimated e = estimate(in);
  const IndexCheck check = check_declared_indices(e.system, e.p.level, e.index.group_index);
  ASSERT_EQ(check.notes.size(), 1u);
  EXPECT_EQ(check.notes[0],
            "structure: formulation \"dr[2]\" of \"r[2]\" is not needed: the residual needs no differentiation; it "
            "is ignored");
  ASSERT_EQ(check.warnings.size(), 1u);  // r[2] declared 2, is 1
}

}  // namespace
}  // namespace lsdae::structure
