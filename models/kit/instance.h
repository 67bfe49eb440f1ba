// models/kit/instance.h -- one FMU instance: the FMI 3.0 Model Exchange state
// machine, the value store, lazy evaluation, the directional-derivative
// cache and the clocks. The extern "C" functions in fmi3_functions.cpp are
// thin wrappers. One file per concern:
//   instance.cpp              construction, modes, evaluation, logging
//   instance_values.cpp       fmi3Get/Set{Float64,Int32,Boolean}, value checks
//   instance_continuous.cpp   time, states, derivatives, event indicators,
//                             fmi3UpdateDiscreteStates, directional derivatives
//   instance_clocks.cpp       clocks (below)
//   instance_constraints.cpp  Najafi's constraint functions (FMI 2.0 variants)
//   instance_state.cpp        fmi3Get/Set/Free/Serialize/DeserializeFMUState
//
// State machine (FMI 3.0 section 3.2, with the FMI-LS-DAE switch):
//   Instantiated --EnterConfigurationMode--> Configuration --Exit--> Instantiated
//   Instantiated --EnterInitializationMode--> Initialization
//   Initialization --ExitInitializationMode--> Event
//   Event <--EnterEventMode / EnterContinuousTimeMode--> ContinuousTime
//   Event, ContinuousTime --Terminate--> Terminated;  any --Reset--> Instantiated
// A call that the current state does not allow returns fmi3Error and logs
// "<function>: not allowed in <state> (allowed in ...)". An error inside the
// model (an exception) returns fmi3Error with its message.
//
// Evaluation is lazy: every setter marks the instance dirty; the first getter
// of a calculated value runs Model::compute once. fmi3GetFloat64 of knowns
// alone (model.h, compute()'s contract: the time, the continuous states and,
// in DAE mode, the manifest's algebraic variables and a fully implicit
// model's derivatives) in Continuous-Time or Event Mode reads them without
// it: an importer's output rows and its reading of the values an event left
// (PsseGrid's event solve) would otherwise evaluate the whole model once
// each, for values compute() cannot change (knowns_now(); not with clocks,
// whose partitions compute() activates, nor in the OpenModelica form). fmi3GetEventIndicators at a
// point not yet computed runs Model::compute_event_indicators instead (the
// indicators alone where the model provides that; compute() by default), and
// a later getter of any other calculated value at the same point still runs
// compute(); indicators asked after compute() are read from its values. Partial derivatives are
// collected once per point into a CSR table keyed by unknown value reference
// and its transpose (by known). An fmi3GetDirectionalDerivative call marks the
// rows its seeded knowns reach (the transpose's columns) and sums only those,
// each over its whole row in table order, so the values are bitwise those of
// the full product; every other asked row is exactly 0. Cost per call: the
// nonzeros of the reached rows, plus the knowns' columns, plus a sequential
// comparison of the asked unknowns with the last call's and a fill with 0
// (an importer asks the same list in every call; the place of each
// reference in it is kept; another list costs one check per asked
// unknown), not the nonzeros of every asked row: a coloured Jacobian asks
// every row in each of its ~100 colour calls, and each colour reaches a few
// percent of them.
//
// Value-reference checks cost O(1) per value on the hot path: fmi3Get/SetFloat64
// consult per-variable tables (the type; whether the variable may be set in
// the current mode) and build a message only when a check fails. The settable
// table depends on the mode and the DAE switch; it is rebuilt (O(variables))
// by the first setter call after either changed, a handful of times per run.
// Importers set every algebraic variable and derivative at every residual
// evaluation: a refusal string built per value there cost several times
// Model::compute itself (TransmissionLine N = 320, DAE form: 14 % of the run).
// Setters mark the instance dirty only when a value actually changed, so the
// importer setting the same point once per Jacobian colour costs one
// compute() and one partial-derivative table, not one per colour.
//
// Clocks (FMI 3.0 2.2.9 and the Event Mode rules of 2.3.5; instance_clocks.cpp).
// Activation flags live in the Boolean store by the clock's value reference.
//   fmi3SetClock    Event Mode, input clocks only. A time-based clock only at
//                   its due time (within 1e-9 relative); a periodic clock at
//                   most once per Event Mode; fmi3ClockInactive only for
//                   canBeDeactivated clocks (its clocked states fall back to
//                   their previous values).
//   fmi3GetClock    Event Mode; an output clock is evaluated by compute().
//   fmi3GetInterval Initialization and Event Mode, time-based clocks; the
//                   qualifier is Changed the first time a value is read,
//                   Unchanged after, NotYetKnown for an unarmed countdown.
//   fmi3GetShift    Initialization Mode, periodic clocks.
//   fmi3SetInterval fixed (Initialization Mode) and tunable (also Event Mode)
//                   clocks that declare intervalDecimal; fmi3SetShift the
//                   same clocks, Initialization Mode.
//   Fractions       only for clocks with supportsFraction.
//   fmi3UpdateDiscreteStates  after Model::update_discrete(): every clocked
//                   state of an active clock is committed to its previous
//                   value, time-based clocks that ticked get their next due
//                   time (a changing clock from the model's next interval),
//                   and every clock is deactivated.
// Calls outside these rules return fmi3Error and log why. Duties the importer
// leaves undone are logged once as warnings (fmi3Warning): a time-based tick
// it let pass (seen at fmi3SetTime / fmi3EnterEventMode), an interval it must
// read and did not (changing: after each tick; countdown: every Event Mode;
// fixed/tunable without intervalDecimal, changing and countdown: in
// Initialization Mode). fmi3EnterContinuousTimeMode with a clock still active
// (no fmi3UpdateDiscreteStates since fmi3SetClock) is an error. Clocked
// variables are read and written only in Initialization Mode or while one of
// their clocks is active (Description::lenient_clocked_access relaxes reads).
#ifndef LSDAE_MODELS_KIT_INSTANCE_H
#define LSDAE_MODELS_KIT_INSTANCE_H

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fmi3_abi.h"
#include "kit/description.h"
#include "kit/partial_table.h"

