// tests/runtime/simulation/klu32_solver_test.cpp -- lsdae's KLU solver on
// KLU's 32-bit interface (runtime/simulation/ida/klu32_solver.h) against
// SUNDIALS' SUNLinSol_KLU (64-bit): the same pivots after every setup (so the
// same refactor / fresh-factorization decisions), the same factor sizes and
// bitwise the same solutions, for each ordering, on a matrix sequence that
// makes SUNDIALS' condition check factor afresh; the analysis kept at restarts
// and handed across solvers; and a whole run with the 64-bit solver (the
// fallback where n or nnz exceed int32) bitwise the default run.
#include <gtest/gtest.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "lsdae/simulation.h"
#include "simulation/ida/klu32_solver.h"
#include "simulation/ida/klu_ordering.h"
#include "sampled_run.h"

namespace lsdae {
namespace {

using simulation::KluOrdering;

constexpr std::size_t kN = 40;
constexpr auto kNs = static_cast<sunindextype>(kN);

// A sparse unsymmetric pattern: the diagonal, the subdiagonal and three
// pseudo-random entries per column (a fixed linear congruential sequence).
struct CscPattern {
  std::vector<sunindextype> cols{0}, rows;
  CscPattern() {
    std::uint32_t state = 12345;
    auto next = [&] { return state = state * 1664525u + 1013904223u; };
    for (std::size_t j = 0; j < kN; ++j) {
      std::vector<bool> in(kN, false);
      in[j] = true;
      if (j + 1 < kN) in[j + 1] = true;
      for (int k = 0; k < 3; ++k) in[(next() >> 8) % kN] = true;
      for (std::size_t i = 0; i < kN; ++i)
        if (in[i]) rows.push_back(static_cast<sunindextype>(i));
      cols.push_back(static_cast<sunindextype>(rows.size()));
    }
  }
};

// Values for step `step`: diagonally dominant, except that from step 3 on the
// diagonal of some columns is tiny, so that re-factoring with the first
// pivots is ill-conditioned and SUNDIALS' policy factors afresh.
std::vector<double> values_at(const CscPattern& p, int step) {
  std::vector<double> v;
  for (sunindextype j = 0; j < kNs; ++j)
    for (sunindextype q = p.cols[static_cast<std::size_t>(j)]; q < p.cols[static_cast<std::size_t>(j) + 1]; ++q) {
      const sunindextype i = p.rows[static_cast<std::size_t>(q)];
      const double off = 0.1 * static_cast<double>((i * 7 + j * 3 + step) % 11) - 0.5;
      v.push_back(i == j ? (step >= 3 && j % 5 == 2 ? 1e-15 * (1 + step) : 10.0 + 0.1 * step)
                         : off + (i == j + 1 ? 1.0 : 0.0));
    }
  return v;
}

// SUNLinSol_KLU and lsdae's klu32 solver on the same matrix.
struct KluPair {
  CscPattern pattern;
  SUNContext ctx = nullptr;
  SUNMatrix a = nullptr;
  N_Vector b = nullptr, x64 = nullptr, x32 = nullptr;
  SUNLinearSolver klu64 = nullptr, klu32 = nullptr;
  simulation::KluCounters counters;

