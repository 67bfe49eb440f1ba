// tests/models/powergrid/klu_solver_test.cpp -- models/gridcore's KluSolver:
// analyzed_for() names the pattern analysed (the PSS/E FMU's event solve
// asks it of the union of its patterns, models/psse/system/event_solver.h);
// factor()'s policy (klu_solver.h): the first factors with pivoting, later
// ones refactor with those pivots, and factor afresh when a refactored
// pivot is zero (the rcond estimate below 1e-12) -- each solve right to
// rounding.
#include <gtest/gtest.h>

#include <vector>

#include "gridcore/klu_solver.h"

namespace lsdae::grid {
namespace {

// A 3 x 3 CSC matrix: column 0 holds rows 0 and 1, column 1 rows 0 and 2,
// column 2 rows 1 and 2.
const std::vector<int> kStart{0, 2, 4, 6}, kRow{0, 1, 0, 2, 1, 2};
const std::vector<double> kFirst{4.0, 1.0, 1.0, 3.0, 2.0, 5.0};     // diagonally dominant: the diagonal pivots
const std::vector<double> kSecond{3.0, 1.0, 1.0, 4.0, 2.0, 6.0};    // the same pivots fit
const std::vector<double> kZeroPivot{0.0, 7.0, 2.0, 3.0, 6.0, 1.0};  // A(0,0) = 0: they do not (det -14)

std::vector<double> solve_with(KluSolver& lu, const std::vector<double>& values) {
  lu.factor(values);
  std::vector<double> x{1.0, 2.0, 3.0};
  lu.solve(x);
  return x;
}

// A x for the CSC matrix of `values`.
std::vector<double> times(const std::vector<double>& values, const std::vector<double>& x) {
  std::vector<double> y(3, 0.0);
  for (std::size_t c = 0; c < 3; ++c)
    for (auto p = static_cast<std::size_t>(kStart[c]); p < static_cast<std::size_t>(kStart[c + 1]); ++p)
      y[static_cast<std::size_t>(kRow[p])] += values[p] * x[c];
  return y;
}

void expect_solves(const std::vector<double>& values, const std::vector<double>& x) {
  const std::vector<double> b = times(values, x);
  const std::vector<double> rhs{1.0, 2.0, 3.0};
  for (std::size_t i = 0; i < 3; ++i) EXPECT_NEAR(b[i], rhs[i], 1e-13) << "row " << i;
}

TEST(KluSolver, AnalyzedForNamesThePatternAnalysed) {
  KluSolver lu;
  EXPECT_FALSE(lu.analyzed_for(3, kStart, kRow));
  lu.analyze(3, kStart, kRow);
  EXPECT_TRUE(lu.analyzed_for(3, kStart, kRow));
  EXPECT_FALSE(lu.analyzed_for(3, kStart, {0, 1, 0, 2, 1, 1}));
  EXPECT_FALSE(lu.analyzed_for(2, kStart, kRow));
  EXPECT_EQ(lu.analyses(), 1);
}

TEST(KluSolver, RefactorsWithTheKeptPivotsAndAfreshWhenAPivotVanishes) {
  KluSolver lu;
  lu.analyze(3, kStart, kRow);
  expect_solves(kFirst, solve_with(lu, kFirst));
  EXPECT_EQ(lu.factorizations(), 1);
  EXPECT_EQ(lu.refactorizations(), 0);
  expect_solves(kSecond, solve_with(lu, kSecond));
  EXPECT_EQ(lu.factorizations(), 1);
  EXPECT_EQ(lu.refactorizations(), 1) << "the pivots of kFirst fit kSecond";
  expect_solves(kZeroPivot, solve_with(lu, kZeroPivot));
  EXPECT_EQ(lu.factorizations(), 2) << "a zero pivot: factored afresh";
  EXPECT_EQ(lu.refactorizations(), 1);
  EXPECT_EQ(lu.analyses(), 1);
}

}  // namespace
}  // namespace lsdae::grid
