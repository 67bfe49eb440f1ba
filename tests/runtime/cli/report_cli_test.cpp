// tests/runtime/cli/report_cli_test.cpp -- `lsdae report` as a user runs it:
// a bouncing ball simulated to HDF5 (statistics inside) and to CSV (with
// --stats), each made into one HTML page; the page's sections, its plot and
// its events; that it needs nothing beside itself; the errors; and the page
// opened in headless Chromium (it lays out, its script runs without a
// console error, the plot is drawn), with a screenshot kept in the build
// tree (report-screenshot.png, a CI artifact).
// Chromium is a test dependency (scripts/setup-deps.sh installs it): when it
// is missing the browser test fails, it does not skip.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include "cli_fixture.h"
#include "run_process.h"

namespace lsdae::test {
namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

class ReportCliTest : public CliTest {
 protected:
  std::string ball() { return catalog_entry("BouncingBall_ode").fmu.string(); }
};

// Chromium: $LSDAE_CHROMIUM, or chromium / chromium-browser on the PATH.
std::string find_chromium() {
  if (const char* given = std::getenv("LSDAE_CHROMIUM"); given != nullptr && *given != '\0') return given;
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':'))
    for (const char* name : {"chromium", "chromium-browser"})
      if (std::filesystem::exists(std::filesystem::path(dir) / name)) return (std::filesystem::path(dir) / name).string();
  return {};
}

TEST_F(ReportCliTest, Hdf5RunReportHoldsOutcomeCommandStatisticsEventsAndThePlot) {
  const auto result = work_ / "ball.h5";
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", ball(), "--stop", "3", "-o", result.string(), "--no-progress"}), 0));
  const auto page = work_ / "ball.html";
  ASSERT_TRUE(ExitedWith(lsdae({"report", result.string(), "--vars", "h,v", "-o", page.string()}), 0));
  const std::string html = read_text(page);
  EXPECT_NE(html.find("<span class=\"outcome completed\">completed</span>"), std::string::npos);
  EXPECT_NE(html.find("simulate"), std::string::npos) << "the run's command line";
  EXPECT_NE(html.find("--stop 3"), std::string::npos) << "the run's command line";
  EXPECT_NE(html.find("stored in " + result.string()), std::string::npos) << "HDF5 holds its statistics";
  for (const char* section : {"Model and structure", "Jacobian", "Solver counters", "Time spent (s)", "Versions"})
    EXPECT_NE(html.find(section), std::string::npos) << section;
  EXPECT_NE(html.find("structural_index"), std::string::npos);
  EXPECT_EQ(count(html, "<figure class=\"plot\"><svg"), 1u) << "one inline SVG";
  EXPECT_EQ(count(html, "<polyline class=\"series\""), 2u) << "h and v";
  EXPECT_EQ(count(html, "<?xml"), 0u) << "no XML declaration inside HTML";
  EXPECT_NE(html.find("event times in the result"), std::string::npos) << "the ball bounces";
  EXPECT_TRUE(std::regex_search(html, std::regex("state_events <b>[1-9]"))) << "the counters say so too";
  // Self-contained: nothing fetched from elsewhere.
  EXPECT_FALSE(std::regex_search(html, std::regex(R"((src|href)\s*=)"))) << "no external resource";
  EXPECT_EQ(count(html, "http"), count(html, "http://www.w3.org/2000/svg")) << "the only URL is the SVG namespace";
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(ReportCliTest, CsvRunReportTakesStatisticsFromStatsAndChoosesDefaultSeries) {
  const auto result = work_ / "ball.csv", stats = work_ / "ball.json";
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", ball(), "--stop", "2", "-o", result.string(), "--stats", stats.string(),
                                "--no-progress"}),
                         0));
  const auto page = work_ / "ball.html";
  ASSERT_TRUE(ExitedWith(lsdae({"report", result.string(), "--stats", stats.string(), "-o", page.string(), "--title",
                                "Ball <&> test"}),
                         0));
  const std::string html = read_text(page);
  EXPECT_NE(html.find("<h1>Ball &lt;&amp;&gt; test</h1>"), std::string::npos) << "the title, escaped";
  EXPECT_NE(html.find("<span class=\"outcome completed\">"), std::string::npos);
  EXPECT_NE(html.find("all columns"), std::string::npos) << "no --vars: the ball's few columns";
  EXPECT_GE(count(html, "<polyline class=\"series\""), 2u);
  // Without --stats a CSV has no statistics: the page says how to add them.
  ASSERT_TRUE(ExitedWith(lsdae({"report", result.string(), "-o", page.string()}), 0));
  EXPECT_NE(read_text(page).find("pass --stats"), std::string::npos);
}

