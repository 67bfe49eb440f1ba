// tests/structure/index1_system_test.cpp -- structure/index1_system.h
#include "structure/index1_system.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "structure/error.h"
#include "structure/iteration_pattern.h"
#include "test_models.h"

namespace lsdae::structure {
namespace {

using V = std::vector<std::size_t>;
using K = UnknownKind;

struct Reduced {
  DaeSystem system;
  PantelidesResult p;
  DummyDerivativePlan plan;
};

Reduced reduce(const DaeInput& in) {
  Reduced r{build_system(in), {}, {}};
  r.p = pantelides(r.system);
  r.plan = plan_dummy_derivatives(r.system, r.p, true);
  return r;
}

DummySelection chosen(V dummies) {
  DummySelection s;
  s.success = true;
  s.dummy_states = std::move(dummies);
  return s;
}

std::vector<std::string> row_names(const DaeSystem& s, const Index1System& i) {
  std::vector<std::string> out;
  for (const EquationRef e : i.rows) out.push_back(s.name(e));
  return out;
}

TEST(Index1System, PendulumWithDummyDerivatives) {
  const Reduced r = reduce(test::pendulum());
  const Index1System i = make_dummy_derivative_system(r.system, r.p, r.plan, chosen({0, 2}));  // x, vx dummies
  EXPECT_EQ(i.method, ReductionMethod::dummy_derivatives);
  const std::vector<IdaUnknown> expected{{K::dummy_state, 0},  {K::dummy_derivative, 0}, {K::differential, 1},
                                         {K::dummy_state, 2},  {K::dummy_derivative, 2}, {K::differential, 3},
                                         {K::algebraic, 0}};
  EXPECT_EQ(i.unknowns, expected);
  EXPECT_EQ(row_names(r.system, i), (std::vector<std::string>{"r[1]", "r[2]", "r[3]", "r[4]", "c2", "c0", "c1"}));
  EXPECT_EQ(i.differential_states, (V{1, 3}));
  EXPECT_EQ(i.dummy_states, (V{0, 2}));
  EXPECT_TRUE(i.projection_constraints.empty());
  EXPECT_EQ(i.ida_id(), (std::vector<double>{0, 0, 1, 0, 0, 1, 0}));
  // der(x) and x are separate algebraic unknowns; der(y) and y are one differential unknown.
  EXPECT_EQ(i.column_to_unknown[0], 1u);
  EXPECT_EQ(i.column_to_unknown[4], 0u);
  EXPECT_EQ(i.column_to_unknown[1], 2u);
  EXPECT_EQ(i.column_to_unknown[5], 2u);
  EXPECT_EQ(i.column_to_unknown[8], 6u);
  EXPECT_EQ(verify_index1_structure(r.system, i), "");
  EXPECT_EQ(unknown_name(r.system, i.unknowns[1]), "der(x)");
  EXPECT_EQ(unknown_name(r.system, i.unknowns[6]), "lambda");
}

TEST(Index1System, StructurallyBadSelectionIsCaught) {
  const Reduced r = reduce(test::pendulum());
  // Velocities as dummies leave c0 (positions only) without an unknown; the
  // matching then leaves one of the seven unknowns free (here lambda).
  const Index1System i = make_dummy_derivative_system(r.system, r.p, r.plan, chosen({2, 3}));
  EXPECT_EQ(verify_index1_structure(r.system, i),
            "structure: system is structurally singular: 7 residuals, 7 unknowns, structural rank 6; unmatched "
            "residuals: \"c0\"; unmatched variables: \"lambda\" → the chosen dummy states leave the index-1 "
            "system structurally singular: choose them with select_dummy_derivatives, which only returns regular "
            "selections");
}

TEST(Index1System, PendulumWithProjection) {
  const Reduced r = reduce(test::pendulum());
  const Index1System i = make_projection_system(r.system, r.p);
  EXPECT_EQ(i.method, ReductionMethod::projection);
  EXPECT_EQ(i.unknowns.size(), 5u);
  EXPECT_EQ(i.differential_states, (V{0, 1, 2, 3}));
  EXPECT_EQ(row_names(r.system, i), (std::vector<std::string>{"r[1]", "r[2]", "r[3]", "r[4]", "c2"}));
  ASSERT_EQ(i.projection_constraints.size(), 2u);
  EXPECT_EQ(r.system.name(i.projection_constraints[0]), "c0");
  EXPECT_EQ(r.system.name(i.projection_constraints[1]), "c1");
  EXPECT_EQ(verify_index1_structure(r.system, i), "");
}

TEST(Index1System, IndexOneNeedsNothing) {
  const Reduced r = reduce(test::hello_world_semi_explicit());
  const Index1System dd = make_dummy_derivative_system(r.system, r.p, r.plan, chosen({}));
  EXPECT_EQ(dd.method, ReductionMethod::none);
  EXPECT_EQ(dd.ida_id(), (std::vector<double>{1, 0, 0}));
  EXPECT_EQ(make_projection_system(r.system, r.p).method, ReductionMethod::none);
}

TEST(Index1System, InvariantsAreRowsOrProjectionConstraints) {
  DaeInput in = test::hello_world_semi_explicit();
  in.invariants.push_back({"i", std::vector<VarRef>{state(0), algebraic(0)}, {}, {}});
  const Reduced r = reduce(in);
  const Index1System dd = make_dummy_derivative_system(r.system, r.p, r.plan, chosen({0}));
  EXPECT_EQ(row_names(r.system, dd).back(), "i");
  EXPECT_TRUE(dd.projection_constraints.empty());
  const DummyDerivativePlan without = plan_dummy_derivatives(r.system, r.p, false);
  const Index1System kept = make_dummy_derivative_system(r.system, r.p, without, chosen({}));
  ASSERT_EQ(kept.projection_constraints.size(), 1u);
  EXPECT_EQ(kept.projection_constraints[0].kind, EquationRef::Kind::invariant);
}

TEST(Index1System, FailedSelectionIsAContractViolation) {
  const Reduced r = reduce(test::pendulum());
  EXPECT_THROW((void)make_dummy_derivative_system(r.system, r.p, r.plan, DummySelection{}), StructureError);
  EXPECT_THROW((void)make_dummy_derivative_system(r.system, r.p, r.plan, chosen({0})), StructureError);
}

// Every iteration-matrix row k has a structural nonzero in column k.
bool zero_free_diagonal(const DaeSystem& s, const Index1System& i) {
  const Pattern j = iteration_pattern(s, i);
  for (std::size_t k = 0; k < j.rows(); ++k)
    if (!std::binary_search(j.row(k).begin(), j.row(k).end(), k)) return false;
  return true;
}

std::vector<std::string> sorted(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  return names;
}

TEST(Index1System, MatchedRowsGiveAZeroFreeDiagonal) {
  const Reduced r = reduce(test::transmission_line(4));
  Index1System i = make_dummy_derivative_system(r.system, r.p, r.plan, chosen({}));
  const std::vector<std::string> declared = row_names(r.system, i);
  EXPECT_FALSE(i.rows_matched);
  EXPECT_FALSE(zero_free_diagonal(r.system, i));  // the manifest's order: res.R[1] is not on L[1].i's column
  ASSERT_TRUE(order_rows_by_matching(r.system, i));
  EXPECT_TRUE(i.rows_matched);
  EXPECT_TRUE(zero_free_diagonal(r.system, i));
  EXPECT_EQ(sorted(row_names(r.system, i)), sorted(declared));  // a permutation of the same rows
  EXPECT_EQ(verify_index1_structure(r.system, i), "");
}

TEST(Index1System, MatchedRowsWithDummyDerivatives) {
  const Reduced r = reduce(test::pendulum());
  Index1System i = make_dummy_derivative_system(r.system, r.p, r.plan, chosen({0, 2}));  // x, vx dummies
  ASSERT_TRUE(order_rows_by_matching(r.system, i));
  EXPECT_TRUE(zero_free_diagonal(r.system, i));
  // Unknowns x, der(x), y, vx, der(vx), vy, lambda. The dummy states x and
  // vx lead in the constraints (c0 has x, y; c1 has vx, vy); r[1..4] keep
  // the derivatives, and r[3] (der(vx) with lambda) takes lambda.
  EXPECT_EQ(row_names(r.system, i), (std::vector<std::string>{"c0", "r[1]", "r[2]", "c1", "c2", "r[4]", "r[3]"}));
}

TEST(Index1System, SemiExplicitStateRowsStayAtTheirStates) {
  const Reduced r = reduce(test::robertson_semi_explicit());
  Index1System i = make_dummy_derivative_system(r.system, r.p, r.plan, chosen({}));
  const std::vector<std::string> declared = row_names(r.system, i);
  ASSERT_TRUE(order_rows_by_matching(r.system, i));
  EXPECT_EQ(row_names(r.system, i), declared);
}

TEST(Index1System, NoPerfectMatchingLeavesTheOrder) {
  const Reduced r = reduce(test::pendulum());
  Index1System i = make_dummy_derivative_system(r.system, r.p, r.plan, chosen({2, 3}));  // singular (above)
  const std::vector<std::string> declared = row_names(r.system, i);
  EXPECT_FALSE(order_rows_by_matching(r.system, i));
  EXPECT_FALSE(i.rows_matched);
  EXPECT_EQ(row_names(r.system, i), declared);
}

TEST(Index1System, EnumNames) {
  EXPECT_STREQ(to_string(ReductionMethod::dummy_derivatives), "dummy derivatives");
  EXPECT_STREQ(to_string(UnknownKind::dummy_derivative), "dummy derivative");
}

}  // namespace
}  // namespace lsdae::structure
