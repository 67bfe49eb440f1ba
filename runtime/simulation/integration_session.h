// runtime/simulation/integration_session.h -- IDA's side of one run: the
// integrator over the model's current index-1 system, what it is built from
// (the IDA options, the linear elimination, the constant Jacobian entries),
// and the point (t, y, y') the run stands at. A collaborator of
// lsdae::Simulation (simulation_impl.h); the IDA driver is ida/ida_integrator.h.
//
// Owns: the IdaIntegrator (IDA's memory, vectors, linear solver); the
// counters of integrators it replaced; the linear-elimination plan with its
// colourings and one reduced residual per model residual; the constant
// Jacobian entries and the colouring of the varying columns; a KLU analysis
// carried over from the previous run (Simulation::reset); IDA's stop time;
// the point the caller sees, (t, y, y'), and IDA's own time t_ida.
//
// Invariants:
//   - The integrator refers to the evaluation's residuals, iteration pattern
//     and colouring (or to this object's reduced residuals, pattern and
//     colouring): retire() comes before the evaluation replaces any of them,
//     make() after.
//   - y, yp have one entry per IDA unknown of the evaluation's index-1 system
//     (all of them, also with elimination) and are the point at time t;
//     t <= t_ida (IDA is ahead after a step past an output time).
//   - After restart(at): t = t_ida = at and (y, y') is IDA's consistent point.
//     The point may be moved in place (y_to_move: a projection at the start
//     or after an event) only before the next restart().
//   - The stop time IDA is given at every restart is the one last set.
#ifndef LSDAE_RUNTIME_SIMULATION_INTEGRATION_SESSION_H
#define LSDAE_RUNTIME_SIMULATION_INTEGRATION_SESSION_H

#include <memory>
#include <set>
#include <string>
#include <utility>
#include <optional>
#include <span>
#include <vector>

#include "kernels/compressed_jacobian.h"
#include "simulation/eliminated_residual.h"
#include "simulation/ida/ida_integrator.h"
#include "simulation/ida/projecting_nonlinear_solver.h"
#include "simulation/indicator_domains.h"
#include "simulation/jacobian_constancy.h"
#include "simulation/jacobian_recheck.h"
#include "simulation/model_evaluation.h"
#include "simulation/run_settings.h"
#include "simulation/session_learned.h"
#include "structure/coloring.h"
#include "structure/coloring_varying.h"
#include "structure/linear_elimination.h"

namespace lsdae::simulation {

// --eliminate auto eliminates only when at least this share of the unknowns
// goes (plan_elimination's cost model).
inline constexpr double kMinEliminatedShare = 0.05;
// Whether eliminating `eliminated` of `unknowns` pays (the share above).
inline bool elimination_pays(std::size_t eliminated, std::size_t unknowns) {
  return unknowns > 0 && static_cast<double>(eliminated) >= kMinEliminatedShare * static_cast<double>(unknowns);
}

class IntegrationSession {
 public:
  // `settings` must outlive this object. The point starts at t_start, empty.
  explicit IntegrationSession(const RunSettings& settings);
  ~IntegrationSession();
  IntegrationSession(const IntegrationSession&) = delete;
  IntegrationSession& operator=(const IntegrationSession&) = delete;

  // ---- the integrator
  // A new integrator over the evaluation's current index-1 system (the old one
  // retired first) with IDA options from the settings: rtol, atol scaled by
  // each unknown's nominal, the unknowns in IDA's error test
  // (error_test_mask.h), the Jacobian source, the KLU ordering, the threads,
  // the event indicators as IDA's root function, and -- when given -- the
  // projection inside IDA's steps. With --eliminate auto, and no projector
  // (`projecting`), the linear elimination of eliminated_residual.h.
  void make(ModelEvaluation& evaluation, StepProjection step_projection, bool projecting);
  // Adds the integrator's counters to the finished ones and drops it.
  void retire();
  // Drops the integrator without counting it (reset(): the run is over).
  void drop() { integrator_.reset(); }
  bool has_integrator() const { return integrator_ != nullptr; }
  IdaIntegrator& integrator() { return *integrator_; }
  const IdaIntegrator& integrator() const { return *integrator_; }
  // IDA's stop time from the next restart on: the earlier of the next time
  // event and the stop time.
  void set_stop_time(double t) { stop_time_ = t; }
  // (Re)starts IDA at (at, y, y') and makes the algebraic variables and the
  // derivatives consistent (IDACalcIC); y, yp, t and t_ida become that point.
  // `after_event`: the restart follows an event (a failure's advice says so).
  void restart(double at, bool after_event = false);
  // The same, but when IDACalcIC itself fails it returns false and leaves
  // y, yp and t as they were (IDA then holds no consistent point: restart
  // again before stepping).
  bool try_restart(double at, bool after_event = false);
  // One IDA step towards t_target (IDA_ONE_STEP); t_ida becomes IDA's time.
  StepOutcome step(double t_target);
  void reset_faults() {
    if (integrator_) integrator_->reset_faults();
  }

