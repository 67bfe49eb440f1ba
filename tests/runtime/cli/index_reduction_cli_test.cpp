// tests/runtime/cli/index_reduction_cli_test.cpp -- the failure modes of index
// reduction as a user meets them on the command line (issue 15): a singular
// selection at the start, a re-selection that fails in the middle of a run,
// a projection that fails. Each must stop with a message in the house shape
// and its documented exit code (8 structure, 7 solver), keep the rows written
// so far, and leave no temporary folder -- never exit 0 with a wrong answer.
// The FMUs: models/cartesian_pendulum (start values set with --set) and
// models/collapsing_pendulum (t_collapse: at that time event the FMU moves
// the bob onto the pivot, where every constraint gradient vanishes).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "cli_fixture.h"
#include "mini_json.h"

namespace lsdae::test {
namespace {

std::vector<std::string> csv_rows(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

class IndexReductionCliTest : public CliTest {
 protected:
  // `lsdae simulate <fmu> -o out.csv --stats out.json <extra...>`
  ProcessResult simulate(const std::string& fmu, std::vector<std::string> extra) {
    std::vector<std::string> args{"simulate", catalog_entry(fmu).fmu.string(), "-o", csv().string(),
                                  "--stats",  stats().string(),              "--no-progress"};
    args.insert(args.end(), extra.begin(), extra.end());
    return lsdae(args);
  }
  std::filesystem::path csv() const { return work_ / "out.csv"; }
  std::filesystem::path stats() const { return work_ / "out.json"; }
  // The rows kept (header excluded) and the last row's time.
  std::size_t rows_kept() const {
    auto rows = csv_rows(csv());
    return rows.empty() ? 0 : rows.size() - 1;
  }
  double last_time() const {
    auto rows = csv_rows(csv());
    return rows.size() < 2 ? -1.0 : std::stod(rows.back().substr(0, rows.back().find(',')));
  }
};

// r = 0: every constraint gradient vanishes, no choice of dummy derivatives is
// nonsingular at the start. Error(structure): exit 8, before any row.
TEST_F(IndexReductionCliTest, ASingularSelectionAtTheStartExitsEight) {
  auto result = simulate("CartesianPendulum_shapeA", {"--set", "r[1]=0"});
  ASSERT_TRUE(ExitedWith(result, 8));
  EXPECT_TRUE(Mentions(result, "no choice of dummy derivatives is nonsingular at the start point (finite differences)"));
  EXPECT_TRUE(Mentions(result, "candidate states r[2], u[1], r[1], u[2]"));
  EXPECT_TRUE(Mentions(result, "→ check the start values"));
  EXPECT_EQ(rows_kept(), 0u);
  EXPECT_TRUE(leftovers().empty());
}

// The event at t = 0.5 moves the bob onto the pivot: the re-selection at the
// post-event point finds no nonsingular choice. Error(solver): exit 7, the
// 51 rows of 0 … 0.5 kept, the message names the time and the constraints.
TEST_F(IndexReductionCliTest, AReselectionThatFailsMidRunExitsSevenAndKeepsTheRows) {
  auto result = simulate("CollapsingPendulum_shapeA", {"--stop", "2", "--set", "t_collapse=0.5"});
  ASSERT_TRUE(ExitedWith(result, 7));
  EXPECT_TRUE(Mentions(result, "lsdae: error: CollapsingPendulum_shapeA.fmu: t = 0.5: re-selecting the dummy "
                               "derivatives failed (finite differences)"));
  EXPECT_TRUE(Mentions(result, "\"g_pos\""));
  EXPECT_TRUE(Mentions(result, "→ the constraints are degenerate here"));
  EXPECT_EQ(rows_kept(), 51u);
  EXPECT_DOUBLE_EQ(last_time(), 0.5);
  Json j = JsonReader::parse(read_text(stats()));
  EXPECT_FALSE(j["completed"].boolean);
  EXPECT_EQ(j["rows_written"].number, 51);
  EXPECT_TRUE(leftovers().empty());
}

// The same event with --no-reselect: the monitor of the kept selection stops.
TEST_F(IndexReductionCliTest, AKeptSelectionThatTurnsSingularAtAnEventExitsSeven) {
  auto result = simulate("CollapsingPendulum_shapeA", {"--stop", "2", "--set", "t_collapse=0.5", "--no-reselect"});
  ASSERT_TRUE(ExitedWith(result, 7));
  EXPECT_TRUE(Mentions(result, "CollapsingPendulum_shapeA.fmu: t = 0.5: the dummy derivatives {"));
  EXPECT_TRUE(Mentions(result, "are numerically singular here"));
  EXPECT_TRUE(Mentions(result, "→ drop --no-reselect"));
  EXPECT_EQ(rows_kept(), 51u);
  EXPECT_TRUE(leftovers().empty());
}

// With the projection method the post-event point has to be projected back
// onto |r| = l, whose gradient 2r vanishes there (no impulse can help: a
// position constraint): the Gauss-Newton projection fails, Error(solver),
// exit 7, and the message says it is the event's point.
TEST_F(IndexReductionCliTest, AProjectionThatFailsAfterAnEventExitsSeven) {
  auto result =
      simulate("CollapsingPendulum_shapeA", {"--stop", "2", "--set", "t_collapse=0.5", "--constraints", "project"});
  ASSERT_TRUE(ExitedWith(result, 7));
  EXPECT_TRUE(Mentions(result, "CollapsingPendulum_shapeA.fmu: t = 0.5: the event left the constraints \"g_pos\"; no "
                               "re-initialization over an impulse applies (the impulse equations are singular"));
  EXPECT_TRUE(Mentions(result, "and projecting back failed: constraint projection: at t = 0.5: "));
  EXPECT_EQ(rows_kept(), 51u);
  EXPECT_DOUBLE_EQ(last_time(), 0.5);
  EXPECT_TRUE(leftovers().empty());
}

// With index-1 formulations only (--constraints none) the post-event point is
// IDACalcIC's to find, and it cannot (the bob on the pivot): exit 7, the rows
// kept, and the advice is the event's, not the start's ("check the start
// values" sent a user of a mid-run failure to the wrong place).
TEST_F(IndexReductionCliTest, NoConsistentPointAfterAnEventSaysItIsTheEvents) {
  auto result =
      simulate("CollapsingPendulum_shapeA", {"--stop", "2", "--set", "t_collapse=0.5", "--constraints", "none"});
  ASSERT_TRUE(ExitedWith(result, 7));
  EXPECT_TRUE(Mentions(result, "ida: consistent initial values at t = 0.5 not found ("));
  EXPECT_TRUE(Mentions(result, "→ the event at t = 0.5 left no consistent point within reach of the values before it"));
  EXPECT_FALSE(Mentions(result, "check the start values"));
  EXPECT_EQ(rows_kept(), 51u);
  EXPECT_TRUE(leftovers().empty());
}

// The start values off the constraint with a vanishing gradient: the
// projection of the start values fails before any row.
TEST_F(IndexReductionCliTest, AProjectionOfTheStartValuesThatFailsExitsSeven) {
  auto result = simulate("CartesianPendulum_shapeA", {"--set", "r[1]=0", "--constraints", "project"});
  ASSERT_TRUE(ExitedWith(result, 7));
  EXPECT_TRUE(Mentions(result, "constraint projection: at t = 0: the constraint Jacobian is singular"));
  EXPECT_EQ(rows_kept(), 0u);
  EXPECT_TRUE(leftovers().empty());
}

// Far from the constraint with a tiny gradient, the Gauss–Newton projection
// does not converge within its iterations: exit 7, not a wrong start. Issue
// 15: the message says the Jacobian is nearly singular there and names the
// constraint, instead of "too far: tighten the tolerances", which cannot help.
TEST_F(IndexReductionCliTest, AProjectionThatDoesNotConvergeExitsSeven) {
  auto result = simulate("CartesianPendulum_shapeA", {"--set", "r[1]=1e-6", "--constraints", "project"});
  ASSERT_TRUE(ExitedWith(result, 7));
  EXPECT_TRUE(Mentions(result, "at t = 0: the constraint Jacobian is nearly singular: the gradient of \"g_pos\" "
                               "nearly vanishes here (condition estimate 1, but the first Newton correction is "));
  EXPECT_TRUE(Mentions(result, "re:no convergence in 10 Newton iterations \\(max \\|C\\| = 0\\.64 at the start"));
  EXPECT_TRUE(Mentions(result, "which tighter tolerances do not cure"));
  EXPECT_FALSE(Mentions(result, "→ the point is too far from the constraints"));
  EXPECT_EQ(rows_kept(), 0u);
  EXPECT_TRUE(leftovers().empty());
}

// The healthy FMU (no collapse) runs and stays on the constraint: the
// failures above come from the fault, not from the model.
TEST_F(IndexReductionCliTest, WithoutTheFaultTheCollapsingPendulumSwings) {
  auto result = simulate("CollapsingPendulum_shapeA", {"--stop", "2"});
  ASSERT_TRUE(ExitedWith(result, 0));
  EXPECT_EQ(rows_kept(), 201u);
  EXPECT_TRUE(leftovers().empty());
}

// The clutch (models/clutch) locks at t = 1 with the speeds apart. lsdae
// integrates over the impulse: the CSV's two rows at t = 1 show the angular
// momentum L unchanged and the slip gone.
void ExpectTheLockConservesMomentum(const std::filesystem::path& path) {
  auto rows = csv_rows(path);
  ASSERT_FALSE(rows.empty());
  auto fields = [](const std::string& line) {
    std::vector<std::string> out;
    std::stringstream in(line);
    std::string f;
    while (std::getline(in, f, ',')) out.push_back(f);
    return out;
  };
  const auto header = fields(rows[0]);
  auto column = [&](const std::string& name) {
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return i;
    ADD_FAILURE() << "no column " << name << " in " << rows[0];
    return std::size_t{0};
  };
  std::vector<std::vector<std::string>> at_lock;
  for (std::size_t r = 1; r < rows.size(); ++r)
    if (fields(rows[r])[0] == "1") at_lock.push_back(fields(rows[r]));
  ASSERT_EQ(at_lock.size(), 2u) << "a row before and a row after the event";
  const double l_before = std::stod(at_lock[0][column("L")]), l_after = std::stod(at_lock[1][column("L")]);
  EXPECT_NEAR(l_after, l_before, 1e-9 * l_before);
  EXPECT_GT(std::fabs(std::stod(at_lock[0][column("slip")])), 1.0);
  EXPECT_LT(std::fabs(std::stod(at_lock[1][column("slip")])), 1e-9);
  EXPECT_NEAR(std::stod(at_lock[1][column("w[1]")]), 7.717657220287742, 1e-6);
}

TEST_F(IndexReductionCliTest, TheClutchLocksWithItsMomentumConserved) {
  auto result = simulate("Clutch_shapeA", {"--constraints", "project", "--stop", "2", "-v"});
  ASSERT_TRUE(ExitedWith(result, 0));
  EXPECT_TRUE(Mentions(result, "t = 1: the event left \"g_slip\"; re-initialized over the impulse"));
  ExpectTheLockConservesMomentum(csv());
  EXPECT_TRUE(leftovers().empty());
}

// The default method selects per mode: released, g_slip is switched off (no
// dummy); the lock switches it on -- re-initialized over the impulse, then a
// dummy derivative; the release (t ≈ 7.716) switches it off again.
TEST_F(IndexReductionCliTest, TheClutchWithDummyDerivativesSelectsPerMode) {
  auto result = simulate("Clutch_shapeA", {"-v"});
  ASSERT_TRUE(ExitedWith(result, 0));
  EXPECT_TRUE(Mentions(result, "dummy derivatives at t = 0 (finite differences, rcond 1): none; switched off in this "
                               "mode: \"g_slip\""));
  EXPECT_TRUE(Mentions(result, "t = 1: the event left \"g_slip\"; re-initialized over the impulse"));
  EXPECT_TRUE(Mentions(result, "t = 1: \"g_slip\" switched on (the FMU's mode changed): dummy derivatives switched "
                               "from {none} to"));
  EXPECT_TRUE(Mentions(result, "\"g_slip\" switched off (the FMU's mode changed): dummy derivatives switched from"));
  ExpectTheLockConservesMomentum(csv());
  EXPECT_DOUBLE_EQ(last_time(), 12.0);
  EXPECT_TRUE(leftovers().empty());
  // `info --structure` reports the selection at the start point, released.
  auto info = lsdae({"info", "--structure", catalog_entry("Clutch_shapeA").fmu.string()});
  ASSERT_TRUE(ExitedWith(info, 0));
  EXPECT_TRUE(Mentions(info, "switched off at this point (in this mode: no row, no dummy derivative): \"g_slip\""));
  EXPECT_TRUE(Mentions(info, "structural choice der(w[2]): does not apply (constraints switched off in this mode), "
                             "replaced"));
  auto json = lsdae({"info", "--structure", "--json", catalog_entry("Clutch_shapeA").fmu.string()});
  ASSERT_TRUE(ExitedWith(json, 0));
  EXPECT_TRUE(Mentions(json, "re:\"switched_off\": \\[\\s*\"g_slip\"\\s*\\]"));
}

// With g_slip's dependencies declared `dependent` the released clutch is a
// singular selection like any other: exit 8, and the message says what to do.
TEST_F(IndexReductionCliTest, AClutchThatDoesNotDeclareItsModeExitsEightAndSaysToProject) {
  auto result = simulate("Clutch_shapeA_slip_dependent", {});
  ASSERT_TRUE(ExitedWith(result, 8));
  EXPECT_TRUE(Mentions(result, "no choice of dummy derivatives is nonsingular at the start point"));
  EXPECT_TRUE(Mentions(result, "or run with --constraints project"));
  EXPECT_EQ(rows_kept(), 0u);
  EXPECT_TRUE(leftovers().empty());
}

}  // namespace
}  // namespace lsdae::test
