// tests/runtime/results/html_report_test.cpp -- results/html_report.h on its
// own: the sections a page holds for given statistics, fields it does not
// know shown all the same, text escaped, the outcome of a failed run, and the
// refusal of statistics that are not a JSON object. (The page made by `lsdae
// report` and opened in Chromium: tests/runtime/cli/report_cli_test.cpp.)
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "lsdae/error.h"
#include "results/html_report.h"

namespace lsdae::results {
namespace {

ResultTable two_series() {
  ResultTable t;
  t.time = {0.0, 0.5, 0.5, 1.0};  // an event at 0.5
  t.series = {{"a<b", "V", {1, 2, 3, 4}}, {"c", "A", {0, 1, 0, 1}}};
  t.all_names = {"a<b", "c"};
  return t;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

TEST(HtmlReport, HoldsOutcomePlotEventsAndEveryStatistic) {
  const ResultTable table = two_series();
  ReportInput in;
  in.result_path = "r&d.h5";
  in.table = &table;
  in.panels = assign_panels(table, 0);
  in.selection = "--vars *";
  in.generator = "lsdae 9.9";
  in.statistics_origin = "s.json";
  in.statistics_json = R"({"fmu": "M.fmu", "completed": false, "interrupted": false,
      "error": "solver → step <failed> at t = 0.5", "command_line": ["lsdae", "simulate", "M.fmu", "--stop", "1 s"],
      "model": {"unknowns": 7, "structural_index": 2}, "future_group": {"novel_field": 0.000123456789},
      "counters": {"state_events": 1}, "rows_written": 4, "brand_new_scalar": "kept"})";
  const std::string html = render_html_report(in);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<h1>M.fmu</h1>"), std::string::npos);
  EXPECT_NE(html.find("outcome failed"), std::string::npos);
  EXPECT_NE(html.find("step &lt;failed&gt;"), std::string::npos) << "the error, escaped";
  EXPECT_NE(html.find("lsdae simulate M.fmu --stop &#39;1 s&#39;"), std::string::npos) << "the words, quoted as needed";
  EXPECT_NE(html.find("r&amp;d.h5"), std::string::npos);
  EXPECT_NE(html.find("Model and structure"), std::string::npos);
  EXPECT_NE(html.find("<h3>future_group</h3>"), std::string::npos) << "an unknown group keeps its name";
  EXPECT_NE(html.find("0.000123457"), std::string::npos) << "reals to 6 digits for people";
  EXPECT_NE(html.find("brand_new_scalar"), std::string::npos);
  EXPECT_NE(html.find("state_events <b>1</b>"), std::string::npos);
  EXPECT_NE(html.find("1 event time in the result"), std::string::npos);
  EXPECT_EQ(count(html, "<polyline class=\"series\""), 2u);
  EXPECT_NE(html.find("data-name=\"a&lt;b\""), std::string::npos);
  EXPECT_EQ(count(html, "<svg"), 1u);
  EXPECT_EQ(count(html, "<?xml"), 0u);
  EXPECT_NE(html.find("Made by lsdae 9.9"), std::string::npos);
}

TEST(HtmlReport, WithoutStatisticsSaysHowToAddThem) {
  const ResultTable table = two_series();
  ReportInput in;
  in.result_path = "r.csv";
  in.table = &table;
  in.title = "T";
  const std::string html = render_html_report(in);
  EXPECT_NE(html.find("outcome unknown"), std::string::npos);
  EXPECT_NE(html.find("pass --stats"), std::string::npos);
  EXPECT_EQ(html.find("<h2>Statistics</h2>"), std::string::npos);
}

TEST(HtmlReport, StatisticsThatAreNotAJsonObjectAreAUsageError) {
  const ResultTable table = two_series();
  for (const char* text : {"{\"completed\": tru", "[1, 2]", "42"}) {
    ReportInput in;
    in.table = &table;
    in.statistics_json = text;
    in.statistics_origin = "s.json";
    try {
      render_html_report(in);
      FAIL() << text;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::usage);
      EXPECT_NE(std::string(e.what()).find("s.json"), std::string::npos) << e.what();
    }
  }
}

// A structure report as `lsdae info --structure --json` prints it (schema 1,
// structure/report.h), with names to escape and a field the page does not know.
const char* kStructure = R"json({"structure": {"schema": 1,
    "model": {"form": "semi-explicit", "states": 4, "algebraic": 1, "residual_groups": 5, "formulations": 2,
              "invariants": 0, "nonzeros": 13, "dense_rows": 0},
    "status": "ok", "error": null,
    "original_matching": {"rows": 5, "unknowns": 5, "structural_rank": 4, "unmatched_residuals": ["c<0>"],
                          "unmatched_residual_count": 1, "unmatched_variables": ["lambda"], "unmatched_variable_count": 1},
    "structural_index": 3, "index_source": "formulations",
    "differentiated": [{"residual": "c<0>", "times": 2, "formulations": ["c<0>", "c1", "c2"], "synthesized": []}],
    "classic_differentiations": [],
    "blt": {"blocks": 3, "largest": 3, "block_sizes": null, "histogram": [{"size": 1, "count": 2}, {"size": 3, "count": 1}]},
    "reduction": {"method": "dummy derivatives", "selection": "numeric", "checked": "directional derivatives",
                  "structural_check": null, "dummy_derivatives": ["der(x)", "der(vx)"], "dummy_count": 2,
                  "states_after": ["y", "vy"], "states_after_count": 2, "rcond": 0.5, "rows": 7,
                  "row_order": "matched", "differential": 2, "algebraic": 5, "projection_constraints": [],
                  "projection_constraint_count": 0},
    "coloring": {"ordering": "smallest-last", "colors": 5, "columns": 7, "lower_bound": 5,
                 "per_ordering": [{"ordering": "natural", "colors": 6}], "varying": null},
    "warnings": ["a <warning>"], "notes": [], "novel_analysis": {"k": 1}},
  "file": "Pendulum.fmu", "model_name": "Pendulum", "fmi_version": "3.0"})json";