namespace lsdae::kit {

enum class Mode { instantiated, configuration, initialization, event, continuous_time, terminated };
const char* mode_name(Mode mode);

class Instance {
 public:
  // Throws std::runtime_error / std::invalid_argument with a complete message.
  Instance(std::string name, const std::string& token, const std::string& resource_path, bool logging_on,
           fmi3InstanceEnvironment environment, fmi3LogMessageCallback log_callback);
  Instance(const Instance&) = delete;  // model_log_ points back at this instance
  Instance& operator=(const Instance&) = delete;

  // Reports to the importer's logger. Errors and warnings are always reported,
  // other categories only when logging is on.
  void log(fmi3Status status, const char* category, const std::string& message) const;
  // Logs and returns fmi3Error unless `mode_` is one of `allowed`.
  bool check_mode(const char* function, std::initializer_list<Mode> allowed) const;

  // fmi3SetDebugLogging: `on` for the categories named (every category when
  // none is named); the model's own categories (LogSink) start off.
  fmi3Status set_debug_logging(bool on, std::size_t n = 0, const char* const categories[] = nullptr);
  fmi3Status enter_configuration_mode();
  fmi3Status exit_configuration_mode();
  fmi3Status enter_initialization_mode(double start_time);
  fmi3Status exit_initialization_mode();
  fmi3Status enter_event_mode();
  fmi3Status enter_continuous_time_mode();
  fmi3Status terminate();
  fmi3Status reset();

  fmi3Status get_float64(const fmi3ValueReference vrs[], size_t n, double values[], size_t n_values);
  fmi3Status set_float64(const fmi3ValueReference vrs[], size_t n, const double values[], size_t n_values);
  fmi3Status get_boolean(const fmi3ValueReference vrs[], size_t n, bool values[], size_t n_values);
  fmi3Status set_boolean(const fmi3ValueReference vrs[], size_t n, const bool values[], size_t n_values);
  fmi3Status get_int32(const fmi3ValueReference vrs[], size_t n, std::int32_t values[], size_t n_values);
  fmi3Status set_int32(const fmi3ValueReference vrs[], size_t n, const std::int32_t values[], size_t n_values);
  // Any other type: no variable of that type exists in kit FMUs.
  fmi3Status no_such_type(const char* function, const fmi3ValueReference vrs[], size_t n) const;

