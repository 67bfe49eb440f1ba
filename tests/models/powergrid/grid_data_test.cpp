// tests/models/powergrid/grid_data_test.cpp -- machines at the operating
// point, the grid data file (exact round trip, one message per malformed
// file) and the model's network equations at t = 0 evaluated from the file.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>

#include <unistd.h>

#include "powergrid/grid_builder.h"

namespace lsdae::powergrid {
namespace {

std::string cases_dir() { return LSDAE_GRID_CASES_DIR; }
bool have_cases() { return std::filesystem::exists(cases_dir() + "/case9.m"); }

GridData build(const std::string& name, double frequency = 60) {
  const Case c = read_matpower_case(cases_dir() + "/" + name + ".m");
  PowerFlowResult r = solve_power_flow(c);
  if (!r.converged) {
    PowerFlowOptions o;
    o.flat_start = false;
    r = solve_power_flow(c, o);
  }
  return build_grid_data(c, r, frequency);
}

// The network current balance of the model at the stored operating point:
// (Y + loads) V − Σ (E' e^(jδ0) − V_i)/(j x'd), per bus; and Pm − Pe.
struct Balance {
  double current = 0, power = 0;
};
Balance balance(const GridData& d) {
  std::vector<Complex> res(d.y.n);
  for (std::size_t i = 0; i < d.y.n; ++i)
    for (std::size_t p = d.y.row_start[i]; p < d.y.row_start[i + 1]; ++p) res[i] += d.y.value[p] * d.voltage[d.y.column[p]];
  Balance b;
  for (const GridMachine& m : d.machines) {
    res[m.bus] -= (std::polar(m.e, m.delta0) - d.voltage[m.bus]) / Complex(0, m.xd);
    b.power = std::max(b.power, std::abs(m.pm - electrical_power(m.e, m.delta0, m.xd, d.voltage[m.bus])));
  }
  for (Complex r : res) b.current = std::max(b.current, std::abs(r));
  return b;
}

class GridDataCases : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_cases()) GTEST_SKIP() << "no cases in " << cases_dir();
  }
};

TEST_F(GridDataCases, Case9MachinesGetTheTypicalDataOnTheirOwnBase) {
  const GridData d = build("case9");
  ASSERT_EQ(d.machines.size(), 3u);
  const double rating[3] = {250, 300, 270};  // PMAX > MBASE = 100 and > |S|/0.9
  for (std::size_t m = 0; m < 3; ++m) {
    EXPECT_EQ(d.machines[m].rating_mva, rating[m]);
    EXPECT_DOUBLE_EQ(d.machines[m].h, 5.0 * rating[m] / 100);
    EXPECT_DOUBLE_EQ(d.machines[m].d, 10.0 * rating[m] / 100);
    EXPECT_DOUBLE_EQ(d.machines[m].xd, 0.3 * 100 / rating[m]);
    EXPECT_GT(d.machines[m].e, 1.0);
    EXPECT_EQ(d.machines[m].case_row, static_cast<int>(m) + 1);
  }
  // Generator 2 (163 MW at bus 2) leads.
  EXPECT_GT(d.machines[1].delta0, d.machines[0].delta0);
  EXPECT_NEAR(d.machines[1].pm, 1.63, 1e-12);
}

TEST_F(GridDataCases, TheModelIsAtRestAtTheOperatingPoint) {
  for (const char* name : {"case9", "case39", "case2383wp", "case_ACTIVSg10k", "case13659pegase"}) {
    const GridData d = build(name);
    const Balance b = balance(d);
    std::printf("[ stats    ] %s: at t = 0 the largest current residual is %.2e p.u., |Pm - Pe| %.2e p.u.\n", name,
                b.current, b.power);
    EXPECT_LT(b.current, 1e-9) << name;
    EXPECT_LT(b.power, 1e-12) << name;
    // Every machine starts well inside its stability limit: the rating follows
    // the solved output (sized by MBASE, small units absorbing reactive power
    // in case2383wp started at 170 degrees).
    double load_angle = 0;
    for (const GridMachine& m : d.machines)
      load_angle = std::max(load_angle, std::abs(std::remainder(m.delta0 - std::arg(d.voltage[m.bus]), 2 * std::numbers::pi)));
    EXPECT_LT(load_angle, 0.5) << name;
  }
}

