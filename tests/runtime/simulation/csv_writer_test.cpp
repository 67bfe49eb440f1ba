// tests/runtime/simulation/csv_writer_test.cpp -- runtime/simulation/csv_writer.cpp.
#include "results/csv_writer.h"
#include "simulation/output_channels.h"

#include <gtest/gtest.h>

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <fstream>
#include <set>
#include <sstream>

#include "catalog.h"
#include "lsdae/error.h"
#include "lsdae/fmu.h"
#include "lsdae/simulation.h"

namespace lsdae::simulation {
namespace {
using results::CsvWriter;

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

// OutputReader::numbers (the sweep's samples) gives every channel's number(c),
// Float64 and Int32 channels alike.
TEST(OutputReader, NumbersAreEachChannelsNumber) {
  auto fmu = Fmu::open(test::fmu_path("ClockTicks_constant"));
  auto sim = Simulation::create(fmu);
  OutputReader reader(select_output_channels(*fmu, {}, true));
  bool integer = false;
  for (const auto& c : reader.channels()) integer = integer || c.variable->type == VariableType::int32;
  ASSERT_TRUE(integer) << "the test needs an Int32 channel";
  sim->initialize();
  sim->advance_to(0.35);
  reader.read(*sim);
  std::vector<double> out(reader.size(), -1.0);
  reader.numbers(out);
  for (std::size_t c = 0; c < reader.size(); ++c) EXPECT_EQ(out[c], reader.number(c)) << reader.channels()[c].name;
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
  try {
    CsvWriter("/no/such/dir/out.csv", {});
    FAIL() << "created a file in a folder that does not exist";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::output);
    EXPECT_NE(std::string(e.what()).find("results: cannot create \"/no/such/dir/out.csv\""), std::string::npos);
  }
}

TEST(CsvWriter, AFullDeviceIsAnOutputError) {
  try {
    CsvWriter csv("/dev/full", {"x"});
    FAIL() << "the header went to /dev/full";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::output);
    EXPECT_NE(std::string(e.what()).find("results: writing \"/dev/full\" failed after 0 rows: No space left on device"),
              std::string::npos)
        << e.what();
  }
}

TEST(CsvWriter, AFailedRowIsCutOffAndTheFileEndsWithTheLastCompleteOne) {
  // The file-size limit makes write() stop part-way through a row (then
  // fail with EFBIG): the partial row must not stay in the file.
  auto path = std::filesystem::temp_directory_path() / ("lsdae-csv-limit-" + std::to_string(::getpid()) + ".csv");
  constexpr rlim_t kLimit = 1000;
  struct rlimit saved {};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &saved), 0);
  struct rlimit small = saved;
  small.rlim_cur = kLimit;
  auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  std::size_t rows = 0;
  std::string message;
  {
    CsvWriter csv(path, {"a", "b"});
    std::vector<double> row{1.0 / 3.0, 2.0 / 3.0};
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
    try {
      for (int k = 0; k < 1000; ++k) csv.write_row(0.1 * k, row);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::output);
      message = e.what();
    }
    setrlimit(RLIMIT_FSIZE, &saved);
    rows = csv.rows();
  }
  std::signal(SIGXFSZ, old_handler);
  EXPECT_NE(message.find("failed after " + std::to_string(rows) + " rows: File too large; the file ends with the "
                         "last complete row"),
            std::string::npos)
      << message;
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::filesystem::remove(path);
  const std::string content = text.str();
  ASSERT_FALSE(content.empty());
  EXPECT_EQ(content.back(), '\n');
  EXPECT_LE(content.size(), kLimit);
  EXPECT_GT(content.size(), kLimit - 80) << "only the partial row was cut";
  EXPECT_EQ(static_cast<std::size_t>(std::count(content.begin(), content.end(), '\n')), rows + 1);
}

}  // namespace
}  // namespace lsdae::simulation
