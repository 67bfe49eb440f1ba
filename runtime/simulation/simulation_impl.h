// runtime/simulation/simulation_impl.h -- the private state of
// lsdae::Simulation (lsdae/simulation.h) and the operations its parts share.
// Private to runtime/simulation/; not installed.
//
// One Simulation::Impl, split by concern across these files:
//   simulation.cpp              create(), set/get, statistics, check_jacobian: the public API
//   simulation_run.cpp          initialize() and advance_to(): the run loop
//   simulation_integrator.cpp   the IDA integrator and the point (t, y, y') it works on:
//                               nominals, tolerances, (re)start, values by variable
//   simulation_events.cpp       the FMU's event iteration at the start and at events
//   simulation_reselection.cpp  the numeric choice of dummy derivatives at the start and
//                               their re-selection at run time
//   simulation_projection.cpp   the glue to ConstraintProjector (constraint_projection.h):
//                               the projector, the start values, after-step projection,
//                               the re-initialization after an event (impulse_reinitialization.h)
//   simulation_reset.cpp        reset(): back to create()'s state for the next scenario
//   simulation_fmu_constraints.cpp  the constraints an FMI 2.0 FMU declares itself (Najafi
//                               et al.'s extension, fmu_constraint_projection.h): measured,
//                               and projected onto, after accepted steps
//
// Invariants between calls (what every part may rely on and must keep):
//   - structure.index1 is set; residuals (one per instance) and, when the
//     projection method has constraints, projector refer to it, to
//     structure.analysis.system and to dae: replace them together
//     (retire_integrator(), retire_residuals(), then make_residuals()).
//   - After initialize(): integrator refers to residuals and to
//     structure.iteration / structure.coloring; y, yp have one entry per
//     IDA unknown (structure.index1->unknowns) and are the point at time t;
//     t <= t_ida (IDA's own time, ahead after a step past an output time).
//   - Every instance has been driven through the same calls, so any of them
//     can evaluate any point.
#ifndef LSDAE_RUNTIME_SIMULATION_SIMULATION_IMPL_H
#define LSDAE_RUNTIME_SIMULATION_SIMULATION_IMPL_H

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "lsdae/simulation.h"
#include "simulation/constraint_projection.h"
#include "simulation/fmu_constraint_projection.h"
#include "simulation/dummy_selection.h"
#include "simulation/eliminated_residual.h"
#include "simulation/model_dae.h"
#include "simulation/model_residual.h"
#include "simulation/ida/ida_integrator.h"
#include "simulation/input_table.h"
#include "structure/coloring_varying.h"
#include "structure/linear_elimination.h"
#include "structure/pipeline.h"