TEST_F(GridDataCases, FileRoundTripIsExact) {
  const GridData d = build("case39");
  const std::string path = ::testing::TempDir() + "/case39_roundtrip_" + std::to_string(::getpid()) + ".grid";
  write_grid_data(d, path);
  const GridData e = read_grid_data(path);
  std::filesystem::remove(path);
  EXPECT_EQ(e.name, d.name);
  EXPECT_EQ(e.base_mva, d.base_mva);
  EXPECT_EQ(e.frequency, d.frequency);
  EXPECT_EQ(e.power_flow_iterations, d.power_flow_iterations);
  EXPECT_EQ(e.power_flow_mismatch, d.power_flow_mismatch);
  EXPECT_EQ(e.bus_number, d.bus_number);
  EXPECT_EQ(e.voltage, d.voltage);
  EXPECT_EQ(e.y.row_start, d.y.row_start);
  EXPECT_EQ(e.y.column, d.y.column);
  EXPECT_EQ(e.y.value, d.y.value);
  ASSERT_EQ(e.branches.size(), d.branches.size());
  for (std::size_t k = 0; k < d.branches.size(); ++k) {
    EXPECT_EQ(e.branches[k].case_row, d.branches[k].case_row);
    EXPECT_EQ(e.branches[k].yft, d.branches[k].yft);
    EXPECT_EQ(e.branches[k].ytt, d.branches[k].ytt);
  }
  ASSERT_EQ(e.machines.size(), d.machines.size());
  for (std::size_t m = 0; m < d.machines.size(); ++m) {
    EXPECT_EQ(e.machines[m].e, d.machines[m].e);
    EXPECT_EQ(e.machines[m].delta0, d.machines[m].delta0);
    EXPECT_EQ(e.machines[m].pm, d.machines[m].pm);
    EXPECT_EQ(e.machines[m].h, d.machines[m].h);
  }
  std::filesystem::remove(path);
}

// A valid two-bus file; tests break one line at a time.
const char* kFile =
    "lsdae-powergrid-data 1\n"
    "name two\n"
    "base_mva 100\n"
    "frequency 50\n"
    "power_flow 3 1e-14\n"
    "buses 2\n"
    "1 1 0\n"
    "2 0.98 -0.05\n"
    "admittance 4\n"
    "0 0 1 -10\n"
    "0 1 -1 10\n"
    "1 0 -1 10\n"
    "1 1 1.5 -10\n"
    "branches 1\n"
    "1 0 1 1 -10 -1 10 -1 10 1 -10\n"
    "machines 1\n"
    "1 0 100 5 10 0.3 1.1 0.2 0.5 0.5 0.1\n"
    "end\n";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

std::string error_of(const std::string& text) {
  // A folder of this process and test: ctest runs the tests of this file (and
  // other builds' copies of them) at the same time, and one shared /tmp/bad.grid
  // let one test read what another had just written.
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) /
                                    ("grid_data_test_" + std::to_string(::getpid()) + "_" + test->name());
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "bad.grid").string();
  {
    std::ofstream out(path);
    out << text;
  }
  try {
    read_grid_data(path);
  } catch (const std::runtime_error& e) {
    std::string message = e.what();
    std::filesystem::remove_all(dir);
    return message.substr(message.find("bad.grid"));
  }
  std::filesystem::remove_all(dir);
  return "(no error)";
}

TEST(GridData, ReadsAValidFile) {
  EXPECT_EQ(error_of(kFile), "(no error)");
}

TEST(GridData, MalformedFilesNameLineAndFix) {
  struct Bad {
    std::string from, to, message;
  };
  const Bad cases[] = {
      {"lsdae-powergrid-data 1", "lsdae-powergrid-data 2",
       "bad.grid:1: first line is \"lsdae-powergrid-data 2\", expected \"lsdae-powergrid-data 1\" → regenerate the file "
       "with this version of lsdae_grid_data"},
      {"frequency 50", "frequency fifty",
       "bad.grid:4: frequency is \"fifty\", not a finite number → regenerate the file"},
      {"2 0.98 -0.05", "2 0.98", "bad.grid:8: bus line has 2 fields, expected 3 → regenerate the file"},
      {"0 1 -1 10", "0 2 -1 10", "bad.grid:11: column is 2, outside 0..1 → regenerate the file"},
      {"1 0 -1 10", "1 1 -1 10", "bad.grid: row 1: columns are not strictly increasing → regenerate the file"},
      {"branches 1", "lines 1", "bad.grid:14: expected \"branches <value>\", got \"lines 1\" → regenerate the file"},
      {"1 1 1.5 -10", "0 1 1.5 -10",
       "bad.grid:13: admittance rows must ascend, row 0 follows 1 → regenerate the file"},
      {"0.3 1.1", "0 1.1",
       "bad.grid:17: machine gen[1] needs H > 0, x'd > 0, D >= 0 and E' > 0, got H = 5.000000, x'd = 0.000000, D = "
       "10.000000, E' = 1.100000 → regenerate the file"},
      {"end\n", "", "bad.grid:17: the file ends where end was expected → regenerate it with lsdae_grid_data"},
  };
  for (const Bad& bad : cases) EXPECT_EQ(error_of(replaced(kFile, bad.from, bad.to)), bad.message) << bad.to;
}

TEST(GridData, MissingDiagonalIsRejected) {
  const std::string text = replaced(replaced(kFile, "admittance 4", "admittance 3"), "0 0 1 -10\n", "");
  EXPECT_EQ(error_of(text), "bad.grid: row 0 has no diagonal entry → regenerate the file");
}

TEST(GridData, MissingFileSaysHowToShipIt) {
  try {
    read_grid_data("/nonexistent/x.grid");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(),
                 "/nonexistent/x.grid: cannot read the grid data file → build the FMU with lsdae_add_fmu(... RESOURCES "
                 "<case>.grid) so it lands in resources/");
  }
}

}  // namespace
}  // namespace lsdae::powergrid
