// tests/runtime/cli/plot_cli_test.cpp -- `lsdae plot` as a user runs it: a
// kit model simulated to CSV (with units), HDF5 and MAT, each plotted; the
// SVG parsed with pugixml (one polyline per variable, units on the axes,
// nice tick labels, event markers); and the errors (exit codes as the
// other commands: 2 usage, 9 output).
#include <gtest/gtest.h>
#include <pugixml.hpp>

#include <fstream>

#include "cli_fixture.h"

namespace lsdae::test {
namespace {

class PlotCliTest : public CliTest {
 protected:
  std::string ball() { return catalog_entry("BouncingBall_ode").fmu.string(); }
};

struct SvgFacts {
  std::size_t polylines = 0, events = 0, panels = 0;
  std::vector<std::string> names, ylabels, xticks;
};

SvgFacts facts_of(const std::filesystem::path& svg) {
  pugi::xml_document doc;
  const auto parsed = doc.load_file(svg.c_str());
  EXPECT_TRUE(parsed) << svg << ": " << parsed.description();
  SvgFacts f;
  for (const auto& n : doc.select_nodes("/svg/g[@class='panel']")) {
    ++f.panels;
    (void)n;
  }
  for (const auto& n : doc.select_nodes("//polyline[@class='series']")) {
    ++f.polylines;
    f.names.emplace_back(n.node().attribute("data-name").value());
  }
  f.events = doc.select_nodes("//line[@class='event']").size();
  for (const auto& n : doc.select_nodes("//text[@class='ylabel']")) f.ylabels.emplace_back(n.node().child_value());
  for (const auto& n : doc.select_nodes("//text[@class='xtick']")) f.xticks.emplace_back(n.node().child_value());
  return f;
}

TEST_F(PlotCliTest, EveryFormatSimulateWritesIsPlotted) {
  for (const std::string ext : {"csv", "h5", "mat"}) {
    SCOPED_TRACE(ext);
    const auto result = work_ / ("ball." + ext);
    std::vector<std::string> args{"simulate", ball(), "--stop", "3", "-o", result.string(), "--no-progress"};
    if (ext == "csv") args.push_back("--csv-units");
    ASSERT_TRUE(ExitedWith(lsdae(args), 0));
    const auto svg = work_ / ("ball_" + ext + ".svg");
    ASSERT_TRUE(ExitedWith(lsdae({"plot", result.string(), "--vars", "h,v", "-o", svg.string()}), 0));
    const SvgFacts f = facts_of(svg);
    EXPECT_EQ(f.polylines, 2u);
    EXPECT_EQ(f.names, (std::vector<std::string>{"h", "v"}));
    EXPECT_EQ(f.panels, 2u) << "m and m/s: one panel per unit";
    EXPECT_EQ(f.ylabels, (std::vector<std::string>{"[m]", "[m/s]"}));
    EXPECT_EQ(f.xticks, (std::vector<std::string>{"0.0", "0.5", "1.0", "1.5", "2.0", "2.5", "3.0"}));
    EXPECT_GT(f.events, 0u) << "the ball bounces: its events are marked";
    EXPECT_EQ(f.events % 2, 0u) << "the same events in both panels";
    // --panels 1: both in one panel, both units on its axis; globs select.
    ASSERT_TRUE(ExitedWith(lsdae({"plot", result.string(), "--vars", "?", "--panels", "1", "-o", svg.string()}), 0));
    const SvgFacts one = facts_of(svg);
    EXPECT_EQ(one.panels, 1u);
    EXPECT_EQ(one.polylines, 2u);
    EXPECT_EQ(one.ylabels, (std::vector<std::string>{"[m, m/s]"}));
  }
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(PlotCliTest, ErrorsSayWhatWentWrongWithTheRightExitCode) {
  const auto csv = work_ / "r.csv";
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", ball(), "--stop", "1", "-o", csv.string(), "--no-progress"}), 0));
  const auto svg = (work_ / "p.svg").string();
  auto missing = lsdae({"plot", (work_ / "nothing.h5").string(), "--vars", "h", "-o", svg});
  EXPECT_TRUE(ExitedWith(missing, 2));
  EXPECT_TRUE(Mentions(missing, "nothing.h5 → cannot be opened"));
  auto format = lsdae({"plot", (work_ / "r.xlsx").string(), "--vars", "h", "-o", svg});
  EXPECT_TRUE(ExitedWith(format, 2));
  EXPECT_TRUE(Mentions(format, "unknown result format"));
  auto nomatch = lsdae({"plot", csv.string(), "--vars", "h,speed*", "-o", svg});
  EXPECT_TRUE(ExitedWith(nomatch, 2));
  EXPECT_TRUE(Mentions(nomatch, "\"speed*\" matches no column"));
  EXPECT_TRUE(Mentions(nomatch, "re:its columns: .*\\bh\\b"));
  std::ofstream(work_ / "text.csv") << "time,mode,h\n0,\"up\",1\n1,\"down\",0\n";
  auto text = lsdae({"plot", (work_ / "text.csv").string(), "--vars", "*", "-o", svg});
  EXPECT_TRUE(ExitedWith(text, 2));
  EXPECT_TRUE(Mentions(text, "column \"mode\" is not numeric"));
  auto png = lsdae({"plot", csv.string(), "--vars", "h", "-o", (work_ / "p.png").string()});
  EXPECT_TRUE(ExitedWith(png, 2));
  EXPECT_TRUE(Mentions(png, "only SVG output"));
  auto unwritable = lsdae({"plot", csv.string(), "--vars", "h", "-o", (work_ / "no" / "dir" / "p.svg").string()});
  EXPECT_TRUE(ExitedWith(unwritable, 9));
  EXPECT_TRUE(Mentions(unwritable, "cannot be written"));
  EXPECT_FALSE(std::filesystem::exists(svg)) << "no plot after an error";
  // --format reads a file whose extension does not say.
  std::filesystem::copy_file(csv, work_ / "r.out");
  EXPECT_TRUE(ExitedWith(lsdae({"plot", (work_ / "r.out").string(), "--format", "csv", "--vars", "h", "-o", svg}), 0));
}

}  // namespace
}  // namespace lsdae::test
