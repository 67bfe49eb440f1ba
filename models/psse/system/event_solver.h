// models/psse/system/event_solver.h -- the algebraic equations of the whole
// system solved for the algebraic variables with the states fixed: what the
// DAE solver will find when it restarts after an event, computed inside the
// FMU so that every limiter's mode can be set from the values there
// (system.h, "Events").
//
// Algorithm: Newton's method on the bus current balances and the
// components' algebraic residuals, from the values before the event, with
// steps that keep the factors in hand (a chord, or simplified Newton,
// method: C. T. Kelley, "Iterative Methods for Linear and Nonlinear
// Equations", SIAM 1995, chapter 5; IDA's Newton keeps its matrix so). The
// Jacobian is the system's exact partials restricted to algebraic rows and
// columns, on the union of the patterns met since the solver was made (a
// limiter's mode drops or adds entries: those it drops are explicit zeros),
// analysed by KLU once per growth of that union and otherwise refactored
// with the pivots of the last factorization, afresh when KLU's crude
// reciprocal condition estimate says they no longer fit
// (gridcore/klu_solver.h). A solve's first step uses the factors in hand (of
// an earlier step or event), as does every step after one that cut the
// largest residual at least fourfold (kChordRate); any other step is a
// Newton step with a new Jacobian, and a step with the factors in hand that
// raised the residual is undone first, so that the Newton steps are those
// Newton alone would take. Converged when the largest residual is below
// 1e-10 (p.u.); at most 30 Newton steps (and 60 in all). Almost every event
// starts from the point the importer located (within its Newton tolerance)
// and converges in one to three steps with the factors in hand. Cost per
// step: one residual evaluation and one solve with the factors; a Newton
// step adds one partials evaluation and one refactorization (about ten
// residual evaluations on ACTIVSg2000: docs/performance/
// psse-activsg2000-events.md, "The event solve").
//
// Determinism: the factors (and the union) carry over from one event to the
// next, so the values after an event depend on the events before it within
// the tolerance; forget() makes the solver as new. System calls it
// whenever its internal state is set (fmi3Reset, so that a sweep's reused
// instance repeats a new one's run bit for bit). PsseGrid declares no FMU
// state; a PsseGrid with fmi3GetFMUState would have to save the union and
// the pivots with it (kit/model.h, "state kept outside the value store").
//
// Contract: works on a copy of the FMU's values (`work`); solve() never
// changes the values the importer owns (publish() does, on the caller's
// word: the algebraic variables only). Returns true with its last evaluation
// (System::Impl::compute, indicators not written) at the returned `work`: the
// slots' outputs and limiter records are then those of that point and the
// modes in `work`, which update_discrete reads without evaluating again (one
// evaluation per event round saved). Returns false, with the last iterate in
// `work`, when Newton does not converge (a collapsing network): the caller
// then keeps the modes the crossings gave.
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
  // Drops the pattern's union and the factors: the solver as new.
  void forget();
  System::EventSolveCounts counts() const {
    return {lu_->analyses(), lu_->factorizations(), lu_->refactorizations()};
  }
  int iterations() const { return iterations_; }
  double residual() const { return residual_; }

 private:
  void index();
  // The block's Jacobian at `work`, factored (factored_ on success).
  void factor_at(int m, const double* work, double time);
  // Merges the block's pattern into the union; whether the union grew.
  bool widen(int m, const std::vector<int>& column_start, const std::vector<int>& row);
  // The block's values at their places in the union (zeros elsewhere).
  void scatter(const std::vector<int>& column_start, const std::vector<int>& row, const std::vector<double>& value);
  System::Impl& sys_;
  std::vector<ValueRef> unknown_, equation_;   // algebraic variables, their residual variables
  std::vector<int> unknown_at_, equation_at_;  // value reference -> position, or -1
  std::vector<int> union_start_, union_row_;  // CSC of the patterns met since forget()
  std::vector<double> union_value_;
  std::vector<int> widen_start_, widen_row_;  // widen()'s merge buffers (contents meaningless between calls)
  bool factored_ = false;  // lu_ holds the factors of an earlier step (of this event or one before)
  static constexpr double kTolerance = 1e-10;  // the largest residual accepted (p.u.)
  static constexpr int kMaxSteps = 30;
  // A step with the factors in hand is kept while each reduces the residual
  // at least this much; otherwise the next is a Newton step.
  static constexpr double kChordRate = 0.25;
  std::unique_ptr<grid::KluSolver> lu_ = std::make_unique<grid::KluSolver>();  // analysis of the union
  int iterations_ = 0;
  double residual_ = 0;
};

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_SYSTEM_EVENT_SOLVER_H
