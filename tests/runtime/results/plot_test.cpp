// tests/runtime/results/plot_test.cpp -- the pieces of `lsdae plot`: nice
// ticks by the 1-2-5 rule, min/max decimation, the CSV reader's units line,
// quoting and refusals, panel assignment, and the SVG (parsed with pugixml).
// The whole command on files `lsdae simulate` wrote: tests/runtime/cli/plot_cli_test.cpp.
#include <gtest/gtest.h>
#include <pugixml.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <unistd.h>

#include "lsdae/error.h"
#include "results/result_reader.h"
#include "results/svg_plot.h"

namespace lsdae::results {
namespace {

namespace fs = std::filesystem;

TEST(NiceTicks, FollowTheOneTwoFiveRule) {
  auto t = nice_ticks(0.0, 0.93, 5);
  EXPECT_DOUBLE_EQ(t.step, 0.2);
  EXPECT_EQ(t.labels, (std::vector<std::string>{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}));
  t = nice_ticks(-3.7, 12.1, 5);
  EXPECT_DOUBLE_EQ(t.step, 5.0);
  EXPECT_EQ(t.labels, (std::vector<std::string>{"-5", "0", "5", "10", "15"}));
  EXPECT_DOUBLE_EQ(t.lo, -5.0);
  EXPECT_DOUBLE_EQ(t.hi, 15.0);
  t = nice_ticks(0.0, 3.0, 8);  // a simulation's 0..3 s: step 0.5, not 0.375
  EXPECT_EQ(t.labels, (std::vector<std::string>{"0.0", "0.5", "1.0", "1.5", "2.0", "2.5", "3.0"}));
  t = nice_ticks(1e-7, 9e-7, 5);
  EXPECT_DOUBLE_EQ(t.step, 2e-7);
  EXPECT_EQ(t.labels.front(), "0");
  EXPECT_EQ(t.labels[1], "2e-07");
  EXPECT_EQ(t.labels.back(), "1e-06");
  t = nice_ticks(0.0, 4e10, 5);
  EXPECT_EQ(t.labels, (std::vector<std::string>{"0", "1e+10", "2e+10", "3e+10", "4e+10"}));
}

TEST(NiceTicks, AConstantOrNonFiniteRangeStillGetsAnAxis) {
  auto t = nice_ticks(5.0, 5.0, 5);
  EXPECT_LT(t.lo, 5.0);
  EXPECT_GT(t.hi, 5.0);
  EXPECT_GE(t.values.size(), 2u);
  t = nice_ticks(0.0, 0.0, 5);
  EXPECT_LE(t.lo, -1.0);
  EXPECT_GE(t.hi, 1.0);
  t = nice_ticks(NAN, INFINITY, 5);
  EXPECT_GE(t.values.size(), 2u);
}

TEST(Decimation, KeepsTheMinimumAndMaximumOfEveryColumn) {
  const std::size_t n = 1'000'000, columns = 700;
  std::vector<double> x(n), y(n);
  for (std::size_t k = 0; k < n; ++k) {
    x[k] = static_cast<double>(k) * 1e-5;
    y[k] = std::sin(x[k] * 3.0) + ((k % 7919) == 0 ? 5.0 : 0.0) - ((k % 10007) == 3 ? 4.0 : 0.0);  // spikes
  }
  const double x0 = 0.0, x1 = x.back();
  const auto kept = decimate_min_max(x, y, x0, x1, columns);
  EXPECT_LE(kept.size(), 4 * (columns + 1));
  std::map<long long, std::pair<double, double>> full, reduced;
  const auto column_of = [&](double t) { return static_cast<long long>(std::floor((t - x0) / (x1 - x0) * columns)); };
  for (std::size_t k = 0; k < n; ++k) {
    auto [it, fresh] = full.try_emplace(column_of(x[k]), y[k], y[k]);
    if (!fresh) it->second = {std::min(it->second.first, y[k]), std::max(it->second.second, y[k])};
  }
  for (const auto& p : kept) {
    auto [it, fresh] = reduced.try_emplace(column_of(p.x), p.y, p.y);
    if (!fresh) it->second = {std::min(it->second.first, p.y), std::max(it->second.second, p.y)};
  }
  ASSERT_EQ(full.size(), reduced.size());
  for (const auto& [column, range] : full) {
    EXPECT_EQ(reduced[column].first, range.first) << "column " << column;
    EXPECT_EQ(reduced[column].second, range.second) << "column " << column;
  }
  for (std::size_t k = 1; k < kept.size(); ++k) ASSERT_LE(kept[k - 1].x, kept[k].x) << "kept in time order";
  EXPECT_EQ(kept.front().x, x.front());
  EXPECT_EQ(kept.back().x, x.back());
}

TEST(Decimation, FewPointsAreKeptAsTheyAreAndNaNIsLeftOut) {
  const std::vector<double> x{0, 1, 2, 3}, y{1, NAN, 3, 4};
  const auto kept = decimate_min_max(x, y, 0, 3, 1000);
  ASSERT_EQ(kept.size(), 3u);
  EXPECT_EQ(kept[1].y, 3.0);
}

class CsvReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("lsdae_plot_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return dir_ / name;
  }
  fs::path dir_;
};

const NameFilter kAll = [](const std::string&) { return true; };

TEST_F(CsvReaderTest, ReadsUnitsQuotedNamesAndEvents) {
  auto path = write("r.csv",
                    "time,\"A[2,3]\",w\r\n"
                    "s,V,rad/s\r\n"
                    "0,1.5,-2\n"
                    "0.5,2.5,1e-3\n"
                    "0.5,2.5,-1e-3\n"
                    "1,3,0\n");
  auto table = read_result(path, kAll);
  ASSERT_EQ(table.series.size(), 2u);
  EXPECT_EQ(table.series[0].name, "A[2,3]");
  EXPECT_EQ(table.series[0].unit, "V");
  EXPECT_EQ(table.series[1].unit, "rad/s");
  EXPECT_EQ(table.time, (std::vector<double>{0, 0.5, 0.5, 1}));
  EXPECT_EQ(table.series[1].values[2], -1e-3);
  EXPECT_EQ(event_times(table.time), (std::vector<double>{0.5}));
  // Only the wanted columns are kept; every name is listed.
  auto only = read_result(path, [](const std::string& n) { return n == "w"; });
  ASSERT_EQ(only.series.size(), 1u);
  EXPECT_EQ(only.all_names, (std::vector<std::string>{"A[2,3]", "w"}));
  // Without a units line there are no units.
  auto bare = read_result(write("b.csv", "time,x\n0,1\n1,2\n"), kAll);
  EXPECT_EQ(bare.series[0].unit, "");
  EXPECT_EQ(bare.time.size(), 2u);
}

// The reader streams the file through a 1 MiB buffer: a file several times
// that, quoted fields (a line break, doubled quotes) in every row so that
// some straddle the buffer's refills, and no line break at the end.
TEST_F(CsvReaderTest, StreamsAFileLargerThanItsBuffer) {
  std::string text = "time,\"a \"\"b\"\"\nc\",label,x";
  const std::size_t rows = 120000;
  for (std::size_t k = 0; k < rows; ++k)
    text += "\n" + std::to_string(k) + "," + std::to_string(k % 7) + ",\"r\"\"o\nw," + std::to_string(k) + "\"," +
            std::to_string(2 * k);
  ASSERT_GT(text.size(), 3u << 20);
  auto table = read_result(write("big.csv", text), [](const std::string& n) { return n != "label"; });
  ASSERT_EQ(table.series.size(), 2u);
  EXPECT_EQ(table.series[0].name, "a \"b\"\nc");
  EXPECT_EQ(table.all_names, (std::vector<std::string>{"a \"b\"\nc", "label", "x"}));
  ASSERT_EQ(table.time.size(), rows);
  for (std::size_t k = 0; k < rows; ++k) {
    ASSERT_EQ(table.time[k], static_cast<double>(k)) << k;
    ASSERT_EQ(table.series[0].values[k], static_cast<double>(k % 7)) << k;
    ASSERT_EQ(table.series[1].values[k], static_cast<double>(2 * k)) << k;
  }
}

TEST_F(CsvReaderTest, RefusesWhatCannotBePlotted) {
  auto expect_usage = [&](const fs::path& path, const std::string& fragment, const NameFilter& wanted = kAll) {
    try {
      read_result(path, wanted);
      ADD_FAILURE() << "no error for " << path;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::usage);
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  auto strings = write("s.csv", "time,label,x\n0,\"on\",1\n1,\"off\",2\n");
  expect_usage(strings, "column \"label\" is not numeric");
  EXPECT_EQ(read_result(strings, [](const std::string& n) { return n == "x"; }).series[0].values[1], 2.0)
      << "a text column not asked for is no error";
  // `lsdae report` without --vars skips text columns instead of refusing.
  const ResultTable skipping = read_result(strings, kAll, "", NonNumeric::skip);
  ASSERT_EQ(skipping.series.size(), 1u);
  EXPECT_EQ(skipping.series[0].name, "x");
  EXPECT_EQ(skipping.series[0].values, (std::vector<double>{1, 2}));
  EXPECT_EQ(skipping.skipped, (std::vector<std::string>{"label"}));
  expect_usage(dir_ / "missing.csv", "cannot be opened");
  expect_usage(write("r.txt", "time,x\n"), "unknown result format");
  expect_usage(write("h.csv", "t,x\n0,1\n"), "not an lsdae CSV result");
  expect_usage(write("w.csv", "time,x\n0,1\n1\n"), "wrong number of fields");
  expect_usage(write("m.h5", "not hdf5"), "is not an HDF5 file");
  expect_usage(write("m.mat", ""), "is not a Dymola-layout result");
}

TEST(Panels, ByUnitOrByCount) {
  ResultTable table;
  table.time = {0, 1};
  for (auto [name, unit] : {std::pair{"a", "m"}, {"b", "m/s"}, {"c", "m"}, {"d", ""}})
    table.series.push_back({name, unit, {0, 1}});
  auto by_unit = assign_panels(table, 0);
  ASSERT_EQ(by_unit.size(), 3u);
  EXPECT_EQ(by_unit[0].series, (std::vector<std::size_t>{0, 2}));
  EXPECT_EQ(by_unit[1].series, (std::vector<std::size_t>{1}));
  auto two = assign_panels(table, 2);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].series, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(assign_panels(table, 9).size(), 4u) << "no empty panels";
}

TEST(Svg, IsWellFormedWithAPolylinePerSeriesUnitsTicksAndEvents) {
  ResultTable table;
  for (int k = 0; k <= 100; ++k) table.time.push_back(k / 50.0);
  table.time.insert(table.time.begin() + 51, 1.0);  // an event at t = 1
  std::vector<double> a, b;
  for (double t : table.time) a.push_back(t * t), b.push_back(-t);
  table.series = {{"x<&>", "m", a}, {"v", "m/s", b}};
  const auto svg = render_svg(table, assign_panels(table, 0), event_times(table.time), {960, 200, "a \"title\""});
  pugi::xml_document doc;
  const auto parsed = doc.load_string(svg.c_str());
  ASSERT_TRUE(parsed) << parsed.description();
  const auto root = doc.child("svg");
  ASSERT_TRUE(root);
  const auto polylines = root.select_nodes("//polyline[@class='series']");
  ASSERT_EQ(polylines.size(), 2u);
  EXPECT_STREQ(polylines[0].node().attribute("data-name").value(), "x<&>");
  std::vector<std::string> ylabels, xticks;
  for (const auto& n : root.select_nodes("//text[@class='ylabel']")) ylabels.emplace_back(n.node().child_value());
  for (const auto& n : root.select_nodes("//text[@class='xtick']")) xticks.emplace_back(n.node().child_value());
  EXPECT_EQ(ylabels, (std::vector<std::string>{"[m]", "[m/s]"}));
  EXPECT_EQ(xticks, (std::vector<std::string>{"0.0", "0.5", "1.0", "1.5", "2.0"}));
  EXPECT_EQ(root.select_nodes("//line[@class='event']").size(), 2u) << "one per panel";
}

}  // namespace
}  // namespace lsdae::results
