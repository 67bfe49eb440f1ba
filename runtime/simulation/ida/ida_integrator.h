// runtime/simulation/ida/ida_integrator.h -- SUNDIALS IDA with the KLU sparse
// direct solver and lsdae's coloured Jacobian.
//
// Reference: A. C. Hindmarsh et al., "SUNDIALS: Suite of nonlinear and
// differential/algebraic equation solvers", ACM TOMS 31(3), 2005 (IDA: variable-
// order variable-step BDF for G(t, y, y') = 0); T. A. Davis, E. Palamadai
// Natarajan, "Algorithm 907: KLU", ACM TOMS 37(3), 2010.
//
// The driver is split as SUNDIALS splits IDA (ida.c, ida_ic.c, ida_ls.c,
// ida_io.c), one file pair per concern, sharing the integrator's state
// (ida_integrator_impl.h, private to this folder):
//   ida_integrator.cpp          IDA's memory and vectors, (re)start, options,
//                               the residual callbacks, the point
//   ida_roots.cpp               root finding: the root callback, IDARootInit
//   ida_step.cpp                IDASolve driving: one step, the retried first
//                               step, interpolation, error weights
//   ida_initial_conditions.cpp  IDACalcIC and the id vector it needs
//   ida_event_continuation.cpp  going on from IDA's history after an event
//   ida_linear_solver.{h,cpp}   KLU / dense set-up, the Jacobian callback
//   klu_ordering.{h,cpp}        AMD, COLAMD or METIS for KLU
//   klu_symbolic_reuse.{h,cpp}  KLU's analysis kept at restarts and across runs
//   ida_diagnostics.{h,cpp}     IDA's failures in lsdae's message shape; NaN record
//   ida_statistics.{h,cpp}      the counters, carried across IDAReInit
//   projecting_nonlinear_solver.{h,cpp}  Newton + projection as IDA's nonlinear solver
//   optimized_nvector.{h,cpp}   SUNDIALS' serial vector kernels, optimised
//
// Linear algebra policy: ida_linear_solver.h. The Jacobian values come from
// kernels::CompressedJacobian (finite differences or directional
// derivatives, colours in parallel over `pool`).
//
// Errors throw lsdae::Error(ErrorKind::solver) in the shape of
// ida_diagnostics.h:
//   "ida: at t = 1.25e-03 (h = 3.1e-12): the corrector failed to converge
//    repeatedly (IDA_CONV_FAIL) → ..." with IDA's own message appended.
// A residual that reports `recoverable` makes IDA retry with a smaller step.
//
// A model without unknowns (an FMU with no continuous states and no algebraic
// variables: a controller, a feedthrough block, a discrete counter) still
// runs: IDA then integrates one internal clock unknown c' = 0 that is never
// shown (y(), yp() stay empty), so time events, stop times and the roots of
// the event indicators work as for any other model.
//
// Non-finite values. A residual (or Jacobian entry) that comes back NaN or
// ±inf is treated like a refused evaluation (`recoverable`: IDA retries with
// a smaller step) and recorded: which row, at what time, how often since
// reset_faults(). When IDA then fails, the message names them instead of
// IDA's generic advice (which for NaN is "raise --max-steps"); so does the
// caller's `explain_failure` (e.g. fmi3Discard counts). Jacobians are always
// checked; residuals once IDA had a convergence or error-test failure since
// reset_faults() or start() -- a NaN residual always causes one within a
// Newton iteration or two --, so a run that goes well does not pay a pass
// over every residual vector.
#ifndef LSDAE_RUNTIME_SIMULATION_IDA_IDA_INTEGRATOR_H
#define LSDAE_RUNTIME_SIMULATION_IDA_IDA_INTEGRATOR_H

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "kernels/compressed_jacobian.h"
#include "kernels/residual_function.h"
#include "simulation/ida/ida_diagnostics.h"
#include "simulation/ida/ida_linear_solver.h"
#include "simulation/ida/ida_statistics.h"
#include "simulation/ida/klu_ordering.h"
#include "simulation/ida/klu_symbolic_reuse.h"
#include "structure/coloring.h"
#include "structure/pattern.h"

