// tests/structure/report_test.cpp -- structure/report.h
#include "structure/report.h"

#include <gtest/gtest.h>

#include "structure/iteration_pattern.h"
#include "structure/json_writer.h"
#include "test_models.h"

namespace lsdae::structure {
namespace {

struct Full {
  StructuralAnalysis analysis;
  DummySelection selection;
  Index1System index1;
  ColoringSummary coloring;
  StructureReport report;
};

Full pendulum_report(double theta) {
  Full f;
  f.analysis = analyze_structure(test::pendulum());
  const DaeSystem& s = f.analysis.system;
  f.selection = select_dummy_derivatives(s, f.analysis.dummy_plan,
                                         test::callback_from(s, test::pendulum_values(theta, 0.0)));
  f.index1 = make_dummy_derivative_system(s, f.analysis.pantelides, f.analysis.dummy_plan, f.selection);
  const Pattern j = iteration_pattern(s, f.index1);
  const Coloring c = color_columns(j);
  f.coloring = summarize_coloring(j, c, {{ColumnOrdering::natural, color_columns(j, ColumnOrdering::natural).colors},
                                         {ColumnOrdering::smallest_last, c.colors}});
  f.report = make_report(f.analysis, &f.index1, &f.selection, &f.coloring);
  return f;
}

TEST(Report, PendulumText) {
  const Full f = pendulum_report(0.3);
  EXPECT_EQ(f.report.to_text(),
            "DAE: fully implicit, 4 states, 1 algebraic variable, 5 residual groups (7 formulations), 0 invariants, "
            "22 dependency nonzeros\n"
            "status: ok\n"
            "matching of the original formulations over the unknowns (derivatives, algebraic variables): 5 "
            "residuals, 5 unknowns, structural rank 4\n"
            "  unmatched residuals: \"c0\"\n"
            "  unmatched variables: \"lambda\"\n"
            "structural index: 3\n"
            "differentiated residuals (FMU formulations):\n"
            "  \"c0\" twice: \"c0\" -> \"c1\" -> \"c2\"\n"
            "BLT of the index-1 system: 3 blocks, largest 3\n"
            "  block sizes: 1 1 3\n"
            "index reduction: dummy derivatives (numeric selection, rcond 0.5)\n"
            "  dummy derivatives (2): \"der(y)\", \"der(vy)\"\n"
            "  states after reduction (2): \"x\", \"vx\"\n"
            "  index-1 system: 7 rows (declared order), 2 differential + 5 algebraic unknowns\n"
            "  projection constraints (0): none\n"
            "Jacobian colouring (smallest-last): 5 colours for 7 columns (lower bound 5); natural 5, smallest-last "
            "5\n");
}

TEST(Report, HorizontalPendulumSwitchesTheDummies) {
  const Full f = pendulum_report(1.4);
  ASSERT_TRUE(f.report.reduction.has_value());
  EXPECT_EQ(f.report.reduction->dummy_derivatives, (std::vector<std::string>{"der(x)", "der(vx)"}));
  EXPECT_EQ(f.report.reduction->states_after, (std::vector<std::string>{"y", "vy"}));
}

TEST(Report, PendulumJsonFields) {
  const std::string json = pendulum_report(0.3).report.to_json();
  for (const char* fragment :
       {"\"schema\": 1", "\"structural_index\": 3", "\"index_source\": \"formulations\"",
        "\"unmatched_residuals\": [\n      \"c0\"\n    ]", "\"unmatched_residual_count\": 1",
        "\"residual\": \"c0\",\n      \"times\": 2", "\"method\": \"dummy derivatives\"",
        "\"selection\": \"numeric\"", "\"dummy_count\": 2", "\"states_after_count\": 2", "\"colors\": 5",
        "\"block_sizes\": [\n      1,\n      1,\n      3\n    ]", "\"warnings\": []", "\"error\": null"})
    EXPECT_NE(json.find(fragment), std::string::npos) << fragment;
  EXPECT_EQ(json.back(), '\n');
}

TEST(Report, FailedAnalysisJson) {
  const StructuralAnalysis a = analyze_structure(test::index2_example(1));
  const std::string json = make_report(a, nullptr, nullptr, nullptr).to_json();
  EXPECT_EQ(json,
            "{\n"
            "  \"schema\": 1,\n"
            "  \"model\": {\n"
            "    \"form\": \"fully implicit\",\n"
            "    \"states\": 2,\n"
            "    \"algebraic\": 1,\n"
            "    \"residual_groups\": 3,\n"
            "    \"formulations\": 3,\n"
            "    \"invariants\": 0,\n"
            "    \"nonzeros\": 6,\n"
            "    \"dense_rows\": 0\n"
            "  },\n"
            "  \"status\": \"missing formulations\",\n"
            "  \"error\": " + JsonWriter::escape(a.error) + ",\n"
            "  \"original_matching\": {\n"
            "    \"rows\": 3,\n"
            "    \"unknowns\": 3,\n"
            "    \"structural_rank\": 2,\n"
            "    \"unmatched_residuals\": [\n"
            "      \"r3\"\n"
            "    ],\n"
            "    \"unmatched_residual_count\": 1,\n"
            "    \"unmatched_variables\": [\n"
            "      \"y\"\n"
            "    ],\n"
            "    \"unmatched_variable_count\": 1\n"
            "  },\n"
            "  \"structural_index\": 2,\n"
            "  \"index_source\": \"classic Pantelides\",\n"
            "  \"differentiated\": [],\n"
            "  \"classic_differentiations\": [\n"
            "    {\n"
            "      \"residual\": \"r3\",\n"
            "      \"times\": 1\n"
            "    }\n"
            "  ],\n"
            "  \"blt\": {\n"
            "    \"blocks\": 0,\n"
            "    \"largest\": 0,\n"
            "    \"block_sizes\": null,\n"
            "    \"histogram\": []\n"
            "  },\n"
            "  \"reduction\": null,\n"
            "  \"coloring\": null,\n"
            "  \"elimination\": null,\n"
            "  \"warnings\": [],\n"
            "  \"notes\": []\n"
            "}\n");
}

TEST(Report, EliminationSaysWhatIsEliminatedAndWhyTheRestStays) {
  StructureReport r;
  EliminationSummary e;
  e.algebraic = 5;
  e.eliminated = 2;
  e.blocks = 1;
  e.rejected_blocks = 1;
  e.unknowns_after = 7;
  e.nonzeros_before = 30;
  e.nonzeros_after = 21;
  e.colors_after = 3;
  e.eliminated_names = {"i1", "i2"};
  e.varying = {{"f", "rf"}};
  e.varying_count = 1;
  e.fill = {"v1", "v2"};
  e.fill_count = 2;
  r.elimination = e;
  const std::string text = r.to_text();
  EXPECT_NE(text.find("Linear elimination (--eliminate auto): 2 of 5 algebraic unknowns in 1 block; IDA integrates 7 "
                      "unknowns, Jacobian 30 → 21 nonzeros, 3 colours"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("eliminated: \"i1\", \"i2\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"f\" (row \"rf\")"), std::string::npos) << text;
  EXPECT_NE(text.find("1 block the cost model refused"), std::string::npos) << text;
  const std::string json = r.to_json();
  EXPECT_NE(json.find("\"eliminated\": 2"), std::string::npos) << json;
  EXPECT_NE(json.find("\"unknown\": \"f\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"fill_count\": 2"), std::string::npos) << json;

  StructureReport none;
  EliminationSummary np;
  np.not_planned = "the index-1 system uses dummy derivatives";
  none.elimination = np;
  EXPECT_NE(none.to_text().find("not planned: the index-1 system uses dummy derivatives"), std::string::npos);
}

TEST(Report, LargeSystemsGetAHistogramAndCappedLists) {
  const StructuralAnalysis a = analyze_structure(test::transmission_line(100));
  const Index1System i = make_projection_system(a.system, a.pantelides);
  ReportOptions options;
  options.max_names = 5;
  options.max_text_names = 3;
  const StructureReport r = make_report(a, &i, nullptr, nullptr, options);
  EXPECT_FALSE(r.block_sizes.has_value());
  ASSERT_EQ(r.block_histogram.size(), 1u);
  EXPECT_EQ(r.block_histogram[0], (std::pair<std::size_t, std::size_t>{1, 503}));
  EXPECT_EQ(r.reduction->states_after.size(), 5u);
  EXPECT_EQ(r.reduction->states_after_count, 202u);
  const std::string text = r.to_text();
  EXPECT_NE(text.find("  block sizes (count x size): 503 x 1\n"), std::string::npos);
  EXPECT_NE(text.find("  states after reduction (202): \"filter.y\", \"filter.yd\", \"L[1].i\" … and 199 more\n"),
            std::string::npos);
  EXPECT_NE(text.find("index reduction: none\n"), std::string::npos);
  EXPECT_EQ(text.find("dummy derivatives ("), std::string::npos);
}

TEST(Report, NamesAreEscapedInJson) {
  DaeInput in = test::hello_world_fully_implicit();
  in.residuals.push_back({{{"r\"4\"\n", std::nullopt, std::vector<VarRef>{state(0)}}}});
  const StructuralAnalysis a = analyze_structure(in);
  EXPECT_EQ(a.status, AnalysisStatus::unbalanced);
  const std::string json = make_report(a, nullptr, nullptr, nullptr).to_json();
  EXPECT_NE(json.find("\"unmatched_residuals\": [\n      \"r\\\"4\\\"\\n\"\n    ]"), std::string::npos) << json;
}

}  // namespace
}  // namespace lsdae::structure