TEST(HtmlReport, StructureSectionShowsIndexDummyDerivativesBltAndColours) {
  const ResultTable table = two_series();
  ReportInput in;
  in.result_path = "r.csv";
  in.table = &table;
  in.structure_json = kStructure;
  in.structure_origin = "pendulum-structure.json";
  const std::string html = render_html_report(in);
  EXPECT_NE(html.find("<h1>Pendulum.fmu</h1>"), std::string::npos) << "no statistics: the FMU's name from info";
  EXPECT_NE(html.find("<h2>Structure</h2>"), std::string::npos);
  EXPECT_NE(html.find("From pendulum-structure.json"), std::string::npos);
  EXPECT_NE(html.find("<tr><th>structural index</th><td>3</td></tr>"), std::string::npos);
  EXPECT_NE(html.find("<li>c&lt;0&gt; × 2: c&lt;0&gt; → c1 → c2</li>"), std::string::npos) << html;
  EXPECT_NE(html.find("<tr><th>blocks</th><td>3</td></tr>"), std::string::npos);
  EXPECT_NE(html.find("<tr><th>largest block</th><td>3</td></tr>"), std::string::npos);
  EXPECT_NE(html.find("<tr><td>1</td><td>2</td></tr>"), std::string::npos) << "the block size histogram";
  EXPECT_NE(html.find("<tr><th>dummy derivatives (2)</th><td>der(x), der(vx)</td></tr>"), std::string::npos);
  EXPECT_NE(html.find("<tr><th>states after (2)</th><td>y, vy</td></tr>"), std::string::npos);
  EXPECT_NE(html.find("<tr><th>colours</th><td>5</td></tr>"), std::string::npos);
  EXPECT_NE(html.find("<tr><th>colours with natural</th><td>6</td></tr>"), std::string::npos);
  EXPECT_NE(html.find("<tr><th>unmatched residuals</th><td>c&lt;0&gt;</td></tr>"), std::string::npos);
  EXPECT_NE(html.find("a &lt;warning&gt;"), std::string::npos);
  EXPECT_NE(html.find("<h3>novel_analysis</h3>"), std::string::npos) << "an unknown field is shown, not dropped";
  EXPECT_EQ(html.find("<h2>Statistics</h2>"), std::string::npos) << "structure alone is not statistics";

  // The structure member on its own is accepted as well.
  const auto whole = nlohmann::json::parse(kStructure);
  in.structure_json = whole["structure"].dump();
  const std::string inner = render_html_report(in);
  EXPECT_NE(inner.find("<tr><th>structural index</th><td>3</td></tr>"), std::string::npos);
  EXPECT_NE(inner.find("<h1>r.csv</h1>"), std::string::npos) << "no FMU name anywhere: the result's";
}

TEST(HtmlReport, LongStructureListsAreCutAndSayHowManyMore) {
  const ResultTable table = two_series();
  auto doc = nlohmann::json::parse(kStructure);
  auto& red = doc["structure"]["reduction"];
  red["dummy_derivatives"] = nlohmann::json::array();
  for (int k = 0; k < 50; ++k) red["dummy_derivatives"].push_back("der(x" + std::to_string(k) + ")");
  red["dummy_count"] = 1234;  // the report itself keeps 50 names and the count
  doc["structure"]["structural_index"] = nullptr;
  ReportInput in;
  in.table = &table;
  in.structure_json = doc.dump();
  in.structure_origin = "s.json";
  const std::string html = render_html_report(in);
  EXPECT_NE(html.find("<tr><th>dummy derivatives (1234)</th>"), std::string::npos);
  EXPECT_NE(html.find("der(x49), … and 1184 more"), std::string::npos);
  EXPECT_NE(html.find("<tr><th>structural index</th><td>unknown</td></tr>"), std::string::npos);
}

TEST(HtmlReport, StructureThatIsNotAStructureReportIsAUsageError) {
  const ResultTable table = two_series();
  for (const char* text : {"{\"structure\": ", "{\"file\": \"M.fmu\"}", "[1]", "{\"structure\": 3}"}) {
    ReportInput in;
    in.table = &table;
    in.structure_json = text;
    in.structure_origin = "info.json";
    try {
      render_html_report(in);
      FAIL() << text;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::usage);
      EXPECT_NE(std::string(e.what()).find("info.json"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("lsdae info --structure --json"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace lsdae::results
