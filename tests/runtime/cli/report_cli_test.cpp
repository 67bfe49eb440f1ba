// tests/runtime/cli/report_cli_test.cpp -- `lsdae report` as a user runs it:
// a bouncing ball simulated to HDF5 (statistics inside) and to CSV (with
// --stats), each made into one HTML page; the page's sections, its plot and
// its events; that it needs nothing beside itself; the errors; and the page
// opened in headless Chromium (it lays out, its script runs without a
// console error, the plot is drawn), with a screenshot kept in the build
// tree (report-screenshot.png, a CI artifact).
// A sweep's summary makes the sweep report (sweep/sweep_report.h): an N-1
// sweep of case39 with its result files, and a summary written by hand with
// every outcome; the page in Chromium too (sweep-report-screenshot.png).
// Chromium is a test dependency (scripts/setup-deps.sh installs it): when it
// is missing the browser test fails, it does not skip.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
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

// -o a symlink to a file the report reads (the result, --stats,
// --structure) replaced that file with the page, exit 0: refused before
// anything is read (runtime/common/output_clash.h).
TEST_F(ReportCliTest, NoFileTheReportReadsIsOverwritten) {
  const auto result = work_ / "ball.csv", stats = work_ / "stats.json";
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", ball(), "--stop", "1", "-o", result.string(), "--stats", stats.string(),
                                "--no-progress"}),
                         0));
  const auto result_size = std::filesystem::file_size(result), stats_size = std::filesystem::file_size(stats);
  std::filesystem::create_symlink(result, work_ / "r.html");
  std::filesystem::create_symlink(stats, work_ / "s.html");
  auto r = lsdae({"report", result.string(), "-o", (work_ / "r.html").string()});
  EXPECT_TRUE(ExitedWith(r, 2));
  EXPECT_TRUE(Mentions(r, "report -o \"" + (work_ / "r.html").string() + "\": this is the result file being "
                          "reported; writing there would destroy it → choose another file name, e.g. -o report.html"));
  r = lsdae({"report", result.string(), "--stats", stats.string(), "-o", (work_ / "s.html").string()});
  EXPECT_TRUE(ExitedWith(r, 2));
  EXPECT_TRUE(Mentions(r, "this is the --stats file being read"));
  EXPECT_EQ(std::filesystem::file_size(result), result_size);
  EXPECT_EQ(std::filesystem::file_size(stats), stats_size);
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

// The CSV's column `name` for each row, by id.
std::map<std::string, double> column_of(const std::filesystem::path& csv, std::size_t column) {
  std::map<std::string, double> out;
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    // ids and metrics hold no quotes here; a message may (it is before the numbers): count from the end.
    std::vector<std::string> fields;
    std::stringstream ss(line);
    for (std::string f; std::getline(ss, f, ',');) fields.push_back(f);
    const std::size_t from_end = 9 - column;  // 9 columns
    out[fields[0]] = std::strtod(fields[fields.size() - from_end].c_str(), nullptr);
  }
  return out;
}

// An N-1 sweep of case39 (branches 1..8, 3 s, one job) with its result files.
struct Case39Sweep {
  std::filesystem::path summary, results;
};
class SweepReportTest : public ReportCliTest {
 protected:
  Case39Sweep case39_sweep() {
  const std::filesystem::path& work = work_;
  std::string table = "function chgtab = contab_case39\n%% written by the test\ndefine_constants;\nchgtab = [\n";
  for (int b = 1; b <= 8; ++b)
    table += "\t" + std::to_string(b) + "\t0\tCT_TBRCH\t" + std::to_string(b) + "\tBR_STATUS\tCT_REP\t0;\n";
  table += "];\n";
  std::ofstream(work / "contab.m") << table;
  Case39Sweep s{work / "n1.csv", work / "res"};
  const auto fmu = std::filesystem::path(LSDAE_FMU_DIR) / "PowerGrid_case39_all_disturbances.fmu";
  const auto r = lsdae({"sweep", fmu.string(), "--contingencies", (work / "contab.m").string(), "--case",
                          std::string(LSDAE_GRID_CASES_DIR) + "/case39.m", "--stop", "3", "--output-interval", "0.05",
                          "--metric", "max:maxdev(gen[*].delta, gen[*].H)", "--metric",
                          "min:min(hypot(bus[*].Vr, bus[*].Vi))", "--metric", "tmax:maxdev(gen[*].delta, gen[*].H)",
                          "--stop-when", "maxdev(gen[*].delta, gen[*].H) > 3.14159", "--jobs", "1", "--summary",
                          s.summary.string(), "--results-dir", s.results.string(), "--output-vars",
                          "gen[*].delta", "--no-progress"});
  EXPECT_TRUE(ExitedWith(r, 0)) << r.describe();
  return s;
}
};

