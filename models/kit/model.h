// models/kit/model.h -- what a model author writes against.
//
// The FMU authoring kit turns one C++ class into an FMI 3.0 Model Exchange FMU
// with an optional FMI-LS-DAE manifest. The class does two things:
//
//   declare(Builder&)  lists the variables, the residual groups and the exact
//                      dependencies. It runs in the build-time describer (which
//                      writes modelDescription.xml and the manifest from it) and
//                      again inside every FMU instance, so both always agree.
//   compute(Context&)  evaluates every calculated quantity (state derivatives,
//                      residuals, outputs, event indicators) from the knowns.
//
// Optional: compute_event_indicators() for the indicators alone (a cheaper
// evaluation for fmi3GetEventIndicators, bitwise equal to compute()'s),
// partials() for fmi3GetDirectionalDerivative, update_discrete()
// for events (it re-initializes states and announces the next time event) and
// clock_timing() for clocks whose timing the model computes. The kit supplies
// every fmi3 entry point, the FMI state machine (clocks included: clocks.h),
// the DAE enable switch, value storage and error reporting.
//
// Clocks (FMI 3.0 section 2.2.9, Model Exchange): input_clock() declares an
// input clock of any interval variability, output_clock() a triggered output
// clock, clocked_state() / clocked() the clocked variables of a model
// partition. compute() sees which clocks are active (Context::active) and
// evaluates the partitions of the active ones; it activates an output clock
// by writing ctx.b[clock] = 1 in Event Mode. The kit commits every clocked
// state of an active clock to its previous value and deactivates all clocks
// in fmi3UpdateDiscreteStates, after update_discrete().
//
// The same class also builds FMI 2.0 Model Exchange FMUs (Config key fmi=2,
// docs/authoring-fmus.md "FMI 2.0 variants"): the ODE form only, since FMI
// 2.0 has no DAE mode. For those, a model may declare aliases (alias()) and
// the constraints of the FMI 2.0 extension of Najafi et al. (constraints(),
// with the hooks number_of_constraints(), constraint_residuals() and
// constraint_jacobian(); the kit derives the projection functions from them).
//
// FMU state (Config key fmu_state=get_set|serialize, docs/authoring-fmus.md
// "FMU state"): the kit saves and restores an instance's whole state -- every
// value, the mode, the time, the clocks' schedule -- with
// fmi3GetFMUState/fmi3SetFMUState (and serializes it). A model that keeps
// anything its behaviour depends on outside the value store (a latch set in
// update_discrete()) hands it over with internal_state() and
// set_internal_state(); caches that are a function of the values need not be.
//
// Contract of compute(): all Float64 values live in ctx.v[], indexed by value
// reference. compute() reads the knowns of the current mode and writes the
// unknowns. Knowns are: time, parameters, continuous states, and -- in DAE mode
// only -- the manifest's algebraic variables and, for a fully implicit model,
// the state derivatives. compute() must not write a known. In ODE mode (no
// manifest, or the manifest's enable switch off) compute() must produce the
// state derivatives from the states alone, solving any algebraic relation
// itself.
#ifndef LSDAE_MODELS_KIT_MODEL_H
#define LSDAE_MODELS_KIT_MODEL_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lsdae::kit {

using ValueRef = std::uint32_t;
inline constexpr ValueRef kNoValueRef = 0xffffffffu;

enum class Causality { structural_parameter, parameter, calculated_parameter, input, output, local, independent };
enum class Variability { constant, fixed, tunable, discrete, continuous };
enum class Initial { none, exact, approx, calculated };
enum class DepKind { constant, fixed, tunable, discrete, dependent };
// Int32 values live in Context::v as doubles (exact up to 2^31); Boolean
// values and clock activations in Context::b.
enum class VarType { float64, boolean, int32, clock };
// The kind of a clock (FMI 3.0 table "Overview of Clock types").
enum class IntervalVariability { constant, fixed, tunable, changing, countdown, triggered };