namespace lsdae::simulation {

class EliminatedResidual;

enum class JacobianSource { finite_differences, directional };
const char* to_string(JacobianSource source) noexcept;

// What the Jacobian callback tells IntegratorOptions::before_jacobian: IDA's
// point and its counters since the last start() (IDAReInit zeroes them).
struct JacobianCall {
  double t = 0.0;
  std::span<const double> y, yp;
  long steps = 0;                 // IDAGetNumSteps
  long convergence_failures = 0;  // IDAGetNumNonlinSolvConvFails
};
// What before_jacobian changed in place (both kept by reference in the
// options): the columns taken by finite differences, the constant entries
// (taken again).
struct JacobianRevision {
  bool finite_difference_columns_changed = false;
  bool constants_changed = false;
};

struct IntegratorOptions {
  double rtol = 1e-6;
  std::vector<double> atol;        // per unknown (size n)
  std::vector<double> id;          // per unknown: 1 differential, 0 algebraic
  // Per unknown: 1 in IDA's local error test, 0 not (error_test_mask.h); empty: all.
  // IDACalcIC still uses `id`; the test uses this mask (IDASetSuppressAlg).
  std::vector<double> error_test;
  std::vector<double> nominal;     // per unknown: magnitude floor of finite-difference increments (empty: 1)
  long max_steps_per_output = 100000;
  double max_step = 0.0;           // 0: no limit
  double initial_step = 0.0;       // 0: IDA's choice
  // IDA's band for a new Newton matrix (IDASetDeltaCjLSetup): no linear-solver
  // setup while cj stays within [cj_last·(1 − d)/(1 + d), cj_last·(1 + d)/(1 − d)]
  // of the last setup's cj_last; 0 < d < 1 (0.25: IDA's default, [0.6, 1.67]).
  // Wider: fewer setups, more Newton iterations per solve with the older matrix.
  double newton_dcj = 0.25;
  JacobianSource jacobian = JacobianSource::finite_differences;
  KluOrdering ordering = KluOrdering::amd;
  LinearSolverKind linear_solver = LinearSolverKind::klu;
  // KLU: keep the symbolic analysis at restarts (events), factor afresh with it
  // (klu_symbolic_reuse.h); false: SUNDIALS' re-analysis at every restart.
  bool keep_klu_analysis = true;
  // Directional Jacobians: re-form the last one for a new cj where ∂G/∂y'
  // is known (ResidualFunction::known_derivative_part), by the rule of
  // jacobian_reuse.h; false (and finite differences): every setup evaluates afresh.
  // A run's default is on (SimulationOptions::jacobian_reuse, which the
  // integration session passes here); an integrator made directly evaluates afresh.
  bool jacobian_reuse = false;
  // With event indicators: look for crossings inside each accepted step too,
  // on IDA's interpolating polynomial (ida_interior_roots.cpp).
  bool scan_inside_steps = true;
  std::size_t threads = 1;
  // Constant Jacobian entries (kernels/compressed_jacobian.h): both null, or
  // both set and kept by reference (they must outlive the integrator).
  // start() after the first drops the per-segment constants (an event).
  const kernels::ConstantEntries* constant_entries = nullptr;
  const structure::Coloring* varying_coloring = nullptr;
  // Directional Jacobians: per column, whether its colour is taken by finite
  // differences instead (its directional derivatives were found wrong,
  // CompressedJacobian::set_finite_difference_columns); kept by reference;
  // null or empty: none.
  const std::vector<bool>* finite_difference_columns = nullptr;
  // When set: called inside every step, after the Newton corrector converged,
  // to project y onto constraints before IDA's error test
  // (projecting_nonlinear_solver.h); 0 ok, > 0 recoverable failure.
  std::function<int(double t, std::span<double> y, std::span<const double> yp, std::span<const double> weights)>
      step_projection;
  // Linear elimination (eliminated_residual.h, structure/linear_elimination.h):
  // when set, `main` and `pool` are reduced residuals, `pattern` and
  // `coloring` the reduced system's, and IDA integrates the kept unknowns
  // only. Everything else stays per FULL unknown and row: atol, id,
  // error_test, nominal and the names here (the integrator picks the kept
  // entries), and start(), y(), yp(), interpolate(), error_weights() and the
  // root function see full points, the eliminated unknowns recovered by
  // `expansion` (one more FMU evaluation per recovered point; y()/yp() are
  // recovered once per step). Not with step_projection.
  EliminatedResidual* expansion = nullptr;
  // Names for messages and the caller's explanation of a failure (ida_diagnostics.h).
  IdaMessageNames names;
  // When set: called at the start of every Jacobian IDA asks for, before it
  // is evaluated (the claims rechecked after a Newton failure,
  // jacobian_recheck.h); what it returns applies to this Jacobian on.
  std::function<JacobianRevision(const JacobianCall&)> before_jacobian;
};

// g(t, y, y') for IDA's root finding (event indicators); same sign rule as residuals.
using RootFunction = std::function<int(double t, std::span<const double> y, std::span<const double> yp,
                                       std::span<double> g)>;

// What one_step() ended with.
enum class StepOutcome {
  step,       // one successful internal step; time() is the step's end
  root,       // a root of g was located; time() is the root, y()/yp() interpolated there
  stop_time,  // the stop time was reached exactly
};

class IdaIntegrator {
 public:
  // `main` evaluates IDA's residuals; `pool` (>= options.threads entries, may
  // include `main`) evaluates Jacobian colours. All must outlive the integrator,
  // and so must `pattern` and `coloring`.
  IdaIntegrator(kernels::ResidualFunction& main, std::vector<kernels::ResidualFunction*> pool,
                const structure::Pattern& pattern, const structure::Coloring& coloring, IntegratorOptions options);
  ~IdaIntegrator();
  IdaIntegrator(const IdaIntegrator&) = delete;
  IdaIntegrator& operator=(const IdaIntegrator&) = delete;

