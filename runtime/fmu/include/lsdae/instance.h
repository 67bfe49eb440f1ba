// lsdae/instance.h -- one Model Exchange instance: of an FMU (FMI 2.0 or FMI
// 3.0), or of a System of FMUs (lsdae/system.h), with the Model Exchange
// mode machine enforced on the lsdae side.
//
// One interface, three implementations behind it, chosen once by the Model
// that makes the instance (lsdae/model.h); nothing above asks which it got:
//   - runtime/fmu/fmi3/instance.h (FMI 3.0) and runtime/fmu/fmi2/instance.h
//     (FMI 2.0): the FMU's own calls, made by Fmu::instantiate (lsdae/fmu.h),
//     over runtime/fmu/fmu_instance.h, the call discipline they share: the
//     status policy, the discard record, the log routing and the
//     supervisor's call record (below);
//   - runtime/system/composite_instance.h: a System's instance, which fans
//     every call out to its components' FMU instances.
// This class keeps what all three share: the name, the state and its mode
// machine (which mode change may start where, and where it leads), the DAE
// switch, and the typed-value plumbing built on the typed getters/setters.
//
// Freed by the destructor (an FMU instance: fmi3FreeInstance /
// fmi2FreeInstance), on every path. An FMU instance's log messages go to
// lsdae's Logger (lsdae/log.h) as "[<instance name>] <category>: <message>".
//
// Status policy of an FMU instance (the SUNDIALS sign rule, mapped to FMI;
// fmi2Status and fmi3Status have the same values for OK..Fatal):
//   OK, Warning -> CallStatus::ok (a warning is logged by the FMU)
//   Discard     -> CallStatus::discard: recoverable, e.g. "retry with a
//                  smaller step"; returned by the data functions. In a mode
//                  change, Discard is an error.
//   Error       -> throws lsdae::Error(ErrorKind::fmu_call) naming the
//                  instance, the function and the FMU's last error message;
//                  the instance can still be reset or freed.
//   Fatal       -> the same, and the instance is unusable afterwards (FMI
//                  forbids every further call, even Free).
//   fmi2Pending (Co-Simulation only) and unknown values -> as Error.
// Every discard is counted (discards()), so a run that fails after many can
// name the function. Calling a function in a state where the FMU's FMI
// version forbids it throws lsdae::Error(ErrorKind::usage) before the FMU is
// called; so does a typed getter/setter of a type the FMI version lacks
// (FMI 2.0 has Real, Integer, Boolean and String: get_float64, get_int32,
// get_boolean, get_string and the Enumeration path of get_values).
// A composite instance passes its components' statuses on (a Discard of any
// component is the call's Discard; an Error throws, named by the component).
//
// Every call into an FMU is marked in this process's call record
// (runtime/fmu/call_record.h: the function, the instance name and the last
// simulation time, written with plain stores), which a supervising parent
// reads when the FMU crashes or hangs (lsdae/supervise.h).
//
// Najafi et al.'s constraint functions (an FMI 2.0 extension): the optional
// calls below are usable when the FMU declares them and the binary exports
// them (has_constraints() ...); otherwise they throw Error(usage). FMI 3.0
// instances and composite instances report them absent.
//
// An Instance is not thread-safe; use one instance per thread (the FMU must
// not declare canBeInstantiatedOnlyOncePerProcess for that).
#ifndef LSDAE_INSTANCE_H
#define LSDAE_INSTANCE_H

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lsdae/fmi_names.h"
#include "lsdae/manifest.h"
#include "lsdae/model_description.h"
#include "lsdae/values.h"

