// runtime/simulation/ida/ida_linear_solver.h -- the matrix and linear solver
// IDA factors its iteration matrix J = ∂G/∂y + cj·∂G/∂y' with (SUNDIALS:
// ida_ls.c with SUNLinSol_KLU or SUNLinSol_Dense).
//
// KLU (lsdae's design; Davis & Palamadai Natarajan, ACM TOMS 37(3), 2010): J
// is a CSC SUNSparseMatrix whose pattern is fixed for the integrator's life
// (structure/iteration_pattern.h). The solver analyses it once (ordering:
// klu_ordering.h, then KLU's BTF), re-factors numerically with the same pivots
// for every new Jacobian and factors afresh when KLU's reciprocal condition
// estimate drops below its threshold -- SUNDIALS' policy (sunlinsol_klu.c),
// kept; a restart (an event) keeps the analysis and factors afresh with it.
// The solver is lsdae's own on KLU's 32-bit interface (klu32_solver.h: smaller
// factors, bitwise the same numbers); where n or nnz do not fit in int32,
// SUNLinSol_KLU (64-bit) behind the decorator of klu_symbolic_reuse.h
// (IntegratorStats::klu_index_bits says which).
// Dense: SUNDIALS' dense LU, the baseline of what dense LS-DAE importers do
// (benchmarks only: O(n³) per factorization).
// Clock (no unknowns): a 1 × 1 dense matrix for IDA's internal clock c' = 0.
//
// Jacobian values. jacobian_values(J) is where the integrator's Jacobian
// callback writes the pattern's nonzeros, in CSC order: J's own data (KLU:
// the fixed pattern is written once, and J's SUNMatZero, which IDA calls
// before every Jacobian, clears only the values, where SUNMatZero_Sparse
// clears the index arrays too) or a scratch array (dense) that
// scatter_dense() then copies into J.
// Contract: one object per integrator; not movable (the KLU decorator keeps a
// pointer to its counters). free() releases everything (idempotent); the
// integrator calls it after IDAFree and before freeing the SUNContext.
#ifndef LSDAE_RUNTIME_SIMULATION_IDA_IDA_LINEAR_SOLVER_H
#define LSDAE_RUNTIME_SIMULATION_IDA_IDA_LINEAR_SOLVER_H

#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>

#include <span>
#include <vector>

#include "simulation/ida/ida_statistics.h"
#include "simulation/ida/klu_ordering.h"
#include "simulation/ida/klu_symbolic_reuse.h"
#include "structure/pattern.h"

namespace lsdae::simulation {

// klu: the sparse direct solver (lsdae's design; KLU's 32-bit interface where
// n and nnz fit, else its 64-bit one). klu64: always the 64-bit one, SUNDIALS'
// SUNLinSol_KLU (for comparison: the same numbers). dense: SUNDIALS' dense LU,
// the baseline of what dense LS-DAE importers do (benchmarks only: O(n³)).
enum class LinearSolverKind { klu, klu64, dense };

class IdaLinearSolver {
 public:
  IdaLinearSolver() = default;
  ~IdaLinearSolver() { free(); }
  IdaLinearSolver(const IdaLinearSolver&) = delete;
  IdaLinearSolver& operator=(const IdaLinearSolver&) = delete;

  // The clock's 1 × 1 dense solver. Throws Error(solver) when out of memory.
  void make_clock(N_Vector y, SUNContext ctx);
  // The solver for `pattern` (n × n, n = the length of y). Throws Error(solver)
  // when SUNDIALS cannot create it.
  void make(N_Vector y, const structure::Pattern& pattern, LinearSolverKind kind, KluOrdering ordering,
            bool keep_klu_analysis, SUNContext ctx);
  void free();

  SUNMatrix matrix() const { return matrix_; }
  // What IDA is given (IDASetLinearSolver): the KLU decorator, or the solver itself.
  SUNLinearSolver for_ida() const { return keeping_solver_ != nullptr ? keeping_solver_ : solver_; }

  // Where the Jacobian callback writes the nonzeros of `J` in CSC order (see the file comment).
  std::span<double> jacobian_values(SUNMatrix J, std::size_t nnz);
  // Dense only: copies those values into J's columns (SUNMatZero cleared J).
  void scatter_dense(SUNMatrix J, const structure::Pattern& pattern) const;
  bool dense() const { return kind_ == LinearSolverKind::dense; }

  // KLU's factor sizes and analysis counters into s (nothing for dense or the clock).
  void add_stats(IntegratorStats& s) const;
  // The analysis across integrators (klu_symbolic_reuse.h); nullptr / false without KLU.
  KluAnalysisPtr release_analysis();
  bool adopt_analysis(KluAnalysisPtr& analysis);

 private:
  LinearSolverKind kind_ = LinearSolverKind::klu;
  bool clock_ = false;
  SUNMatrix matrix_ = nullptr;
  SUNLinearSolver solver_ = nullptr;
  // KLU: solver_ is lsdae's 32-bit solver (klu32_solver.h), which keeps its analysis itself ...
  bool klu32_ = false;
  // ... or SUNLinSol_KLU behind the decorator that keeps its analysis at restarts (handed to IDA).
  SUNLinearSolver keeping_solver_ = nullptr;
  KluCounters klu_counters_;
  std::vector<sunindextype> col_ptr_, row_idx_;  // the fixed pattern (KLU)
  std::vector<double> csc_values_;               // dense: the Jacobian in CSC order before scattering
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_IDA_IDA_LINEAR_SOLVER_H
