// tests/runtime/cli/plot_cli_test.cpp -- `lsdae plot` as a user runs it: a
// kit model simulated to CSV (with units), HDF5 and MAT, each plotted; the
// SVG parsed with pugixml (one polyline per variable, units on the axes,
// nice tick labels, event markers); the PNG and HTML pages; and the errors (exit codes as the
// other commands: 2 usage, 9 output).
#include <gtest/gtest.h>
#include <pugixml.hpp>

#include <cstdint>
#include <fstream>
#include <sstream>

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

// The 4-byte big-endian number at `at` of a PNG (IHDR: width at 16, height at 20).
std::uint32_t png_number(const std::string& png, std::size_t at) {
  std::uint32_t n = 0;
  for (std::size_t k = 0; k < 4; ++k) n = (n << 8) | static_cast<unsigned char>(png.at(at + k));
  return n;
}

// -o plot.png: the SVG drawn by headless Chromium (a test dependency,
// scripts/setup-deps.sh: missing, this fails), at the SVG's own size times
// --png-scale; Chromium's files go nowhere but lsdae's temporary folder.
TEST_F(PlotCliTest, PngIsTheSvgDrawnByChromium) {
  const auto csv = work_ / "r.csv";
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", ball(), "--stop", "3", "-o", csv.string(), "--no-progress"}), 0));
  const auto svg = work_ / "p.svg", png = work_ / "p.png";
  ASSERT_TRUE(ExitedWith(lsdae({"plot", csv.string(), "--vars", "h,v", "--width", "640", "-o", svg.string()}), 0));
  auto drawn = lsdae({"plot", csv.string(), "--vars", "h,v", "--width", "640", "--png-scale", "2", "-o", png.string()});
  ASSERT_TRUE(ExitedWith(drawn, 0)) << "is chromium installed? (scripts/setup-deps.sh)";
  std::ifstream in(png, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string bytes = buffer.str();
  ASSERT_GT(bytes.size(), 24u);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(bytes.substr(12, 4), "IHDR");
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_file(svg.c_str()));
  const auto height = doc.child("svg").attribute("height").as_uint();
  EXPECT_EQ(png_number(bytes, 16), 2u * 640u) << "the SVG's width at scale 2";
  EXPECT_EQ(png_number(bytes, 20), 2u * height) << "the SVG's height at scale 2";
  EXPECT_GT(bytes.size(), 10000u) << "a picture, not a blank page";
  EXPECT_TRUE(leftovers().empty()) << "Chromium's profile and files are removed with lsdae's temporary folder";
}

// -o plot.html: a page holding the same SVG inline, self-contained (no
// script, style or font fetched), in the report's look; --title is the page's title.
TEST_F(PlotCliTest, HtmlIsASelfContainedPageHoldingTheSvg) {
  const auto h5 = work_ / "r.h5";
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", ball(), "--stop", "3", "-o", h5.string(), "--no-progress"}), 0));
  const auto svg = work_ / "p.svg", page = work_ / "p.HTML";
  const std::vector<std::string> common{"plot", h5.string(), "--vars", "h,v", "--title", "Ball <h & v>"};
  auto with = [&](const std::filesystem::path& out) {
    auto args = common;
    args.insert(args.end(), {"-o", out.string()});
    return lsdae(args);
  };
  ASSERT_TRUE(ExitedWith(with(svg), 0));
  ASSERT_TRUE(ExitedWith(with(page), 0)) << "the extension in any case";
  std::ifstream in(page, std::ios::binary), in_svg(svg, std::ios::binary);
  std::stringstream buffer, svg_buffer;
  buffer << in.rdbuf();
  svg_buffer << in_svg.rdbuf();
  const std::string html = buffer.str(), picture = svg_buffer.str();
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<title>Ball &lt;h &amp; v&gt;</title>"), std::string::npos);
  EXPECT_EQ(html.find("<?xml"), std::string::npos) << "no XML declaration inside HTML";
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("href="), std::string::npos);
  EXPECT_EQ(html.find("http"), html.find("http://www.w3.org/2000/svg")) << "the only URL is the SVG namespace";
  // The very SVG of -o p.svg, inline.
  const auto svg_at = picture.find("<svg");
  ASSERT_NE(svg_at, std::string::npos);
  const auto svg_end = picture.rfind("</svg>");
  ASSERT_NE(svg_end, std::string::npos);
  EXPECT_NE(html.find("<figure class=\"plot\">" + picture.substr(svg_at, svg_end + 6 - svg_at) + "</figure>"),
            std::string::npos);
  const auto start = html.find("<svg"), end = html.find("</svg>");
  ASSERT_TRUE(start != std::string::npos && end != std::string::npos);
  const auto inner = work_ / "inner.svg";
  std::ofstream(inner, std::ios::binary) << html.substr(start, end + 6 - start);
  const SvgFacts f = facts_of(inner);
  EXPECT_EQ(f.polylines, 2u);
  EXPECT_GT(f.events, 0u);
  EXPECT_NE(html.find("id=\"rendered\" data-plots"), std::string::npos) << "the report's footer and script";
  // Without --title the page is named after the result file.
  ASSERT_TRUE(ExitedWith(lsdae({"plot", h5.string(), "--vars", "h", "-o", page.string()}), 0));
  std::ifstream again(page, std::ios::binary);
  std::stringstream untitled;
  untitled << again.rdbuf();
  EXPECT_NE(untitled.str().find("<title>" + h5.string() + " — lsdae plot</title>"), std::string::npos);
  EXPECT_TRUE(leftovers().empty());
}

