// tests/models/powergrid/klu_solver_test.cpp -- models/gridcore's KluSolver:
// factor_fresh() on a kept analysis gives bitwise the solution of a solver
// analysed anew, unlike factor(), which refactors with the old pivots;
// analyzed_for() names the pattern analysed (the PSS/E FMU's event solve
// asks it of the union of its patterns, models/psse/system/event_solver.h).
#include <gtest/gtest.h>

#include <vector>

#include "gridcore/klu_solver.h"

namespace lsdae::grid {
namespace {

// A 3 x 3 CSC matrix whose pivots change between the two value sets.
const std::vector<int> kStart{0, 2, 4, 6}, kRow{0, 1, 0, 2, 1, 2};
const std::vector<double> kFirst{4.0, 1.0, 1.0, 3.0, 2.0, 5.0};
const std::vector<double> kSecond{1e-3, 7.0, 2.0, 3.0, 6.0, 1e-4};

std::vector<double> solve_fresh(const std::vector<double>& values) {
  KluSolver lu;
  lu.analyze(3, kStart, kRow);
  lu.factor(values);
  std::vector<double> x{1.0, 2.0, 3.0};
  lu.solve(x);
  return x;
}

TEST(KluSolver, FactorFreshOnAKeptAnalysisIsAFreshSolve) {
  KluSolver lu;
  EXPECT_FALSE(lu.analyzed_for(3, kStart, kRow));
  lu.analyze(3, kStart, kRow);
  EXPECT_TRUE(lu.analyzed_for(3, kStart, kRow));
  EXPECT_FALSE(lu.analyzed_for(3, kStart, {0, 1, 0, 2, 1, 1}));
  EXPECT_FALSE(lu.analyzed_for(2, kStart, kRow));
  for (const auto* values : {&kFirst, &kSecond, &kFirst}) {
    lu.factor_fresh(*values);
    std::vector<double> x{1.0, 2.0, 3.0};
    lu.solve(x);
    EXPECT_EQ(x, solve_fresh(*values));  // bitwise
  }
  EXPECT_EQ(lu.factorizations(), 3);
  EXPECT_EQ(lu.refactorizations(), 0);
}

}  // namespace
}  // namespace lsdae::grid
