// runtime/simulation/ida/klu32_solver.h -- lsdae's KLU linear solver on KLU's
// 32-bit interface (klu_analyze, klu_factor, klu_refactor, klu_solve, ...).
//
// Why. Debian's SUNDIALS is built with a 64-bit sunindextype, so its
// SUNLinSol_KLU calls klu_l_* (64-bit indices); KLU stores the row indices of
// its factors as Int units beside the values, so with int32 a factor holds 12
// bytes per nonzero instead of 16, and every solve and refactorization (46 %
// of a restored ACTIVSg10k contingency, docs/performance/sweeps.md) moves
// fewer bytes. KLU's int32 and int64 libraries are the same source compiled
// for two index types: the same BTF, orderings, pivots and arithmetic, so the
// factors, solutions and the run are bitwise those of SUNLinSol_KLU.
//
// Reference: T. A. Davis, E. Palamadai Natarajan, "Algorithm 907: KLU", ACM
// TOMS 37(3), 2010; the policy is SUNDIALS 6.4's sunlinsol_klu.c, kept exactly:
//   initialize  the next setup analyses (klu_analyze) and factors (klu_factor);
//   setup       after that, klu_refactor with the same pivots, then the cheap
//               reciprocal condition estimate klu_rcond; when it is below
//               ε^(2/3), klu_condest, and when that is above ε^(-2/3), a fresh
//               klu_factor with the same analysis (new pivots);
//   solve       x = b (N_VScale), then klu_solve in place.
//   Failures: analysis or factorization SUNLS_PACKAGE_FAIL_UNREC, refactor,
//   rcond, condest or solve SUNLS_PACKAGE_FAIL_REC (SUNDIALS' codes).
// KLU's row scaling (Common.scale = 2, SUNDIALS' too) stays on in every
// refactorization, although with fixed pivots it changes only rounding: dropping
// it there saves about 20 % of a refactorization but moved the step counts of
// event-rich runs both ways and would end the bitwise equality with
// SUNLinSol_KLU (tried, not kept: docs/performance/jacobian-klu-elimination.md).
// With keep_analysis, a restart keeps the analysis and the next setup factors
// afresh with it (klu_symbolic_reuse.h, the same rule as its decorator around
// SUNLinSol_KLU), and detach/adopt hand the analysis to the next integrator of
// a sweep for the same pattern and ordering.
//
// Matrix. IDA's matrix stays the CSC SUNSparseMatrix with 64-bit indices; its
// pattern is fixed for the integrator's life (structure/pattern.h; the
// Jacobian callback restores it in every Jacobian, ida_linear_solver.cpp), so
// the solver keeps 32-bit copies of it, made once at creation, and passes
// KLU the matrix's value array directly.
// Cost: 8 bytes per nonzero and per column for the copies, made once
// (O(nnz)); each call then KLU's own.
// Contract: klu32_fits(n, nnz) before make_klu32_solver; every matrix given to
// setup is CSC with the pattern given at creation (the column count is
// checked, the pattern is not: that is the caller's contract). KLU's
// factors must fit its 32-bit sizes too (an LU of 2³¹ units, 16 GB per block:
// beyond that klu_factor fails, reported as a failed factorization).
#ifndef LSDAE_RUNTIME_SIMULATION_IDA_KLU32_SOLVER_H
#define LSDAE_RUNTIME_SIMULATION_IDA_KLU32_SOLVER_H

#include <klu.h>
#include <sundials/sundials_linearsolver.h>

#include <cstddef>
#include <span>

#include "simulation/ida/klu_ordering.h"
#include "simulation/ida/klu_symbolic_reuse.h"

namespace lsdae::simulation {

// Whether an n × n matrix with nnz stored entries fits KLU's 32-bit indices.
bool klu32_fits(std::size_t n, std::size_t nnz) noexcept;

// The solver for the CSC pattern (col_ptr: n + 1 entries, row_idx: col_ptr[n]
// entries), with `ordering`; keeps its analysis at restarts when
// `keep_analysis`; `counters` (owned by the caller, outliving the solver) count
// what KLU does. nullptr when the pattern does not fit (klu32_fits) or out of
// memory.
SUNLinearSolver make_klu32_solver(std::span<const sunindextype> col_ptr, std::span<const sunindextype> row_idx,
                                  KluOrdering ordering, bool keep_analysis, KluCounters* counters, SUNContext ctx);

// The current factors (KLU's lnz, unz, pivots Pnum, ...); nullptr without
// factors or for a solver not made by make_klu32_solver.
const klu_numeric* klu32_numeric(SUNLinearSolver solver);

// As detach_klu_analysis / adopt_klu_analysis (klu_symbolic_reuse.h), for this
// solver: the pattern compared is the solver's own copy.
KluAnalysisPtr detach_klu32_analysis(SUNLinearSolver solver);
bool adopt_klu32_analysis(SUNLinearSolver solver, KluAnalysisPtr& analysis);

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_IDA_KLU32_SOLVER_H
