// runtime/simulation/ida/klu_symbolic_reuse.h -- SUNLinSol_KLU that keeps its
// symbolic analysis across IDA restarts.
//
// Reference: T. A. Davis, E. Palamadai Natarajan, "Algorithm 907: KLU", ACM
// TOMS 37(3), 2010 (klu_analyze: BTF maximum transversal and a fill-reducing
// ordering of each block, computed from the pattern alone; klu_factor: the
// numeric LU with partial pivoting for a given analysis); SUNDIALS 6.4
// sunlinsol_klu.c (SUNLinSolInitialize_KLU forces a new klu_analyze at the
// next setup).
//
// Why. IDA calls the linear solver's `initialize` at every (re)start --
// IDAInit, and IDAReInit at each event --, and SUNLinSol_KLU answers it by
// analysing the matrix again. lsdae's iteration pattern is fixed for the
// lifetime of an integrator (structure/iteration_pattern.h), so the analysis
// it repeats is the same every time: BTF + AMD of 236 372 nonzeros at every
// event of a power grid run.
//
// Algorithm. A decorator around a SUNLinSol_KLU solver, handed to IDA in its
// place. `initialize` with an analysis already made does not reset KLU; it
// marks that the next `setup` must factor afresh. That setup calls
// klu_factor with the kept analysis (a full numeric factorization with new
// pivots, exactly what analyse-then-factor computes for the same pattern, so
// the factors and the run are bitwise those of a re-analysis), instead of
// klu_refactor with the previous pivots. Every other setup is SUNDIALS' own
// (refactor, rcond check, factor again when ill-conditioned). The first
// initialize, or one before any analysis, is SUNDIALS' too.
//
// Across integrators (Simulation::reset: the next scenario of a sweep on the
// same model). An integrator is made anew for every run, and with it the
// KLU solver; its analysis would be made again although the pattern is the
// same. detach_klu_analysis() takes the analysis out of a solver that is
// about to go, together with the pattern and the ordering it was made for;
// adopt_klu_analysis() hands it to a new solver when its pattern (column
// pointers and row indices, compared entry by entry) and its ordering
// (KLU's `ordering` and `user_order`) are the same, and otherwise leaves it
// (the new solver analyses as usual). The adopting solver's first setup then
// runs klu_factor with it, as at a restart: the same factors, pivots and run
// as with its own analysis, since klu_analyze reads the pattern alone.
//
// Contract. The matrices passed to setup all have the pattern of the first
// one (lsdae restores the fixed pattern in every Jacobian). `inner` must
// outlive the decorator; destroying the decorator (SUNLinSolFree) does not
// free `inner`. The counters count what KLU actually did.
#ifndef LSDAE_RUNTIME_SIMULATION_IDA_KLU_SYMBOLIC_REUSE_H
#define LSDAE_RUNTIME_SIMULATION_IDA_KLU_SYMBOLIC_REUSE_H

#include <sundials/sundials_linearsolver.h>

#include <memory>
#include <span>

namespace lsdae::simulation {

struct KluCounters {
  long symbolic_analyses = 0;        // klu_analyze calls
  long restart_factorizations = 0;   // klu_factor calls with a kept analysis (at restarts)
  long adopted_analyses = 0;         // analyses taken over from an earlier solver (adopt_klu_analysis)
};

// A KLU symbolic analysis detached from its solver, with the pattern and the
// ordering it was made for. Owns the analysis (freed with it). Two kinds, one
// per KLU interface: SUNLinSol_KLU's (64-bit indices, this file) and lsdae's
// own solver's (32-bit, klu32_solver.h); a solver adopts only its own kind.
class KluAnalysis {
 public:
  virtual ~KluAnalysis() = default;
  KluAnalysis(const KluAnalysis&) = delete;
  KluAnalysis& operator=(const KluAnalysis&) = delete;

 protected:
  KluAnalysis() = default;
};
using KluAnalysisPtr = std::unique_ptr<KluAnalysis>;

// A SUNLinearSolver forwarding to `inner` (a SUNLinSol_KLU solver) that keeps
// its symbolic analysis at restarts when `keep_analysis` (else it only counts:
// SUNDIALS' behaviour, a new analysis at every restart); `counters` (owned by the caller, must
// outlive the result) are updated as it runs. nullptr when out of memory.
SUNLinearSolver make_klu_symbolic_reuse(SUNLinearSolver inner, bool keep_analysis, KluCounters* counters,
                                        SUNContext ctx);

// The analysis of `solver` (made by make_klu_symbolic_reuse with
// keep_analysis) for the matrix pattern (col_ptr, row_idx), taken out of it:
// the solver has none afterwards (the next setup analyses again). nullptr
// when it has no analysis that served a factorization.
KluAnalysisPtr detach_klu_analysis(SUNLinearSolver solver, std::span<const sunindextype> col_ptr,
                                   std::span<const sunindextype> row_idx);

// Hands `analysis` to `solver` (before its first setup) when it was made for
// the same pattern and ordering: true, `analysis` is then empty. Otherwise
// false, and `analysis` is left as it was.
bool adopt_klu_analysis(SUNLinearSolver solver, KluAnalysisPtr& analysis, std::span<const sunindextype> col_ptr,
                        std::span<const sunindextype> row_idx);

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_IDA_KLU_SYMBOLIC_REUSE_H