// The attributes of a Clock variable. Periodic input clocks (constant, fixed,
// tunable) give interval_decimal (required for constant) and optionally
// shift_decimal; a fixed or tunable clock without interval_decimal takes its
// interval and shift from Model::clock_timing(). supports_fraction with a
// resolution and an interval_counter (and optional shift_counter) makes the
// fraction functions available; the decimals must then equal the fractions.
struct ClockProperties {
  IntervalVariability interval_variability = IntervalVariability::triggered;
  std::optional<double> interval_decimal;
  std::optional<double> shift_decimal;
  bool supports_fraction = false;
  std::optional<std::uint64_t> resolution, interval_counter, shift_counter;
  bool can_be_deactivated = false;
};

// How the DAE-mode residuals relate to the state derivatives.
//   semi_explicit:  x' = f(x, z, t) from fmi3GetContinuousStateDerivatives plus
//                   residuals g(x, z, t) = 0.
//   fully_implicit: the importer writes x' into the derivative variables and the
//                   residuals are the whole system F(x', x, z, t) = 0.
//   ode:            no DAE mode at all (plain FMI 3.0 ME FMU).
enum class Form { ode, semi_explicit, fully_implicit };

struct Dependency {
  ValueRef known;
  DepKind kind;
};

// One element of ModelVariables. The kit fills value_reference.
struct Variable {
  ValueRef value_reference = kNoValueRef;
  VarType type = VarType::float64;
  std::string name;
  std::string description;
  Causality causality = Causality::local;
  Variability variability = Variability::continuous;
  Initial initial = Initial::none;
  std::optional<double> start;          // Float64 start, or 0/1 for Boolean
  ValueRef derivative_of = kNoValueRef;  // for der(x): the state x
  std::string unit;
  std::optional<double> nominal;
  bool algebraic = false;               // listed in the manifest's AlgebraicVariables
  // Clocks: the clocks a clocked variable belongs to (attribute `clocks`),
  // the variable holding a clocked state's value at its previous tick
  // (attribute `previous`), and a Clock's own attributes.
  std::vector<ValueRef> clocks;
  ValueRef previous = kNoValueRef;
  ClockProperties clock;
};

// What Builder::clocked_state() declares: the state and its previous value.
struct ClockedState {
  ValueRef value = kNoValueRef;
  ValueRef previous = kNoValueRef;
};

// The timing Model::clock_timing() gives for one input clock.
struct ClockTiming {
  std::optional<double> interval;  // nullopt: not yet known (countdown only)
  double shift = 0.0;              // periodic clocks only
};

// One <Formulation>: a residual variable, its optional DAE index (0 = not
// written) and its dependencies in DAE mode.
struct Formulation {
  ValueRef residual;
  int index = 0;
  std::vector<Dependency> dependencies;
};

// One <Residual>: the same constraint differentiated to successive orders,
// highest index (the original constraint) first.
struct ResidualGroup {
  std::vector<Formulation> formulations;
};

struct DefaultExperiment {
  double start_time = 0.0;
  double stop_time = 1.0;
  double tolerance = 1e-6;
  double step_size = 1e-2;  // output interval
};

// Key=value settings of one FMU variant (N, form, manifest shape, ...). The
// describer writes them to resources/lsdae_model.cfg and every instance reads
// them back, so one binary serves every size of a parametric model.
class Config {
 public:
  Config() = default;
  explicit Config(std::map<std::string, std::string> values) : values_(std::move(values)) {}
  // Throws std::invalid_argument naming the key and the value when the value
  // is not an integer / not one of `allowed`.
  long get_int(const std::string& key, long fallback) const;
  double get_double(const std::string& key, double fallback) const;
  std::string get_string(const std::string& key, const std::string& fallback) const;
  std::string get_choice(const std::string& key, const std::vector<std::string>& allowed) const;
  const std::map<std::string, std::string>& values() const { return values_; }

  // The FMU's resources/ folder, ending in '/', where a model finds data files
  // shipped with lsdae_add_fmu(... RESOURCES <files>). The kit sets it before
  // the model is constructed: the describer to the folder it writes (the
  // files are already copied there), an instance to its resourcePath. Empty
  // when a Config is built by hand. Not one of values(): it does not enter
  // resources/lsdae_model.cfg nor the instantiation token.
  const std::string& resource_dir() const { return resource_dir_; }
  void set_resource_dir(std::string dir);