  // (Re)starts at t0 with y0, yp0 (IDAInit the first time, IDAReInit after).
  void start(double t0, std::span<const double> y0, std::span<const double> yp0);
  // Makes the algebraic y and the differential y' consistent (IDACalcIC with
  // IDA_YA_YDP_INIT), `t_next` the first output time. On failure the message
  // lists the largest remaining residuals by name (ida_initial_conditions.cpp).
  // With `throw_on_failure` false, a failure of IDACalcIC itself (its flag,
  // not an error the FMU raised) returns false instead, y and y' then being
  // IDACalcIC's last iterate: a caller that has another guess retries.
  // `after_event`: a restart after an event (the failure's advice says so).
  bool make_consistent(double t_next, bool throw_on_failure = true, bool after_event = false);
  void set_stop_time(double t_stop);
  // The first step after the next start() (IDASetInitStep), e.g. a quarter of
  // a step that was rejected after IDA accepted it; used once, then IDA
  // chooses again (0: IDA's own estimate).
  void set_next_initial_step(double h);
  // The size of the last step IDA took (IDAGetLastStep; 0 before the first).
  double last_step() const;
  // After a state event IDA's root finding returned (one_step() == root):
  // instead of a restart, go on from IDA's own history (its order and step)
  // when the late switch that implies changes nothing beyond IDA's tolerance
  // (ida_event_continuation.cpp: the rule). `y_after` is the caller's point
  // after the event (size()), `y_before` the one before it when the event
  // re-initialized unknowns (else empty), `t_stop` the stop time from now on.
  // true: IDA goes on (the next one_step() returns the rest of the step that
  // passed the event); false: nothing changed, restart as before.
  bool continue_after_event(std::span<const double> y_before, std::span<const double> y_after, double t_stop);