  fmi3Status set_time(double time);
  fmi3Status set_continuous_states(const double x[], size_t n);
  fmi3Status get_continuous_states(double x[], size_t n);
  fmi3Status get_derivatives(double dx[], size_t n);
  fmi3Status get_nominals(double nominals[], size_t n);
  fmi3Status get_event_indicators(double indicators[], size_t n);
  fmi3Status get_number_of_states(size_t* n) const;
  fmi3Status get_number_of_event_indicators(size_t* n) const;
  fmi3Status update_discrete_states(bool* need_update, bool* terminate, bool* nominals_changed,
                                    bool* values_changed, bool* next_defined, double* next_time);
  fmi3Status completed_integrator_step(bool* enter_event_mode, bool* terminate);
  fmi3Status get_directional_derivative(const fmi3ValueReference unknowns[], size_t n_unknowns,
                                        const fmi3ValueReference knowns[], size_t n_knowns, const double seed[],
                                        size_t n_seed, double sensitivity[], size_t n_sensitivity);

  // Clocks (instance_clocks.cpp; the rules are in the header comment).
  fmi3Status set_clock(const fmi3ValueReference vrs[], size_t n, const bool values[]);
  fmi3Status get_clock(const fmi3ValueReference vrs[], size_t n, bool values[]);
  // counters/resolutions null: the decimal function.
  fmi3Status get_interval(const char* function, const fmi3ValueReference vrs[], size_t n, double intervals[],
                          std::uint64_t counters[], std::uint64_t resolutions[], fmi3IntervalQualifier qualifiers[]);
  fmi3Status get_shift(const char* function, const fmi3ValueReference vrs[], size_t n, double shifts[],
                       std::uint64_t counters[], std::uint64_t resolutions[]);
  // intervals null: the fraction function (counters / resolutions).
  fmi3Status set_interval(const char* function, const fmi3ValueReference vrs[], size_t n, const double intervals[],
                          const std::uint64_t counters[], const std::uint64_t resolutions[]);
  fmi3Status set_shift(const char* function, const fmi3ValueReference vrs[], size_t n, const double shifts[],
                       const std::uint64_t counters[], const std::uint64_t resolutions[]);

  // Najafi et al.'s constraint extension (FMI 2.0 variants; the function
  // names in messages are the fmi2 ones). instance_constraints.cpp.
  //   get_number_of_constraints  fmi2GetNumberOfConstraints: active rows now.
  //   constraints                fmi2Constraint: C[maxNumberOfConstraints], the
  //                              first N written.
  //   constraint_jacobian        fmi2ConstraintJacobian: row-major N x states,
  //                              columns in state-vector order.
  //   projection_step            fmi2ProjectionStep: S = -D^T (D D^T)^-1 C
  //                              (projection.h); fmi3Error when D is rank-deficient.
  //   projection                 fmi2Projection: Gauss-Newton steps until
  //                              max|C_i| <= tolerance, at most iteration_limit
  //                              steps; P = x_end - x_start; states updated only
  //                              when `apply`. fmi3Discard (logged; states
  //                              unchanged, P = 0) when no projection is found.
  // Each returns fmi3Error when the variant does not provide it.
  fmi3Status get_number_of_constraints(size_t* n);
  fmi3Status constraints(double C[]);
  fmi3Status constraint_jacobian(double J[]);
  fmi3Status projection_step(double S[]);
  fmi3Status projection(double P[], double tolerance, size_t iteration_limit, bool apply);

  // The FMU state (FMI 3.0 2.2.6.4, FMI 2.0 2.1.8; instance_state.cpp has the
  // rules and the byte format). `state` is an fmi3FMUState / fmi2FMUstate.
  // Messages name the fmi3 functions (the fmi2 layer renames them).
  fmi3Status get_fmu_state(void** state);
  fmi3Status set_fmu_state(void* state);
  fmi3Status free_fmu_state(void** state);
  fmi3Status serialized_fmu_state_size(void* state, size_t* size);
  fmi3Status serialize_fmu_state(void* state, std::uint8_t bytes[], size_t size);
  fmi3Status deserialize_fmu_state(const std::uint8_t bytes[], size_t size, void** state);