namespace lsdae {

enum class CallStatus { ok, discard };

// Model Exchange states (FMI 3.0 section 3.2; FMI 2.0 section 3.2.3 has the
// same ones except Configuration Mode).
enum class InstanceState {
  instantiated,
  configuration,
  initialization,
  event,
  continuous_time,
  terminated,
  failed,  // a Fatal status was returned: no further calls
};
const char* to_string(InstanceState state) noexcept;

struct DiscreteStatesUpdate {
  bool discrete_states_need_update = false;
  bool terminate_simulation = false;
  bool nominals_of_continuous_states_changed = false;
  bool values_of_continuous_states_changed = false;
  std::optional<double> next_event_time;
};

// The Discard returns of one instance's data functions (Get*, Set*,
// derivatives, event indicators): how many so far, the function of the last
// one and the simulation time then (NaN before any SetTime).
struct DiscardRecord {
  std::uint64_t count = 0;
  const char* function = nullptr;  // e.g. "fmi3GetFloat64", "fmi2GetReal"; nullptr while count == 0
  double time = 0.0;
};

// What fmi3GetIntervalDecimal/Fraction says of a clock's interval (FMI 3.0
// 2.2.9.4, fmi3IntervalQualifier).
enum class IntervalQualifier { not_yet_known, unchanged, changed };
// An interval or a shift of a time-based clock: `seconds`, and when it was
// read as a fraction (fmi3Get*Fraction), counter / resolution exactly
// (resolution 0: read as a decimal).
struct ClockTime {
  IntervalQualifier qualifier = IntervalQualifier::unchanged;  // intervals only
  double seconds = 0.0;
  std::uint64_t counter = 0, resolution = 0;
};

struct IntegratorStepResult {
  bool enter_event_mode = false;
  bool terminate_simulation = false;
};

class Instance {
 public:
  virtual ~Instance();
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  const std::string& name() const { return name_; }
  InstanceState state() const { return state_; }
  // What this is an instance of: the model description whose value
  // references the calls take (an FMU's, or a System's composed one), and
  // the model's name for messages (the FMU's file name, the system's).
  const ModelDescription& model_description() const { return *description_; }
  const std::string& model_display_name() const { return model_display_name_; }
  // The FMI version of that model description, whose function and status
  // names the messages use (a System composes an FMI 3.0 description:
  // runtime/system/composition.h).
  FmiVersion fmi_version() const { return description_->fmi_major; }
  // The name of `call` in this instance's FMI version, for messages
  // ("fmi2GetDerivatives"); see lsdae/fmi_names.h.
  const char* function_name(FmiCall call) const { return fmi_call_name(fmi_version(), call); }
  // "fmi2Discard", "fmi3Error", ... (lsdae/fmi_names.h).
  std::string status_name(int status) const { return fmi_status_name(fmi_version(), status); }
  // The Discard returns of this instance's own FMU calls (a composite
  // instance makes none: each component's instance counts its own).
  virtual const DiscardRecord& discards() const = 0;

  // --- configuration (structural parameters, the DAE switch; FMI 3.0 only)
  virtual void enter_configuration_mode();
  virtual void exit_configuration_mode();
  // Switches the FMU into DAE mode through the manifest's enable switch
  // (configuration mode, set the Boolean, exit). No-op for a DAE-only FMU
  // (and a System); Error(usage) for an FMU without a manifest. Only in
  // state `instantiated`.
  void enable_dae_mode();
  bool dae_mode() const { return dae_mode_; }

  // --- values. `values` holds one entry per scalar element: as many as
  // `vrs` for scalar variables, all elements (row-major) of an array
  // variable (Error(usage) when the count is wrong). A getter or setter the
  // binary does not export is Error(binary) naming it; one of a type the
  // FMI version lacks is Error(usage) naming the type and the version.
  virtual CallStatus get_float64(std::span<const ValueReference> vrs, std::span<double> values);
  virtual CallStatus set_float64(std::span<const ValueReference> vrs, std::span<const double> values);
  virtual CallStatus get_boolean(std::span<const ValueReference> vrs, std::span<bool> values);
  virtual CallStatus set_boolean(std::span<const ValueReference> vrs, std::span<const bool> values);
  virtual CallStatus get_int32(std::span<const ValueReference> vrs, std::span<std::int32_t> values);
  virtual CallStatus set_int32(std::span<const ValueReference> vrs, std::span<const std::int32_t> values);
  virtual CallStatus get_int64(std::span<const ValueReference> vrs, std::span<std::int64_t> values);
  virtual CallStatus set_int64(std::span<const ValueReference> vrs, std::span<const std::int64_t> values);
  virtual CallStatus get_float32(std::span<const ValueReference> vrs, std::span<float> values);
  virtual CallStatus set_float32(std::span<const ValueReference> vrs, std::span<const float> values);
  virtual CallStatus get_int8(std::span<const ValueReference> vrs, std::span<std::int8_t> values);
  virtual CallStatus set_int8(std::span<const ValueReference> vrs, std::span<const std::int8_t> values);
  virtual CallStatus get_uint8(std::span<const ValueReference> vrs, std::span<std::uint8_t> values);
  virtual CallStatus set_uint8(std::span<const ValueReference> vrs, std::span<const std::uint8_t> values);
  virtual CallStatus get_int16(std::span<const ValueReference> vrs, std::span<std::int16_t> values);
  virtual CallStatus set_int16(std::span<const ValueReference> vrs, std::span<const std::int16_t> values);
  virtual CallStatus get_uint16(std::span<const ValueReference> vrs, std::span<std::uint16_t> values);
  virtual CallStatus set_uint16(std::span<const ValueReference> vrs, std::span<const std::uint16_t> values);
  virtual CallStatus get_uint32(std::span<const ValueReference> vrs, std::span<std::uint32_t> values);
  virtual CallStatus set_uint32(std::span<const ValueReference> vrs, std::span<const std::uint32_t> values);
  virtual CallStatus get_uint64(std::span<const ValueReference> vrs, std::span<std::uint64_t> values);
  virtual CallStatus set_uint64(std::span<const ValueReference> vrs, std::span<const std::uint64_t> values);
  // Strings are copied out of the FMU's memory before the next call.
  virtual CallStatus get_string(std::span<const ValueReference> vrs, std::vector<std::string>& values);
  virtual CallStatus set_string(std::span<const ValueReference> vrs, std::span<const std::string> values);
  // Binary values as bytes.
  virtual CallStatus get_binary(std::span<const ValueReference> vrs, std::vector<std::vector<std::uint8_t>>& values);
  virtual CallStatus set_binary(std::span<const ValueReference> vrs,
                                std::span<const std::vector<std::uint8_t>> values);
  // Enumeration values: fmi3GetInt64 / fmi2GetInteger on the wire.
  virtual CallStatus get_enumeration(std::span<const ValueReference> vrs, std::span<std::int64_t> values) = 0;
  virtual CallStatus set_enumeration(std::span<const ValueReference> vrs, std::span<const std::int64_t> values) = 0;
  // Any type, through lsdae/values.h's buffer: `values.type` chooses the
  // typed function (Binary travels as hex).
  // get_values resizes `values` to the element count of `vrs`.
  CallStatus get_values(std::span<const ValueReference> vrs, Values& values);
  CallStatus set_values(std::span<const ValueReference> vrs, const Values& values);
  // Sets one scalar variable of any numeric or Boolean type from a double
  // (range-checked for integers). Error(usage) names the variable on failure.
  void set_scalar(const Variable& variable, double value);
  // Scalar elements `vrs` stand for (a plain count when the model has no arrays).
  std::size_t element_count(std::span<const ValueReference> vrs) const;