// A result with text columns among its first ones (a String output, as the
// Reference-FMUs' Feedthrough has): without --vars the report plots the first
// numeric columns instead of refusing the file.
TEST_F(ReportCliTest, DefaultSeriesLeaveOutTextColumns) {
  const auto result = work_ / "mixed.csv";
  std::ofstream(result, std::ios::binary) << "time,a,label,b,c,note,d,e,f,g\n"
                                              "0,1,\"on\",2,3,\"x\",4,5,6,7\n"
                                              "1,2,\"off\",3,4,\"y\",5,6,7,8\n";
  const auto page = work_ / "mixed.html";
  auto run = lsdae({"report", result.string(), "-o", page.string()});
  ASSERT_TRUE(ExitedWith(run, 0)) << run.describe();
  const std::string html = read_text(page);
  EXPECT_EQ(count(html, "<polyline class=\"series\""), 6u) << "a, b, c, d, e, f";
  EXPECT_NE(html.find("the first 6 numeric of 9 columns"), std::string::npos);
  EXPECT_NE(html.find("not numeric: label, note"), std::string::npos);
  // Asked for by name, a text column is still refused.
  auto named = lsdae({"report", result.string(), "--vars", "a,label", "-o", page.string()});
  EXPECT_TRUE(ExitedWith(named, 2));
  EXPECT_TRUE(Mentions(named, "column \"label\" is not numeric"));
}

// The structure report the issue asks for (index, dummy derivatives, BLT
// blocks, colours) comes from `lsdae info --structure --json` of the same FMU.
TEST_F(ReportCliTest, StructureFromInfoJsonIsASectionOfThePage) {
  const std::string fmu = catalog_entry("CartesianPendulum_shapeA").fmu.string();
  const auto result = work_ / "pendulum.h5", structure = work_ / "pendulum-structure.json";
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", fmu, "--stop", "1", "-o", result.string(), "--no-progress"}), 0));
  auto info = lsdae({"info", "--structure", "--json", fmu});
  ASSERT_TRUE(ExitedWith(info, 0)) << info.describe();
  std::ofstream(structure, std::ios::binary) << info.out;
  const auto page = work_ / "pendulum.html";
  ASSERT_TRUE(ExitedWith(lsdae({"report", result.string(), "--structure", structure.string(), "-o", page.string()}), 0));
  const std::string html = read_text(page);
  EXPECT_NE(html.find("<h2>Structure</h2>"), std::string::npos);
  EXPECT_NE(html.find("<tr><th>structure</th><td>" + structure.string() + "</td></tr>"), std::string::npos);
  EXPECT_NE(html.find("<tr><th>structural index</th><td>3</td></tr>"), std::string::npos) << "a pendulum in x, y";
  EXPECT_TRUE(std::regex_search(html, std::regex(R"(<tr><th>dummy derivatives \(2\)</th><td>der\()")))
      << "two dummy derivatives, named";
  EXPECT_NE(html.find("<h3>BLT blocks</h3>"), std::string::npos);
  EXPECT_TRUE(std::regex_search(html, std::regex(R"(<tr><th>largest block</th><td>[1-9])")));
  EXPECT_TRUE(std::regex_search(html, std::regex(R"(<tr><th>colours</th><td>[1-9])")));
  EXPECT_NE(html.find("Model and structure"), std::string::npos) << "the HDF5 file's statistics as well";
  // A file that is not the output of info --structure --json is a usage error.
  auto stats_instead = lsdae({"report", result.string(), "--structure", (work_ / "none.json").string(), "-o",
                              page.string()});
  EXPECT_TRUE(ExitedWith(stats_instead, 2));
  EXPECT_TRUE(Mentions(stats_instead, "--structure → cannot be read"));
  auto plain_info = lsdae({"info", "--json", fmu});  // without --structure
  ASSERT_TRUE(ExitedWith(plain_info, 0));
  std::ofstream(structure, std::ios::binary | std::ios::trunc) << plain_info.out;
  auto wrong = lsdae({"report", result.string(), "--structure", structure.string(), "-o", page.string()});
  EXPECT_TRUE(ExitedWith(wrong, 2));
  EXPECT_TRUE(Mentions(wrong, "holds no structure report"));
  EXPECT_TRUE(Mentions(wrong, "lsdae info --structure --json"));
}

