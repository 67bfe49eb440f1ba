// lsdae/simulation.h -- simulate an FMU: the class a pipeline drives.
//
//   auto fmu = lsdae::Fmu::open("TransmissionLine.fmu");
//   lsdae::SimulationOptions options;                  // defaults: DefaultExperiment
//   options.threads = 2;
//   auto sim = lsdae::Simulation::create(fmu, options);
//   sim->set("L", 2.5e-7);                             // parameters, start values
//   sim->initialize();                                 // consistent initial values
//   while (sim->time() < sim->stop_time()) {
//     sim->advance_to(std::min(sim->time() + sim->output_interval(), sim->stop_time()));
//     double v = sim->get("v_load");
//   }
//   const lsdae::SimulationStats& stats = sim->statistics();
//
// What create() does: builds the DAE from the manifest (or, for a plain ME
// FMU, F = ẋ − f(x)), runs the structural analysis (lsdae::structure:
// matching, Pantelides, index-1 system, iteration pattern, colouring), and
// instantiates one FMU instance per thread (one only when the FMU may be
// instantiated once per process), all switched to DAE mode.
// initialize() sets the values given with set(), runs the FMU's
// Initialization Mode and event iteration, and makes the algebraic variables
// and the derivatives consistent with IDA's IDACalcIC. advance_to() integrates
// with IDA + KLU and the coloured Jacobian (kernels/compressed_jacobian.h).
//
// Errors throw lsdae::Error: usage (unknown variable, bad option), invalid
// (the structural analysis failed: the message names residuals and
// variables), fmu_call (the FMU failed), solver (IDA failed: time, step,
// reason). After a solver error time() and get() still describe the last
// point reached, so a caller can keep what was computed.
//
// Not thread-safe: one Simulation is driven by one thread (it uses
// `threads` OpenMP threads inside Jacobian evaluations).
#ifndef LSDAE_SIMULATION_H
#define LSDAE_SIMULATION_H

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "lsdae/fmu.h"
#include "lsdae/values.h"