  // ---- the point
  double time() const { return t_; }
  double ida_time() const { return t_ida_; }
  std::span<const double> y() const { return y_; }
  std::span<const double> yp() const { return yp_; }
  std::span<double> y_to_move() { return y_; }
  // A new point of the current index-1 system (at the current t).
  void set_point(std::vector<double> y, std::vector<double> yp);
  // IDA's last accepted point becomes the caller's (t = t_ida = IDA's time).
  void keep_point();
  // The same when there is an integrator (after a failure: what IDA reached).
  void keep_point_if_any() {
    if (integrator_) keep_point();
  }
  // The point at t inside IDA's last step (IDAGetDky).
  void interpolate_to(double t);
  // IDA's last point, as the point at t (a rounding error away from it).
  void keep_point_as(double t) {
    keep_point();
    t_ = t;
  }

  // A snapshot's point and counters (Simulation::restore): t = t_ida = at,
  // the counters of the run so far (a new integrator's add to them).
  void restore(double at, std::vector<double> y, std::vector<double> yp, const IntegratorStats& counted) {
    y_ = std::move(y);
    yp_ = std::move(yp);
    t_ = t_ida_ = at;
    finished_ = counted;
  }

  // What this run learned of the FMU's claims and took of its constant
  // Jacobian entries (session_learned.h), for a snapshot; adopt() gives it
  // to a new session before its first make(), which then makes the
  // integrator as the run it continues had it (no claims check at this
  // point, the same kinds, colouring and run-long constant values).
  SessionLearned learned() const;
  void adopt(const SessionLearned& learned);
  // The declared kinds and varying colouring create() computed to count the
  // instances (jacobian_constancy.h, DeclaredKinds): the next make() takes
  // them instead of computing them again, where its pattern is theirs.
  void take_declared(std::shared_ptr<const DeclaredKinds> declared) { declared_ = std::move(declared); }

  // Whether the Jacobians come from directional derivatives: the settings'
  // choice, false once the FMU's pattern was found to hide a dependency
  // (jacobian_claims.h); where some are wrong, the colours holding them are
  // taken by finite differences (finite_difference_columns_).
  bool uses_directional() const { return directional_; }
  // Whether every directional derivative the FMU gives is trusted (none found
  // wrong): what a consumer that cannot mix (the projection's dC/dx, the
  // linear elimination) may use.
  bool trusts_directional() const { return directional_ && wrong_unknowns_.empty(); }

  // ---- counters and what carries to the next run
  IntegratorStats stats() const;  // every integrator of the run
  // The KLU analysis for the next run (Simulation::reset): the one carried
  // in and never used, else the integrator's own (with keep_klu_analysis).
  KluAnalysisPtr hand_over_klu_analysis();
  // The previous run's KLU analysis, adopted by the next make() when its
  // pattern and ordering are the same (klu_symbolic_reuse.h).
  void carry_klu_analysis(KluAnalysisPtr analysis) { carried_klu_analysis_ = std::move(analysis); }

 private:
  bool start_consistent(double at, bool throw_on_failure, bool after_event = false);
  // Before the first start of an integrator over the reduced system: takes
  // the elimination's coefficients at the start point; when that fails (A
  // numerically singular there, or the FMU refuses an evaluation), gives the
  // elimination up for the rest of the run and makes the integrator over the
  // full system again, with one line in the log. Results are then those of
  // --eliminate off.
  void give_up_elimination_if_it_fails(double at);
  // The linear elimination plan when --eliminate allows one and it eliminates
  // something (elimination_, the reduced residuals and colourings set);
  // false otherwise (all cleared).
  // `checked`: the entries' kinds after the claims check (null: as declared).
  // `declined_before`: the run this one continues planned on the same kinds
  // and declined (SessionLearned::elimination_declined): declined again
  // without planning.
  bool plan_elimination(ModelEvaluation& evaluation, bool projecting, const kernels::ConstantEntries* checked,
                        bool declined_before = false);
  // Whether this run may eliminate at all (the options, the form, the index):
  // make() classifies the kinds for it, plan_elimination() plans on it.
  bool may_eliminate(const ModelEvaluation& evaluation, bool projecting) const;
  // The directional derivatives and the declared pattern, checked at the
  // first make() (jacobian_claims.h): sets directional_ and hidden_dependencies_.
  void check_derivative_claims(ModelEvaluation& evaluation);
  // augmented_: the iteration pattern with the hidden dependencies added.
  void augment_pattern(ModelEvaluation& evaluation);
  // IntegratorOptions::before_jacobian (jacobian_recheck.h): after repeated
  // Newton failures with fresh Jacobians, the constant entries and the
  // directional derivatives checked again at the call's point, once per kind
  // and run; what is false falls back (jacobian_claims.h).
  JacobianRevision recheck_claims(ModelEvaluation& evaluation, const JacobianCall& call);
  // The recheck where IDA integrates the reduced system of an elimination:
  // the claims checked on the full system at the point the elimination
  // expands the reduced one to (full_kinds_ for the constant entries). A
  // false claim throws ReplanWithoutElimination out of IDA (its Jacobian
  // callback keeps it, IDASolve returns, step() catches it): the elimination
  // relies on the constants of its coefficients and the reduced Jacobian on
  // every directional derivative, so it is given up and the run goes on over
  // the full system, where the fallbacks apply (replan_without_elimination).
  JacobianRevision recheck_claims_eliminated(ModelEvaluation& evaluation, const JacobianCall& call, bool constants,
                                             bool derivatives);
  struct ReplanWithoutElimination {};
  bool stepping_ = false;  // inside step()'s IDASolve: where ReplanWithoutElimination is caught
  // The integrator made again without the elimination, started at the last
  // point IDA accepted (interpolated and expanded), with one line in the log.
  void replan_without_elimination();
  // Entries whose constant claim was found false before (reported_claims_,
  // by name) made varying in `kinds` over `pattern`: a claim found false
  // during the run is not trusted again at a later restart's check.
  void distrust_reported_claims(ModelEvaluation& evaluation, const structure::Pattern& pattern,
                                kernels::ConstantEntries& kinds) const;