 private:
  std::map<std::string, std::string> values_;
  std::string resource_dir_;
};

// Collects the declarations of a model. Value references are handed out in
// declaration order starting at 1 (0 is the independent variable `time`).
class Builder {
 public:
  virtual ~Builder() = default;

  // --- model attributes
  virtual void model_name(const std::string& name, const std::string& description) = 0;
  virtual void default_experiment(const DefaultExperiment& experiment) = 0;
  virtual void form(Form form) = 0;
  // A log category of the model's own, listed in <LogCategories> after the
  // kit's (logEvents, logStatusWarning, logStatusError); off unless the
  // importer turns it on (LogSink).
  virtual void log_category(const std::string& name, const std::string& description) = 0;

  // --- variables (each returns the value reference it was given)
  virtual ValueRef add(Variable variable) = 0;
  // Optional, before the first variable: declare() adds exactly `count`
  // variables (every add(), derivative() and helper below counts one;
  // clocked_state() two). The recording builder then sizes its list once
  // instead of moving every Variable each time it grows (a PSS/E case of
  // 36 597 variables: about 40 MB of fresh memory instead of 11 MB, and
  // 65 000 moves). describe() throws std::invalid_argument when the count
  // declared differs, so a wrong count is found by the model's first test.
  virtual void expect_variables(std::size_t count) = 0;
  ValueRef parameter(const std::string& name, double value, const std::string& unit = "",
                     const std::string& description = "");
  // A parameter with variability="tunable": also settable in Event Mode, where
  // the new value acts from that event on (compute() and update_discrete()
  // read it as they read any parameter).
  ValueRef tunable_parameter(const std::string& name, double value, const std::string& unit = "",
                             const std::string& description = "");
  // A continuous state with initial="exact" (fixed start) or "approx" (guess).
  ValueRef state(const std::string& name, double start, const std::string& unit = "",
                 const std::string& description = "", bool fixed = true);
  // der(<state name>), local, calculated. Registers it as that state's derivative.
  virtual ValueRef derivative(ValueRef state) = 0;
  // A manifest algebraic variable: local continuous, initial="approx".
  ValueRef algebraic(const std::string& name, double start, const std::string& unit = "",
                     const std::string& description = "");
  // A residual variable: local continuous calculated.
  ValueRef residual_variable(const std::string& name, const std::string& description = "");
  // An output (continuous, calculated).
  ValueRef output(const std::string& name, const std::string& unit = "",
                  const std::string& description = "");
  // A local continuous calculated helper (not in any list).
  ValueRef local(const std::string& name, const std::string& unit = "",
                 const std::string& description = "");

  // --- clocks (FMI 3.0 only)
  // An input clock (causality input, variability discrete).
  ValueRef input_clock(const std::string& name, const ClockProperties& properties,
                       const std::string& description = "");
  // A triggered output clock: compute() activates it in Event Mode.
  ValueRef output_clock(const std::string& name, const std::string& description = "");
  // A clocked state of `clocks` (Float64 or Int32, variability discrete,
  // initial exact at `start`) and "previous(<name>)", the value at its
  // previous tick (local discrete, the same start). causality output or local.
  ClockedState clocked_state(const std::string& name, double start, std::vector<ValueRef> clocks,
                             VarType type = VarType::float64, Causality causality = Causality::output,
                             const std::string& description = "");
  // A clocked variable computed by the partition of `clocks` (discrete,
  // calculated), output or local.
  ValueRef clocked(const std::string& name, std::vector<ValueRef> clocks, VarType type = VarType::float64,
                   Causality causality = Causality::output, const std::string& description = "");