// -o naming the result being plotted -- a symlink plot.svg -> ball.csv, or a
// result file with an odd name read with --format -- replaced it with the
// SVG, exit 0: refused before it is read (runtime/common/output_clash.h).
TEST_F(PlotCliTest, ThePlottedResultIsNeverOverwritten) {
  const auto result = work_ / "ball.csv";
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", ball(), "--stop", "1", "-o", result.string(), "--no-progress"}), 0));
  const auto size = std::filesystem::file_size(result);
  std::filesystem::create_symlink(result, work_ / "plot.svg");
  auto r = lsdae({"plot", result.string(), "--vars", "h", "-o", (work_ / "plot.svg").string()});
  EXPECT_TRUE(ExitedWith(r, 2));
  EXPECT_TRUE(Mentions(r, "plot -o \"" + (work_ / "plot.svg").string() + "\": this is the result file being plotted; "
                          "writing there would destroy it → choose another file name, e.g. -o plot.svg"));
  EXPECT_EQ(std::filesystem::file_size(result), size);
  const auto odd = work_ / "ball.svg";
  std::filesystem::copy_file(result, odd);
  r = lsdae({"plot", odd.string(), "--format", "csv", "--vars", "h", "-o", odd.string()});
  EXPECT_TRUE(ExitedWith(r, 2));
  EXPECT_EQ(std::filesystem::file_size(odd), size);
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
  auto pdf = lsdae({"plot", csv.string(), "--vars", "h", "-o", (work_ / "p.pdf").string()});
  EXPECT_TRUE(ExitedWith(pdf, 2));
  EXPECT_TRUE(Mentions(pdf, "the plot is SVG, PNG or HTML"));
  EXPECT_TRUE(Mentions(pdf, "name the output file *.svg, *.png or *.html"));
  // PNG without Chromium: said so, with what to do.
  auto no_browser = lsdae({"plot", csv.string(), "--vars", "h", "-o", (work_ / "p.png").string()},
                          {{"PATH", (root_ / "empty").string()}, {"LSDAE_CHROMIUM", ""}});
  EXPECT_TRUE(ExitedWith(no_browser, 2));
  EXPECT_TRUE(Mentions(no_browser, "install the Debian package chromium"));
  auto bad_browser = lsdae({"plot", csv.string(), "--vars", "h", "-o", (work_ / "p.png").string()},
                           {{"LSDAE_CHROMIUM", (root_ / "no-such-chromium").string()}});
  EXPECT_TRUE(ExitedWith(bad_browser, 2));
  EXPECT_TRUE(Mentions(bad_browser, "Chromium cannot be started"));
  EXPECT_FALSE(std::filesystem::exists(work_ / "p.png"));
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
