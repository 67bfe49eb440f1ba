// tests/runtime/sweep/contingency_source_test.cpp -- the PowerGrid FMU's own
// scenario source (models/powergrid/scenarios/: MATPOWER change tables as
// branch outages) and how the generic sweep reaches it: only through the
// registry of lsdae/sweep.h (make_scenarios, sweep/scenario_sources.h).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "catalog.h"
#include "lsdae/error.h"
#include "lsdae/fmu.h"
#include "lsdae/sweep.h"
#include "powergrid/scenarios/contingency_source.h"
#include "powergrid/scenarios/matpower_changes.h"
#include "sweep/scenario_sources.h"

namespace lsdae::powergrid {
namespace {

class ContingencySource : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("lsdae_contingency_source_" + std::to_string(::getpid()) + "_" +
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

TEST_F(ContingencySource, ChangeTableBranchOutagesAndSkippedRows) {
  auto path = write("c.m", "function chgtab = c\ndefine_constants;\n%% comment\nchgtab = [\n"
                           "\t1\t0\tCT_TBRCH\t3\tBR_STATUS\tCT_REP\t0;\n"
                           "\t2\t0\t3\t1\t11\t1\t0; % numeric codes\n"
                           "\t3\t0\tCT_TGEN\t1\tBR_STATUS\tCT_REP\t0;\n"
                           "\t4\t0\tCT_TBRCH\t4\tBR_STATUS\tCT_REP\t0;\n"
                           "\t4\t0\tCT_TBRCH\t5\tBR_STATUS\tCT_REP\t0;\n"
                           "\t5\t0\tCT_TBRCH\t2\tBR_X\tCT_REL\t2;\n];\n");
  auto table = read_chgtab(path);
  ASSERT_EQ(table.outages.size(), 2u);
  EXPECT_EQ(table.outages[0].branch, 3);
  EXPECT_EQ(table.outages[1].label, "2");
  ASSERT_EQ(table.skipped.size(), 3u);
  EXPECT_NE(table.skipped[1].find("N-k"), std::string::npos);

  auto case_path = write("case.m", "mpc.bus = [1 3 0 0 0 0 1 1 0 345 1 1.1 0.9;];\nmpc.branch = [\n"
                                   "\t7\t2\t0.01\t0.1\t0\t0\t0\t0\t0\t0\t1\t-360\t360;\n"
                                   "\t2\t9\t0.01\t0.1\t0\t0\t0\t0\t0\t0\t1\t-360\t360;\n"
                                   "\t9\t7\t0.01\t0.1\t0\t0\t0\t0\t0\t0\t1\t-360\t360;\n];\n");
  auto from = read_branch_from_buses(case_path);
  EXPECT_EQ(from, (std::vector<std::int64_t>{7, 2, 9}));
  auto s = contingency_scenarios(table, from, {1.0, 0.15, true}, 0.5);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].id, "1");
  EXPECT_EQ(s[0].sets, (std::vector<std::pair<std::string, std::string>>{
                           {"fault.bus", "9"}, {"trip.branch", "3"}, {"fault.t_on", "1"},
                           {"fault.t_off", "1.15"}, {"trip.time", "1.15"}}));
  EXPECT_EQ(s[1].sets[0].second, "7");
}

TEST_F(ContingencySource, MalformedChangeTableLines) {
  auto six = write("six.m", "chgtab = [\n1 0 CT_TBRCH 3 BR_STATUS CT_REP 0;\n2 0 CT_TBRCH 4 BR_STATUS 0;\n];\n");
  const std::string e1 = error_of([&] { read_chgtab(six); });
  EXPECT_NE(e1.find("line 3"), std::string::npos) << e1;
  EXPECT_NE(e1.find("6 fields"), std::string::npos) << e1;
  auto word = write("word.m", "chgtab = [\n1 0 CT_TBRNCH 3 BR_STATUS CT_REP 0;\n];\n");
  EXPECT_NE(error_of([&] { read_chgtab(word); }).find("\"CT_TBRNCH\" is neither"), std::string::npos);
  auto none = write("none.m", "x = 1;\n");
  EXPECT_NE(error_of([&] { read_chgtab(none); }).find("no \"chgtab = [ ... ];\""), std::string::npos);
  // A branch row beyond the case.
  auto ok = write("ok.m", "chgtab = [\n1 0 CT_TBRCH 30 BR_STATUS CT_REP 0;\n];\n");
  EXPECT_NE(error_of([&] { contingency_scenarios(read_chgtab(ok), {1, 2}, {}, 1.0); }).find("has 2 branches"),
            std::string::npos);
}

// Found by lsdae_fuzz_grids (docs/fuzzing.md, 2026-11-30): a branch row or a
// bus number beyond the int64 range (1e19) was converted to int64 unchecked
// (undefined behaviour, UBSan: "1e+19 is outside the range of representable
// values of type 'long'"); it is now refused naming the file and the line.
TEST_F(ContingencySource, RowsAndBusesBeyondTheIntegersAreRefused) {
  const std::string row = error_of([] { parse_chgtab("chgtab = [\n1 0 CT_TBRCH 1e19 BR_STATUS CT_REP 0;\n];\n", "c.m"); });
  EXPECT_NE(row.find("\"c.m\", line 2: branch row 1e+19"), std::string::npos) << row;
  EXPECT_NE(row.find("→"), std::string::npos) << row;
  const std::string branch = "mpc.branch = [\n1e19 2 0 0.1 0 0 0 0 0 0 1 0 0;\n];\n";
  EXPECT_NE(error_of([&] { parse_branch_from_buses(branch, "case.m"); }).find("\"case.m\", line 2: not a branch row"),
            std::string::npos);
  const std::string to = "mpc.branch = [\n1 -1e300 0 0.1 0 0 0 0 0 0 1 0 0;\n];\n";
  EXPECT_NE(error_of([&] { parse_branch_ends(to, "case.m"); }).find("\"case.m\", line 2: not a branch row"),
            std::string::npos);
  // The largest whole number a double holds exactly is still a row (beyond any case: refused later).
  EXPECT_EQ(parse_chgtab("chgtab = [\n1 0 3 9007199254740992 11 1 0;\n];\n", "c.m").outages.at(0).branch,
            std::int64_t{9007199254740992});
}

// The generic sweep knows a model's source only by the name it registered:
// the options that shape it go with the one that selects it, it is an
// alternative to the other sources, and its scenarios are checked as any.
TEST_F(ContingencySource, TheSweepReachesASourceOnlyThroughTheRegistry) {
  register_powergrid_scenario_sources();
  register_powergrid_scenario_sources();  // twice: harmless
  std::size_t named = 0;
  for (const auto& s : sweep::scenario_sources()) named += s.name == "contingencies" ? 1u : 0u;
  EXPECT_EQ(named, 1u);
  sweep::ScenarioSourceOption doubles;
  doubles.name = "doubles";
  sweep::register_scenario_source({"doubles", "2", "--doubles N", {doubles},
                                   [](const Model&, const sweep::ScenarioSourceArguments& a) {
                                     sweep::SourceScenarios out;
                                     out.scenarios.push_back({"one", {{"x", a.at(0).second}}});
                                     out.scenarios.push_back({"two", {{"x", a.at(0).second + "0"}}});
                                     out.settle_from = 0.25;
                                     return out;
                                   },
                                   "", {}});
  auto fmu = Fmu::open(test::fmu_path("HelloWorld_ode"));
  sweep::ScenarioSourceSpec spec;
  spec.sources = {{"doubles", {{"doubles", "3"}}}};
  const sweep::ScenarioList list = sweep::make_scenarios(spec, *fmu);
  ASSERT_EQ(list.scenarios.size(), 2u);
  EXPECT_EQ(list.scenarios[1].sets[0].second, "30");
  EXPECT_EQ(list.settle_from, 0.25);
  // Its shaping options without the selecting one, and two sources at once.
  spec.sources = {{"contingencies", {{"case", "case39.m"}}}};
  EXPECT_NE(error_of([&] { sweep::make_scenarios(spec, *fmu); })
                .find("--case, --fault-on, --clear-after and --no-fault go with --contingencies chgtab.m"),
            std::string::npos);
  spec.sources = {{"doubles", {{"doubles", "3"}}}};
  spec.monte_carlo = 5;
  EXPECT_NE(error_of([&] { sweep::make_scenarios(spec, *fmu); }).find("are alternatives"), std::string::npos);
  // A number option out of its range is refused before the source runs.
  spec.monte_carlo = 0;
  spec.sources = {{"contingencies", {{"contingencies", "c.m"}, {"clear-after", "-1"}}}};
  EXPECT_NE(error_of([&] { sweep::make_scenarios(spec, *fmu); })
                .find("--clear-after: \"-1\" is out of range: the fault duration must be greater than 0"),
            std::string::npos);
}

}  // namespace
}  // namespace lsdae::powergrid