namespace lsdae {

namespace simulation {
inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
// Event iterations (fmi3UpdateDiscreteStates calls) and events at one time
// before lsdae calls the FMU chattering.
constexpr int kMaxEventsAtOneTime = 1000;
// Events closer than this (relative to max(1, |t|)) count as one time for the
// chattering limit above.
constexpr double kEventChatterSpacing = 1e-12;
}  // namespace simulation

struct Simulation::Impl {
  std::shared_ptr<const Model> model;  // an Fmu, or a System of FMUs (lsdae/model.h)
  SimulationOptions options;
  double t_start = 0, t_stop = 1, interval = 0.002, rtol = 1e-6, atol = 1e-6;
  simulation::ModelDae dae;
  structure::PipelineOptions pipeline;
  structure::StructureOutcome structure;
  // create()'s structure, kept for reset() when a run may replace it (dummy
  // derivatives: the numeric selection at the start, re-selections later).
  std::shared_ptr<const structure::StructureOutcome> created_structure;
  std::vector<structure::StateSelect> model_state_select;  // the model's own preferences
  // reselect_if_needed's working state: the preferences that keep the dummies
  // `reselect_preferences_for`, and the FMU Jacobian callback (it refers to
  // instances[0], dae and structure.analysis.system, which outlive it).
  std::vector<structure::StateSelect> reselect_preferences;
  std::vector<std::size_t> reselect_preferences_for;
  // The selection's Jacobian values (directional or finite differences) at
  // instances[0] for structure.analysis.system; remade with the structure.
  std::unique_ptr<simulation::SelectionValues> selection_values;
  std::optional<structure::JacobianCallback> reselect_values;
  std::vector<std::unique_ptr<Instance>> instances;
  std::vector<std::unique_ptr<simulation::ModelResidual>> residuals;
  // Linear elimination (structure/linear_elimination.h; make_integrator): the
  // plan for the current structure, the colourings of its eliminated columns
  // and of the reduced system, and one reduced residual per residual. The
  // integrator refers to them; empty when nothing is eliminated.
  std::optional<structure::LinearElimination> elimination;
  structure::Coloring elimination_z_coloring, reduced_coloring;
  std::vector<std::unique_ptr<simulation::EliminatedResidual>> reduced_residuals;
  std::unique_ptr<simulation::IdaIntegrator> integrator;
  // The constant Jacobian entries of the current structure and the colouring
  // of the columns still varying (make_integrator; the integrator refers to them).
  kernels::ConstantEntries jacobian_constants;
  std::optional<structure::VaryingColoring> varying_coloring;
  std::unique_ptr<simulation::ConstraintProjector> projector;  // projection method only
  double projection_tolerance = 0;        // start values; in-step trigger when given
  // The FMU's own constraints (Najafi et al.'s extension; none when the FMU
  // declares none, or the binary lacks the functions); projected onto unless
  // --constraints none, which only measures them.
  std::unique_ptr<simulation::FmuConstraintProjector> fmu_constraints;
  bool fmu_constraints_project = false;
  bool fmu_constraints_due = false;  // an accepted step not yet checked (at t_ida)
  bool projection_tolerance_given = false;  // --projection-tolerance: in-step trigger on max|C|
  double fmu_projection_tolerance = 0;      // an FMI 2.0 FMU's own constraints: given, else 10·max(atol, rtol)
  // In-step projection: converged when its Newton increment is at most this
  // in IDA's WRMS norm (a tenth of the local error IDA accepts).
  static constexpr double kStepCorrectionTolerance = 0.1;
  // The value each invariant keeps (per DaeInput invariant): read after the
  // FMU's initialization and again after every event; invariant rows and
  // projection constraints are I − invariant_values.
  std::vector<double> invariant_values;
  // KLU's symbolic analysis of the previous run's last integrator, kept by
  // reset() for this run's first one (make_integrator adopts it when the
  // pattern and ordering are the same; ida/klu_symbolic_reuse.h).
  simulation::KluAnalysisPtr carried_klu_analysis;
  simulation::IntegratorStats finished;  // counters of integrators replaced by a re-selection
  long retired_synthesis_evaluations = 0;  // of residuals replaced by make_residuals()
  // Values given with set() before initialize(), whole variables (an element
  // set on an array updates the pending array), in the order first given.
  std::vector<std::pair<const Variable*, Values>> pending_sets;
  std::function<void(double, EventPhase)> observer;
  std::function<void(double)> step_observer;  // observe_steps()
  bool initialized = false;
  bool use_directional = false;
  bool step_callback = false;  // the FMU needs fmi3CompletedIntegratorStep
  bool terminated = false;
  std::atomic<bool> cancel_requested{false};  // Simulation::cancel(), from any thread
  // An event located at the end of the last step, not handled yet because
  // the caller's output time came first (the step went past it).
  enum class Pending { none, step, state, time } pending = Pending::none;
  std::optional<double> next_time_event;  // the earlier of the FMU's and the inputs' next time event
  std::optional<simulation::InputTable> inputs;  // --input: time-varying inputs (set_input)
  std::size_t indicators = 0;
  SimulationStats stats;
  std::vector<double> y, yp;    // the point at time t (also after a failure)
  std::vector<double> nominal;  // per IDA unknown
  bool error_test_logged = false;  // make_integrator said once which unknowns IDA's error test leaves out
  double t = 0;                 // the point the caller sees
  double t_ida = 0;             // IDA's internal time (>= t after a step past an output time)
  int events_at_this_time = 0;
  double last_event_time = -1e300;
  // fmi3Discard counts of the instances at the last output point (mark_faults).
  std::vector<std::uint64_t> discard_marks;
  double fault_mark_time = 0;

