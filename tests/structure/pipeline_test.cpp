// tests/structure/pipeline_test.cpp -- structure/pipeline.h
#include "structure/pipeline.h"

#include <gtest/gtest.h>

#include <numbers>

#include "structure/error.h"
#include "test_models.h"

namespace lsdae::structure {
namespace {

using V = std::vector<std::size_t>;
using S = std::vector<std::string>;

TEST(Pipeline, PendulumWithValuesGivesAnIndexOneSystemAndAColouring) {
  const DaeInput in = test::pendulum();
  const DaeSystem names = build_system(in);
  const JacobianCallback values = test::callback_from(names, test::pendulum_values(0.3, 0.0));
  const StructureOutcome o = run_structure(in, &values);
  ASSERT_TRUE(o.analysis.ok());
  ASSERT_TRUE(o.index1.has_value());
  EXPECT_EQ(o.index1->method, ReductionMethod::dummy_derivatives);
  EXPECT_EQ(o.index1->dummy_states, (V{1, 3}));
  ASSERT_TRUE(o.selection.has_value());
  EXPECT_TRUE(o.selection->numeric);
  EXPECT_EQ(o.iteration.cols(), 7u);
  ASSERT_TRUE(o.coloring.has_value());
  EXPECT_TRUE(verify_coloring(o.iteration, o.coloring->color));
  EXPECT_EQ(o.report.coloring->per_ordering.size(), 4u);
  EXPECT_EQ(verify_index1_structure(o.analysis.system, *o.index1), "");
}

TEST(Pipeline, ReselectionAtANewPointReusesTheAnalysis) {
  const DaeInput in = test::pendulum();
  const DaeSystem names = build_system(in);
  const JacobianCallback hanging = test::callback_from(names, test::pendulum_values(0.0, 0.0));
  const StructureOutcome o = run_structure(in, &hanging);
  EXPECT_EQ(o.index1->dummy_states, (V{1, 3}));
  const StructuralAnalysis& a = o.analysis;
  const DummySelection again = select_dummy_derivatives(
      a.system, a.dummy_plan, test::callback_from(a.system, test::pendulum_values(std::numbers::pi / 2, 0.0)));
  ASSERT_TRUE(again.success);
  const Index1System horizontal = make_dummy_derivative_system(a.system, a.pantelides, a.dummy_plan, again);
  EXPECT_EQ(horizontal.dummy_states, (V{0, 2}));
  EXPECT_EQ(horizontal.differential_states, (V{1, 3}));
}

TEST(Pipeline, ReselectHelper) {
  const StructureOutcome o = run_structure(test::pendulum(), nullptr);
  const Reselection r = reselect(o.analysis, test::callback_from(o.analysis.system, test::pendulum_values(0.1, 0.0)));
  ASSERT_TRUE(r.index1.has_value());
  EXPECT_EQ(r.index1->dummy_states, (V{1, 3}));
  EXPECT_FALSE(o.selection->numeric);
  EXPECT_TRUE(r.selection.numeric);
  EXPECT_NEAR(r.selection.rcond, 0.5, 1e-12);  // diag(2y, y) at rest
  EXPECT_TRUE(r.index1->rows_matched);
  const Reselection declared =
      reselect(o.analysis, test::callback_from(o.analysis.system, test::pendulum_values(0.1, 0.0)), {}, false);
  EXPECT_FALSE(declared.index1->rows_matched);
  const Reselection bad = reselect(o.analysis, test::callback_from(o.analysis.system, {}));
  EXPECT_FALSE(bad.index1.has_value());
  EXPECT_FALSE(bad.selection.error.empty());
  const StructureOutcome failed = run_structure(test::index2_example(1), nullptr);
  EXPECT_THROW((void)reselect(failed.analysis, test::callback_from(failed.analysis.system, {})), StructureError);
}

TEST(Pipeline, WithoutValuesTheSelectionIsStructural) {
  const StructureOutcome o = run_structure(test::cauer_low_pass(), nullptr);
  ASSERT_TRUE(o.index1.has_value());
  EXPECT_FALSE(o.selection->numeric);
  EXPECT_EQ(o.report.reduction->selection, "structural");
  EXPECT_EQ(o.report.reduction->states_after, (S{"C1.v", "C3.v", "C5.v", "L1.i", "L2.i"}));
  EXPECT_EQ(o.report.reduction->dummy_derivatives, (S{"der(C2.v)", "der(C4.v)", "der(L1.v)", "der(L2.v)"}));
  EXPECT_EQ(o.index1->rows.size(), 20u);
}

TEST(Pipeline, ProjectionOnRequest) {
  PipelineOptions options;
  options.method = ReductionMethod::projection;
  const StructureOutcome o = run_structure(test::pendulum(), nullptr, options);
  EXPECT_FALSE(o.selection.has_value());
  EXPECT_EQ(o.index1->method, ReductionMethod::projection);
  EXPECT_EQ(o.report.reduction->projection_constraints, (S{"c0", "c1"}));
  EXPECT_EQ(o.report.reduction->selection, "");
}

TEST(Pipeline, FailedSelectionFallsBackToProjectionWithAWarning) {
  const DaeInput in = test::pendulum();
  const JacobianCallback zero = [](std::span<const JacobianEntry>, std::span<double> v) {
    for (double& x : v) x = 0.0;
  };
  const StructureOutcome o = run_structure(in, &zero);
  ASSERT_TRUE(o.index1.has_value());
  EXPECT_EQ(o.index1->method, ReductionMethod::projection);
  ASSERT_FALSE(o.analysis.warnings.empty());
  EXPECT_NE(o.analysis.warnings.back().find("(the dummy-derivative selection failed; lsdae uses the projection "
                                            "method instead)"),
            std::string::npos);
  EXPECT_EQ(o.report.warnings, o.analysis.warnings);
}

TEST(Pipeline, FailedAnalysisStillReports) {
  const StructureOutcome o = run_structure(test::two_capacitors_without_derivative(), nullptr);
  EXPECT_FALSE(o.index1.has_value());
  EXPECT_FALSE(o.coloring.has_value());
  EXPECT_EQ(o.report.status, "missing formulations");
  EXPECT_EQ(o.report.structural_index, 2u);
  EXPECT_FALSE(o.report.reduction.has_value());
}

TEST(Pipeline, TransmissionLine1280) {
  const StructureOutcome o = run_structure(test::transmission_line(1280), nullptr);
  ASSERT_TRUE(o.analysis.ok());
  EXPECT_EQ(o.analysis.structural_index, 1u);
  EXPECT_EQ(o.index1->method, ReductionMethod::none);
  EXPECT_TRUE(o.index1->dummy_states.empty());
  EXPECT_EQ(o.coloring->colors, 4u);
  EXPECT_EQ(o.coloring->ordering, ColumnOrdering::smallest_last);
  EXPECT_EQ(o.report.coloring->lower_bound, 4u);
}

TEST(Pipeline, EmptyAndOdeInputs) {
  const StructureOutcome empty = run_structure(DaeInput{}, nullptr);
  ASSERT_TRUE(empty.analysis.ok());
  EXPECT_EQ(empty.analysis.structural_index, 0u);
  EXPECT_EQ(empty.coloring->colors, 0u);
  EXPECT_EQ(empty.iteration.cols(), 0u);
  EXPECT_FALSE(empty.report.to_json().empty());
  // An ODE FMU (no manifest) as the runtime would pass it: semi-explicit, no residuals.
  const DaeInput ode = test::ModelBuilder(DaeForm::semi_explicit)
                           .state("h", StateSelect::normal, {"v"})
                           .state("v", StateSelect::normal, {})
                           .build();
  const StructureOutcome o = run_structure(ode, nullptr);
  ASSERT_TRUE(o.analysis.ok());
  EXPECT_EQ(o.analysis.structural_index, 0u);
  EXPECT_EQ(o.index1->method, ReductionMethod::none);
  EXPECT_EQ(o.index1->ida_id(), (std::vector<double>{1, 1}));
  EXPECT_EQ(o.coloring->colors, 2u);  // der(h) - f holds h and v
}

TEST(Pipeline, SingleOrderingOnRequest) {
  PipelineOptions options;
  options.best_ordering = false;
  options.ordering = ColumnOrdering::natural;
  const StructureOutcome o = run_structure(test::transmission_line(10), nullptr, options);
  EXPECT_EQ(o.coloring->ordering, ColumnOrdering::natural);
  EXPECT_TRUE(o.report.coloring->per_ordering.empty());
}

TEST(Pipeline, RowsAreMatchedUnlessAskedNotTo) {
  const StructureOutcome matched = run_structure(test::transmission_line(10), nullptr);
  EXPECT_TRUE(matched.index1->rows_matched);
  EXPECT_EQ(matched.report.reduction->row_order, "matched");
  PipelineOptions options;
  options.match_rows = false;
  const StructureOutcome declared = run_structure(test::transmission_line(10), nullptr, options);
  EXPECT_FALSE(declared.index1->rows_matched);
  EXPECT_EQ(declared.report.reduction->row_order, "declared");
  EXPECT_NE(declared.index1->rows, matched.index1->rows);
  // The same nonzeros either way, rows permuted.
  EXPECT_EQ(declared.iteration.nnz(), matched.iteration.nnz());
  EXPECT_NE(matched.report.to_json().find("\"row_order\": \"matched\""), std::string::npos);
}

}  // namespace
}  // namespace lsdae::structure