TEST_F(SweepReportTest, SweepReportCountsOutcomesRanksTheWorstAndPlotsThem) {
  const Case39Sweep sweep = case39_sweep();
  const auto page = work_ / "n1.html";
  ASSERT_TRUE(ExitedWith(lsdae({"report", sweep.summary.string(), "--results-dir", sweep.results.string(), "--worst",
                                "3", "--trajectories", "2", "-o", page.string()}),
                         0));
  const std::string html = read_text(page);
  EXPECT_NE(html.find("8 scenarios"), std::string::npos);
  EXPECT_EQ(count(html, "<table class=\"ranked\">"), 2u) << "max: and min: ranked, tmax: (a time) not";
  EXPECT_EQ(count(html, "<figure class=\"distribution\">"), 3u) << "one histogram per metric";
  // The worst by the largest separation is the row with the largest value.
  const auto separation = column_of(sweep.summary, 6);
  ASSERT_EQ(separation.size(), 8u);
  const auto worst = std::max_element(separation.begin(), separation.end(),
                                      [](const auto& a, const auto& b) { return a.second < b.second; });
  const auto ranked = html.find("max:maxdev(gen[*].delta, gen[*].H) <span");
  ASSERT_NE(ranked, std::string::npos);
  EXPECT_NE(html.find("<tr><td>1</td><td class=\"id\">" + worst->first + "</td>", ranked), std::string::npos)
      << "the first row of the ranking is branch " << worst->first;
  // Trajectories: the first 2 of each ranking, each once, plotted from res/.
  const std::size_t plots = count(html, "<figure class=\"plot\"><svg");
  EXPECT_GE(plots, 2u);
  EXPECT_LE(plots, 4u);
  EXPECT_EQ(count(html, "No result file"), 0u);
  EXPECT_FALSE(std::regex_search(html, std::regex(R"((src|href)\s*=)"))) << "no external resource";
  // The options of the other kind of report are refused, each with exit 2.
  EXPECT_TRUE(ExitedWith(lsdae({"report", sweep.summary.string(), "--stats", "s.json", "-o", page.string()}), 2));
  const auto result = std::filesystem::directory_iterator(sweep.results)->path();
  EXPECT_TRUE(ExitedWith(lsdae({"report", result.string(), "--worst", "3", "-o", (work_ / "r.html").string()}), 2));
  EXPECT_TRUE(ExitedWith(lsdae({"report", sweep.summary.string(), "--results-dir", (work_ / "none").string(), "-o",
                                page.string()}),
                         2));
}

