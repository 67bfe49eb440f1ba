// tests/runtime/results/html_report_test.cpp -- results/html_report.h on its
// own: the sections a page holds for given statistics, fields it does not
// know shown all the same, text escaped, the outcome of a failed run, and the
// refusal of statistics that are not a JSON object. (The page made by `lsdae
// report` and opened in Chromium: tests/runtime/cli/report_cli_test.cpp.)
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace lsdae::results
