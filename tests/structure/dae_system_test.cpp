// tests/structure/dae_system_test.cpp -- structure/dae_system.h
#include "structure/dae_system.h"

#include <gtest/gtest.h>

#include "structure/error.h"
#include "test_models.h"

namespace lsdae::structure {
namespace {

using V = std::vector<std::size_t>;
V vec(std::span<const std::size_t> s) { return {s.begin(), s.end()}; }

TEST(ColumnLayout, BlocksAreDerivativesStatesAlgebraic) {
  const ColumnLayout l{3, 2};
  EXPECT_EQ(l.columns(), 8u);
  EXPECT_EQ(l.unknowns(), 5u);
  EXPECT_EQ(l.column(derivative_of(2)), 2u);
  EXPECT_EQ(l.column(state(0)), 3u);
  EXPECT_EQ(l.column(algebraic(1)), 7u);
  EXPECT_EQ(l.var(4), state(1));
  EXPECT_EQ(l.var(6), algebraic(0));
  EXPECT_EQ(l.unknown_of_column(1), 1u);
  EXPECT_EQ(l.unknown_of_column(4), no_index);
  EXPECT_EQ(l.unknown_of_column(7), 4u);
  EXPECT_EQ(l.column_of_unknown(4), 7u);
  EXPECT_EQ(l.column_of_unknown(2), 2u);
}

TEST(BuildSystem, FullyImplicitPendulumKeepsGroupsAndNames) {
  const DaeSystem s = build_system(test::pendulum());
  EXPECT_EQ(s.layout.states, 4u);
  EXPECT_EQ(s.layout.algebraic, 1u);
  EXPECT_EQ(s.groups(), 5u);
  EXPECT_EQ(s.formulations.rows(), 7u);
  EXPECT_EQ(s.formulations.nnz(), 22u);  // docs/models.md: 22 dependency nonzeros
  EXPECT_EQ(s.group_name(4), "c0");
  EXPECT_EQ(s.formulation_count(4), 3u);
  EXPECT_EQ(s.formulation_names[s.formulation(4, 2)], "c2");
  EXPECT_EQ(s.level_of(6), 2u);
  EXPECT_EQ(s.declared_index[s.formulation(4, 1)], 2);
  EXPECT_EQ(s.column_names[0], "der(x)");
  EXPECT_EQ(s.column_names[4], "x");
  EXPECT_EQ(s.column_names[8], "lambda");
  // c2 over x, y, vx, vy, der(vx), der(vy): columns 4..7 and 2, 3.
  EXPECT_EQ(vec(s.formulations.row(6)), (V{2, 3, 4, 5, 6, 7}));
  EXPECT_TRUE(s.warnings.empty());
  // Block views of c2: der(vx), der(vy) | x, y, vx, vy | nothing.
  const EquationRef c2{EquationRef::Kind::formulation, 6};
  EXPECT_EQ(vec(s.incidence(c2, Block::derivative)), (V{2, 3}));
  EXPECT_EQ(vec(s.incidence(c2, Block::state)), (V{4, 5, 6, 7}));
  EXPECT_TRUE(s.incidence(c2, Block::algebraic).empty());
}

// The input's notes (e.g. formulations the runtime synthesizes because the
// FMU does not provide them) reach the system's notes, and so the report.
TEST(BuildSystem, TheInputsNotesAreKept) {
  DaeInput in = test::hello_world_fully_implicit();
  in.residuals[1].formulations.push_back(
      {"d/dt(r[2])", std::nullopt, std::vector<VarRef>{derivative_of(0), state(0), algebraic(0), algebraic(1)}});
  in.notes.push_back("\"d/dt(r[2])\" is not provided by the FMU: lsdae synthesizes it");
  const DaeSystem sys = build_system(in);
  EXPECT_EQ(sys.formulation_count(1), 2u);
  EXPECT_EQ(sys.formulation_names[sys.formulation(1, 1)], "d/dt(r[2])");
  ASSERT_EQ(sys.notes.size(), 1u);
  EXPECT_EQ(sys.notes[0], in.notes[0]);
  EXPECT_TRUE(build_system(test::hello_world_fully_implicit()).notes.empty());
}

TEST(BuildSystem, SemiExplicitAddsStateEquationsFirst) {
  const DaeSystem s = build_system(test::coupled_masses());
  ASSERT_EQ(s.groups(), 5u);  // 4 state equations + g
  EXPECT_EQ(s.group_kind[0], GroupKind::state_equation);
  EXPECT_EQ(s.group_kind[4], GroupKind::residual);
  EXPECT_EQ(s.group_source[4], 0u);
  EXPECT_EQ(s.group_name(2), "der(v1) - f");
  // der(v1) - f: der(v1) (column 2) and Fz (column 8).
  EXPECT_EQ(vec(s.formulations.row(2)), (V{2, 8}));
  // Robertson's docs/models.md count: 9 manifest nonzeros + 2 derivative columns.
  EXPECT_EQ(build_system(test::robertson_semi_explicit()).formulations.nnz(), 11u);
}

TEST(BuildSystem, AbsentDependenciesAreDenseWithAWarning) {
  DaeInput in = test::hello_world_fully_implicit();
  in.residuals[1].formulations[0].dependencies.reset();
  const DaeSystem s = build_system(in);
  EXPECT_EQ(vec(s.formulations.row(1)), (V{0, 1, 2, 3}));  // der(x), x, y, z
  EXPECT_TRUE(s.dense[1]);
  EXPECT_EQ(s.dense_rows(), 1u);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_EQ(s.warnings[0],
            "structure: \"r[2]\" declares no dependencies, so it is taken to depend on all 4 variables: a dense row "
            "couples it to all 3 unknowns in matching and BLT, hides its structure from index reduction, and puts "
            "every Jacobian column in conflict with every other in its row (at least 3 residual evaluations per "
            "Jacobian) → declare `dependencies` on it");
}

TEST(BuildSystem, SemiExplicitDenseRowsCoverStatesAndAlgebraicOnly) {
  DaeInput in = test::hello_world_semi_explicit();
  in.states[0].derivative_dependencies.reset();
  in.residuals[0].formulations[0].dependencies.reset();
  const DaeSystem s = build_system(in);
  EXPECT_EQ(vec(s.formulations.row(0)), (V{0, 1, 2, 3}));  // der(x) and all of x, y, z
  EXPECT_EQ(vec(s.formulations.row(1)), (V{1, 2, 3}));     // g[1]: x, y, z, never der(x)
  EXPECT_EQ(s.warnings.size(), 2u);
}

TEST(BuildSystem, DerivativeInSemiExplicitResidualIsReplacedByF) {
  DaeInput in = test::coupled_masses();
  in.residuals[0].formulations[1].dependencies = std::vector<VarRef>{derivative_of(2), derivative_of(3)};
  const DaeSystem s = build_system(in);
  EXPECT_EQ(vec(s.formulations.row(s.formulation(4, 1))), (V{8}));  // Fz from f(v1) and f(v2)
  ASSERT_EQ(s.notes.size(), 2u);
  EXPECT_EQ(s.notes[0],
            "structure: semi-explicit residual \"gdot\" lists the derivative \"der(v1)\"; the FMU computes it as "
            "f(x, z), so its dependencies are used instead");
}

TEST(BuildSystem, InvalidInputNamesTheRowTheBlockAndTheIndex) {
  DaeInput in = test::index2_example(3);
  in.residuals[2].formulations[1].dependencies->push_back(algebraic(4));
  try {
    (void)build_system(in);
    FAIL();
  } catch (const StructureError& e) {
    EXPECT_STREQ(e.what(),
                 "structure: \"dr3\": dependency on algebraic variable 4 is out of range (the model has 1) → check "
                 "the mapping of its dependencies");
  }
  DaeInput empty = test::index2_example(1);
  empty.residuals[0].formulations.clear();
  EXPECT_THROW((void)build_system(empty), StructureError);

  DaeInput semi = test::coupled_masses();
  semi.states[0].derivative_dependencies->push_back(derivative_of(1));
  try {
    (void)build_system(semi);
    FAIL();
  } catch (const StructureError& e) {
    EXPECT_STREQ(e.what(),
                 "structure: state equation \"der(s1) - f\" depends on the derivative \"der(s2)\"; in the "
                 "semi-explicit form f(x, z, t) depends on states and algebraic variables only → drop derivatives "
                 "from the <ContinuousStateDerivative> dependencies");
  }
}

TEST(BuildSystem, InvariantsAreKeptApartWithTheirGroup) {
  DaeInput in = test::hello_world_semi_explicit();
  in.invariants.push_back({"inv", std::vector<VarRef>{state(0), algebraic(1)}, 1, 0});
  const DaeSystem s = build_system(in);
  ASSERT_EQ(s.invariants.rows(), 1u);
  EXPECT_EQ(vec(s.invariants.row(0)), (V{1, 3}));
  EXPECT_EQ(s.invariant_group[0], 2u);  // input group 1 + one state equation
  EXPECT_EQ(s.invariant_level[0], 0u);
  EXPECT_EQ(s.name({EquationRef::Kind::invariant, 0}), "inv");
  in.invariants[0].group = 5;
  EXPECT_THROW((void)build_system(in), StructureError);
}

TEST(BuildSystem, MissingNamesGetDefaults) {
  const DaeSystem s = build_system(test::chain(2));
  EXPECT_EQ(s.column_names[0], "der(x[0])");
  EXPECT_EQ(s.column_names[2], "x[0]");
  EXPECT_EQ(s.column_names[5], "z[1]");
  EXPECT_EQ(s.group_name(3), "residual[3]");
}

}  // namespace
}  // namespace lsdae::structure