  const RunSettings& settings_;
  // What the last make() was given, for give_up_elimination_if_it_fails().
  ModelEvaluation* made_for_ = nullptr;
  StepProjection made_step_projection_;
  bool made_projecting_ = false;
  bool elimination_given_up_ = false;
  std::unique_ptr<IdaIntegrator> integrator_;
  IntegratorStats finished_;  // counters of integrators replaced by a re-selection
  std::optional<structure::LinearElimination> elimination_;
  structure::Coloring elimination_z_coloring_, reduced_coloring_;
  std::vector<std::unique_ptr<EliminatedResidual>> reduced_residuals_;
  kernels::ConstantEntries jacobian_constants_;
  // While eliminating: the full system's checked kinds (the recheck's; the
  // elimination relies on those of its coefficients).
  std::optional<kernels::ConstantEntries> full_kinds_;
  std::optional<structure::VaryingColoring> varying_coloring_;
  KluAnalysisPtr carried_klu_analysis_;
  std::set<std::string> reported_claims_;  // false constant entries already named ("row/unknown")
  std::optional<SessionLearned> adopted_;  // adopt(): for the next make() (kinds, colouring, constants)
  std::shared_ptr<const DeclaredKinds> declared_;  // take_declared(): for the next make() only
  // The run-long constants adopted or last given out: learned() shares them while they are the same.
  mutable std::shared_ptr<const kernels::CompressedJacobian::RunConstants> run_constants_;
  // Likewise the kinds and the varying colouring (the session's own,
  // jacobian_constants_ and varying_coloring_, change in recheck_claims).
  mutable std::shared_ptr<const kernels::ConstantEntries> shared_kinds_;
  mutable std::shared_ptr<const structure::VaryingColoring> shared_varying_coloring_;
  bool derivatives_checked_ = false;       // check_derivative_claims ran (once per session)
  bool kinds_checked_ = false;             // the declared kinds were checked at least once
  bool constants_rechecked_ = false;       // recheck_claims ran for the constant entries (once per session)
  bool derivatives_rechecked_ = false;     // and for the directional derivatives
  NewtonFailureWatch newton_watch_;        // when to recheck (reset by make())
  bool directional_ = false;               // the Jacobians from directional derivatives (settings, unless found wrong)
  // Dependencies the FMU's pattern leaves out, by (row, unknown) name: added
  // to IDA's pattern (augmented_, coloured by augmented_coloring_); no elimination.
  std::vector<std::pair<std::string, std::string>> hidden_dependencies_;
  // Unknowns whose directional derivatives were found wrong (by name: the
  // columns of the current index-1 system in finite_difference_columns_,
  // which the integrator holds by reference).
  std::set<std::string> wrong_unknowns_;
  std::vector<bool> finite_difference_columns_;
  void note_wrong_columns(ModelEvaluation& evaluation, const std::vector<std::size_t>& columns);
  // finite_difference_columns_ from wrong_unknowns_ over the current system; true when any.
  bool mark_wrong_columns(ModelEvaluation& evaluation);
  // The entries of the columns marked in finite_difference_columns_ made
  // varying in jacobian_constants_ (over `pattern`): constants taken by
  // directional derivatives are trusted only where those were found right.
  void keep_constants_of_right_columns(const structure::Pattern& pattern);
  std::optional<structure::Pattern> augmented_;
  structure::Coloring augmented_coloring_;
  bool error_test_logged_ = false;  // said once which unknowns IDA's error test leaves out
  // The last make()'s error-test mask (null: every unknown in the test), and
  // whether its plan_elimination() planned and declined: for learned().
  std::shared_ptr<const std::vector<double>> error_test_;
  bool elimination_declined_ = false;
  double stop_time_;
  // The indicators' FMI domains for IDA's root finding (indicator_domains.h).
  IndicatorDomains indicator_domains_;
  std::vector<double> y_, yp_;  // the point at time t (also after a failure)
  double t_;                    // the point the caller sees
  double t_ida_;                // IDA's internal time (>= t after a step past an output time)
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_INTEGRATION_SESSION_H