  // ---- names (simulation.cpp) ----------------------------------------------
  // The variable called `name`; Error(usage) when there is none.
  const Variable& variable(const std::string& name) const;
  std::string unknown_name(std::size_t k) const;  // IDA unknown k
  std::string row_name(std::size_t k) const;      // IDA row k
  // What the FMU returned for row k, for messages about a NaN in it.
  std::string row_value_name(std::size_t k) const;
  // Faults counted from here on: NaN residuals (the integrator) and fmi3Discard returns.
  void mark_faults();
  // "fmi3GetFloat64 (instance "lsdae") returned fmi3Discard 40 times since t = ..." or "".
  std::string discard_report() const;
  // Column names of `states` (state indices), comma-separated.
  std::string dummy_list(const std::vector<std::size_t>& states) const;

  // ---- integrator and point (simulation_integrator.cpp) ----------------------
  // One ModelResidual per instance for structure.index1, and the projector
  // (make_projector) when the projection method is on.
  void make_residuals();
  // Drop the residuals / the projector, keeping their counts (retired_synthesis_evaluations).
  void retire_residuals();
  void retire_projector();
  double nominal_of(std::size_t k) const { return k < nominal.size() ? nominal[k] : 1.0; }
  std::vector<double> atol_vector() const;  // atol · nominal, per IDA unknown
  std::vector<double> nominals() const;     // the variables' nominal attributes, per IDA unknown
  // Adds the counters of the current integrator to `finished` and drops it
  // (before the structures it refers to are replaced).
  void retire_integrator();
  // A new integrator over residuals, structure.iteration and structure.coloring
  // (or, with linear elimination, the reduced residuals, pattern and colouring).
  void make_integrator();
  // The linear elimination plan when SimulationOptions::eliminate_linear
  // allows one and it eliminates something (elimination, the reduced
  // residuals and colourings set); false otherwise (all cleared).
  bool plan_elimination();
  // next_time_event from the FMU's announcement and the input table, after t.
  void merge_input_events(std::optional<double> fmu_next, double after) {
    next_time_event = fmu_next;
    if (!inputs) return;
    if (auto e = inputs->next_event_after(after); e && (!next_time_event || *e < *next_time_event))
      next_time_event = e;
  }
  double stop_time_now() const { return next_time_event ? std::min(*next_time_event, t_stop) : t_stop; }
  // (Re)starts IDA at (at, y, yp) and makes the algebraic variables and the
  // derivatives consistent; y, yp, t and t_ida become that point.
  void restart(double at);
  // The states, derivatives and algebraic variables of the current point, by
  // variable: what survives a change of the index-1 system.
  struct VariableValues {
    std::vector<double> x, xdot, z;
  };
  VariableValues values_by_variable() const;
  // y, yp for the current index-1 system from values by variable.
  void load_values(const VariableValues& v);
  // The point (t, y, y') of the current index-1 system, by variable.
  simulation::DaePoint point_at(double at, std::span<const double> yy, std::span<const double> yyp) const;

  // ---- events (simulation_events.cpp) ----------------------------------------
  // Initialization Mode, the event iteration at the start and Continuous-Time
  // Mode, for every instance; sets next_time_event.
  void initialize_instances();
  // An event at t ("state", "time" or "step"): the event iteration on every
  // instance, then IDA restarted with consistent values.
  void handle_event(const char* kind);

  // ---- dummy derivatives (simulation_reselection.cpp) ------------------------
  bool uses_dummy_derivatives() const;
  // A higher-index model: choose the dummy derivatives from the FMU's own
  // Jacobian at the initial point (create() could only choose structurally).
  void select_dummy_derivatives_numerically();
  // At the end of a step: switches to a better conditioned selection; true
  // when it switched (IDA restarted at t_ida). Never continues on a singular
  // selection: Error(solver) when no selection clears the rcond floor (or,
  // with --no-reselect, when the kept one falls below it).
  bool reselect_if_needed();
  // The same at the point (at, y_at, yp_at) -- after an event, at the
  // post-event point (at_event); y_at may be y itself. On a switch IDA
  // restarts at `at` (true); otherwise nothing is restarted (false). A change
  // of the constraints the FMU's mode switches off (DummySelection::
  // switched_off) is a switch too, also with --no-reselect.
  bool reselect_at(double at, std::span<const double> y_at, std::span<const double> yp_at, bool at_event = false);
  // The selection values for the current structure (made on first use).
  simulation::SelectionValues& selection_values_now();

