// tests/runtime/sweep/sweep_sources_test.cpp -- runtime/sweep/scenario_sources.h
// and csv_line.h: tables, grids, Monte Carlo draws (the MATPOWER change
// tables of the PowerGrid FMU's own source: contingency_source_test.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>

#include "lsdae/error.h"
#include "sweep/csv_line.h"
#include "sweep/scenario_sources.h"

namespace lsdae::sweep {
namespace {

class SweepSources : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("lsdae_sweep_sources_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return dir_ / name;
  }
  std::string error_of(const std::function<void()>& f) {
    try {
      f();
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::usage);
      return e.what();
    }
    ADD_FAILURE() << "no error";
    return {};
  }
  std::filesystem::path dir_;
};

TEST_F(SweepSources, TableWithIdsQuotesAndEmptyCells) {
  auto path = write("t.csv", "# comment\nk,id,\"A[1,2]\"\n2.5,first,\"3\"\n,second,4\r\n\n");
  auto s = read_scenario_table(path);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].id, "first");
  ASSERT_EQ(s[0].sets.size(), 2u);
  EXPECT_EQ(s[0].sets[0], (std::pair<std::string, std::string>{"k", "2.5"}));
  EXPECT_EQ(s[0].sets[1], (std::pair<std::string, std::string>{"A[1,2]", "3"}));
  EXPECT_EQ(s[1].id, "second");
  ASSERT_EQ(s[1].sets.size(), 1u);  // the empty k cell leaves k alone
}

TEST_F(SweepSources, TableIdsDefaultToRowNumbers) {
  auto s = read_scenario_table(write("t.csv", "k\n1\n2\n3\n"));
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[2].id, "3");
}

TEST_F(SweepSources, TableErrorsNameTheLine) {
  EXPECT_NE(error_of([&] { read_scenario_table(write("a.csv", "k,m\n1,2\n3\n")); }).find("line 3"), std::string::npos);
  EXPECT_NE(error_of([&] { read_scenario_table(write("b.csv", "id,k\nx,1\nx,2\n")); }).find("\"x\" appears twice"),
            std::string::npos);
  EXPECT_NE(error_of([&] { read_scenario_table(write("c.csv", "k,k\n1,2\n")); }).find("appears twice"),
            std::string::npos);
  EXPECT_NE(error_of([&] { read_scenario_table(write("d.csv", "k\n\"1\n")); }).find("never ends"), std::string::npos);
  EXPECT_NE(error_of([&] { read_scenario_table(dir_ / "missing.csv"); }).find("cannot be read"), std::string::npos);
}

TEST_F(SweepSources, FullFactorialLastAxisFastest) {
  auto s = full_factorial({"a=1,2", "b=x,y,z"});
  ASSERT_EQ(s.size(), 6u);
  EXPECT_EQ(s[0].sets[1].second, "x");
  EXPECT_EQ(s[1].sets[1].second, "y");
  EXPECT_EQ(s[3].sets[0].second, "2");
  EXPECT_EQ(s[5].id, "6");
  EXPECT_NE(error_of([] { full_factorial({"a=1,,2"}); }).find("empty value"), std::string::npos);
  EXPECT_NE(error_of([] { full_factorial({"a"}); }).find("name=v1,v2"), std::string::npos);
}

TEST_F(SweepSources, MonteCarloDependsOnlyOnSeedAndIndex) {
  std::vector<Draw> draws{parse_draw("u=uniform(2,4)"), parse_draw("n=normal(1,0.1,0.95,1.2)")};
  auto many = monte_carlo(draws, 50, 7);
  auto few = monte_carlo(draws, 10, 7);
  for (std::size_t k = 0; k < few.size(); ++k) EXPECT_EQ(many[k].sets, few[k].sets);
  const auto alone = monte_carlo_values(draws, 37, 7);
  EXPECT_EQ(many[36].sets[0].second, round_trip(alone[0]));
  EXPECT_NE(monte_carlo(draws, 1, 8)[0].sets, many[0].sets);  // the seed matters
  for (const auto& s : many) {
    const double u = std::stod(s.sets[0].second), n = std::stod(s.sets[1].second);
    EXPECT_GE(u, 2.0);
    EXPECT_LT(u, 4.0);
    EXPECT_GE(n, 0.95);
    EXPECT_LE(n, 1.2);
  }
}

TEST_F(SweepSources, MonteCarloMomentsMatchTheDistributions) {
  // 20000 draws: the mean of uniform(0,1) is 1/2 ± 0.5/sqrt(12·N)·4 at four sigma,
  // its variance 1/12; the normal's mean and standard deviation likewise.
  std::vector<Draw> draws{parse_draw("u=uniform(0,1)"), parse_draw("n=normal(3,2)")};
  const int n = 20000;
  double su = 0, suu = 0, sn = 0, snn = 0;
  for (int k = 1; k <= n; ++k) {
    auto v = monte_carlo_values(draws, k, 12345);
    su += v[0], suu += v[0] * v[0], sn += v[1], snn += v[1] * v[1];
  }
  const double mu = su / n, vu = suu / n - mu * mu, mn = sn / n, sdn = std::sqrt(snn / n - mn * mn);
  EXPECT_NEAR(mu, 0.5, 4 * std::sqrt(1.0 / 12 / n));
  EXPECT_NEAR(vu, 1.0 / 12, 0.003);
  EXPECT_NEAR(mn, 3.0, 4 * 2.0 / std::sqrt(n));
  EXPECT_NEAR(sdn, 2.0, 0.05);
}

TEST_F(SweepSources, DrawErrors) {
  EXPECT_NE(error_of([] { parse_draw("x=uniform(2,1)"); }).find("lo < hi"), std::string::npos);
  EXPECT_NE(error_of([] { parse_draw("x=gamma(1,2)"); }).find("unknown distribution"), std::string::npos);
  EXPECT_NE(error_of([] { parse_draw("x=normal(0,1,50,60)"); }).find("almost none"), std::string::npos);
  EXPECT_NE(error_of([] { parse_draw("x=normal(0,-1)"); }).find("sd > 0"), std::string::npos);
  EXPECT_NE(error_of([] { parse_draw("x=uniform(a,1)"); }).find("\"a\" is not a finite number"), std::string::npos);
}

TEST_F(SweepSources, CrossJoinsIdsAndSets) {
  std::vector<Scenario> a{{"a", {{"x", "1"}}}, {"b", {{"x", "2"}}}};
  std::vector<Scenario> b{{"1", {{"y", "3"}}}};
  auto c = cross(a, b);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[1].id, "b/1");
  EXPECT_EQ(c[1].sets.size(), 2u);
  EXPECT_EQ(cross(a, {}).size(), 2u);
}

TEST(SweepCsv, RecordsRoundTrip) {
  const std::vector<std::string> fields{"plain", "with,comma", "with \"quote\"", "two\nlines", " padded", ""};
  const std::string text = csv_record(fields) + "\n" + csv_record({"next"}) + "\n";
  std::size_t pos = 0;
  EXPECT_EQ(parse_csv_record(text, pos), fields);
  EXPECT_EQ(parse_csv_record(text, pos), std::vector<std::string>{"next"});
  EXPECT_EQ(pos, text.size());
}

}  // namespace
}  // namespace lsdae::sweep
