// tests/runtime/simulation/csv_writer_test.cpp -- runtime/simulation/csv_writer.cpp.
#include "simulation/csv_writer.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "catalog.h"
#include "lsdae/error.h"

namespace lsdae::simulation {
namespace {

TEST(GlobMatch, StarQuestionAndLiteralBrackets) {
  EXPECT_TRUE(glob_match("L[*].i", "L[12].i"));
  EXPECT_FALSE(glob_match("L[*].i", "L[12].v"));
  EXPECT_TRUE(glob_match("C[1].v", "C[1].v"));
  EXPECT_FALSE(glob_match("C[1].v", "C1.v")) << "brackets are literal, not a class";
  EXPECT_TRUE(glob_match("der(?)", "der(x)"));
  EXPECT_TRUE(glob_match("*", ""));
  EXPECT_TRUE(glob_match("a*b*c", "aXXbYYc"));
  EXPECT_FALSE(glob_match("a*b*c", "aXXbYY"));
}

TEST(SelectOutputChannels, DefaultsPatternsAndAll) {
  auto fmu = Fmu::open(test::fmu_path("TransmissionLine_dae_shapeA_10"));
  auto defaults = select_output_channels(*fmu, {}, false);
  EXPECT_EQ(defaults.size(), 22u + 1u) << "22 states and the output v_load";
  auto some = select_output_channels(*fmu, {"L[*].i", "v_load"}, false);
  EXPECT_EQ(some.size(), 11u);
  EXPECT_EQ(some.back().name, "v_load");
  auto all = select_output_channels(*fmu, {}, true);
  EXPECT_GT(all.size(), defaults.size());
  for (const auto& c : all) EXPECT_NE(c.name, "time") << "the independent variable is the time column already";
  EXPECT_TRUE(select_output_channels(*fmu, {"time", "v_load", "v_*"}, false).size() >= 1u);
  for (const auto& c : select_output_channels(*fmu, {"*"}, false)) EXPECT_NE(c.name, "time");
  auto twice = select_output_channels(*fmu, {"v_load", "v_load", "v_*"}, false);
  std::set<std::string> unique;
  for (const auto& c : twice) EXPECT_TRUE(unique.insert(c.name).second) << "duplicate column " << c.name;
  try {
    select_output_channels(*fmu, {"nothing*here"}, false);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    EXPECT_NE(std::string(e.what()).find("\"nothing*here\" matches no variable"), std::string::npos);
  }
}

TEST(SplitOutputPatterns, CommasInsideBracketsBelongToTheName) {
  EXPECT_EQ(split_output_patterns("A[2,3],x"), (std::vector<std::string>{"A[2,3]", "x"}));
  EXPECT_EQ(split_output_patterns("a,,b"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(split_output_patterns("B[1,2,3]"), (std::vector<std::string>{"B[1,2,3]"}));
}

TEST(CsvWriter, WritesExactValuesAndQuotesNames) {
  auto path = std::filesystem::temp_directory_path() / ("lsdae-csv-" + std::to_string(::getpid()) + ".csv");
  {
    CsvWriter csv(path, {"a", "b,c", "q\"x"});
    std::vector<double> row{0.1, -2.5e-300, 3};
    csv.write_row(1.0 / 3.0, row);
    EXPECT_EQ(csv.rows(), 1u);
    // Rows are on disk before the writer goes away.
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), "time,a,\"b,c\",\"q\"\"x\"\n0.3333333333333333,0.1,-2.5e-300,3\n")
        << "shortest round-trip numbers";
  }
  std::filesystem::remove(path);
  EXPECT_THROW(CsvWriter("/no/such/dir/out.csv", {}), Error);
}

}  // namespace
}  // namespace lsdae::simulation