  // --- structure
  // A residual group, highest index first. Shape A writes it as one <Residual>
  // with one <Formulation> each; shape B writes the last formulation as a flat
  // <Residual> and the others as <Invariant>s.
  virtual void residual_group(ResidualGroup group) = 0;
  // Dependencies of a derivative / output / event indicator in DAE mode
  // (manifest) and in ODE mode (modelDescription.xml).
  virtual void dae_dependencies(ValueRef unknown, std::vector<Dependency> deps) = 0;
  virtual void ode_dependencies(ValueRef unknown, std::vector<Dependency> deps) = 0;
  // A Float64 local that the kit reports through fmi3GetEventIndicators.
  virtual void event_indicator(ValueRef variable) = 0;
  // The order of the <ContinuousStateDerivative> lists (and so of the state
  // vector of fmi3GetContinuousStates): a permutation of every declared
  // derivative. Without it: declaration order of the derivatives.
  virtual void state_order(std::vector<ValueRef> derivatives) = 0;
  // The order of the <Output> lists: a permutation of every declared output.
  // Without it: declaration order. (FMI 3.0 leaves both orders to the exporter.)
  virtual void output_order(std::vector<ValueRef> outputs) = 0;
  // The model provides partial derivatives (providesDirectionalDerivatives).
  virtual void provides_partials() = 0;
  // The model announces time events through DiscreteUpdate::next_event_time.
  virtual void has_time_events() = 0;
  // `alias` always holds the value of `original` (compute() writes it so; both
  // Float64, neither a state derivative, `alias` not a state). An FMI 2.0
  // variant writes `alias` with the value reference of `original`, as FMI 2.0
  // exporters write an output that is the same quantity as a state; FMI 3.0
  // variants keep two separate variables.
  virtual void alias(ValueRef alias, ValueRef original) = 0;
  // The model has up to `max_count` constraints on its continuous states
  // (Najafi et al., the FMI 2.0 constraint extension): constraint_residuals()
  // and, when `jacobian`, constraint_jacobian(). FMI 2.0 variants only.
  virtual void constraints(std::size_t max_count, bool jacobian) = 0;

  virtual const Config& config() const = 0;

 private:
  // parameter() and tunable_parameter(): a parameter of this variability,
  // initial="exact".
  ValueRef parameter_of(Variability variability, const std::string& name, double value, const std::string& unit,
                        const std::string& description);
};

// The importer's logger as a model sees it (Context::log), for the model's
// own log categories (Builder::log_category). Such a category is OFF until
// the importer names it in fmi3SetDebugLogging / fmi2SetDebugLogging (or
// turns every category on by naming none), so that a model's debug lines
// cost nothing unless asked for; loggingOn at instantiation alone does not
// turn them on. FMI 3.0 2.3.1 (fmi3SetDebugLogging): nCategories = 0 sets
// every category, else only those named in <LogCategories>.
class LogSink {
 public:
  virtual ~LogSink() = default;
  // Whether `category` is on (cheap: a model may ask at every event).
  virtual bool enabled(const std::string& category) const = 0;
  // Sends `text` under `category` with status OK (the caller asks enabled() first).
  virtual void message(const std::string& category, const std::string& text) const = 0;
};

// What compute() and the event functions see.
struct Context {
  double time = 0.0;
  double* v = nullptr;            // Float64 (and Int32) values by value reference
  std::uint8_t* b = nullptr;      // Boolean values and clock activations by value reference
  bool dae_mode = false;          // the DAE enable switch is on (or the FMU is DAE-only)
  bool initialization = false;    // inside Initialization Mode
  bool event_mode = false;        // inside Event Mode (clocks can be active only here)
  const LogSink* log = nullptr;   // the importer's logger (null: none)
  // Changes whenever a parameter or a discrete variable may have changed
  // since the last call: any value set outside Continuous-Time Mode,
  // fmi3UpdateDiscreteStates (the model's own writes), an FMU state restored,
  // a reset. In Continuous-Time Mode only continuous values change, so a
  // model may keep what it read of parameters and discrete variables while
  // the epoch (and `v`) stay the same. 0: unknown (keep nothing).
  std::uint64_t discrete_epoch = 0;
  // Whether `clock` is active now (an input clock the importer activated, or
  // an output clock compute() activated).
  bool active(ValueRef clock) const { return b[clock] != 0; }
};

// Receives d(unknown)/d(known) at the current point.
class PartialSink {
 public:
  virtual ~PartialSink() = default;
  virtual void add(ValueRef unknown, ValueRef known, double value) = 0;
};

// Receives dC[row]/d(state) of the constraint Jacobian at the current point
// (entries not added are zero; the kit orders the columns as the state vector).
class ConstraintJacobianSink {
 public:
  virtual ~ConstraintJacobianSink() = default;
  virtual void add(std::size_t row, ValueRef state, double value) = 0;
};