namespace lsdae {

// How a higher-index model is kept on its constraints (issue 6, docs/algorithms.md).
enum class ConstraintMethod {
  dummy_derivatives,  // Mattsson–Söderlind: the lower formulations are rows; dummies re-selected at run time
  projection,         // integrate the index-1 formulations, project onto the lower ones after steps
  none,               // integrate the index-1 formulations only: the lower ones and the invariants
                      // are measured after every step, not enforced (SimulationStats::largest_drift)
};

// When observe_events() is set: called at each event, before the FMU handles it
// (values just before the event) and after (values just after), at the same t.
enum class EventPhase { before, after };

enum class JacobianMode {
  automatic,           // directional when the FMU provides it, else finite differences
  finite_differences,  // coloured finite differences
  directional,         // coloured fmi3GetDirectionalDerivative (error if not provided)
  check,               // compare both at the initial point, then use directional
};

// What the run does with the Jacobian entries the FMU declares constant
// (dependenciesKind constant, fixed, tunable, discrete; issue 32): checked
// against central differences at the start point and at a perturbed one
// (kernels/constant_claims.h) each time IDA's system is made.
enum class JacobianClaims {
  fall_back,  // checked; a false entry is evaluated at every Jacobian, with one warning (--jacobian auto)
  trust,      // used unchecked (--jacobian trust)
  refuse,     // checked; a false claim stops the run, ErrorKind::invalid (--jacobian check)
};

struct SimulationOptions {
  std::optional<double> start_time, stop_time;  // default: DefaultExperiment, else 0 and 1
  std::optional<double> rtol;                   // default: DefaultExperiment tolerance, else 1e-6
  std::optional<double> atol;                   // default: rtol; scaled by each variable's nominal
  std::optional<double> output_interval;        // default: DefaultExperiment stepSize, else (stop-start)/500
  JacobianMode jacobian = JacobianMode::automatic;
  std::size_t threads = 1;                      // OpenMP threads (and FMU instances) for Jacobians
  std::string klu_ordering = "amd";             // amd, colamd or metis
  // IDA's rows permuted onto a structural matching (row k matched to unknown
  // k: a zero-free diagonal, so KLU's BTF analysis is O(nnz)); false keeps the
  // manifest's order of residuals.
  bool match_rows = true;
  long max_steps = 100000;                      // IDA steps between two output points
  ConstraintMethod constraints = ConstraintMethod::dummy_derivatives;
  bool reselect = true;                         // re-select dummy derivatives when conditioning degrades
  // Projection: project only when max |constraint| exceeds this (in the constraints' own units);
  // default: every step (and the start values when above 10·atol).
  std::optional<double> projection_tolerance;
  // Baselines for benchmarks (what other importers do), not for production:
  bool dense_linear_solver = false;             // SUNDIALS dense LU instead of KLU (O(n³) per factorization)
  // SUNDIALS' SUNLinSol_KLU (KLU's 64-bit interface, what lsdae falls back to
  // where n or nnz exceed int32) instead of lsdae's 32-bit KLU solver: the same
  // numbers, larger factors (for comparison).
  bool klu_64bit_indices = false;
  bool uncolored_jacobian = false;              // one evaluation per Jacobian column (no colouring)
  // Jacobian entries the FMU declares constant (dependenciesKind constant,
  // fixed; tunable, discrete until the next event) evaluated once, the
  // colouring over the varying ones only; false: every entry at every Jacobian.
  bool constant_jacobian_entries = true;
  JacobianClaims jacobian_claims = JacobianClaims::fall_back;
  // KLU's symbolic analysis (ordering, BTF) made once per run and kept at
  // events, where only the numeric factorization is redone, and carried by
  // reset() to the next run when its pattern is the same; false: analysed
  // again at every event and every run, as SUNDIALS does (for comparison).
  bool keep_klu_analysis = true;
  // IDA's setups for a new cj re-form the last Jacobian (J + Δcj·∂G/∂y',
  // ∂G/∂y' known: the semi-explicit form) instead of evaluating the model,
  // CVODE's reuse rule (runtime/simulation/ida/jacobian_reuse.h; the
  // default); false: a fresh Jacobian at every setup, as IDA does.
  bool jacobian_reuse = true;
  // Algebraic unknowns that every row depends on linearly with constant
  // coefficients (dependenciesKind constant, fixed) eliminated before IDA
  // sees the system, where a cost model finds it does not add Jacobian
  // nonzeros and removes at least 5 % of the unknowns (docs/simulation/ida.md,
  // "Linear elimination"); the default (--eliminate auto). A block that is
  // singular at the start gives the elimination up, not the run. false: IDA
  // integrates every unknown.
  bool eliminate_linear = true;
  double max_step = 0.0;                        // 0: no limit
  // IDA's band for a new Newton matrix (IDASetDeltaCjLSetup, --newton-dcj): no
  // linear-solver setup (a Jacobian evaluated or re-formed, a KLU
  // refactorization) while cj = α/h stays within a factor (1 + d)/(1 − d) of
  // the last setup's; 0 < d < 1, 0.25 IDA's default.
  double newton_dcj = 0.25;
};

struct JacobianCheck {
  double max_abs_difference = 0.0;
  // |fd − dd| relative to the largest |dd| of the same row: finite
  // differences carry an absolute error of about sqrt(eps)·(row magnitude),
  // so this is the scale on which they can be judged.
  double max_rel_difference = 0.0;
  std::string row, column;          // where the largest relative difference is
  double finite_difference = 0.0, directional = 0.0;  // the two values there
  double time = 0.0;                // where the check was made
  // Finite differences with increments of sqrt(eps) are good to about
  // sqrt(eps) ≈ 1.5e-8 on this scale (the smooth models of the test suite
  // stay below 1.2e-8); a wrong directional derivative is off by O(1). The
  // verdict: the two agree when the largest relative difference is at most
  // `threshold`, three orders of magnitude above the finite differences' own
  // error. Strongly nonlinear residuals can push the finite differences
  // themselves past it (Robertson's y2² term at y2 = 0).
  double threshold = 1e-5;
  bool agree() const { return max_rel_difference <= threshold; }
};

// The verdict in one line: "jacobian check at t = 0: finite differences and
// directional derivatives agree to 6.04e-11 (relative; threshold 1e-05): OK",
// or "... differ: largest relative difference 11.2 (threshold 1e-05) at row
// "r", column "x": finite differences 0.447, directional 2.5e-08 → ...".
std::string to_string(const JacobianCheck& check);

struct SimulationStats {
  // model size
  std::size_t unknowns = 0, differential = 0, algebraic = 0;
  std::size_t jacobian_nonzeros = 0, colors = 0, threads = 1;
  // Colours evaluated per Jacobian (= colors when no entry is declared
  // constant or SimulationOptions::constant_jacobian_entries is off), and the
  // entries evaluated once instead.
  std::size_t varying_colors = 0, constant_entries = 0;
  // Unknowns eliminated before IDA (SimulationOptions::eliminate_linear);
  // jacobian_nonzeros and colors are then the reduced system's.
  std::size_t eliminated = 0;
  std::string jacobian_method;  // "finite differences" or "directional"
  std::string klu_ordering;
  std::size_t structural_index = 0;
  // counters (deterministic for a given model, options and thread count)
  long steps = 0, residual_calls = 0, jacobian_evaluations = 0, jacobian_residual_calls = 0,
       directional_calls = 0, nonlinear_iterations = 0, nonlinear_convergence_failures = 0,
       error_test_failures = 0, linear_solver_setups = 0;
  long klu_lnz = 0, klu_unz = 0;  // nonzeros of the LU factors
  // KLU's index width: 32 (lsdae's solver on KLU's int32 interface), 64
  // (SUNDIALS' SUNLinSol_KLU, where n or nnz exceed int32), 0 (no KLU).
  int klu_index_bits = 0;
  // KLU symbolic analyses (ordering + BTF: once per run and re-selection with
  // keep_klu_analysis, else also at every event) and the full numeric
  // factorizations that replaced one at an event.
  long klu_symbolic_analyses = 0, klu_restart_factorizations = 0;
  // KLU analyses taken over from the previous run by reset() (a sweep's next
  // scenario on the same model, same pattern): such a run counts 0 analyses
  // above and 1 here.
  long klu_analyses_carried_over = 0;
  // How often the constant entries were evaluated, and the FMU calls that took
  // (already counted in jacobian_residual_calls / directional_calls).
  long constant_evaluations = 0, constant_calls = 0;
  // Evaluations of the FMU's residual variables made to synthesize d/dt r
  // (rows lsdae computes itself, ModelResidual): 2 per residual call of any
  // kind (IDA's, finite-difference Jacobians) when the model has such rows,
  // on top of residual_calls / jacobian_residual_calls; 0 otherwise.
  long synthesis_evaluations = 0;
  // Steps IDA had accepted that were rejected and taken again with a quarter
  // of the step, because the FMU's own constraint projection (Najafi et al.,
  // FMI 2.0) would have moved the states by more than the local error test
  // allows (docs/fmi2.md).
  long projection_rejections = 0;
  // First steps from a start (the initial point, a restart after an event)
  // that failed IDA's error test down to its limit and were tried again from
  // the same point with a step 1000 times smaller (at most twice per start).
  long first_step_retries = 0;
  // State events after which IDA went on from its own history (order and
  // step) instead of restarting (docs/simulation/events.md, "Going on from
  // IDA's history"); the other events restarted IDA.
  long events_continued = 0;
  // IDA setups that re-formed the last Jacobian for a new cj instead of
  // evaluating one (SimulationOptions::jacobian_reuse; docs/algorithms-jacobian.md,
  // "Re-forming the iteration matrix for a new cj"); not in jacobian_evaluations.
  long jacobian_reforms = 0;
  // Evaluations of the event indicators: IDA's root finding (its checks at
  // each step's end and after each restart, its Illinois iterations) and
  // lsdae's scan inside each step (docs/simulation/events.md). Each is one
  // FMU indicator call at a new point.
  long root_function_calls = 0;
  // wall time per phase, seconds
  double time_structure = 0, time_instantiate = 0, time_initialize = 0, time_integrate = 0;
  double reached_time = 0;
  // events and index reduction at run time
  long time_events = 0, state_events = 0, step_events = 0, reselections = 0, projections = 0;
  double largest_projection = 0;   // weighted RMS norm of the largest projection correction
  // Projection and none: the largest max_i |C_i| over the lower formulations and the
  // invariants (an invariant's C_i is its change since initialization or the last event), in
  // the constraints' own units: none measures it after every accepted step; projection, which
  // projects inside IDA's steps, takes what each corrector left before its projection
  // (rejected step attempts included).
  double largest_drift = 0;
  std::string largest_drift_constraint;  // where it was largest
  std::string dummy_derivatives;   // the current selection, comma-separated (empty: none)
  bool terminated_by_fmu = false;
};

// The iteration matrix IDA factors, ∂F/∂y + cj·∂F/∂y', at one point, in
// compressed sparse columns (the structural pattern: entries may be zero).
// Row k is IDA's row k (row_names[k]: the residual), column k its unknown k.
struct IterationMatrix {
  std::size_t rows = 0, cols = 0;
  std::vector<std::size_t> col_ptr, row_idx;  // col_ptr has cols + 1 entries
  std::vector<double> values;
  std::vector<std::string> row_names, column_names;
  double time = 0.0, cj = 0.0;
};

class Simulation {
 public:
  // A model is one FMU (lsdae::Fmu) or a system of FMUs (lsdae::System,
  // lsdae/system.h): the same run either way (lsdae/model.h).
  static std::unique_ptr<Simulation> create(std::shared_ptr<const Model> model, const SimulationOptions& options = {});
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  // Before initialize(): a parameter, input or start value, by name, or one
  // element of an array ("A[2,3]"). The text form is parsed strictly for the
  // variable's type (lsdae/values.h: "1e400", "nan", "true" are not Float64
  // values; an Int8 takes -128..127); the double form must be a value of
  // that type too. Error(usage) names the variable, its type and the value.
  void set(const std::string& name, double value);
  void set(const std::string& name, const std::string& text);
  // Before initialize(): time-varying inputs from a CSV table (a time column
  // and one column per input: continuous inputs interpolated linearly,
  // discrete ones held, a time event at every step or discrete change; the
  // format FMPy and fmusim read). Error(usage) names the line and column.
  void set_input(const std::filesystem::path& csv);
  void initialize();
  bool initialized() const;
  // Back to where create() left it, for the next scenario on the same model
  // (a sweep): the opened FMU, the structural analysis (the one create()
  // made, also after run-time re-selections of dummy derivatives) and the
  // instances (fmi3Reset / fmi2Reset, DAE mode switched on again) are kept;
  // everything given after create() -- set(), set_input(), the observers, a
  // cancel() request -- is forgotten, and the counters start from zero
  // (time_structure 0: nothing analysed; time_instantiate: the reset). A
  // run after reset() gives what a run of a new Simulation on the same FMU
  // and options gives: the same values, the same counters (but for KLU's
  // symbolic analysis, carried over from the previous run when the pattern
  // is the same: klu_analyses_carried_over 1, klu_symbolic_analyses 0, the
  // factors the same). Allowed in any
  // state, also after a failed or interrupted run; when an instance cannot
  // be reset (the FMU returned fmi3Error/Fatal) it throws Error(fmu_call)
  // and the Simulation is unusable: make a new one.
  void reset();