  // FMI 2.0: the start time of fmi2SetupExperiment, for
  // fmi2EnterInitializationMode (part of the instance's state).
  void set_setup_start_time(double time) { setup_start_time_ = time; }
  double setup_start_time() const { return setup_start_time_; }

  const std::string& name() const { return name_; }
  const Description& description() const { return desc_; }

  // The instance's own value references for `vrs` as the importer passed them
  // (the numbers of modelDescription.xml): `vrs` itself unless the variant
  // scatters its value references (Description::external_vr), else a
  // translated copy in scratch `slot` (0 or 1: two lists per call at most).
  // Logs "<function>: value reference N does not exist" and returns nullptr
  // for a number no variable has.
  const fmi3ValueReference* internal_vrs(const char* function, const fmi3ValueReference vrs[], size_t n, int slot);

 private:
  bool dae_mode() const;
  bool check_vr(const char* function, fmi3ValueReference vr, VarType type) const;
  // Logs and returns false when clocked variable `vr` may not be read
  // (`write` false) or written now.
  bool check_clocked_access(const char* function, fmi3ValueReference vr, bool write) const;
  // Why `vr` may not be set now, or empty when it may. The slow path: only
  // for the message of a refused call and to rebuild settable_now_.
  std::string set_refusal(fmi3ValueReference vr) const;
  // settable_now_ for the current mode and DAE switch (rebuilt when they changed).
  const std::vector<std::uint8_t>& settable_now();
  // Whether every one of the n value references is a known of compute() now
  // (header, "Evaluation is lazy"); false outside Continuous-Time and Event
  // Mode, with clocks and in the OpenModelica form. Cost: one table look-up
  // per reference.
  bool knowns_only(const fmi3ValueReference vrs[], size_t n);
  Context context();
  void ensure_computed();
  // The event indicators of the current point (instance.h, "Evaluation is lazy").
  void ensure_indicators();
  void ensure_partials();
  // The values changed: results and partials are recomputed; outside
  // Continuous-Time Mode parameters and discrete variables may have changed
  // too (Context::discrete_epoch).
  void touch() {
    computed_ = false;
    indicators_ready_ = false;
    partials_ready_ = false;
    if (mode_ != Mode::continuous_time || discrete_inputs_) ++discrete_epoch_;
  }
  void load_start_values();
  // Writes values[i] to the Float64 variable refs[i], i < n, and touches only
  // when some bits changed: compared up to the first value whose bits differ
  // (an importer sets the same point again once per Jacobian colour: then
  // nothing is written), written from there on (instance_values.cpp).
  void write_float64(const ValueRef* refs, const double* values, std::size_t n);

  // Clock helpers (instance_clocks.cpp).
  struct ClockRun;
  void reset_clocks();
  ClockRun* clock_run(const char* function, fmi3ValueReference vr);
  void resolve_clock_timing(ClockRun& run);
  void start_clock_schedule();
  void begin_event_mode_clocks();
  fmi3Status clocks_after_update(const DiscreteUpdate& update);
  fmi3Status check_missed_ticks(const char* function);
  fmi3Status check_clock_duties(const char* function);
  double tick_tolerance(double due) const;

  // FMU state helpers (instance_state.cpp).
  struct SavedState;
  bool check_state_capability(const char* function, bool serialize) const;
  // The state `state` points to when this binary made it and did not free it;
  // otherwise logs why and returns nullptr.
  SavedState* known_state(const char* function, void* state) const;
  SavedState capture() const;
  std::vector<std::uint8_t> encode(const SavedState& state) const;
  // Throws std::invalid_argument saying what is wrong with the bytes.
  SavedState decode(const std::uint8_t bytes[], size_t size) const;

  // Constraint extension helpers (instance_constraints.cpp).
  std::size_t active_constraints();
  void evaluate_constraints(double C[]);
  // J (active x states, row-major) at the current states.
  void evaluate_constraint_jacobian(std::size_t active, std::vector<double>& J);
  bool check_constraint_call(const char* function, bool provided, const char* flag);

