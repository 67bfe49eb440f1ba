// tests/runtime/sweep/sweep_system_test.cpp -- `lsdae sweep system.ssp`: a
// system of FMUs as a sweep's model (docs/sweeps.md, "Systems of FMUs").
//
// The two coupled masses of models/systems (seed 003: mass1's m = 1, F0 = 1
// come from the SSP's parameter set, not from the FMU's defaults), swept
// over a parameter of one component: each row's metrics equal the same
// computation over `lsdae simulate system.ssp --set ...`'s result rows; the
// rows do not depend on --jobs or on reuse (Simulation::reset() on a System
// must give the components their SSP parameters and DAE switches again:
// also checked on the algebraic loop, whose second component has an LS-DAE
// enable switch); names are component.variable; --results-dir files equal
// simulate's; a contingency table is refused for a system.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "cli_fixture.h"
#include "summary_rows.h"
#include "sweep/csv_line.h"
#include "sweep/scenario_sources.h"

namespace lsdae::test {
namespace {

std::filesystem::path ssp(const std::string& name) { return std::filesystem::path(LSDAE_SYSTEM_DIR) / (name + ".ssp"); }

class SweepSystem : public CliTest {
 protected:
  ProcessResult run(const std::vector<std::string>& args) {
    std::vector<std::string> argv{LSDAE_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_process(argv, {{"TMPDIR", tmp_.string()}}, work_, std::chrono::seconds(600));
  }
  std::filesystem::path write(const std::string& name, const std::string& text) {
    std::ofstream(work_ / name) << text;
    return work_ / name;
  }
};

TEST_F(SweepSystem, RowsOfCoupledMassesMatchSimulate) {
  const std::vector<std::string> f0{"0.5", "1", "2.5"};
  const std::vector<std::string> base{"sweep", ssp("coupled_masses").string(), "--grid", "mass1.F0=0.5,1,2.5",
                                      "--set", "mass2.m=3", "--stop", "2", "--metric", "max:mass1.v",
                                      "--metric", "tmax:mass1.v", "--metric", "final:mass2.s",
                                      "--metric", "min:spread(mass?.v)", "--no-progress"};
  auto sweep_rows = [&](const std::vector<std::string>& extra, const std::string& summary) {
    auto args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    args.insert(args.end(), {"--summary", (work_ / summary).string()});
    const ProcessResult r = run(args);
    EXPECT_TRUE(ExitedWith(r, 0));
    return rows_by_id(work_ / summary);
  };
  const auto rows = sweep_rows({"--jobs", "1"}, "jobs1.csv");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(read_csv(work_ / "jobs1.csv")[0],
            (std::vector<std::string>{"id", "status", "message", "reached_time", "steps", "wall_time_s",
                                      "max:mass1.v", "tmax:mass1.v", "final:mass2.s", "min:spread(mass?.v)"}));
  EXPECT_EQ(sweep_rows({"--jobs", "2"}, "jobs2.csv"), rows);
  EXPECT_EQ(sweep_rows({"--jobs", "1", "--no-reuse"}, "fresh.csv"), rows);
  EXPECT_EQ(sweep_rows({"--no-isolate"}, "in-process.csv"), rows);

  for (std::size_t k = 0; k < f0.size(); ++k) {
    const std::string id = std::to_string(k + 1);
    const auto& row = rows.at(id);
    ASSERT_EQ(row[1], "ok") << row[2];
    EXPECT_EQ(row[3], "2");
    const std::string result = (work_ / ("sim" + id + ".csv")).string();
    const ProcessResult sim = run({"simulate", ssp("coupled_masses").string(), "--stop", "2", "--set", "mass2.m=3",
                                   "--set", "mass1.F0=" + f0[k], "--output-vars", "mass1.v,mass2.v,mass2.s", "-o",
                                   result, "--no-progress"});
    ASSERT_TRUE(ExitedWith(sim, 0));
    const auto table = read_csv(result);
    ASSERT_EQ(table[0], (std::vector<std::string>{"time", "mass1.v", "mass2.v", "mass2.s"}));
    double best = 0, at = 0, spread = 0, last = 0;
    for (std::size_t r = 1; r < table.size(); ++r) {
      const double t = std::stod(table[r][0]), v1 = std::stod(table[r][1]), v2 = std::stod(table[r][2]);
      const double s = std::max(v1, v2) - std::min(v1, v2);
      if (r == 1 || v1 > best) best = v1, at = t;
      if (r == 1 || s < spread) spread = s;
      last = std::stod(table[r][3]);
    }
    EXPECT_EQ(row[6], sweep::round_trip(best)) << "F0 = " << f0[k];
    EXPECT_EQ(row[7], sweep::round_trip(at)) << "F0 = " << f0[k];
    EXPECT_EQ(row[8], sweep::round_trip(last)) << "F0 = " << f0[k];
    EXPECT_EQ(row[9], sweep::round_trip(spread)) << "F0 = " << f0[k];
  }
  // A larger forcing amplitude moves mass1 faster (the runs differ).
  EXPECT_LT(std::stod(rows.at("1")[6]), std::stod(rows.at("3")[6]));
  EXPECT_TRUE(leftovers().empty());
}

// LoopSecond has an LS-DAE enable switch and first.a, second.b are SSP
// parameters: a reused model must get both back after fmi3Reset.
TEST_F(SweepSystem, ReuseOfASystemGivesTheRowsOfFreshRuns) {
  const auto table = write("loop.csv", "id,first.a,second.b\nlow,0.25,\nmid,,0.75\n# a comment\nhigh,0.9,0.1\n");
  auto rows_of = [&](const std::vector<std::string>& extra, const std::string& summary) {
    std::vector<std::string> args{"sweep", ssp("algebraic_loop").string(), "--scenarios", table.string(), "--stop",
                                  "1", "--metric", "final:first.x1", "--metric", "max:second.w", "--no-progress",
                                  "--summary", (work_ / summary).string()};
    args.insert(args.end(), extra.begin(), extra.end());
    const ProcessResult r = run(args);
    EXPECT_TRUE(ExitedWith(r, 0));
    return rows_by_id(work_ / summary);
  };
  const auto reused = rows_of({"--no-isolate"}, "reused.csv");
  ASSERT_EQ(reused.size(), 3u);
  EXPECT_EQ(rows_of({"--no-isolate", "--no-reuse"}, "fresh.csv"), reused);
  EXPECT_EQ(rows_of({"--jobs", "2"}, "jobs2.csv"), reused);
  EXPECT_NE(reused.at("low")[6], reused.at("high")[6]);
}

// --results-dir on a system: each scenario's file is what `lsdae simulate
// system.ssp` writes with the same values, byte for byte.
TEST_F(SweepSystem, ResultFilesOfASystemAreWhatSimulateWrites) {
  const auto dir = work_ / "results";
  const ProcessResult r = run({"sweep", ssp("coupled_masses").string(), "--grid", "mass1.F0=0.5,2", "--stop", "1",
                               "--metric", "max:mass1.v", "--results-dir", dir.string(), "--summary",
                               (work_ / "s.csv").string(), "--no-progress", "--jobs", "2"});
  ASSERT_TRUE(ExitedWith(r, 0));
  const std::vector<std::string> f0{"0.5", "2"};
  for (std::size_t k = 0; k < f0.size(); ++k) {
    const std::string id = std::to_string(k + 1);
    const auto simulated = work_ / ("sim" + id + ".csv");
    const ProcessResult sim = run({"simulate", ssp("coupled_masses").string(), "--stop", "1", "--set",
                                   "mass1.F0=" + f0[k], "-o", simulated.string(), "--no-progress"});
    ASSERT_TRUE(ExitedWith(sim, 0));
    const auto written = read_csv(dir / (id + ".csv"));
    ASSERT_GT(written.size(), 10u);
    EXPECT_EQ(written[0], (std::vector<std::string>{"time", "mass1.v", "mass1.s", "mass2.v", "mass2.s"}));
    EXPECT_EQ(written, read_csv(simulated)) << "scenario " << id;
  }
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(SweepSystem, NamesAreComponentVariableAndContingenciesAreRefused) {
  const ProcessResult unknown = run({"sweep", ssp("coupled_masses").string(), "--grid", "mass1.F=1,2", "--grid",
                                     "mass3.m=1,2", "--summary", (work_ / "s.csv").string()});
  EXPECT_TRUE(ExitedWith(unknown, 2));
  EXPECT_TRUE(Mentions(unknown, "mass3.m"));
  EXPECT_FALSE(std::filesystem::exists(work_ / "s.csv"));
  const ProcessResult metric = run({"sweep", ssp("coupled_masses").string(), "--grid", "mass1.m=1,2", "--metric",
                                    "max:v", "--summary", (work_ / "s.csv").string()});
  EXPECT_TRUE(ExitedWith(metric, 2));
  EXPECT_TRUE(Mentions(metric, "--metric \"max:v\""));
  const auto chgtab = write("c.m", "chgtab = [\n 1 0 CT_TBRCH 1 BR_STATUS CT_REP 0;\n];\n");
  const ProcessResult contingencies = run({"sweep", ssp("coupled_masses").string(), "--contingencies",
                                           chgtab.string(), "--no-fault", "--summary", (work_ / "s.csv").string()});
  EXPECT_TRUE(ExitedWith(contingencies, 2));
  EXPECT_TRUE(Mentions(contingencies, "is a system of FMUs"));
  EXPECT_TRUE(leftovers().empty());
}

}  // namespace
}  // namespace lsdae::test