TEST_F(SweepReportTest, SweepReportSortsEveryOutcome) {
  const auto summary = work_ / "hand.csv";
  std::ofstream(summary)
      << "id,status,message,reached_time,steps,wall_time_s,max:x,min@1:y\n"
         "ran,ok,,10,100,0.1,1.5,0.9\n"
         "calm,stopped-early,settled: every derivative below 0.3 from t = 2 to 4,4,50,0.05,0.5,0.95\n"
         "swing,stopped-early,maxdev(gen[*].delta) > 3.14159 at t = 1.6,1.6,40,0.04,3.2,0.7\n"
         "island,failed,\"ida: consistent initial values at t = 1.1 not found (IDA_NO_RECOVERY), after the event\",1.1,"
         "30,0.03,0.4,\n"
         "start,failed,ida: consistent initial values at t = 0 not found,0,0,0.01,,\n"
         "crash,failed,the worker died (signal 11),,0,0.01,,\n"
         // A failure at an impasse point (simulation/ida/ida_diagnostics.h): collapsed.
         "fold,failed,\"ida: at t = 1.07729 (h = 1.07e-10): IDA_CONV_FAIL → an impasse point: Newton's method fails "
         "however small the step\",1.07729,300,0.3,,\n"
         // Rows the scenario source labelled (OutcomeLabel): islanded, unless a --stop-when condition held.
         "cut,ok,islanded: islands.lost_load = 20 MW (islands.dead_buses = 1),10,90,0.1,1.1,0.8\n"
         "cutcalm,stopped-early,islanded: islands.lost_load = 5 MW (islands.dead_buses = 2); settled: every derivative "
         "below 0.3 from t = 2 to 4,4,50,0.05,0.6,0.9\n"
         "cutswing,stopped-early,islanded: islands.lost_load = 5 MW (islands.dead_buses = 2); "
         "maxdev(gen[*].delta) > 3.14159 at t = 1.7,1.7,40,0.04,3.3,0.6\n"
         // A label whose amount cannot be read: still islanded, ranked after every readable one.
         "cutodd,ok,islanded: islands.lost_load = many MW (islands.dead_buses = 1),10,90,0.1,,\n"
         "cutbig,ok,islanded: islands.lost_load = 125.5 MW (islands.dead_buses = 3),10,90,0.1,,\n";
  const auto page = work_ / "hand.html";
  ASSERT_TRUE(ExitedWith(lsdae({"report", summary.string(), "-o", page.string(), "--title", "hand <made>"}), 0));
  const std::string html = read_text(page);
  EXPECT_NE(html.find("<h1>hand &lt;made&gt;</h1>"), std::string::npos) << "the title, escaped";
  // "island" failed without a consistent point after its event: failed (a collapse as often as an island).
  for (const char* expected : {"stable</span> <b>2</b>", "unstable</span> <b>2</b>", "islanded</span> <b>4</b>",
                               "collapsed</span> <b>1</b>", "failed</span> <b>3</b>"})
    EXPECT_NE(html.find(expected), std::string::npos) << expected;
  EXPECT_NE(html.find("7 of 12 rows have a value"), std::string::npos) << "rows without a value left out";
  // The islands, the most load lost first (125.5 > 20 > 5), the unreadable amount last; the rest of each run.
  const std::size_t islands = html.find("<h2>Islands</h2>"), failures = html.find("<h2>Failures</h2>");
  ASSERT_NE(islands, std::string::npos);
  ASSERT_NE(failures, std::string::npos);
  EXPECT_NE(html.find("4 row(s) islanded, by islands.lost_load", islands), std::string::npos);
  const std::size_t big = html.find("<td class=\"id\">cutbig</td><td class=\"key\">125.5 MW</td><td>3</td>", islands),
                    cut = html.find("<td class=\"id\">cut</td><td class=\"key\">20 MW</td><td>1</td>", islands),
                    calm = html.find("<td class=\"id\">cutcalm</td><td class=\"key\">5 MW</td><td>2</td>", islands),
                    odd = html.find("<td class=\"id\">cutodd</td><td class=\"key\">—</td>", islands);
  EXPECT_LT(big, cut);
  EXPECT_LT(cut, calm);
  EXPECT_LT(calm, odd);
  EXPECT_LT(odd, failures);
  EXPECT_NE(html.find("settled: every derivative below 0.3 from t = 2 to 4</td>", calm), std::string::npos);
  EXPECT_EQ(html.find("cutswing</td><td class=\"key\">5 MW", islands), std::string::npos) << "unstable, not islanded";
  // The failures are the failed and collapsed rows only.
  EXPECT_EQ(html.find("islanded: ", failures), std::string::npos) << "no islanded row among the failures";
  EXPECT_NE(html.find("an impasse point", failures), std::string::npos) << "the collapsed row among the failures";
  EXPECT_NE(html.find("<tr><td>1</td><td class=\"id\">cutswing</td>"), std::string::npos) << "max:x, largest first";
  EXPECT_NE(html.find("<tr><td>1</td><td class=\"id\">cutswing</td><td class=\"key\">0.6</td>"), std::string::npos)
      << "min@1:y (a window), smallest first";
  EXPECT_NE(html.find("the worker died (signal 11)"), std::string::npos) << "the failures listed";
}

TEST_F(SweepReportTest, SweepReportRendersInHeadlessChromium) {
  const std::string chromium = find_chromium();
  ASSERT_FALSE(chromium.empty()) << "Chromium is needed to test the report in a browser: install it "
                                    "(scripts/setup-deps.sh installs the Debian package chromium) or set LSDAE_CHROMIUM";
  const Case39Sweep sweep = case39_sweep();
  const auto page = work_ / "n1.html";
  ASSERT_TRUE(ExitedWith(lsdae({"report", sweep.summary.string(), "--results-dir", sweep.results.string(),
                                "--trajectories", "1", "--vars", "gen[*].delta", "-o", page.string()}),
                         0));
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
  EXPECT_NE(dom.out.find("data-distributions=\"3\""), std::string::npos) << "three histograms laid out\n" << dom.out;
  EXPECT_NE(dom.out.find("data-ranked=\"2\""), std::string::npos) << "two rankings";
  EXPECT_TRUE(std::regex_search(dom.out, std::regex(R"(data-plots="[12]")"))) << "the worst trajectories drawn";
  EXPECT_TRUE(std::regex_search(dom.out, std::regex(R"re(data-lines="[1-9][0-9]")re"))) << "ten rotor angles each";
  EXPECT_EQ(dom.err.find(":CONSOLE"), std::string::npos) << "no console message (script error)\n" << dom.err;
  const std::filesystem::path shot = std::filesystem::path(LSDAE_TEST_ARTIFACT_DIR) / "sweep-report-screenshot.png";
  std::filesystem::create_directories(shot.parent_path());
  std::filesystem::remove(shot);
  auto shot_args = common;
  shot_args.insert(shot_args.end(), {"--window-size=1100,1800", "--screenshot=" + shot.string(), "file://" + page.string()});
  const ProcessResult screenshot = run_process(shot_args, env, work_, std::chrono::seconds(180));
  ASSERT_EQ(screenshot.exit_code, 0) << screenshot.describe();
  const std::string png = read_text(shot);
  ASSERT_GE(png.size(), 8u) << shot;
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_GT(png.size(), 20000u) << "a page with text and plots, not a blank picture";
}

}  // namespace
}  // namespace lsdae::test