  std::string name_;
  std::string resource_path_;
  bool logging_on_;
  // The model's own log categories (Description::log_categories) that are on.
  std::vector<std::string> model_log_on_;
  struct ModelLog final : LogSink {
    const Instance* self = nullptr;
    bool enabled(const std::string& category) const override;
    void message(const std::string& category, const std::string& text) const override;
  } model_log_;
  fmi3InstanceEnvironment environment_;
  fmi3LogMessageCallback log_;
  std::unique_ptr<Model> model_;
  Description desc_;
  Mode mode_ = Mode::instantiated;
  double time_ = 0.0;
  std::vector<double> f64_;
  std::vector<std::uint8_t> bool_;
  std::uint64_t discrete_epoch_ = 1;  // Context::discrete_epoch (never 0)
  // An input that is not continuous (the setters accept inputs in every
  // running mode): then every change moves the epoch.
  bool discrete_inputs_ = false;
  bool computed_ = false;
  // The event indicators of the current point are in f64_ (computed_ or
  // Model::compute_event_indicators ran since the last change of a value);
  // the other calculated values are current only when computed_.
  bool indicators_ready_ = false;
  bool partials_ready_ = false;
  // Partial derivatives of the current point: CSR by unknown value
  // reference, its transpose, the rows with a non-finite partial (summed in
  // every call: NaN or Inf times a seed of 0 is NaN, which the full product
  // reports). Rebuilt only when the model's pattern changed (partial_table.h).
  PartialTable partials_;
  std::vector<double> seed_by_vr_;  // scratch, all zero between calls
  // Per unknown: the call (epoch) whose seeds last reached it.
  std::vector<std::uint32_t> reached_;
  std::uint32_t reach_epoch_ = 0;
  std::vector<ValueRef> reached_rows_;  // this call's reached rows, each once
  // The unknowns of the last directional call as passed (an importer passes
  // the same list in every colour's call), and per value reference its
  // place there + 1 (0: not asked); asked_unique_: no reference twice.
  std::vector<fmi3ValueReference> asked_;
  std::vector<std::uint32_t> asked_at_;
  bool asked_unique_ = false;
  // Per value reference: 1 when the variable is Float64 (get) / may be set
  // now (settable_now_, valid for settable_mode_ and settable_dae_).
  std::vector<std::uint8_t> is_float64_;
  std::vector<std::uint8_t> settable_now_;
  Mode settable_mode_ = Mode::terminated;
  bool settable_dae_ = false;
  bool settable_valid_ = false;
  // Per value reference (+ a 0 for out-of-range ones): 1 when a known of
  // compute() in DAE mode (knowns_dae_) / in ODE mode (knowns_ode_):
  // knowns_only()'s tables, built at instantiation.
  std::vector<std::uint8_t> knowns_dae_, knowns_ode_;
  bool knowns_apply_ = false;  // no clocks, not the OpenModelica form
  std::vector<fmi3ValueReference> vr_scratch_[2];  // internal_vrs()

  // Per clock of desc_.clocks: what the instance knows of its timing.
  struct ClockRun {
    ValueRef vr = kNoValueRef;
    double interval = 0.0, shift = 0.0;       // periodic: current; aperiodic: last announced
    std::uint64_t counter = 0, resolution = 0, shift_counter = 0;
    bool fraction = false;                     // counter/resolution are the interval (and shift)
    bool timing_known = false;                 // interval/shift resolved (from XML, importer or model)
    std::optional<double> due;                 // time of the next tick (time-based clocks)
    std::uint64_t ticks = 0;                   // ticks so far
    std::optional<double> last_tick;
    bool fresh = true;                         // the next GetInterval answers Changed
    bool must_read = false;                    // an interval the importer has to read
    bool ticked_now = false;                   // ticked in this Event Mode
    bool missed_warned = false, duty_warned = false;
  };
  std::vector<ClockRun> clock_runs_;
  std::vector<std::size_t> clock_of_vr_;  // vr -> index in clock_runs_, or npos
  std::vector<std::uint8_t> clocked_;     // vr -> 1 when the variable has clocks
  double start_time_ = 0.0;
  double setup_start_time_ = 0.0;                // FMI 2.0 fmi2SetupExperiment
  std::vector<double> initial_internal_state_;  // Model::internal_state() as constructed, for fmi3Reset
  std::vector<std::shared_ptr<SavedState>> saved_states_;  // the FMU states this instance made and did not free
};

}  // namespace lsdae::kit

#endif  // LSDAE_MODELS_KIT_INSTANCE_H