  // --- initialization (FMI 2.0: fmi2SetupExperiment, then
  // fmi2EnterInitializationMode)
  virtual void enter_initialization_mode(std::optional<double> tolerance, double start_time,
                                         std::optional<double> stop_time) = 0;
  virtual void exit_initialization_mode() = 0;

  // --- events (FMI 2.0: fmi2NewDiscreteStates behind update_discrete_states)
  virtual void enter_event_mode() = 0;
  virtual DiscreteStatesUpdate update_discrete_states() = 0;
  virtual void enter_continuous_time_mode() = 0;

  // --- continuous-time mode
  virtual CallStatus set_time(double time) = 0;
  virtual CallStatus set_continuous_states(std::span<const double> x) = 0;
  virtual CallStatus get_continuous_states(std::span<double> x) = 0;
  // fmi3GetContinuousStateDerivatives / fmi2GetDerivatives.
  virtual CallStatus get_continuous_state_derivatives(std::span<double> dx) = 0;
  virtual CallStatus get_event_indicators(std::span<double> indicators) = 0;
  virtual CallStatus get_nominals_of_continuous_states(std::span<double> nominals) = 0;
  virtual IntegratorStepResult completed_integrator_step(bool no_set_fmu_state_prior_to_current_point) = 0;
  // FMI 3.0 asks the instance; FMI 2.0 answers from the model description
  // (it has no such call).
  virtual std::size_t number_of_continuous_states() = 0;
  virtual std::size_t number_of_event_indicators() = 0;

  // --- derivatives (only when the model provides them; Error(usage) otherwise)
  virtual bool provides_directional_derivatives() const = 0;
  virtual CallStatus get_directional_derivative(std::span<const ValueReference> unknowns,
                                                std::span<const ValueReference> knowns,
                                                std::span<const double> seed, std::span<double> sensitivity) = 0;

  // --- clocks (FMI 3.0 2.2.9; the FMI 3.0 binding and systems). An instance
  // whose model has no clocks (FMI 2.0) throws Error(usage) from each.
  // activate_clock: fmi3SetClock(fmi3ClockActive) on an input clock, Event
  // Mode. clock_active: fmi3GetClock, Event Mode. clock_interval and
  // clock_shift: fmi3GetIntervalDecimal / fmi3GetShiftDecimal, or the
  // Fraction functions when `fraction` (Initialization and Event Mode).
  virtual void activate_clock(ValueReference clock);
  virtual bool clock_active(ValueReference clock);
  virtual ClockTime clock_interval(ValueReference clock, bool fraction);
  virtual ClockTime clock_shift(ValueReference clock, bool fraction);

  // The threads one call of this instance may use (lsdae::Simulation passes
  // its --threads). A system's composite instance evaluates its components
  // on them (runtime/system/composite_instance.h); an FMU instance is one
  // thread and ignores it.
  virtual void set_threads(std::size_t threads) { (void)threads; }