  KluPair(KluOrdering ordering, bool keep) {
    SUNContext_Create(nullptr, &ctx);
    a = SUNSparseMatrix(kNs, kNs, static_cast<sunindextype>(pattern.rows.size()), CSC_MAT, ctx);
    std::copy(pattern.cols.begin(), pattern.cols.end(), SUNSparseMatrix_IndexPointers(a));
    std::copy(pattern.rows.begin(), pattern.rows.end(), SUNSparseMatrix_IndexValues(a));
    b = N_VNew_Serial(kNs, ctx);
    x64 = N_VNew_Serial(kNs, ctx);
    x32 = N_VNew_Serial(kNs, ctx);
    for (sunindextype k = 0; k < kNs; ++k) NV_Ith_S(b, k) = 1.0 + 0.25 * static_cast<double>(k % 7);
    klu64 = SUNLinSol_KLU(x64, a, ctx);
    simulation::set_klu_ordering(klu64, ordering);
    klu32 = simulation::make_klu32_solver(pattern.cols, pattern.rows, ordering, keep, &counters, ctx);
  }
  ~KluPair() {
    SUNLinSolFree(klu32);
    SUNLinSolFree(klu64);
    N_VDestroy(b);
    N_VDestroy(x64);
    N_VDestroy(x32);
    SUNMatDestroy(a);
    SUNContext_Free(&ctx);
  }
  void set_values(int step) {
    const std::vector<double> v = values_at(pattern, step);
    std::copy(v.begin(), v.end(), SUNSparseMatrix_Data(a));
  }
  std::vector<long> pivots64() const {
    const sun_klu_numeric* num = SUNLinSol_KLUGetNumeric(klu64);
    return num == nullptr ? std::vector<long>{} : std::vector<long>(num->Pnum, num->Pnum + kN);
  }
  std::vector<long> pivots32() const {
    const klu_numeric* num = simulation::klu32_numeric(klu32);
    return num == nullptr ? std::vector<long>{} : std::vector<long>(num->Pnum, num->Pnum + kN);
  }
  // One setup and solve of both at `step`; expects the same outcome (a
  // recoverable failure when a refactorization meets a zero pivot), pivots,
  // sizes and solution bits. Returns the setup's flag.
  int setup_and_solve(int step) {
    set_values(step);
    const int flag = SUNLinSolSetup(klu64, a);
    EXPECT_EQ(SUNLinSolSetup(klu32, a), flag) << "step " << step;
    EXPECT_EQ(SUNLinSolLastFlag(klu32), SUNLinSolLastFlag(klu64)) << "step " << step;
    if (flag != SUNLS_SUCCESS) return flag;
    EXPECT_EQ(pivots32(), pivots64()) << "step " << step << ": the same pivots (refactor or fresh factorization)";
    EXPECT_EQ(simulation::klu32_numeric(klu32)->lnz, SUNLinSol_KLUGetNumeric(klu64)->lnz) << "step " << step;
    EXPECT_EQ(simulation::klu32_numeric(klu32)->unz, SUNLinSol_KLUGetNumeric(klu64)->unz) << "step " << step;
    EXPECT_EQ(SUNLinSolSolve(klu64, a, x64, b, 0.0), SUNLS_SUCCESS);
    EXPECT_EQ(SUNLinSolSolve(klu32, a, x32, b, 0.0), SUNLS_SUCCESS);
    EXPECT_EQ(std::memcmp(NV_DATA_S(x64), NV_DATA_S(x32), kN * sizeof(double)), 0) << "step " << step;
    return flag;
  }
};

class Klu32AgainstSundials : public ::testing::TestWithParam<KluOrdering> {};

TEST_P(Klu32AgainstSundials, SamePivotsDecisionsAndSolutionBits) {
  KluPair pair(GetParam(), true);
  ASSERT_NE(pair.klu32, nullptr);
  ASSERT_EQ(SUNLinSolInitialize(pair.klu64), SUNLS_SUCCESS);
  ASSERT_EQ(SUNLinSolInitialize(pair.klu32), SUNLS_SUCCESS);
  int repivoted = 0, kept = 0, failed = 0;
  std::vector<long> before;
  for (int step = 0; step < 8; ++step) {
    if (pair.setup_and_solve(step) != SUNLS_SUCCESS) {
      ++failed;
      continue;
    }
    if (step > 0) (pair.pivots64() == before ? kept : repivoted) += 1;
    before = pair.pivots64();
  }
  // The sequence must exercise both of SUNDIALS' decisions for the comparison to mean anything.
  EXPECT_GE(kept, 1) << "refactorizations with the same pivots";
  EXPECT_GE(repivoted, 1) << "fresh factorizations for an ill-conditioned refactorization";
  EXPECT_LE(failed, 3);
  EXPECT_EQ(pair.counters.symbolic_analyses, 1);
  EXPECT_EQ(pair.counters.restart_factorizations, 0);
}

INSTANTIATE_TEST_SUITE_P(Orderings, Klu32AgainstSundials,
                         ::testing::Values(KluOrdering::amd, KluOrdering::colamd, KluOrdering::metis));

TEST(Klu32Solver, RestartKeepsTheAnalysisAndFactorsAsAReanalysis) {
  for (bool keep : {true, false}) {
    KluPair pair(KluOrdering::amd, keep);
    for (int start = 0; start < 3; ++start) {  // IDA's initialize at each (re)start, then two setups
      ASSERT_EQ(SUNLinSolInitialize(pair.klu64), SUNLS_SUCCESS);  // SUNDIALS: analyses again
      ASSERT_EQ(SUNLinSolInitialize(pair.klu32), SUNLS_SUCCESS);
      pair.setup_and_solve(2 * start + 3);
      pair.setup_and_solve(2 * start + 4);
    }
    EXPECT_EQ(pair.counters.symbolic_analyses, keep ? 1 : 3) << "keep " << keep;
    EXPECT_EQ(pair.counters.restart_factorizations, keep ? 2 : 0) << "keep " << keep;
  }
}

TEST(Klu32Solver, AnalysisHandedAcrossSolversOfItsKindAndPattern) {
  KluPair first(KluOrdering::metis, true);
  ASSERT_EQ(SUNLinSolInitialize(first.klu64), SUNLS_SUCCESS);
  ASSERT_EQ(SUNLinSolInitialize(first.klu32), SUNLS_SUCCESS);
  first.setup_and_solve(0);
  simulation::KluAnalysisPtr analysis = simulation::detach_klu32_analysis(first.klu32);
  ASSERT_TRUE(analysis);

  // Another ordering, or SUNDIALS' solver behind the 64-bit decorator, refuse it.
  KluPair other(KluOrdering::amd, true);
  EXPECT_FALSE(simulation::adopt_klu32_analysis(other.klu32, analysis));
  simulation::KluCounters counters64;
  SUNLinearSolver decorated = simulation::make_klu_symbolic_reuse(other.klu64, true, &counters64, other.ctx);
  EXPECT_FALSE(simulation::adopt_klu_analysis(decorated, analysis, other.pattern.cols, other.pattern.rows));
  SUNLinSolFree(decorated);
  ASSERT_TRUE(analysis);

  KluPair second(KluOrdering::metis, true);
  ASSERT_TRUE(simulation::adopt_klu32_analysis(second.klu32, analysis));
  EXPECT_FALSE(analysis);
  ASSERT_EQ(SUNLinSolInitialize(second.klu64), SUNLS_SUCCESS);
  ASSERT_EQ(SUNLinSolInitialize(second.klu32), SUNLS_SUCCESS);
  second.setup_and_solve(0);  // the adopted analysis: as SUNDIALS' own
  second.setup_and_solve(5);
  EXPECT_EQ(second.counters.symbolic_analyses, 0);
  EXPECT_EQ(second.counters.adopted_analyses, 1);
  EXPECT_EQ(second.counters.restart_factorizations, 1);
  // The first solver, without its analysis, analyses again at its next setup.
  ASSERT_EQ(SUNLinSolInitialize(first.klu64), SUNLS_SUCCESS);
  ASSERT_EQ(SUNLinSolInitialize(first.klu32), SUNLS_SUCCESS);
  first.setup_and_solve(1);
  EXPECT_EQ(first.counters.symbolic_analyses, 2);
}

TEST(Klu32Solver, RefusesWhatInt32CannotIndex) {
  EXPECT_TRUE(simulation::klu32_fits(INT_MAX - 1, INT_MAX));
  EXPECT_FALSE(simulation::klu32_fits(INT_MAX, 10)) << "n + 1 column pointers";
  EXPECT_FALSE(simulation::klu32_fits(10, static_cast<std::size_t>(INT_MAX) + 1));
  simulation::KluCounters counters;
  EXPECT_EQ(simulation::make_klu32_solver({}, {}, KluOrdering::amd, true, &counters, nullptr), nullptr);
}

// The 64-bit path (SUNLinSol_KLU: what a pattern beyond int32 gets; here asked
// for with linear_solver klu64) gives a run bitwise the 32-bit solver's.
TEST(Klu32Solver, RunsBitwiseAsTheSixtyFourBitFallback) {
  SimulationOptions options;
  const test::SampledRun k32 = test::run_sampled("PowerGrid_case39_semi_explicit", options, 40);
  options.klu_64bit_indices = true;
  const test::SampledRun k64 = test::run_sampled("PowerGrid_case39_semi_explicit", options, 40);
  EXPECT_EQ(k32.stats.klu_index_bits, 32);
  EXPECT_EQ(k64.stats.klu_index_bits, 64);
  EXPECT_EQ(k32.stats.steps, k64.stats.steps);
  EXPECT_EQ(k32.stats.residual_calls, k64.stats.residual_calls);
  EXPECT_EQ(k32.stats.linear_solver_setups, k64.stats.linear_solver_setups);
  EXPECT_EQ(k32.stats.klu_symbolic_analyses, k64.stats.klu_symbolic_analyses);
  EXPECT_EQ(k32.stats.klu_restart_factorizations, k64.stats.klu_restart_factorizations);
  EXPECT_GT(k32.stats.klu_restart_factorizations, 0) << "the fault's events restart IDA";
  EXPECT_EQ(k32.stats.klu_lnz, k64.stats.klu_lnz);
  EXPECT_EQ(k32.stats.klu_unz, k64.stats.klu_unz);
  ASSERT_EQ(k32.values.size(), k64.values.size());
  EXPECT_EQ(std::memcmp(k32.values.data(), k64.values.data(), k32.values.size() * sizeof(double)), 0);
}

}  // namespace
}  // namespace lsdae
