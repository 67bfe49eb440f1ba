// tests/structure/dummy_derivatives_test.cpp -- structure/dummy_derivatives.h
#include "structure/dummy_derivatives.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "structure/index1_system.h"
#include "test_models.h"

namespace lsdae::structure {
namespace {

using V = std::vector<std::size_t>;
constexpr double pi = std::numbers::pi;

struct Planned {
  DaeSystem system;
  PantelidesResult p;
  DummyDerivativePlan plan;
};

Planned plan_for(const DaeInput& in, bool invariants = true) {
  Planned out{build_system(in), {}, {}};
  out.p = pantelides(out.system);
  EXPECT_TRUE(out.p.success);
  out.plan = plan_dummy_derivatives(out.system, out.p, invariants);
  return out;
}

V dummies_at(const Planned& m, double theta, double omega) {
  const DummySelection sel =
      select_dummy_derivatives(m.system, m.plan, test::callback_from(m.system, test::pendulum_values(theta, omega)));
  EXPECT_TRUE(sel.success) << sel.error;
  return sel.dummy_states;
}

TEST(PlanDummyDerivatives, PendulumConstraintsCandidatesAndEntries) {
  const Planned m = plan_for(test::pendulum());
  EXPECT_EQ(m.plan.constraints, 2u);
  ASSERT_EQ(m.plan.components.size(), 1u);
  const DummyComponent& c = m.plan.components[0];
  ASSERT_EQ(c.constraints.size(), 2u);
  EXPECT_EQ(m.system.name(c.constraints[0].equation), "c0");
  EXPECT_EQ(c.constraints[0].height, 2u);
  EXPECT_EQ(c.constraints[1].height, 1u);
  EXPECT_EQ(c.candidates, (V{0, 1, 2, 3}));
  EXPECT_EQ(c.candidate_height, (V{2, 2, 1, 1}));
  EXPECT_TRUE(c.closure_groups.empty());
  // Sorted by column, then row: x (c0, c1), y (c0, c1), vx (c1), vy (c1).
  ASSERT_EQ(m.plan.entries.size(), 6u);
  std::vector<std::string> order;
  for (const auto& e : m.plan.entries)
    order.push_back(m.system.name(e.row) + "/" + m.system.column_names[m.system.layout.column(e.column)]);
  EXPECT_EQ(order, (std::vector<std::string>{"c0/x", "c1/x", "c0/y", "c1/y", "c1/vx", "c1/vy"}));
  EXPECT_TRUE(m.plan.error.empty());
}

TEST(SelectDummyDerivatives, PendulumSelectionFollowsThePosition) {
  const Planned m = plan_for(test::pendulum());
  EXPECT_EQ(dummies_at(m, 0.0, 0.0), (V{1, 3}));         // hanging: y, vy dummies; x, vx states
  EXPECT_EQ(dummies_at(m, pi / 6, 0.0), (V{1, 3}));
  EXPECT_EQ(dummies_at(m, pi / 2, 0.0), (V{0, 2}));      // horizontal: x, vx dummies; y, vy states
  EXPECT_EQ(dummies_at(m, pi / 3, 1.0), (V{0, 2}));
  EXPECT_EQ(dummies_at(m, 0.0, 4.43), (V{1, 3}));        // fast at the bottom: still position-velocity pairs
  EXPECT_EQ(dummies_at(m, pi / 4 - 1e-6, 0.0), (V{1, 3}));  // the switch is at 45 degrees
  EXPECT_EQ(dummies_at(m, pi / 4 + 1e-6, 0.0), (V{0, 2}));
}

TEST(SelectDummyDerivatives, ConditioningIsReported) {
  const Planned m = plan_for(test::pendulum());
  const DummySelection hanging =
      select_dummy_derivatives(m.system, m.plan, test::callback_from(m.system, test::pendulum_values(0, 0)));
  EXPECT_DOUBLE_EQ(hanging.rcond, 0.5);  // [[2y, 0], [vy, y]] at y = -1
  EXPECT_TRUE(hanging.numeric);
  ASSERT_EQ(hanging.component_rcond.size(), 1u);
  // Near 45 degrees the selection is worse but still regular.
  const DummySelection diagonal =
      select_dummy_derivatives(m.system, m.plan, test::callback_from(m.system, test::pendulum_values(pi / 4, 0)));
  EXPECT_NEAR(diagonal.rcond, 0.5, 1e-12);  // diag(2x, x) with x = 1/sqrt(2)
}

TEST(SelectDummyDerivatives, UnsubstitutedPendulumUsesTheSchurComplement) {
  // c1' = x der(x) + y der(y): the velocities reach it only through r[1], r[2].
  const Planned m = plan_for(test::pendulum_unsubstituted());
  ASSERT_EQ(m.plan.components.size(), 1u);
  const DummyComponent& c = m.plan.components[0];
  EXPECT_EQ(c.closure_groups, (V{0, 1}));  // r[1], r[2]
  EXPECT_EQ(c.candidates, (V{0, 1, 2, 3}));
  EXPECT_EQ(m.plan.notes.size(), 1u);
  EXPECT_EQ(dummies_at(m, 0.0, 0.0), (V{1, 3}));
  EXPECT_EQ(dummies_at(m, pi / 2, 0.0), (V{0, 2}));
  EXPECT_EQ(dummies_at(m, 0.0, 4.43), (V{1, 3}));
}

TEST(SelectDummyDerivatives, CauerKeepsTheDraftsStates) {
  const Planned m = plan_for(test::cauer_low_pass());
  test::NamedValues v;
  // r13 = L1.v - (C1.v - C3.v), r14 = C2.v - L1.v, r15 = L2.v - (C3.v - C5.v), r16 = C4.v - L2.v
  v[{"r[13]", "L1.v"}] = 1, v[{"r[13]", "C1.v"}] = -1, v[{"r[13]", "C3.v"}] = 1;
  v[{"r[14]", "C2.v"}] = 1, v[{"r[14]", "L1.v"}] = -1;
  v[{"r[15]", "L2.v"}] = 1, v[{"r[15]", "C3.v"}] = -1, v[{"r[15]", "C5.v"}] = 1;
  v[{"r[16]", "C4.v"}] = 1, v[{"r[16]", "L2.v"}] = -1;
  const DummySelection sel = select_dummy_derivatives(m.system, m.plan, test::callback_from(m.system, v));
  ASSERT_TRUE(sel.success) << sel.error;
  EXPECT_EQ(sel.dummy_states, (V{1, 3, 7, 8}));  // C2.v, C4.v, L1.v, L2.v
  EXPECT_NEAR(sel.rcond, 0.25, 1e-12);
  // Without values the structure and the preferences give the same choice.
  const DummySelection structural = select_dummy_derivatives_structurally(m.system, m.plan);
  ASSERT_TRUE(structural.success);
  EXPECT_FALSE(structural.numeric);
  EXPECT_TRUE(std::isnan(structural.rcond));
  EXPECT_EQ(structural.dummy_states, (V{1, 3, 7, 8}));
}

TEST(SelectDummyDerivatives, IndexTwoModels) {
  test::NamedValues r3{{{"r3", "x1"}, 1.0}, {{"r3", "x2"}, -1.0}};
  const Planned ex = plan_for(test::index2_example(3));
  EXPECT_EQ(select_dummy_derivatives(ex.system, ex.plan, test::callback_from(ex.system, r3)).dummy_states, (V{0}));
  test::NamedValues g{{{"g", "v1"}, 1.0}, {{"g", "v2"}, -1.0}};
  const Planned masses = plan_for(test::coupled_masses());
  EXPECT_EQ(select_dummy_derivatives(masses.system, masses.plan, test::callback_from(masses.system, g)).dummy_states,
            (V{2}));  // v1
  const Planned caps = plan_for(test::two_capacitors());
  EXPECT_EQ(select_dummy_derivatives_structurally(caps.system, caps.plan).dummy_states, (V{0}));  // C1.v
}

TEST(SelectDummyDerivatives, StructuralPendulumFollowsTheHierarchy) {
  const Planned m = plan_for(test::pendulum());
  EXPECT_EQ(select_dummy_derivatives_structurally(m.system, m.plan).dummy_states, (V{0, 2}));
}

TEST(SelectDummyDerivatives, NothingToSelectForIndexOne) {
  const Planned m = plan_for(test::transmission_line(10));
  EXPECT_FALSE(m.plan.needed());
  EXPECT_TRUE(m.plan.entries.empty());
  bool called = false;
  const DummySelection sel = select_dummy_derivatives(
      m.system, m.plan, [&](std::span<const JacobianEntry>, std::span<double>) { called = true; });
  EXPECT_TRUE(sel.success);
  EXPECT_FALSE(called);
  EXPECT_TRUE(sel.dummy_states.empty());
}

TEST(SelectDummyDerivatives, DegenerateValuesAreDiagnosed) {
  const Planned m = plan_for(test::pendulum());
  const DummySelection zero = select_dummy_derivatives(m.system, m.plan, test::callback_from(m.system, {}));
  EXPECT_FALSE(zero.success);
  EXPECT_EQ(zero.error,
            "structure: the constraints \"c0\", \"c1\" have rank 0 < 2 with respect to the states at this point "
            "(largest column norm 0) → they are redundant or degenerate here: remove duplicated invariants, or "
            "re-select at a nearby point");
  test::NamedValues bad = test::pendulum_values(0, 0);
  bad[{"c1", "vx"}] = std::nan("");
  const DummySelection nan = select_dummy_derivatives(m.system, m.plan, test::callback_from(m.system, bad));
  EXPECT_EQ(nan.error, "structure: the Jacobian value d\"c1\"/d\"vx\" is nan → the callback must return finite values");
}

TEST(PlanDummyDerivatives, InvariantsBecomeConstraintsWhenAsked) {
  // Shape-B pendulum: c2 is the residual, c0 and c1 are invariants of it.
  const DaeInput in = test::ModelBuilder(DaeForm::fully_implicit)
                          .state("x").state("y").state("vx").state("vy").algebraic("lambda")
                          .residual({{"r[1]", 0, {"vx", "der(x)"}}})
                          .residual({{"r[2]", 0, {"vy", "der(y)"}}})
                          .residual({{"r[3]", 0, {"x", "der(vx)", "lambda"}}})
                          .residual({{"r[4]", 0, {"y", "der(vy)", "lambda"}}})
                          .residual({{"c2", 0, {"x", "y", "vx", "vy", "der(vx)", "der(vy)"}}})
                          .invariant("c0", {"x", "y"}, 4, 0)
                          .invariant("c1", {"x", "y", "vx", "vy"}, 4, 1)
                          .build();
  const Planned m = plan_for(in);
  ASSERT_EQ(m.plan.constraints, 2u);
  EXPECT_EQ(m.plan.components[0].constraints[0].height, 2u);
  EXPECT_EQ(m.plan.components[0].constraints[1].height, 1u);
  EXPECT_EQ(dummies_at(m, 0.0, 4.43), (V{1, 3}));
  EXPECT_EQ(dummies_at(m, pi / 2, 0.0), (V{0, 2}));
  EXPECT_FALSE(plan_for(in, false).plan.needed());
}

TEST(PlanDummyDerivatives, StructuralImpossibilitiesAreNamed) {
  DaeInput in = test::hello_world_semi_explicit();
  in.invariants.push_back({"i1", std::vector<VarRef>{state(0)}, {}, {}});
  in.invariants.push_back({"i2", std::vector<VarRef>{state(0)}, {}, {}});
  EXPECT_EQ(plan_for(in).plan.error,
            "structure: the constraints \"i1\", \"i2\" (2) involve only 1 state, so not every constraint can be "
            "given a dummy state → some of them are redundant; drop the duplicates or use the projection method");
  DaeInput empty = test::hello_world_semi_explicit();
  empty.invariants.push_back({"i0", std::vector<VarRef>{}, {}, {}});
  const Planned e = plan_for(empty);
  EXPECT_EQ(e.plan.error,
            "structure: constraint \"i0\" depends on no state, directly or through the equations it is coupled to, "
            "so no dummy state can keep it satisfied → check its dependencies; the projection method does not need "
            "this choice");
  EXPECT_EQ(select_dummy_derivatives_structurally(e.system, e.plan).error, e.plan.error);
}

TEST(PlanDummyDerivatives, IndependentConstraintsAreSeparateComponents) {
  const Planned m = plan_for(test::cauer_low_pass());
  // r13, r14 share L1.v; r15, r16 share L2.v; r13 and r15 share C3.v: one component.
  EXPECT_EQ(m.plan.components.size(), 1u);
  const Planned two = plan_for(test::ModelBuilder(DaeForm::fully_implicit)
                                   .state("x1").state("x2").state("x3").state("x4")
                                   .algebraic("y").algebraic("w")
                                   .residual({{"r1", 0, {"y", "der(x1)"}}})
                                   .residual({{"r2", 0, {"y", "der(x2)"}}})
                                   .residual({{"r3", 2, {"x1", "x2"}}, {"dr3", 1, {"der(x1)", "der(x2)"}}})
                                   .residual({{"s1", 0, {"w", "der(x3)"}}})
                                   .residual({{"s2", 0, {"w", "der(x4)"}}})
                                   .residual({{"s3", 2, {"x3", "x4"}}, {"ds3", 1, {"der(x3)", "der(x4)"}}})
                                   .build());
  ASSERT_EQ(two.plan.components.size(), 2u);
  EXPECT_EQ(two.plan.components[1].candidates, (V{2, 3}));
  const DummySelection sel = select_dummy_derivatives_structurally(two.system, two.plan);
  EXPECT_EQ(sel.dummy_states, (V{0, 2}));
  EXPECT_EQ(sel.component_rcond.size(), 2u);
}

TEST(SelectDummyDerivatives, LargeComponentsUseTheSparseElimination) {
  // 300 masses: one component of 299 coupled constraints (d·k = 89700 > 40000).
  const Planned m = plan_for(test::mass_chain(300));
  ASSERT_EQ(m.plan.components.size(), 1u);
  test::NamedValues v;
  for (std::size_t k = 0; k + 1 < 300; ++k) {
    v[{"g" + std::to_string(k), "v" + std::to_string(k)}] = 1.0;
    v[{"g" + std::to_string(k), "v" + std::to_string(k + 1)}] = -1.0;
  }
  const JacobianCallback values = test::callback_from(m.system, v);
  const DummySelection sparse = select_dummy_derivatives(m.system, m.plan, values);
  SelectionOptions dense_only;
  dense_only.dense_limit = no_index;
  const DummySelection dense = select_dummy_derivatives(m.system, m.plan, values, dense_only);
  ASSERT_TRUE(sparse.success);
  ASSERT_TRUE(dense.success);
  // v0 … v298 become dummies either way (ties go to the lower index); v299 stays a state.
  V expected;
  for (std::size_t k = 0; k < 299; ++k) expected.push_back(300 + k);
  EXPECT_EQ(sparse.dummy_states, expected);
  EXPECT_EQ(dense.dummy_states, expected);
  EXPECT_NEAR(sparse.rcond, 1.0 / (2.0 * 299.0), 1e-12);
  EXPECT_NEAR(dense.rcond, sparse.rcond, 1e-12);
}

// ---- constraints switched off by a mode (models/clutch) ----------------------

// The clutch: g_slip = w1 − w2 while locked, 0 while released (zero row).
Planned clutch() {
  return plan_for(test::ModelBuilder(DaeForm::fully_implicit)
                      .algebraic("tc")
                      .state("w2")
                      .state("w1")
                      .residual({{"g_slip", 2, {"w1", "w2"}}, {"g_acc", 1, {"der(w1)", "der(w2)", "tc"}}})
                      .residual({{"bal1", 0, {"der(w1)", "tc"}}})
                      .residual({{"bal2", 0, {"der(w2)", "w2", "tc"}}})
                      .build());
}

EquationRef equation_named(const DaeSystem& system, const std::string& name) {
  for (std::size_t f = 0; f < system.formulation_names.size(); ++f)
    if (system.formulation_names[f] == name) return {EquationRef::Kind::formulation, f};
  ADD_FAILURE() << "no formulation " << name;
  return {};
}

TEST(SwitchedOffConstraints, AZeroRowTheCallerDeclaresOffTakesNoRowAndNoDummy) {
  const Planned m = clutch();
  ASSERT_EQ(m.plan.constraints, 1u);
  const JacobianCallback released = test::callback_from(m.system, {});  // every entry 0
  std::vector<std::string> asked;
  SelectionOptions options;
  options.switched_off = [&](EquationRef e) {
    asked.push_back(m.system.name(e));
    return true;
  };
  const DummySelection sel = select_dummy_derivatives(m.system, m.plan, released, options);
  ASSERT_TRUE(sel.success) << sel.error;
  EXPECT_EQ(asked, (std::vector<std::string>{"g_slip"}));
  EXPECT_TRUE(sel.dummy_states.empty());
  EXPECT_EQ(sel.switched_off, (std::vector<EquationRef>{equation_named(m.system, "g_slip")}));
  EXPECT_EQ(sel.component_rcond, (std::vector<double>{1.0}));
  // The index-1 system: g_acc, bal1, bal2 over w2, w1 (differential) and tc.
  const Index1System index1 = make_dummy_derivative_system(m.system, m.p, m.plan, sel);
  EXPECT_EQ(index1.method, ReductionMethod::dummy_derivatives);
  EXPECT_EQ(index1.rows.size(), 3u);
  EXPECT_EQ(index1.unknowns.size(), 3u);
  EXPECT_TRUE(index1.dummy_states.empty());
  for (const EquationRef e : index1.rows) EXPECT_NE(m.system.name(e), "g_slip");
  EXPECT_EQ(verify_index1_structure(m.system, index1), "");
  // The check of a kept choice sees the same mode: nothing to check, or a misfit.
  const DummySelection none = check_dummy_selection(m.system, m.plan, released, {}, options);
  EXPECT_TRUE(none.success) << none.error;
  EXPECT_EQ(none.switched_off, sel.switched_off);
  const DummySelection misfit = check_dummy_selection(m.system, m.plan, released, V{1}, options);
  EXPECT_FALSE(misfit.success);
  EXPECT_EQ(misfit.switched_off, sel.switched_off) << "set before the fit is judged";
}

TEST(SwitchedOffConstraints, ALockedClutchSelectsAsBeforeAndIsNotAsked) {
  const Planned m = clutch();
  const JacobianCallback locked = test::callback_from(m.system, {{{"g_slip", "w1"}, 1.0}, {{"g_slip", "w2"}, -1.0}});
  bool asked = false;
  SelectionOptions options;
  options.switched_off = [&](EquationRef) { return asked = true; };
  const DummySelection sel = select_dummy_derivatives(m.system, m.plan, locked, options);
  ASSERT_TRUE(sel.success) << sel.error;
  EXPECT_FALSE(asked) << "only a zero row is a candidate";
  EXPECT_TRUE(sel.switched_off.empty());
  EXPECT_EQ(sel.dummy_states.size(), 1u);
  EXPECT_EQ(make_dummy_derivative_system(m.system, m.p, m.plan, sel).rows.size(), 4u);  // g_acc, bal1, bal2, g_slip
}

// A zero row the caller does not declare switched off (a value that is not
// 0, or dependencies that vary continuously) is a singular constraint: the
// same message as without the option.
TEST(SwitchedOffConstraints, AGenuinelySingularConstraintStillFails) {
  const Planned m = clutch();
  SelectionOptions options;
  options.switched_off = [](EquationRef) { return false; };
  const JacobianCallback zero = test::callback_from(m.system, {});
  const DummySelection with = select_dummy_derivatives(m.system, m.plan, zero, options);
  const DummySelection without = select_dummy_derivatives(m.system, m.plan, zero);
  EXPECT_FALSE(with.success);
  EXPECT_EQ(with.error, without.error);
  EXPECT_NE(with.error.find("\"g_slip\" have rank 0 < 1"), std::string::npos) << with.error;
  EXPECT_TRUE(with.switched_off.empty());
  // The pendulum at a point where every value vanishes: asked, refused, same message.
  const Planned p = plan_for(test::pendulum());
  const DummySelection pendulum = select_dummy_derivatives(p.system, p.plan, test::callback_from(p.system, {}), options);
  EXPECT_FALSE(pendulum.success);
  EXPECT_NE(pendulum.error.find("have rank 0 < 2"), std::string::npos) << pendulum.error;
}

// Some constraints of a large (sparse) component off: the others still select.
TEST(SwitchedOffConstraints, TheSparseEliminationLeavesOutTheSwitchedOffRows) {
  const Planned m = plan_for(test::mass_chain(300));
  test::NamedValues v;
  for (std::size_t k = 1; k + 1 < 300; ++k) {  // g0 switched off
    v[{"g" + std::to_string(k), "v" + std::to_string(k)}] = 1.0;
    v[{"g" + std::to_string(k), "v" + std::to_string(k + 1)}] = -1.0;
  }
  SelectionOptions options;
  options.switched_off = [&](EquationRef e) { return m.system.name(e) == "g0"; };
  const JacobianCallback values = test::callback_from(m.system, v);
  const DummySelection sparse = select_dummy_derivatives(m.system, m.plan, values, options);
  SelectionOptions dense_only = options;
  dense_only.dense_limit = no_index;
  const DummySelection dense = select_dummy_derivatives(m.system, m.plan, values, dense_only);
  ASSERT_TRUE(sparse.success) << sparse.error;
  ASSERT_TRUE(dense.success) << dense.error;
  ASSERT_EQ(sparse.switched_off.size(), 1u);
  EXPECT_EQ(m.system.name(sparse.switched_off[0]), "g0");
  V expected;  // v1 … v298 dummies; v0 and v299 stay states
  for (std::size_t k = 1; k < 299; ++k) expected.push_back(300 + k);
  EXPECT_EQ(sparse.dummy_states, expected);
  EXPECT_EQ(dense.dummy_states, expected);
  const DummySelection checked = check_dummy_selection(m.system, m.plan, values, expected, options);
  ASSERT_TRUE(checked.success) << checked.error;
  EXPECT_NEAR(checked.rcond, sparse.rcond, 0.5 * sparse.rcond);
  EXPECT_EQ(make_dummy_derivative_system(m.system, m.p, m.plan, sparse).rows.size(),
            make_dummy_derivative_system(m.system, m.p, m.plan, sparse).unknowns.size());
}

}  // namespace
}  // namespace lsdae::structure