  // Integrates to `t` (clipped to stop_time()); returns the time reached.
  // Events (time, state and step events) on the way are handled inside: the
  // FMU's event iteration runs, IDA restarts with consistent values. Returns
  // early (time() < t) only when the FMU asked to terminate. t == time() does
  // nothing; NaN and t < time() are Error(usage): integration goes forward only.
  double advance_to(double t);
  // The one member another thread may call while advance_to() runs: asks it
  // to stop before its next IDA step. advance_to() then throws
  // Error(interrupted) with time() and get() at the last point IDA accepted;
  // a later advance_to() continues from there. A request made while no
  // advance_to() runs stops the next one at its first step.
  void cancel() noexcept;
  // Observes events (e.g. to write result rows just before and after each).
  void observe_events(std::function<void(double t, EventPhase phase)> observer);
  // Observes every step IDA accepts (e.g. a result row per step): called
  // after the step (and its projection), with time() and the values at the
  // step point -- also for a step that went past advance_to's target, before
  // the point at the target is interpolated. Not at event points (see
  // observe_events). What it throws ends advance_to, the point kept.
  void observe_steps(std::function<void(double t)> observer);
  bool terminated() const;
  double time() const;
  double start_time() const;
  double stop_time() const;
  double output_interval() const;

  // The value of a numeric or Boolean variable (or array element) at
  // time(), as a double. Error(usage) for an unknown name or a String.
  double get(const std::string& name);
  // Typed values of any variable at time(): all elements of an array, or
  // the one element named "A[2,3]".
  Values get_values(const std::string& name);
  // Bulk typed read at time(): `values.type` chooses the FMI getter; the
  // buffer is resized to the element count of `vrs` (all of that type).
  void get_values(std::span<const ValueReference> vrs, Values& values);
  // Bulk read of Float64 variables at time() (prepare the value references once).
  void get(std::span<const ValueReference> vrs, std::span<double> values);