  // Event indicators: `count` functions evaluated by `g`; crossings in both
  // directions are roots (FMI 3.0: an event when an indicator changes its
  // domain). Call before start(); count 0 switches root finding off.
  void set_root_function(std::size_t count, RootFunction g);
  // Which roots were found by the last one_step() that returned `root`
  // (+1 rising, -1 falling, 0 none), one per function; also those found
  // inside a step (ida_interior_roots.cpp).
  std::vector<int> roots_found() const;
  // One internal step (IDA_ONE_STEP), never past the stop time. `tout` only
  // tells IDA the direction and scale on the first call. Throws
  // lsdae::Error(solver) naming the time, the step and IDA's reason (ida_step.cpp).
  StepOutcome one_step(double tout);
  // IDA's current error weights w_k = 1/(rtol·|y_k| + atol_k) (after a step).
  void error_weights(std::span<double> w) const;
  // The interpolated solution at t inside the last step (IDAGetDky), into y, yp.
  void interpolate(double t, std::span<double> y, std::span<double> yp) const;

  double time() const { return t_; }
  std::span<const double> y() const;
  std::span<const double> yp() const;
  IntegratorStats stats() const;  // ida_statistics.cpp
  // Unknowns the caller sees (with elimination: the full system's).
  std::size_t size() const { return full_n_; }

  // Non-finite residuals and Jacobian entries seen since the last
  // reset_faults() (or construction): "" when none, else e.g. "the residual
  // \"g\" was NaN at t = 0.5 (3 non-finite evaluations, the last at t = 0.51)".
  std::string nonfinite_report() const;
  // The report above with advice, and the caller's explain_failure: what a
  // failure message states instead of IDA's generic advice ("" when nothing).
  std::string known_cause() const;
  void reset_faults();

  // KLU's symbolic analysis across integrators of the same pattern
  // (klu_symbolic_reuse.h: detach_klu_analysis, adopt_klu_analysis), with
  // keep_klu_analysis. release: this integrator's analysis, taken out of its
  // solver (nullptr when it has none, or is not KLU); call it only when the
  // integrator is about to go. adopt: before the first start(); true when
  // `analysis` was made for this pattern and ordering and is now this
  // integrator's (then empty), false when it was left as it was.
  KluAnalysisPtr release_klu_analysis();
  bool adopt_klu_analysis(KluAnalysisPtr& analysis);
  // The run-long constant Jacobian entries this integrator took
  // (kernels/compressed_jacobian.h run_constants), and their adoption by a
  // new integrator of the same pattern before its first start (a restored
  // snapshot: Simulation::restore).
  kernels::CompressedJacobian::RunConstants run_constants() const;
  void adopt_run_constants(const kernels::CompressedJacobian::RunConstants& values);

 private:
  struct Impl;  // ida_integrator_impl.h
  int solve(double tout, int mode);
  // IDAGetDky into spans of IDA's own size.
  void interpolate_reduced(double t, std::span<double> y, std::span<double> yp) const;
  // Crossings inside a step (ida_interior_roots.cpp): the indicators at t
  // (the current point, or interpolated inside the last step); those at the
  // point a step starts from; after an accepted step that began at `from`
  // (the point before the call: after an event IDA went on from, that event's
  // time, inside IDA's last step), true when an indicator changed domain and
  // came back inside it (the point is then moved there).
  bool indicators_at(double t, std::vector<double>& g);
  void note_indicators_at_start();
  bool root_inside_last_step(double from);
  std::unique_ptr<Impl> impl_;
  std::size_t n_ = 0;       // IDA's unknowns
  std::size_t full_n_ = 0;  // the caller's (n_ without elimination)
  double t_ = 0.0;
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_IDA_IDA_INTEGRATOR_H
