// tests/runtime/cli/simulate_cli_test.cpp -- `lsdae simulate` as a user runs
// it: results and statistics files, a failure mid-run and Ctrl-C keep what
// was computed, bad options are refused with exit code 2.
#include <gtest/gtest.h>

#include <optional>

#include <cmath>
#include <cstdio>

#include <chrono>
#include <csignal>
#include <fstream>
#include <sstream>
#include <thread>

#include "cli_fixture.h"
#include "mini_json.h"

namespace lsdae::test {
namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

class SimulateTest : public CliTest {};

TEST_F(SimulateTest, WritesResultsAndStatistics) {
  auto csv = work_ / "hello.csv", stats = work_ / "hello.json";
  auto result = lsdae({"simulate", catalog_entry("HelloWorld_semi_explicit_shapeA").fmu.string(), "-o", csv.string(),
                       "--stats", stats.string()});
  ASSERT_TRUE(ExitedWith(result, 0));
  EXPECT_TRUE(Mentions(result, "re:simulated HelloWorld_semi_explicit_shapeA.fmu from 0 to 1: [0-9]+ steps"));
  auto rows = lines(read_text(csv));
  ASSERT_EQ(rows.size(), 102u) << "header and 101 rows (0, 0.01, ..., 1)";
  EXPECT_EQ(rows[0], "time,x") << "default: outputs and states";
  EXPECT_EQ(rows[101].rfind("1,4.0552", 0), 0u) << rows[101];
  Json j = JsonReader::parse(read_text(stats));
  EXPECT_TRUE(j["completed"].boolean);
  EXPECT_EQ(j["rows_written"].number, 101);
  EXPECT_EQ(j["model"]["unknowns"].number, 3);
  EXPECT_EQ(j["jacobian"]["colors"].number, 1) << "y and z eliminated (--eliminate auto): IDA integrates x alone";
  EXPECT_EQ(j["model"]["eliminated"].number, 2);
  EXPECT_GT(j["counters"]["steps"].number, 10);
  EXPECT_TRUE(leftovers().empty());
}

// A clocked input from --input (FMI 3.0 2.2.6.2: set only while its clock is
// active): SampleHold_input samples u at the ticks of its fixed clock
// (0.05 + 0.2 k), so held takes the table's value at each tick (0, 1, 2, 3,
// 3) and keeps it between ticks; u's own changes (0.1, 0.3, 0.5, 0.9) are no
// events. Before, lsdae set u in Event Mode before the clock ticked and the FMU
// refused it (exit 6).
TEST_F(SimulateTest, AClockedInputFromATableIsSetAtItsClocksTicksOnly) {
  const auto table = work_ / "u.csv", csv = work_ / "held.csv", stats = work_ / "held.json";
  {
    std::ofstream out(table);
    out << "time,u\n0,0\n0.1,1\n0.3,2\n0.5,3\n0.9,4\n";
  }
  const std::string fmu = std::string(LSDAE_FMU_DIR) + "/SampleHold_input.fmu";
  auto result = lsdae({"simulate", fmu, "--input", table.string(), "--stop", "1", "--output-interval", "0.1",
                       "--output-vars", "held", "-o", csv.string(), "--stats", stats.string(), "--no-progress"});
  ASSERT_TRUE(ExitedWith(result, 0));
  auto rows = lines(read_text(csv));
  ASSERT_EQ(rows[0], "time,held");
  auto held_at = [&](double t) {  // the last row at t
    std::optional<double> held;
    for (std::size_t i = 1; i < rows.size(); ++i) {
      const auto comma = rows[i].find(',');
      if (std::fabs(std::stod(rows[i].substr(0, comma)) - t) <= 1e-9) held = std::stod(rows[i].substr(comma + 1));
    }
    return held;
  };
  const std::vector<std::pair<double, double>> expected{{0.0, 0}, {0.1, 0}, {0.2, 0}, {0.3, 1}, {0.4, 1}, {0.5, 2},
                                                        {0.6, 2}, {0.7, 3}, {0.8, 3}, {0.9, 3}, {1.0, 3}};
  for (const auto& [t, held] : expected) EXPECT_EQ(held_at(t), std::optional<double>(held)) << "held at t = " << t;
  EXPECT_EQ(held_at(0.25), std::optional<double>(1.0)) << "after the tick at 0.25";
  Json j = JsonReader::parse(read_text(stats));
  EXPECT_EQ(j["counters"]["time_events"].number, 5) << "the ticks 0.05, 0.25, 0.45, 0.65, 0.85 only";
  EXPECT_TRUE(leftovers().empty());
}

// Issue 15: Index2Example without <Formulation> grouping (cases 1 and 2)
// carries only r3 = x1 − x2; lsdae synthesizes d/dt(r3), says so, and the
// run matches the exact solution x1 = x2 = 1 − t/3, y = 1/3.
TEST_F(SimulateTest, AMissingConstraintDerivativeIsSynthesized) {
  for (const char* name : {"Index2Example_case1_shapeA", "Index2Example_case2_shapeA"}) {
    auto csv = work_ / (std::string(name) + ".csv");
    auto result = lsdae({"-v", "simulate", catalog_entry(name).fmu.string(), "-o", csv.string(), "--all"});
    ASSERT_TRUE(ExitedWith(result, 0)) << name;
    EXPECT_TRUE(Mentions(result, "\"d/dt(r3)\" is not provided by the FMU: lsdae synthesizes it")) << name;
    EXPECT_TRUE(Mentions(result, "finite differences")) << name << ": synthesized rows have no directional derivatives";
    auto rows = lines(read_text(csv));
    ASSERT_EQ(rows.size(), 102u) << name;
    EXPECT_EQ(rows[101].rfind("1,0.66666666", 0), 0u) << name << ": " << rows[101];
    auto info = lsdae({"info", "--structure", catalog_entry(name).fmu.string()});
    ASSERT_TRUE(ExitedWith(info, 0)) << name;
    // The synthesized row is lsdae's own, listed apart from the FMU's formulations.
    EXPECT_TRUE(Mentions(info, "differentiated residuals (FMU formulations):\n  \"r3\" once: \"r3\" -> (lsdae's own)\n"
                               "lsdae's own formulations (synthesized by central differences of the FMU's residual; "
                               "not FMU variables):\n  \"d/dt(r3)\" of \"r3\"\n")) << name;
    EXPECT_FALSE(Mentions(info, "-> \"d/dt(r3)\"")) << name;
    auto json = lsdae({"info", "--structure", "--json", catalog_entry(name).fmu.string()});
    ASSERT_TRUE(ExitedWith(json, 0)) << name;
    EXPECT_TRUE(Mentions(json, "re:\"formulations\": \\[\\s*\"r3\"\\s*\\],\\s*\"synthesized\": \\[\\s*\"d/dt\\(r3\\)\"\\s*\\]")) << name;
    EXPECT_TRUE(Mentions(info, "lsdae synthesizes it (d/dt r3 = ∂r3/∂x·ẋ + ∂r3/∂t by central differences")) << name;
    auto directional = lsdae({"simulate", catalog_entry(name).fmu.string(), "-o", csv.string(), "--jacobian",
                              "directional"});
    EXPECT_TRUE(ExitedWith(directional, 2)) << name;
    EXPECT_TRUE(Mentions(directional, "those rows have no directional derivatives → use --jacobian fd or auto")) << name;
  }
}

// Issue 15: the shape-B pendulum carries only g_pos (index 3). lsdae
// synthesizes both derivatives from the kinematic block der(r) − u = 0,
// says how it computes each, lists both as its own in `info --structure`
// (text and JSON), and warns when the tolerances ask for more than the
// differences resolve. Without a kinematic block: exit code 8.
TEST_F(SimulateTest, AnIndex3ConstraintAloneGetsBothDerivativesSynthesized) {
  const std::string fmu = catalog_entry("CartesianPendulum_shapeB_position").fmu.string();
  auto csv = work_ / "pendulum.csv";
  auto result = lsdae({"-v", "simulate", fmu, "-o", csv.string()});
  ASSERT_TRUE(ExitedWith(result, 0));
  EXPECT_TRUE(Mentions(result, "\"d/dt(g_pos)\" is not provided by the FMU: lsdae synthesizes it as a function of "
                               "the states"));
  EXPECT_TRUE(Mentions(result, "\"d2/dt2(g_pos)\" is not provided by the FMU: lsdae synthesizes it"));
  EXPECT_TRUE(Mentions(result, "re:\\(\\+[0-9]+ evaluations for the synthesized derivatives\\)"));
  EXPECT_FALSE(Mentions(result, "ask for more than")) << "no accuracy warning at the DefaultExperiment's 1e-8";
  EXPECT_EQ(lines(read_text(csv)).size(), 1002u);

  auto info = lsdae({"info", "--structure", fmu});
  ASSERT_TRUE(ExitedWith(info, 0));
  EXPECT_TRUE(Mentions(info, "differentiated residuals (FMU formulations):\n  \"g_pos\" twice: \"g_pos\" -> (lsdae's own)\n"
                             "lsdae's own formulations (synthesized by central differences of the FMU's residual; "
                             "not FMU variables):\n  \"d/dt(g_pos)\" of \"g_pos\"\n"
                             "  \"d2/dt2(g_pos)\" of \"d/dt(g_pos)\"\n"));
  EXPECT_TRUE(Mentions(info, "φ(t, x) from \"res[3]\", \"res[1]\", solved by Newton"));
  EXPECT_TRUE(Mentions(info, "a 7-point second difference of g_pos along t + τ, x + τ·φ + τ²/2·φ̇"));
  auto json = lsdae({"info", "--structure", "--json", fmu});
  ASSERT_TRUE(ExitedWith(json, 0));
  EXPECT_TRUE(Mentions(json, "re:\"formulations\": \\[\\s*\"g_pos\"\\s*\\],\\s*\"synthesized\": "
                             "\\[\\s*\"d/dt\\(g_pos\\)\",\\s*\"d2/dt2\\(g_pos\\)\"\\s*\\]"));
  EXPECT_TRUE(Mentions(json, "solved by Newton")) << "the notes say how each row is computed";

  auto tight = lsdae({"simulate", fmu, "-o", csv.string(), "--rtol", "1e-11", "--stop", "0.1"});
  EXPECT_TRUE(Mentions(tight, "the tolerances (rtol 1e-11, atol 1e-11) ask for more than lsdae's synthesized "
                              "d2/dt2(g_pos) resolves"));
  EXPECT_TRUE(Mentions(tight, "→ use --rtol and --atol of at least 1e-10"));

  auto aliases = lsdae({"simulate", catalog_entry("CartesianPendulum_shapeB_position_aliases").fmu.string(), "-o",
                        csv.string()});
  EXPECT_TRUE(ExitedWith(aliases, 8));
  EXPECT_TRUE(Mentions(aliases, "residual \"g_pos\" must be differentiated to order 2"));
  EXPECT_TRUE(Mentions(aliases, "lsdae synthesizes one level only here"));
}

// `info --structure` runs the FMU's binary for the numeric check of the dummy
// derivatives in a watched child (as validate and simulate do) and prints the
// child's report on stdout: the same text as in lsdae's own process.
TEST_F(SimulateTest, InfoStructureRunsTheBinaryInAWatchedChild) {
  const std::string fmu = catalog_entry("CartesianPendulum_shapeA").fmu.string();
  auto isolated = lsdae({"info", "--structure", fmu});
  ASSERT_TRUE(ExitedWith(isolated, 0)) << isolated.describe();
  EXPECT_TRUE(Mentions(isolated, "rcond 0 (singular), replaced")) << "the numeric check ran";
  auto in_process = lsdae({"info", "--structure", "--no-isolate", fmu});
  ASSERT_TRUE(ExitedWith(in_process, 0));
  EXPECT_EQ(isolated.out, in_process.out);
  auto json = lsdae({"info", "--structure", "--json", fmu});
  ASSERT_TRUE(ExitedWith(json, 0));
  EXPECT_EQ(json.out.rfind("{", 0), 0u) << "the child's JSON reaches stdout intact";
  auto limited = lsdae({"info", "--structure", "--call-timeout", "0x10", fmu});
  EXPECT_TRUE(ExitedWith(limited, 2)) << "the isolation options are checked like simulate's";
}

TEST_F(SimulateTest, ASolverFailureKeepsTheRowsAndSaysWhereItStopped) {
  auto csv = work_ / "tl.csv", stats = work_ / "tl.json";
  auto result = lsdae({"simulate", catalog_entry("TransmissionLine_dae_shapeA_10").fmu.string(), "-o", csv.string(),
                       "--stats", stats.string(), "--max-steps", "40", "--output-interval", "2e-7"});
  ASSERT_TRUE(ExitedWith(result, 7));
  EXPECT_TRUE(Mentions(result, "lsdae: error: ida: at t = "));
  EXPECT_TRUE(Mentions(result, "IDA_TOO_MUCH_WORK"));
  EXPECT_TRUE(Mentions(result, "re:\\(stopped at t = [0-9.e-]+; [0-9]+ rows? kept in "));
  auto rows = lines(read_text(csv));
  EXPECT_GE(rows.size(), 2u) << "at least the header and the initial row";
  Json j = JsonReader::parse(read_text(stats));
  EXPECT_FALSE(j["completed"].boolean);
  EXPECT_NE(j["error"].string.find("IDA_TOO_MUCH_WORK"), std::string::npos);
  EXPECT_EQ(j["rows_written"].number, static_cast<double>(rows.size() - 1));
  EXPECT_TRUE(leftovers().empty());
}

// Steps held at --max-step that cannot reach the next output row within
// --max-steps: the message used to suggest only --max-steps or a shorter
// interval and a collapsed step ("the model may be stiff or singular"), when
// the user's own --max-step was the cause.
TEST_F(SimulateTest, TooManyStepsAtTheMaxStepNamesTheMaxStep) {
  auto result = lsdae({"simulate", catalog_entry("HelloWorld_ode").fmu.string(), "-o", (work_ / "h.csv").string(),
                       "--stop", "1", "--output-interval", "0.5", "--max-step", "1e-5", "--max-steps", "1000"});
  ASSERT_TRUE(ExitedWith(result, 7));
  EXPECT_TRUE(Mentions(result, "IDA_TOO_MUCH_WORK"));
  EXPECT_TRUE(Mentions(result, "→ the steps are held at --max-step 1e-05, so reaching t = 0.5 from t = 0 takes 50000 "
                               "steps: raise --max-step, or --max-steps to at least 50000"));
  EXPECT_FALSE(Mentions(result, "stiff or singular"));
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(SimulateTest, CtrlCStopsCleanlyAndKeepsTheResults) {
  auto csv = work_ / "long.csv", stats = work_ / "long.json";
  ChildProcess child({LSDAE_BINARY, "simulate", catalog_entry("TransmissionLine_dae_shapeA_1280").fmu.string(), "-o",
                      csv.string(), "--stats", stats.string(), "--output-vars", "v_load", "--no-progress"},
                     {{"TMPDIR", tmp_.string()}}, work_);
  // Wait until it is integrating (a few rows written), then interrupt.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (lines(read_text(csv)).size() < 5 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_GE(lines(read_text(csv)).size(), 5u) << "the run never started writing rows";
  child.send(SIGINT);
  ProcessResult result = child.wait(std::chrono::seconds(60));
  ASSERT_TRUE(ExitedWith(result, 130));
  EXPECT_TRUE(Mentions(result, "re:interrupted at t = [0-9.e-]+; [0-9]+ rows? kept in "));
  auto rows = lines(read_text(csv));
  EXPECT_GE(rows.size(), 5u);
  EXPECT_LT(rows.size(), 2002u) << "it stopped before the end";
  Json j = JsonReader::parse(read_text(stats));
  EXPECT_TRUE(j["interrupted"].boolean);
  EXPECT_FALSE(j["completed"].boolean);
  EXPECT_EQ(j["rows_written"].number, static_cast<double>(rows.size() - 1));
  EXPECT_TRUE(leftovers().empty()) << "the extraction folder must be gone";
}

TEST_F(SimulateTest, EventsGetARowBeforeAndAfter) {
  auto csv = work_ / "te.csv";
  auto result = lsdae({"simulate", catalog_entry("TimeEvent_ode").fmu.string(), "-o", csv.string()});
  ASSERT_TRUE(ExitedWith(result, 0));
  int at_switch = 0;
  for (const auto& row : lines(read_text(csv)))
    if (row.rfind("1,", 0) == 0) ++at_switch;
  EXPECT_EQ(at_switch, 2) << "t = 1 appears twice: just before and just after the event";
  EXPECT_TRUE(Mentions(result, "; 1 event; "));
}

TEST_F(SimulateTest, JacobianCheckGivesAVerdict) {
  auto result = lsdae({"simulate", catalog_entry("HelloWorld_ode").fmu.string(), "-o", (work_ / "h.csv").string(),
                       "--jacobian", "check"});
  ASSERT_TRUE(ExitedWith(result, 0));
  EXPECT_TRUE(Mentions(result, "re:jacobian check at t = 0: finite differences and directional derivatives agree to "
                               "[0-9.e-]+ \\(relative; threshold 1e-05\\): OK"));
}

// --eliminate auto (structure/linear_elimination.h): info --structure says
// what it would eliminate and why the rest stays; the run says how many it
// eliminated, its statistics count them, and the eliminated variables are
// still written (recovered at every row).
TEST_F(SimulateTest, EliminationIsReportedAndTheEliminatedVariablesAreWritten) {
  const std::string fmu = catalog_entry("UnusualOscillator_fully_implicit_dae_only").fmu.string();
  auto info = lsdae({"info", "--structure", fmu});
  ASSERT_TRUE(ExitedWith(info, 0));
  EXPECT_TRUE(Mentions(info, "Linear elimination (--eliminate auto): 2 of 2 algebraic unknowns in 2 blocks; IDA "
                             "integrates 3 unknowns, Jacobian 10 → 5 nonzeros"));
  EXPECT_TRUE(Mentions(info, "eliminated: \"f\", \"s\""));
  auto json = lsdae({"info", "--structure", "--json", fmu});
  EXPECT_TRUE(Mentions(json, "re:\"elimination\": \\{\\s*\"algebraic\": 2,\\s*\"eliminated\": 2"));
  // A higher-index model: not planned, and said why.
  auto pendulum = lsdae({"info", "--structure", "--no-load", catalog_entry("Pendulum_dae_shapeA").fmu.string()});
  EXPECT_TRUE(Mentions(pendulum, "Linear elimination (--eliminate auto): not planned: the index-1 system uses dummy "
                                 "derivatives"));

  std::string columns[2];
  for (const bool eliminate : {false, true}) {
    auto csv = work_ / (eliminate ? "on.csv" : "off.csv"), stats = work_ / (eliminate ? "on.json" : "off.json");
    auto run = lsdae({"simulate", fmu, "-o", csv.string(), "--stats", stats.string(), "--output-vars", "f,s,sum,x",
                      "--eliminate", eliminate ? "auto" : "off"});
    ASSERT_TRUE(ExitedWith(run, 0));
    EXPECT_EQ(Mentions(run, "2 linear unknowns eliminated"), eliminate);
    Json j = JsonReader::parse(read_text(stats));
    EXPECT_EQ(j["model"]["eliminated"].number, eliminate ? 2 : 0);
    EXPECT_EQ(j["model"]["unknowns"].number, 5) << "the model's unknowns, eliminated or not";
    EXPECT_EQ(j["jacobian"]["nonzeros"].number, eliminate ? 5 : 10) << "the Jacobian IDA factors";
    auto rows = lines(read_text(csv));
    ASSERT_GT(rows.size(), 50u);
    EXPECT_EQ(rows[0], "time,f,s,sum,x");
    columns[eliminate ? 1 : 0] = rows[50];
  }
  // Row 50 (t = 2.45): f = −4 cos(2t), s = e^(−t/2) + cos(2t), to the tolerance.
  for (const std::string& row : columns) {
    double t = 0, f = 0, s = 0;
    ASSERT_EQ(std::sscanf(row.c_str(), "%lf,%lf,%lf", &t, &f, &s), 3) << row;
    EXPECT_NEAR(f, -4 * std::cos(2 * t), 1e-5) << row;
    EXPECT_NEAR(s, std::exp(-0.5 * t) + std::cos(2 * t), 1e-5) << row;
  }
  EXPECT_TRUE(ExitedWith(lsdae({"simulate", fmu, "-o", (work_ / "x.csv").string(), "--eliminate", "yes"}), 2));
  EXPECT_TRUE(leftovers().empty());
}

// An eliminated block that is numerically singular at the start (LoopBoth's
// y1 = a y2 + x1, y2 = b y1 - x2 with a b = 1): the elimination is given up
// and the run is the one --eliminate off makes -- here IDACalcIC's own
// failure on the singular system, exit 7 -- never "→ run with --eliminate off".
TEST_F(SimulateTest, ASingularEliminatedBlockFallsBackToTheFullSystem) {
  const std::string fmu = catalog_entry("LoopBoth").fmu.string();
  auto off = lsdae({"simulate", fmu, "-o", (work_ / "off.csv").string(), "--set", "a=1", "--set", "b=1",
                    "--eliminate", "off"});
  auto autom = lsdae({"simulate", fmu, "-o", (work_ / "auto.csv").string(), "--set", "a=1", "--set", "b=1",
                      "--eliminate", "auto", "--verbose"});
  ASSERT_TRUE(ExitedWith(off, 7));
  ASSERT_TRUE(ExitedWith(autom, 7));
  EXPECT_TRUE(Mentions(autom, "the linear block of 2 eliminated unknown(s) (\"y1\", \"y2\") is singular (rcond 0); the "
                              "elimination is given up for this run and IDA integrates all 4 unknowns"));
  EXPECT_TRUE(Mentions(autom, "consistent initial values at t = 0 not found"));
  EXPECT_FALSE(Mentions(autom, "--eliminate off"));
}

TEST_F(SimulateTest, BadOptionsAreUsageErrors) {
  const std::string fmu = catalog_entry("HelloWorld_ode").fmu.string();
  const std::string out = (work_ / "x.csv").string();
  EXPECT_TRUE(ExitedWith(lsdae({"simulate", fmu, "-o", out, "--rtol", "-1"}), 2));
  EXPECT_TRUE(ExitedWith(lsdae({"simulate", fmu, "-o", out, "--jacobian", "magic"}), 2));
  auto set = lsdae({"simulate", fmu, "-o", out, "--set", "x"});
  EXPECT_TRUE(ExitedWith(set, 2));
  EXPECT_TRUE(Mentions(set, "--set \"x\": expected name=value"));
  auto unknown = lsdae({"simulate", fmu, "-o", out, "--set", "nope=1"});
  EXPECT_TRUE(ExitedWith(unknown, 2));
  EXPECT_TRUE(Mentions(unknown, "no variable is named \"nope\""));
  auto vars = lsdae({"simulate", fmu, "-o", out, "--output-vars", "q*"});
  EXPECT_TRUE(ExitedWith(vars, 2));
  EXPECT_TRUE(Mentions(vars, "\"q*\" matches no variable"));
  auto stop = lsdae({"simulate", fmu, "-o", out, "--stop", "-5"});
  EXPECT_TRUE(ExitedWith(stop, 2));
  EXPECT_TRUE(Mentions(stop, "is not after start time"));
  EXPECT_TRUE(leftovers().empty());
}

}  // namespace
}  // namespace lsdae::test
