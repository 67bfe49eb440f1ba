// tests/runtime/simulation/klu_symbolic_reuse_test.cpp -- KLU's symbolic
// analysis kept at events (runtime/simulation/ida/klu_symbolic_reuse.h): runs with
// time and state events analyse once, re-factor afresh at every restart, and
// give bitwise the results and counters of SUNDIALS' re-analysis at every
// event (the analysis depends on the pattern alone, and the pattern is fixed).
#include <gtest/gtest.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <algorithm>
#include <cstring>
#include <span>
#include <vector>

#include "lsdae/simulation.h"
#include "simulation/ida/klu_symbolic_reuse.h"
#include "sampled_run.h"

namespace lsdae {
namespace {

// The FMU's default experiment, `rows` output times.
test::SampledRun run(const std::string& fmu, bool keep, int rows) {
  SimulationOptions options;
  options.keep_klu_analysis = keep;
  return test::run_sampled(fmu, options, rows);
}

class KluSymbolicReuse : public ::testing::TestWithParam<std::string> {};

TEST_P(KluSymbolicReuse, AnalysesOnceAndMatchesReanalysisBitwise) {
  // PowerGrid case39: the fault and its clearing (2 time events); BouncingBall:
  // state events; CauerLowPass: a time event in a DAE.
  const test::SampledRun kept = run(GetParam(), true, 40);
  const test::SampledRun again = run(GetParam(), false, 40);
  const long events = kept.stats.time_events + kept.stats.state_events + kept.stats.step_events;
  ASSERT_GT(events, 0) << GetParam() << " must have events for this test to mean anything";

  EXPECT_EQ(kept.stats.klu_symbolic_analyses, 1) << "one analysis for the whole run";
  EXPECT_GT(again.stats.klu_symbolic_analyses, 1) << "SUNDIALS analyses at the start and at every restart";
  EXPECT_EQ(again.stats.klu_restart_factorizations, 0);
  // Every restart that reached a linear-solver setup factored afresh instead.
  EXPECT_GE(kept.stats.klu_restart_factorizations, 1);
  EXPECT_LE(kept.stats.klu_restart_factorizations, events);
  EXPECT_EQ(kept.stats.klu_restart_factorizations + 1, again.stats.klu_symbolic_analyses);

  EXPECT_EQ(kept.stats.steps, again.stats.steps);
  EXPECT_EQ(kept.stats.residual_calls, again.stats.residual_calls);
  EXPECT_EQ(kept.stats.jacobian_evaluations, again.stats.jacobian_evaluations);
  EXPECT_EQ(kept.stats.linear_solver_setups, again.stats.linear_solver_setups);
  EXPECT_EQ(kept.stats.klu_lnz, again.stats.klu_lnz);
  EXPECT_EQ(kept.stats.klu_unz, again.stats.klu_unz);
  ASSERT_EQ(kept.values.size(), again.values.size());
  EXPECT_EQ(std::memcmp(kept.values.data(), again.values.data(), kept.values.size() * sizeof(double)), 0)
      << "the kept analysis must give bitwise the results of a new one";
}

INSTANTIATE_TEST_SUITE_P(Events, KluSymbolicReuse,
                         ::testing::Values("PowerGrid_case39_semi_explicit", "BouncingBall_ode",
                                           "CauerLowPass_dae_shapeA"));

// Across solvers (what Simulation::reset() does between scenarios): an
// analysis detached from one KLU solver and adopted by a new one for the same
// pattern factors and solves bitwise as the new solver's own analysis would;
// another pattern, or a solver that does not keep analyses, refuses it.
struct KluSystem {
  SUNContext ctx = nullptr;
  SUNMatrix a = nullptr;
  N_Vector x = nullptr, b = nullptr;
  SUNLinearSolver inner = nullptr, solver = nullptr;
  simulation::KluCounters counters;
  // An unsymmetric 5 × 5 matrix with a zero diagonal entry (KLU must pivot).
  explicit KluSystem(bool keep) {
    SUNContext_Create(nullptr, &ctx);
    const std::vector<sunindextype> cols{0, 2, 5, 7, 10, 12};
    const std::vector<sunindextype> rows{0, 3, 0, 1, 4, 2, 3, 1, 2, 4, 0, 3};
    const std::vector<double> values{0.0, 2.0, 1.5, -3.0, 0.5, 4.0, 1.0, 2.5, -1.0, 3.0, 0.7, 5.0};
    a = SUNSparseMatrix(5, 5, 12, CSC_MAT, ctx);
    std::copy(cols.begin(), cols.end(), SUNSparseMatrix_IndexPointers(a));
    std::copy(rows.begin(), rows.end(), SUNSparseMatrix_IndexValues(a));
    std::copy(values.begin(), values.end(), SUNSparseMatrix_Data(a));
    x = N_VNew_Serial(5, ctx);
    b = N_VNew_Serial(5, ctx);
    for (sunindextype k = 0; k < 5; ++k) NV_Ith_S(b, k) = 1.0 + static_cast<double>(k);
    inner = SUNLinSol_KLU(x, a, ctx);
    solver = simulation::make_klu_symbolic_reuse(inner, keep, &counters, ctx);
  }
  ~KluSystem() {
    SUNLinSolFree(solver);
    SUNLinSolFree(inner);
    N_VDestroy(x);
    N_VDestroy(b);
    SUNMatDestroy(a);
    SUNContext_Free(&ctx);
  }
  std::span<const sunindextype> col_ptr() const { return {SUNSparseMatrix_IndexPointers(a), 6}; }
  std::span<const sunindextype> row_idx() const { return {SUNSparseMatrix_IndexValues(a), 12}; }
  std::vector<double> solve() {
    EXPECT_EQ(SUNLinSolInitialize(solver), SUNLS_SUCCESS);
    EXPECT_EQ(SUNLinSolSetup(solver, a), SUNLS_SUCCESS);
    EXPECT_EQ(SUNLinSolSolve(solver, a, x, b, 0.0), SUNLS_SUCCESS);
    return {NV_DATA_S(x), NV_DATA_S(x) + 5};
  }
};

TEST(KluAnalysisAcrossSolvers, AdoptedAnalysisSolvesAsANewOne) {
  KluSystem first(true);
  const std::vector<double> own = first.solve();
  EXPECT_EQ(first.counters.symbolic_analyses, 1);
  simulation::KluAnalysisPtr analysis = simulation::detach_klu_analysis(first.solver, first.col_ptr(), first.row_idx());
  ASSERT_TRUE(analysis);
  EXPECT_EQ(SUNLinSol_KLUGetSymbolic(first.inner), nullptr) << "detached: the solver no longer has it";

  KluSystem second(true);
  std::vector<sunindextype> other_rows(second.row_idx().begin(), second.row_idx().end());
  other_rows[1] = 4;  // another pattern: refused, and kept for a solver it fits
  EXPECT_FALSE(simulation::adopt_klu_analysis(second.solver, analysis, second.col_ptr(), other_rows));
  ASSERT_TRUE(analysis);
  ASSERT_TRUE(simulation::adopt_klu_analysis(second.solver, analysis, second.col_ptr(), second.row_idx()));
  EXPECT_FALSE(analysis) << "adopted: the new solver owns it";
  const std::vector<double> adopted = second.solve();
  EXPECT_EQ(second.counters.symbolic_analyses, 0) << "no new analysis";
  EXPECT_EQ(second.counters.adopted_analyses, 1);
  EXPECT_EQ(std::memcmp(own.data(), adopted.data(), own.size() * sizeof(double)), 0);
  // The first solver, without its analysis, analyses again at its next setup.
  EXPECT_EQ(first.solve(), own);
  EXPECT_EQ(first.counters.symbolic_analyses, 2);
}

TEST(KluAnalysisAcrossSolvers, NotKeptWhenTheSolverDoesNotKeepAnalyses) {
  KluSystem plain(false);
  plain.solve();
  EXPECT_FALSE(simulation::detach_klu_analysis(plain.solver, plain.col_ptr(), plain.row_idx()));
  KluSystem keeping(true);
  keeping.solve();
  simulation::KluAnalysisPtr analysis =
      simulation::detach_klu_analysis(keeping.solver, keeping.col_ptr(), keeping.row_idx());
  ASSERT_TRUE(analysis);
  KluSystem other(false);
  EXPECT_FALSE(simulation::adopt_klu_analysis(other.solver, analysis, other.col_ptr(), other.row_idx()));
  EXPECT_TRUE(analysis);  // freed here, by its owner
}

}  // namespace
}  // namespace lsdae
