// tests/runtime/simulation/csv_writer_test.cpp -- runtime/simulation/csv_writer.cpp.
#include "simulation/csv_writer.h"

#include <gtest/gtest.h>

#include <fstream>
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

TEST(SelectOutputVariables, DefaultsPatternsAndAll) {
  auto fmu = Fmu::open(test::fmu_path("TransmissionLine_dae_shapeA_10"));
  auto defaults = select_output_variables(*fmu, {}, false);
  EXPECT_EQ(defaults.size(), 22u + 1u) << "22 states and the output v_load";
  auto some = select_output_variables(*fmu, {"L[*].i", "v_load"}, false);
  EXPECT_EQ(some.size(), 11u);
  EXPECT_EQ(some.back()->name, "v_load");
  auto all = select_output_variables(*fmu, {}, true);
  EXPECT_GT(all.size(), defaults.size());
  try {
    select_output_variables(*fmu, {"nothing*here"}, false);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    EXPECT_NE(std::string(e.what()).find("\"nothing*here\" matches no variable"), std::string::npos);
  }
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
    EXPECT_EQ(text.str(), "time,a,\"b,c\",\"q\"\"x\"\n0.33333333333333331,0.10000000000000001,-2.5e-300,3\n");
  }
  std::filesystem::remove(path);
  EXPECT_THROW(CsvWriter("/no/such/dir/out.csv", {}), Error);
}

}  // namespace
}  // namespace lsdae::simulation
