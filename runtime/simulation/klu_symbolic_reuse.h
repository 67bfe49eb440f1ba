// runtime/simulation/klu_symbolic_reuse.h -- SUNLinSol_KLU that keeps its
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
// Contract. The matrices passed to setup all have the pattern of the first
// one (lsdae restores the fixed pattern in every Jacobian). `inner` must
// outlive the decorator; destroying the decorator (SUNLinSolFree) does not
// free `inner`. The counters count what KLU actually did.
#ifndef LSDAE_RUNTIME_SIMULATION_KLU_SYMBOLIC_REUSE_H
#define LSDAE_RUNTIME_SIMULATION_KLU_SYMBOLIC_REUSE_H

#include <sundials/sundials_linearsolver.h>

namespace lsdae::simulation {

struct KluCounters {
  long symbolic_analyses = 0;        // klu_analyze calls
  long restart_factorizations = 0;   // klu_factor calls with a kept analysis (at restarts)
};

// A SUNLinearSolver forwarding to `inner` (a SUNLinSol_KLU solver) that keeps
// its symbolic analysis at restarts when `keep_analysis` (else it only counts:
// SUNDIALS' behaviour, a new analysis at every restart); `counters` (owned by the caller, must
// outlive the result) are updated as it runs. nullptr when out of memory.
SUNLinearSolver make_klu_symbolic_reuse(SUNLinearSolver inner, bool keep_analysis, KluCounters* counters,
                                        SUNContext ctx);

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_KLU_SYMBOLIC_REUSE_H