  // ---- projection (simulation_projection.cpp) --------------------------------
  // The projector for structure.index1's projection constraints (none when
  // the method is not projection or there are no constraints).
  void make_projector();
  // invariant_values from the instance's current point, handed to the
  // residuals and the projector.
  void read_invariant_values();
  void apply_invariant_values();
  // Moves the start values onto the constraints before IDA starts.
  void project_start_values();
  // After an event, before IDA restarts, when the post-event point (y at t)
  // violates the projection constraints: integrates over the impulse when a
  // velocity constraint switched on (impulse_reinitialization.h: momentum
  // conserved), otherwise projects onto the constraints in IDA's weighted
  // norm. Error(solver) when the projection fails.
  void project_after_event();
  // Dummy derivatives, at an event that switched constraints on (the FMU's
  // mode changed, reselect_at): when the post-event point `v` violates them,
  // the integration over the impulse (impulse_reinitialization.h) on the
  // projection view of the system (every state differential, the lower
  // formulations as constraints) moves v.x to x⁺, momentum conserved. When
  // it does not apply (a position constraint, a nonlinear balance) v is left
  // alone and the new system's IDACalcIC makes the point consistent (the
  // dummy states give way), with a note in the log.
  void reinitialize_switched_on(double at, VariableValues& v);
  // Inside IDA's step (ida/projecting_nonlinear_solver.h): projects the
  // corrected y onto the constraints at every step (with
  // --projection-tolerance: only when they drifted past it);
  // 0, or 1 when the FMU discarded (IDA retries smaller). Throws the
  // projector's Error(solver) on a singular or non-converging projection.
  int project_in_step(double at, std::span<double> yy, std::span<const double> yyp, std::span<const double> weights);
  // After an accepted step: measures the drift (stats.largest_drift) and,
  // with the projection method, projects IDA's point when it drifted.
  void project_if_needed();

  // ---- the FMU's own constraints (simulation_fmu_constraints.cpp) -----------
  // After the instances are initialized: fmu_constraints when the FMU
  // declares maxNumberOfConstraints > 0 and providesConstraints, with a note
  // for each declared function the binary lacks.
  void make_fmu_constraints();
  // After an accepted step at t_ida, IDA's point set in the FMU: measures
  // max|C| (stats.largest_drift) and, when projecting and it exceeds
  // projection_tolerance, projects the states and restarts IDA there (y'
  // from the FMU's derivatives). Error(solver) when the projection is
  // discarded or does not converge.
  void fmu_constraints_after_step();
  // Before IDA's next step: keeps its start point (t, y, y') and max|C|
  // there, so that the step can be rejected after IDA accepted it.
  void fmu_constraints_before_step();
  // Right after IDA accepted a step (before any row inside it is
  // interpolated): true when the FMU's projection would move the states by
  // a correction that is large against IDA's local error test (the rule is
  // in simulation_fmu_constraints.cpp); then IDA restarts at the step's start
  // with a quarter of the step (stats.projection_rejections) and the loop
  // takes the step again.
  bool fmu_constraints_reject_step();
  double fmu_step_start = 0;                   // IDA's time before the current step
  std::vector<double> fmu_step_y, fmu_step_yp;  // … and its point (empty: not kept)
  double fmu_violation = 0;                    // max|C| measured at …
  double fmu_violation_time = std::numeric_limits<double>::quiet_NaN();  // … this time
  int fmu_step_retries = 0;                    // rejections since a step last ended past …
  double fmu_rejected_until = -std::numeric_limits<double>::infinity();  // … the furthest rejected step end
};

}  // namespace lsdae

#endif  // LSDAE_RUNTIME_SIMULATION_SIMULATION_IMPL_H
