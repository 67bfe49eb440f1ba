// tests/structure/analysis_test.cpp -- structure/analysis.h, end to end on
// hand-built copies of the corpus models (the expected results).
#include "structure/analysis.h"

#include <gtest/gtest.h>

#include "structure/error.h"
#include "test_models.h"

namespace lsdae::structure {
namespace {

using V = std::vector<std::size_t>;
using S = std::vector<std::string>;

S differentiated_names(const StructuralAnalysis& a) {
  S out;
  for (const auto& d : a.differentiated()) out.push_back(a.system.group_name(d.group) + " x" + std::to_string(d.times));
  return out;
}

TEST(Analysis, HelloWorldIsIndexOneInBothForms) {
  for (const DaeInput& in : {test::hello_world_fully_implicit(), test::hello_world_semi_explicit()}) {
    const StructuralAnalysis a = analyze_structure(in);
    ASSERT_TRUE(a.ok()) << a.error;
    EXPECT_EQ(a.structural_index, 1u);
    EXPECT_TRUE(a.differentiated().empty());
    EXPECT_EQ(a.original.rank, 3u);
    EXPECT_FALSE(a.dummy_plan.needed());
    EXPECT_TRUE(a.warnings.empty());
  }
}

TEST(Analysis, RobertsonIsIndexOne) {
  const StructuralAnalysis a = analyze_structure(test::robertson_semi_explicit());
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a.structural_index, 1u);
  EXPECT_EQ(a.blt.blocks(), 3u);  // y3 from g, then der(y1) - f, der(y2) - f
  EXPECT_EQ(a.blt.largest_block(), 1u);
}

TEST(Analysis, TransmissionLine1280IsIndexOneWithScalarBlocks) {
  const StructuralAnalysis a = analyze_structure(test::transmission_line(1280));
  ASSERT_TRUE(a.ok()) << a.error;
  EXPECT_EQ(a.structural_index, 1u);
  EXPECT_TRUE(a.differentiated().empty());
  EXPECT_EQ(a.system.groups(), 5u * 1280 + 3);
  EXPECT_EQ(a.original.rank, 5u * 1280 + 3);
  EXPECT_EQ(a.blt.blocks(), 5u * 1280 + 3);  // every unknown is solved alone
  EXPECT_EQ(a.blt.largest_block(), 1u);
  EXPECT_FALSE(a.dummy_plan.needed());
}

TEST(Analysis, PendulumIsIndexThreeWithThePositionConstraintDifferentiatedTwice) {
  const StructuralAnalysis a = analyze_structure(test::pendulum());
  ASSERT_TRUE(a.ok()) << a.error;
  EXPECT_EQ(a.structural_index, 3u);
  EXPECT_EQ(differentiated_names(a), (S{"c0 x2"}));
  // The original system is singular over (der(x), z): c0 holds no unknown.
  EXPECT_EQ(a.original.rank, 4u);
  EXPECT_EQ(a.original.unmatched_rows, (S{"c0"}));
  EXPECT_EQ(a.original.unmatched_unknowns, (S{"lambda"}));
  EXPECT_EQ(a.blt.blocks(), 3u);
  EXPECT_EQ(a.blt.largest_block(), 3u);  // r[3], r[4], c2 over der(vx), der(vy), lambda
  EXPECT_EQ(a.index.group_index, (V{0, 0, 1, 1, 3}));
  EXPECT_EQ(a.dummy_plan.constraints, 2u);
  EXPECT_TRUE(a.warnings.empty());
  EXPECT_TRUE(a.notes.empty());
}

TEST(Analysis, CoupledMassesTwoCapacitorsAndIndex2ExampleAreIndexTwo) {
  const StructuralAnalysis masses = analyze_structure(test::coupled_masses());
  ASSERT_TRUE(masses.ok());
  EXPECT_EQ(masses.structural_index, 2u);
  EXPECT_EQ(differentiated_names(masses), (S{"g x1"}));

  const StructuralAnalysis caps = analyze_structure(test::two_capacitors());
  ASSERT_TRUE(caps.ok());
  EXPECT_EQ(caps.structural_index, 2u);
  EXPECT_EQ(differentiated_names(caps), (S{"r[6] x1"}));
  EXPECT_EQ(caps.original.rank, 6u);
  EXPECT_EQ(caps.original.unmatched_rows, (S{"r[6]"}));

  const StructuralAnalysis ex = analyze_structure(test::index2_example(3));
  ASSERT_TRUE(ex.ok());
  EXPECT_EQ(ex.structural_index, 2u);
  EXPECT_EQ(differentiated_names(ex), (S{"r3 x1"}));
  EXPECT_EQ(ex.dummy_plan.components.at(0).candidates, (V{0, 1}));
}

TEST(Analysis, CauerDifferentiatesFourConstraints) {
  const StructuralAnalysis a = analyze_structure(test::cauer_low_pass());
  ASSERT_TRUE(a.ok()) << a.error;
  EXPECT_EQ(a.structural_index, 2u);
  EXPECT_EQ(differentiated_names(a), (S{"r[13] x1", "r[14] x1", "r[15] x1", "r[16] x1"}));
  EXPECT_EQ(a.original.rank, 12u);  // README: rank 12 with the original formulations
  EXPECT_EQ(a.dummy_plan.constraints, 4u);
  EXPECT_TRUE(a.warnings.empty());
}

TEST(Analysis, Index2ExampleWithoutGroupingSaysWhatToExport) {
  const StructuralAnalysis a = analyze_structure(test::index2_example(1));
  EXPECT_EQ(a.status, AnalysisStatus::missing_formulations);
  EXPECT_EQ(a.structural_index, 2u);
  EXPECT_EQ(a.error,
            "structure: the DAE is of higher index (structural index 2) and the FMU does not provide the derivative "
            "formulations index reduction needs: residual \"r3\" must be differentiated to order 1, but its "
            "<Residual> holds 1 <Formulation>; a complete reduction (classic Pantelides) differentiates \"r3\" "
            "once → export each needed derivative as a further <Formulation> of the same <Residual>, original "
            "first, with its own dependencies (FMI-LS-DAE draft 0.1, 4.2.1, case 3), or export the model in an "
            "index-1 form");
  EXPECT_THROW(require_ok(a), StructureError);
  // Case 2 declares index="2" on r3: it agrees with the complete reduction, so no warning.
  const StructuralAnalysis b = analyze_structure(test::index2_example(2));
  EXPECT_EQ(b.status, AnalysisStatus::missing_formulations);
  EXPECT_EQ(b.error, a.error);
  EXPECT_TRUE(b.warnings.empty());
}

TEST(Analysis, PendulumWithoutDerivativesNamesTheCompleteReduction) {
  const StructuralAnalysis a = analyze_structure(test::pendulum_without_group());
  EXPECT_EQ(a.status, AnalysisStatus::missing_formulations);
  EXPECT_EQ(a.structural_index, 3u);
  EXPECT_EQ(a.error,
            "structure: the DAE is of higher index (structural index 3) and the FMU does not provide the derivative "
            "formulations index reduction needs: residual \"c0\" must be differentiated to order 1, but its "
            "<Residual> holds 1 <Formulation>; a complete reduction (classic Pantelides) differentiates \"r[1]\" "
            "once, \"r[2]\" once, \"c0\" twice → export each needed derivative as a further <Formulation> of the "
            "same <Residual>, original first, with its own dependencies (FMI-LS-DAE draft 0.1, 4.2.1, case 3), or "
            "export the model in an index-1 form");
}

TEST(Analysis, MisdeclaredIndexWithMissingDerivativeIsWarned) {
  DaeInput in = test::index2_example(2);
  in.residuals[2].formulations[0].declared_index = 3;
  const StructuralAnalysis a = analyze_structure(in);
  ASSERT_EQ(a.warnings.size(), 1u);
  EXPECT_EQ(a.warnings[0],
            "structure: formulation \"r3\" declares index=\"3\", the structural analysis finds 2 → the FMU's index "
            "attribute and its dependencies disagree; the analysis follows the dependencies");
}

TEST(Analysis, StructurallySingularAndUnbalancedSystemsStopEarly) {
  const DaeInput singular = test::ModelBuilder(DaeForm::fully_implicit)
                                .state("x")
                                .algebraic("z1").algebraic("z2")
                                .residual({{"r1", 0, {"der(x)", "z1"}}})
                                .residual({{"e1", 0, {"z1"}}})
                                .residual({{"e2", 0, {"z1", "x"}}})
                                .build();
  const StructuralAnalysis a = analyze_structure(singular);
  EXPECT_EQ(a.status, AnalysisStatus::structurally_singular);
  EXPECT_EQ(a.error,
            "structure: system is structurally singular: 3 residuals, 3 unknowns, structural rank 2; unmatched "
            "residuals: \"e2\"; unmatched variables: \"z2\" → no differentiation can make these residuals "
            "determine these variables: check that each unmatched variable appears in some residual and that no "
            "residual repeats another");
  DaeInput unbalanced = test::hello_world_fully_implicit();
  unbalanced.algebraic.push_back("w");
  const StructuralAnalysis b = analyze_structure(unbalanced);
  EXPECT_EQ(b.status, AnalysisStatus::unbalanced);
  EXPECT_EQ(b.error,
            "structure: system is unbalanced: 3 residuals, 4 unknowns, structural rank 3; unmatched variables: "
            "\"w\" → there are more unknowns than residuals: a residual is missing or a variable listed as "
            "algebraic is not");
}

TEST(Analysis, RunawayGuardIsReported) {
  AnalysisOptions options;
  options.pantelides.max_differentiations = 1;
  const StructuralAnalysis a = analyze_structure(test::pendulum(), options);
  EXPECT_EQ(a.status, AnalysisStatus::runaway);
  EXPECT_NE(a.error.find("Pantelides stopped"), std::string::npos);
}

TEST(Analysis, WarningsAndNotesAreCollected) {
  DaeInput in = test::hello_world_fully_implicit();
  in.residuals[0].formulations[0].dependencies.reset();
  in.residuals[1].formulations.push_back({"dr[2]", std::nullopt, std::vector<VarRef>{derivative_of(0)}});
  const StructuralAnalysis a = analyze_structure(in);
  ASSERT_TRUE(a.ok());
  ASSERT_EQ(a.warnings.size(), 1u);
  EXPECT_NE(a.warnings[0].find("\"r[1]\" declares no dependencies"), std::string::npos);
  ASSERT_EQ(a.notes.size(), 1u);
  EXPECT_NE(a.notes[0].find("\"dr[2]\" of \"r[2]\" is not needed"), std::string::npos);
  EXPECT_STREQ(to_string(AnalysisStatus::missing_formulations), "missing formulations");
}

TEST(Analysis, ClassicAndFormulationIndicesAgree) {
  for (const DaeInput& in : {test::pendulum(), test::coupled_masses(), test::two_capacitors(), test::cauer_low_pass(),
                             test::index2_example(3), test::hello_world_semi_explicit(), test::transmission_line(20)}) {
    const StructuralAnalysis a = analyze_structure(in);
    ASSERT_TRUE(a.ok());
    const ClassicPantelidesResult c = classic_pantelides(a.system);
    ASSERT_TRUE(c.success);
    EXPECT_EQ(c.structural_index, a.structural_index);
  }
}

}  // namespace
}  // namespace lsdae::structure
