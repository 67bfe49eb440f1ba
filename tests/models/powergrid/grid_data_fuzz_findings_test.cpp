// tests/models/powergrid/grid_data_fuzz_findings_test.cpp -- what
// lsdae_fuzz_grids (models/fuzz, mode 5: a MATPOWER case through
// lsdae_grid_data's power flow and grid builder) found: cases the reader
// accepts whose grid data file the FMU's reader then refused. Each test fails
// on the sources before its fix (docs/fuzzing.md, "Grid files", findings).
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "powergrid/grid_builder.h"
#include "three_bus_case.h"

namespace lsdae::powergrid {
namespace {

Case three_buses(bool two_slacks) { return test::three_bus_case({.two_slacks = two_slacks}); }

GridData solve_and_build(const Case& c) {
  return solve_and_build_grid_data(c, 60.0, [](const std::string&) {});
}

std::string refusal(const Case& c) {
  try {
    (void)solve_and_build(c);
  } catch (const CaseError& e) {
    return e.what();
  }
  return "(no refusal)";
}

// What lsdae_grid_data writes, read back as the FMU reads it.
GridData round_trip(const GridData& d) {
  std::ostringstream file;
  write_grid_data(d, file);
  return parse_grid_data(file.str(), "three.grid");
}

TEST(GridDataFuzzFindings, TheCasesHereAreSolvedAndReadBack) {
  for (bool two_slacks : {false, true}) {
    const GridData d = round_trip(solve_and_build(three_buses(two_slacks)));
    EXPECT_EQ(d.machines.size(), 2u);
    EXPECT_EQ(d.name, "three");
  }
}

// MBASE = 1e308 is finite (the reader accepts it), but H on the system base,
// 5 s x 1e308 MVA / 100 MVA, is not: the grid data file said "inf", which
// read_grid_data refuses ("machine value is "inf", not a finite number").
TEST(GridDataFuzzFindings, AMachineRatingBeyondTheDoublesIsRefusedAtItsGeneratorLine) {
  Case c = three_buses(false);
  c.generators[1].mbase = 1e308;
  const std::string message = refusal(c);
  EXPECT_EQ(message.rfind("three.m:22: generator at bus 2: its classical machine is not a finite machine at rest → "
                          "rating 1e+308 MVA, H inf s",
                          0),
            0u)
      << message;
  EXPECT_NE(message.find("→ give MBASE, PMAX, PG and QG"), std::string::npos) << message;
  c.generators[1].mbase = 1e300;  // large, but its H is a number: accepted and read back
  EXPECT_NO_THROW(round_trip(solve_and_build(c)));
}

// A load at the slack bus whose admittance P_d/(S_b |V|^2) overflows: the
// slack's balance is no power-flow equation, and |V| = 1e-6 is still a voltage
// a machine starts from; the admittance matrix in the file said "inf".
TEST(GridDataFuzzFindings, AnInfiniteLoadAdmittanceAtTheSlackIsRefusedAtItsBusLine) {
  Case c = three_buses(false);
  c.generators[1].in_service = false;
  c.generators[0].vg = 1e-6;
  c.buses[2].pd = c.buses[2].qd = 0;
  c.buses[0].pd = 1e300;
  ASSERT_TRUE(solve_power_flow(c).converged);
  const std::string message = refusal(c);
  EXPECT_EQ(message.rfind("three.m:11: bus 1: its admittance-matrix entry (1, 1) is not finite → inf", 0), 0u)
      << message;
  c.buses[0].pd = 1e290;  // large, but finite as an admittance: accepted and read back
  EXPECT_NO_THROW(round_trip(solve_and_build(c)));
}

// The name line is "name <one word>": a case named after a file with a blank
// ("my case.m") or with no name wrote a line its reader refused.
TEST(GridDataFuzzFindings, ACaseNameWithBlanksOrNoneReadsBack) {
  GridData d = solve_and_build(three_buses(false));
  d.name = "my case\tB";
  EXPECT_EQ(round_trip(d).name, "my_case_B");
  d.name = "";
  EXPECT_EQ(round_trip(d).name, "unnamed");
}

}  // namespace
}  // namespace lsdae::powergrid