  // Compares finite-difference and directional Jacobians at the current point.
  JacobianCheck check_jacobian();
  // The iteration matrix at the current point (after initialize()), by the
  // Jacobian method the run uses (statistics().jacobian_method). cj = 0
  // gives ∂F/∂y; the default cj is 1/output_interval(), a step of one output
  // interval. Error(usage) before initialize() or for a negative or
  // non-finite cj.
  IterationMatrix jacobian(std::optional<double> cj = std::nullopt);

  // ---- snapshots (docs/simulation/events.md, "Snapshots"): a run paused just
  // before an event, kept, and continued from there by other runs on this
  // Simulation (a sweep's scenarios that share their start). Exact: a run
  // restored from a snapshot computes from the event on what the run it was
  // taken from computes (lsdae restarts IDA at every event, so IDA's history
  // ends there; run_snapshot.h).
  //
  // Whether snapshots can be taken: every instance can get and set its FMU
  // state (canGetAndSetFMUState), the model is index 1 as analysed (no dummy
  // derivatives, no projection, no FMI 2.0 constraints, no invariants) and
  // has no --input table.
  bool can_snapshot() const;
  // The next advance_to() stops at the first event at or after `t`, before it
  // is handled: time() is the event's time, paused_at_event() is true (the
  // run loop returns run::Ending::paused). Any time, also before initialize().
  void pause_before_event_at(double t);
  bool paused_at_event() const;
  // While paused: set() is allowed and sets the values on every instance in
  // Event Mode at this event (parameters must be tunable, FMI 3.0 §3.2.3:
  // an FMU refuses fixed ones, Error(fmu_call)). advance_to(time()) handles
  // the event and returns; a later target goes on past it.
  using SnapshotId = std::size_t;
  // While paused: keeps the run's state (Error(usage) when not paused or
  // can_snapshot() is false). The snapshot belongs to this Simulation's
  // instances and survives reset().
  SnapshotId snapshot();
  // After reset() (or create()), before initialize(): the run continues from
  // the snapshot, paused at its event (set() then sets values at the event).
  // Values set() before are dropped. Error(usage) for an unknown or released id.
  void restore(SnapshotId id);
  // Frees a snapshot's FMU states; its id becomes unknown.
  void release_snapshot(SnapshotId id);
  // The bytes a snapshot holds of its own: the point, the counters, the
  // claims' verdicts and its pointers to what the snapshots of a run share
  // (the Jacobian entries' kinds, the varying colouring, the run-long
  // constant entries); not the FMU states (the FMU's own memory). 0 for an
  // unknown or released id. A count, the same on every machine of one
  // word size.
  std::size_t snapshot_bytes(SnapshotId id) const;
  // Every snapshot held: their own bytes plus what they share, once.
  std::size_t snapshots_bytes() const;

  const SimulationStats& statistics();
  // The structural analysis report (the text of `lsdae info --structure`).
  std::string structure_report() const;
  // The same as JSON (`lsdae info --structure --json`; structure/report.h lists the keys).
  std::string structure_report_json() const;
  // The model simulated; fmu() is that model as an FMU (Error(usage) for a System).
  const Model& model() const;
  const Fmu& fmu() const;

 private:
  Simulation();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lsdae

#endif  // LSDAE_SIMULATION_H
