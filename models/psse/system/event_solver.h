// models/psse/system/event_solver.h -- the algebraic equations of the whole
// system solved for the algebraic variables with the states fixed: what the
// DAE solver will find when it restarts after an event, computed inside the
// FMU so that every limiter's mode can be set from the values there
// (system.h, "Events").
//
// Algorithm: Newton's method on the bus current balances and the
// components' algebraic residuals, from the values before the event; the
// Jacobian from the system's exact partials (restricted to algebraic rows
// and columns), factored by KLU with pivoting at every step (analysed again
// only when the pattern changed: the factors are those of a fresh analysis).
// Converged when the largest residual is below 1e-10 (p.u.), at most 30
// steps. Cost per step: one residual evaluation, one partials evaluation and
// one sparse LU of the algebraic block.
//
// Contract: works on a copy of the FMU's values (`work`); solve() never
// changes the values the importer owns (publish() does, on the caller's
// word: the algebraic variables only). Returns false, with the last iterate in `work`,
// when Newton does not converge (a collapsing network): the caller then keeps
// the modes the crossings gave.
#ifndef LSDAE_MODELS_PSSE_SYSTEM_EVENT_SOLVER_H
#define LSDAE_MODELS_PSSE_SYSTEM_EVENT_SOLVER_H

#include <memory>
#include <vector>

#include "gridcore/klu_solver.h"
#include "psse/system/system_impl.h"

namespace lsdae::psse {

class EventSolver {
 public:
  explicit EventSolver(System::Impl& system) : sys_(system) {}
  bool solve(const double* v, std::size_t count, double time, std::vector<double>& work);
  // The algebraic variables of `work` (a converged solve) written into `v`:
  // after the event the importer reads them as its guess for the restart
  // (the importer sets them again before any evaluation).
  void publish(const std::vector<double>& work, double* v) const;
  int iterations() const { return iterations_; }
  double residual() const { return residual_; }

 private:
  void index();
  System::Impl& sys_;
  std::vector<ValueRef> unknown_, equation_;   // algebraic variables, their residual variables
  std::vector<int> unknown_at_, equation_at_;  // value reference -> position, or -1
  std::unique_ptr<grid::KluSolver> lu_ = std::make_unique<grid::KluSolver>();  // analysis kept per pattern
  int iterations_ = 0;
  double residual_ = 0;
};

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_SYSTEM_EVENT_SOLVER_H