TEST_F(ReportCliTest, ErrorsSayWhatWentWrongWithTheRightExitCode) {
  const auto result = work_ / "ball.csv";
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", ball(), "--stop", "1", "-o", result.string(), "--no-progress"}), 0));
  auto pdf = lsdae({"report", result.string(), "-o", (work_ / "r.pdf").string()});
  EXPECT_TRUE(ExitedWith(pdf, 2));
  EXPECT_TRUE(Mentions(pdf, "name the output file *.html"));
  const auto bad = work_ / "bad.json";
  std::ofstream(bad) << "{\"completed\": tru";
  auto json = lsdae({"report", result.string(), "--stats", bad.string(), "-o", (work_ / "r.html").string()});
  EXPECT_TRUE(ExitedWith(json, 2));
  EXPECT_TRUE(Mentions(json, "are not JSON"));
  auto missing = lsdae({"report", (work_ / "none.h5").string(), "-o", (work_ / "r.html").string()});
  EXPECT_TRUE(ExitedWith(missing, 2));
  EXPECT_TRUE(Mentions(missing, "none.h5 → cannot be opened"));
  auto glob = lsdae({"report", result.string(), "--vars", "nope*", "-o", (work_ / "r.html").string()});
  EXPECT_TRUE(ExitedWith(glob, 2));
  EXPECT_TRUE(Mentions(glob, "\"nope*\" matches no column"));
  auto folder = lsdae({"report", result.string(), "-o", (work_ / "no" / "r.html").string()});
  EXPECT_TRUE(ExitedWith(folder, 9));
  EXPECT_FALSE(std::filesystem::exists(work_ / "r.html")) << "no page after a failure";
}

TEST_F(ReportCliTest, RendersInHeadlessChromium) {
  const std::string chromium = find_chromium();
  ASSERT_FALSE(chromium.empty()) << "Chromium is needed to test the report in a browser: install it "
                                    "(scripts/setup-deps.sh installs the Debian package chromium) or set LSDAE_CHROMIUM";
  const auto result = work_ / "ball.h5";
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", ball(), "--stop", "3", "-o", result.string(), "--no-progress"}), 0));
  const auto page = work_ / "ball.html";
  const auto structure = work_ / "ball-structure.json";
  auto info = lsdae({"info", "--structure", "--json", ball()});
  ASSERT_TRUE(ExitedWith(info, 0)) << info.describe();
  std::ofstream(structure, std::ios::binary) << info.out;
  ASSERT_TRUE(ExitedWith(
      lsdae({"report", result.string(), "--vars", "h,v", "--structure", structure.string(), "-o", page.string()}), 0));
  // Chromium's profile and temporary files stay in the test's folder.
  const auto profile = work_ / "chromium-profile", browser_tmp = work_ / "chromium-tmp";
  std::filesystem::create_directories(browser_tmp);
  const std::map<std::string, std::string> env{{"HOME", work_.string()}, {"TMPDIR", browser_tmp.string()}};
  const std::vector<std::string> common{chromium,          "--headless",       "--no-sandbox", "--disable-gpu",
                                        "--no-first-run",  "--user-data-dir=" + profile.string(),
                                        "--enable-logging=stderr", "--v=0", "--hide-scrollbars"};
  auto dom_args = common;
  dom_args.insert(dom_args.end(), {"--dump-dom", "file://" + page.string()});
  const ProcessResult dom = run_process(dom_args, env, work_, std::chrono::seconds(180));
  ASSERT_EQ(dom.exit_code, 0) << dom.describe();
  EXPECT_NE(dom.out.find("data-plots=\"1\""), std::string::npos) << "the script ran and found the plot\n" << dom.out;
  EXPECT_NE(dom.out.find("data-lines=\"2\""), std::string::npos) << "h and v drawn as SVG polylines";
  EXPECT_TRUE(std::regex_search(dom.out, std::regex(R"(data-structure="[4-9])")))
      << "the structure section's tables laid out";
  EXPECT_EQ(dom.err.find(":CONSOLE"), std::string::npos) << "no console message (script error)\n" << dom.err;
  // The screenshot: kept in the build tree for CI to publish.
  const std::filesystem::path shot = std::filesystem::path(LSDAE_TEST_ARTIFACT_DIR) / "report-screenshot.png";
  std::filesystem::create_directories(shot.parent_path());
  std::filesystem::remove(shot);
  auto shot_args = common;
  shot_args.insert(shot_args.end(), {"--window-size=1100,1400", "--screenshot=" + shot.string(), "file://" + page.string()});
  const ProcessResult screenshot = run_process(shot_args, env, work_, std::chrono::seconds(180));
  ASSERT_EQ(screenshot.exit_code, 0) << screenshot.describe();
  EXPECT_EQ(screenshot.err.find(":CONSOLE"), std::string::npos) << screenshot.err;
  const std::string png = read_text(shot);
  ASSERT_GE(png.size(), 8u) << shot;
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_GT(png.size(), 20000u) << "a page with text and a plot, not a blank picture";
}

}  // namespace
}  // namespace lsdae::test