// A changing or countdown clock's next interval, counted from now.
struct ClockInterval {
  ValueRef clock;
  double interval;
};

struct DiscreteUpdate {
  bool values_of_states_changed = false;
  bool terminate = false;
  std::optional<double> next_event_time;
  // The next interval of a changing clock that ticked in this Event Mode
  // (required), or of a countdown clock the model arms now.
  std::vector<ClockInterval> clock_intervals;
};

class Model {
 public:
  virtual ~Model() = default;
  virtual void declare(Builder& builder) = 0;
  virtual void compute(Context& ctx) = 0;
  // Optional: the event indicators alone, for fmi3GetEventIndicators at a
  // point where compute() has not run yet (a root finder asks them at many
  // points where it reads nothing else). Writes every event indicator with
  // exactly the bits compute() would write at this point (an importer may
  // read them either way: the values must not depend on which ran); the
  // other calculated values may be left as they were. Returns true when it
  // wrote everything compute() writes (the kit then keeps the point as
  // computed), false when only the indicators are current: the kit runs
  // compute() before any other calculated value is read at this point. The
  // default runs compute() and returns true, so a model that does not
  // override it is evaluated exactly as before.
  virtual bool compute_event_indicators(Context& ctx) {
    compute(ctx);
    return true;
  }
  // d(unknown)/d(known) of everything compute() calculates, in the current
  // mode. Only called when declare() said provides_partials().
  virtual void partials(const Context& /*ctx*/, PartialSink& /*sink*/) {}
  // Called in fmi3UpdateDiscreteStates (Event Mode, and once after
  // initialization). Sets discrete variables, re-initializes states.
  virtual DiscreteUpdate update_discrete(Context& ctx);
  // The timing of an input clock that the XML does not fix, at the current
  // point: a fixed or tunable periodic clock without interval_decimal
  // ({interval, shift} from the parameters; asked in Initialization Mode and,
  // tunable, again in Event Mode), and the first interval of a changing or
  // countdown clock (asked in Initialization Mode; countdown may answer
  // {nullopt}: not yet known). Only called for such clocks.
  virtual ClockTiming clock_timing(const Context& /*ctx*/, ValueRef /*clock*/) { return {}; }

  // --- constraints (only called when declare() said constraints(max, ...))
  // The number of constraints active now, at most `declared` (the default: all).
  virtual std::size_t number_of_constraints(const Context& /*ctx*/, std::size_t declared) { return declared; }
  // C[0 .. number_of_constraints) from the states and parameters in ctx.v;
  // zero on the constraint manifold.
  virtual void constraint_residuals(const Context& /*ctx*/, double /*C*/[]) {}
  // dC/dx of every active row (only when declared with a Jacobian).
  virtual void constraint_jacobian(const Context& /*ctx*/, ConstraintJacobianSink& /*sink*/) {}

  // --- state kept outside the value store
  // Everything the model's behaviour depends on that is not a variable's
  // value (a latch update_discrete() sets once, for good), as numbers; the
  // same count every time. The kit saves it in fmi3GetFMUState, gives it back
  // in fmi3SetFMUState and, with the value the model had when constructed, in
  // fmi3Reset. Caches that are a function of the values alone (a
  // factorization keyed by the matrix it factors) are not state. A model that
  // keeps such state and does not hand it over here must not be built with
  // fmu_state (its restored instances would continue differently).
  virtual std::vector<double> internal_state() const { return {}; }
  // `state` has the count internal_state() gives (the kit checks it).
  virtual void set_internal_state(const std::vector<double>& /*state*/) {}
};

}  // namespace lsdae::kit

// Every model source ends with LSDAE_KIT_MODEL(ClassName): it defines the
// factory the kit calls with the variant's configuration.
namespace lsdae::kit {
std::unique_ptr<Model> make_model(const Config& config);
}
#define LSDAE_KIT_MODEL(ClassName)                                               \
  std::unique_ptr<::lsdae::kit::Model> lsdae::kit::make_model(const Config& config) { \
    return std::make_unique<ClassName>(config);                                  \
  }

#endif  // LSDAE_MODELS_KIT_MODEL_H