  // --- Najafi et al.'s constraints (FMI 2.0 extension). has_*() says whether
  // the FMU declares the function and the binary exports it; the calls throw
  // Error(usage) otherwise. `c` holds max_constraints() values, `jacobian`
  // max_constraints() x states row-major, `step`/`correction` one per state.
  virtual bool has_constraints() const { return false; }
  virtual bool has_constraint_jacobian() const { return false; }
  virtual bool has_projection_step() const { return false; }
  virtual bool has_projection() const { return false; }
  virtual std::size_t number_of_constraints();
  virtual CallStatus constraints(std::span<double> c);
  virtual CallStatus constraint_jacobian(std::span<double> jacobian);
  virtual CallStatus projection_step(std::span<double> step);
  virtual CallStatus projection(std::span<double> correction, double tolerance, std::size_t iteration_limit,
                                bool apply);

  // --- the FMU state (FMI 3.0 section 2.2.6.4, FMI 2.0 section 2.1.8):
  // usable when the model description declares canGetAndSetFMUState and the
  // binary exports fmi3Get/Set/FreeFMUState (fmi2...FMUstate); otherwise
  // can_get_and_set_fmu_state() is false and the calls are Error(usage). A
  // SavedState is the FMU's opaque state plus lsdae's side of it (the mode
  // and the DAE switch); it belongs to this instance: set it only here and
  // free it (free_fmu_state) before the instance goes. get_fmu_state with
  // `state.fmu` set overwrites that state (the standard's in-place form).
  // Allowed in Instantiated, Initialization, Event, Continuous-Time Mode and
  // Terminated. A System's instance has no FMU state of its own.
  struct SavedState {
    void* fmu = nullptr;
    InstanceState state = InstanceState::instantiated;
    bool dae_mode = false;
  };
  virtual bool can_get_and_set_fmu_state() const { return false; }
  virtual void get_fmu_state(SavedState& state);
  virtual void set_fmu_state(const SavedState& state);
  virtual void free_fmu_state(SavedState& state);

  // --- end
  virtual void terminate() = 0;
  virtual void reset() = 0;

 protected:
  // `description` and `manifest` are the model's: they outlive the instance
  // (the implementation keeps their owner).
  Instance(std::string name, const ModelDescription& description, const Manifest& manifest,
           std::string model_display_name);

  // The Model Exchange mode machine (FMI 3.0 section 3.2, FMI 2.0 section
  // 3.2.3; the same changes in both, FMI 2.0 without Configuration Mode):
  //   change                  may start in                           leads to
  //   enter_configuration     Instantiated                           Configuration Mode
  //   exit_configuration      Configuration Mode                     Instantiated
  //   enter_initialization    Instantiated                           Initialization Mode
  //   exit_initialization     Initialization Mode                    Event Mode
  //   enter_event             Continuous-Time Mode                   Event Mode
  //   enter_continuous_time   Event Mode                             Continuous-Time Mode
  //   terminate               Initialization, Event, Continuous-Time Terminated
  //   reset                   any state but Failed                   Instantiated
  // An implementation calls require(change, its function) before it calls
  // anything, then complete(change) once the change is made.
  enum class ModeChange : std::uint8_t {
    enter_configuration,
    exit_configuration,
    enter_initialization,
    exit_initialization,
    enter_event,
    enter_continuous_time,
    terminate,
    reset,
  };
  // Error(usage) naming `function` unless `change` may start in the present state.
  void require(ModeChange change, const char* function) const;
  void complete(ModeChange change);
  // The data functions' own state tables (they differ by FMI version):
  // Error(usage) unless the instance is in one of `allowed`.
  void require(const char* function, std::initializer_list<InstanceState> allowed) const {
    require_state(function, {allowed.begin(), allowed.size()});
  }
  // A Fatal status: no further calls.
  void mark_failed() { state_ = InstanceState::failed; }
  // After the FMU's state was set: lsdae's side of it (set_fmu_state).
  void restore_mode(InstanceState state, bool dae_mode) {
    state_ = state;
    dae_mode_ = dae_mode;
  }
  void set_dae_mode(bool on) { dae_mode_ = on; }
  // Error(usage) with absence_message(what): `what` ("Int8 variables",
  // "Configuration Mode") is not offered by this instance. The typed
  // accessors and the configuration mode an implementation does not
  // override end here; each implementation words the message its own way.
  [[noreturn]] void lacks(const std::string& what) const;
  virtual std::string absence_message(const std::string& what) const = 0;
  // Error(usage) unless `vrs` stand for `values` scalar elements.
  void require_count(const char* function, std::span<const ValueReference> vrs, std::size_t values) const;

 private:
  void require_state(const char* function, std::span<const InstanceState> allowed) const;

  std::string name_;
  const ModelDescription* description_;
  const Manifest* manifest_;
  std::string model_display_name_;
  InstanceState state_ = InstanceState::instantiated;
  bool dae_mode_ = false;
};

}  // namespace lsdae

#endif  // LSDAE_INSTANCE_H
