// lsdae/model_description.h -- what lsdae reads from an FMU's
// modelDescription.xml (FMI 3.0, section 2.4; FMI 2.0, section 2.2).
//
// One type for both FMI versions ("one model, two ABIs"): the FMI 2.0 parser
// (runtime/import/model_description_parser_fmi2.cpp) maps its ScalarVariables
// onto the same Variable (Real -> Float64, Integer -> Int32, Boolean, String,
// Enumeration), turns the 1-based indices of `derivative` and of ModelStructure
// `index`/`dependencies` into value references, and stores guid as the
// instantiation token, so nothing above import/ knows about indices.
// `fmi_major` says which binary interface (runtime/fmu/fmi2 or fmu/fmi3) the
// FMU's binary speaks. FMI 2.0 lets several variables share one value
// reference (aliases): `index_of(vr)` then finds the first of them.
//
// Plain data, filled by the parser (runtime/import/model_description_parser.h)
// and checked by the validator (runtime/import/validate.h). Every element keeps
// the 1-based line it was read from so diagnostics can point at it. Value
// references are FMI's; `ModelDescription::index_of` maps them to positions in
// `variables`.
//
// What is read: the fmiModelDescription attributes, ModelExchange and its
// capability flags, DefaultExperiment, UnitDefinitions (name, base-unit factor
// and offset), TypeDefinitions (unit, nominal, min, max, enumeration items;
// applied to variables through declaredType), ModelVariables of every FMI 3.0
// type, and ModelStructure. Array variables (<Dimension>) get their shape
// resolved at parse time (from each Dimension's start, or from the start
// value of the structural parameter it names); their elements are addressed
// row-major and named "A[2,3]" (1-based, as Modelica and fmusim print them).
// CoSimulation and ScheduledExecution elements are recognised and ignored.
#ifndef LSDAE_MODEL_DESCRIPTION_H
#define LSDAE_MODEL_DESCRIPTION_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace lsdae {

using ValueReference = std::uint32_t;

// The binary interface of the FMU: which runtime/fmiN implementation loads it.
enum class FmiVersion { fmi2, fmi3 };
// "FMI 2.0" / "FMI 3.0".
const char* to_string(FmiVersion version) noexcept;

enum class VariableType {
  float32, float64, int8, uint8, int16, uint16, int32, uint32, int64, uint64,
  boolean, string, binary, enumeration, clock
};
enum class Causality { parameter, calculated_parameter, input, output, local, independent, structural_parameter };
enum class Variability { constant, fixed, tunable, discrete, continuous };
enum class Initial { exact, approx, calculated };
// FMI 3.0 dependenciesKind values.
enum class DependencyKind { independent, constant, fixed, tunable, discrete, dependent };

// Element name / attribute value as written in FMI 3.0 ("Float64", "calculatedParameter", ...).
const char* to_string(VariableType type) noexcept;
const char* to_string(Causality causality) noexcept;
const char* to_string(Variability variability) noexcept;
const char* to_string(Initial initial) noexcept;
const char* to_string(DependencyKind kind) noexcept;
bool is_float(VariableType type) noexcept;    // Float32 or Float64
bool is_integer(VariableType type) noexcept;  // Int8 ... UInt64 (not Enumeration)
// A variable type as the FMU's own FMI version names its element: FMI 2.0
// writes Float64 as "Real" and Int32 as "Integer" (and has no other numeric
// types); FMI 3.0 names are lsdae's canonical ones (to_string(VariableType)),
// which machine-readable output (`info --json`, results) always uses.
const char* fmi_type_name(FmiVersion version, VariableType type) noexcept;

// One <Dimension> of an array variable: a fixed size `start`, or the value
// reference of a structural parameter that holds the size.
struct Dimension {
  std::optional<std::uint64_t> start;
  std::optional<ValueReference> value_reference;
  int line = 0;
};

// The timing of a Clock variable (FMI 3.0 2.4.7.5 "Clock Type": attribute
// intervalVariability; 2.2.9 "Clocks", table "Overview of Clock types").
enum class ClockKind { constant, fixed, tunable, changing, countdown, triggered };
const char* to_string(ClockKind kind) noexcept;

// The attributes of a <Clock> variable, as written (absent: not written).
struct ClockAttributes {
  std::optional<ClockKind> interval_variability;  // required by FMI 3.0; absent when missing or unknown
  std::string interval_variability_text;          // as written, for messages
  bool can_be_deactivated = false;
  std::optional<std::uint32_t> priority;
  std::optional<double> interval_decimal;
  double shift_decimal = 0.0;
  bool supports_fraction = false;
  std::optional<std::uint64_t> resolution, interval_counter;
  std::uint64_t shift_counter = 0;
};

struct Variable {
  std::string name;
  ValueReference value_reference = 0;
  VariableType type = VariableType::float64;
  Causality causality = Causality::local;
  Variability variability = Variability::continuous;
  std::optional<Initial> initial;  // as written; FMI defaults are derived by the validator
  std::string description;
  std::string declared_type;
  // The start attribute as written (space-separated for arrays), and its
  // numeric value for scalar numeric and Boolean variables (Boolean: 0/1).
  std::optional<std::string> start_text;
  std::optional<double> start;
  std::optional<ValueReference> derivative;  // Float: this is der(variable with that VR)
  std::optional<ValueReference> reinit_of;   // unused by FMI 3.0 ME; kept for completeness
  bool reinit = false;
  bool can_handle_multiple_set_per_time_instant = true;
  bool intermediate_update = false;
  std::optional<ValueReference> previous;
  std::optional<double> nominal, min, max;  // after applying declaredType
  std::string unit;                         // after applying declaredType
  std::vector<Dimension> dimensions;         // empty: scalar
  // The resolved size of each dimension (empty for a scalar, or when a size
  // could not be resolved: the parser reported that as an error).
  std::vector<std::uint64_t> shape;
  std::vector<ValueReference> clocks;       // clocked variables
  std::optional<ClockAttributes> clock;     // VariableType::clock only
  int line = 0;

  bool is_array() const { return !dimensions.empty(); }
  // Number of scalar elements: 1 for a scalar, the product of `shape` for an array.
  std::size_t element_count() const;
};

// "A[2,3]": the name of element `element` (0-based, row-major) of an array
// variable; the variable's own name for a scalar.
std::string element_name(const Variable& variable, std::size_t element);

// One entry of a ModelStructure list: the unknown and what it depends on.
// `dependencies` absent means "depends on all knowns" (dense); present and
// empty means "depends on nothing".
struct Unknown {
  ValueReference value_reference = 0;
  std::optional<std::vector<ValueReference>> dependencies;
  std::optional<std::vector<DependencyKind>> dependencies_kind;
  // FMI 2.0: the position in ModelDescription::variables of the variable the
  // <Unknown index> named. Aliases share a value reference, so this says
  // which of them was listed (for validation); nullopt for FMI 3.0.
  std::optional<std::size_t> variable_index;
  int line = 0;
};

struct ModelStructure {
  std::vector<Unknown> outputs;
  std::vector<Unknown> continuous_state_derivatives;
  std::vector<Unknown> clocked_states;
  std::vector<Unknown> initial_unknowns;
  std::vector<Unknown> event_indicators;
};

struct ModelExchange {
  std::string model_identifier;
  bool needs_execution_tool = false;
  bool can_be_instantiated_only_once_per_process = false;
  bool can_get_and_set_fmu_state = false;
  bool can_serialize_fmu_state = false;
  bool provides_directional_derivatives = false;
  bool provides_adjoint_derivatives = false;
  bool provides_per_element_dependencies = false;
  bool needs_completed_integrator_step = false;
  bool provides_evaluate_discrete_states = false;
  // FMI 2.0 only (false for FMI 3.0): canNotUseMemoryManagementFunctions.
  // completedIntegratorStepNotNeeded is stored as !needs_completed_integrator_step.
  bool can_not_use_memory_management_functions = false;
  // Najafi et al.'s constraint extension of FMI 2.0 (providesConstraints
  // false | true | withJacobian, providesProjection, providesProjectionStep).
  enum class Constraints { none, values, with_jacobian };
  Constraints provides_constraints = Constraints::none;
  bool provides_projection = false;
  bool provides_projection_step = false;
  int line = 0;
};

struct DefaultExperiment {
  std::optional<double> start_time, stop_time, tolerance, step_size;
};

struct UnitDefinition {
  std::string name;
  double factor = 1.0, offset = 0.0;  // of its BaseUnit (SI conversion)
  int line = 0;
};

struct TypeDefinition {
  std::string name;
  VariableType type = VariableType::float64;
  std::string unit;
  std::optional<double> nominal, min, max;
  std::vector<std::pair<std::string, std::int64_t>> items;  // EnumerationType
  int line = 0;
};

struct ModelDescription {
  FmiVersion fmi_major = FmiVersion::fmi3;
  std::string fmi_version;  // as written: "3.0", "2.0", ...
  std::string model_name;
  std::string instantiation_token;
  std::string description, author, version, generation_tool, generation_date_and_time;
  std::string variable_naming_convention = "flat";
  std::optional<ModelExchange> model_exchange;
  bool has_co_simulation = false;
  bool has_scheduled_execution = false;
  DefaultExperiment default_experiment;
  // FMI 2.0 declares the number of event indicators on fmiModelDescription
  // (FMI 3.0 lists <EventIndicator> elements instead: nullopt there).
  std::optional<std::size_t> number_of_event_indicators;
  // Najafi et al.'s extension: maxNumberOfConstraints (FMI 2.0 only).
  std::optional<std::size_t> max_number_of_constraints;
  std::vector<UnitDefinition> units;
  std::vector<TypeDefinition> types;
  std::vector<Variable> variables;  // in document order
  ModelStructure structure;

  // Position in `variables` of the variable with this value reference / name
  // (the first one if duplicated: FMI 2.0 aliases share a value reference;
  // the validator reports duplicates in FMI 3.0).
  std::optional<std::size_t> index_of(ValueReference vr) const;
  std::optional<std::size_t> index_of(const std::string& name) const;
  const Variable* find(ValueReference vr) const;
  const Variable* find(const std::string& name) const;
  // A variable by name, or one element of an array variable by its element
  // name ("A[2,3]", also written "A[2, 3]"): the variable and the 0-based
  // row-major element (0 for a scalar). nullopt when nothing matches.
  struct ElementRef {
    const Variable* variable = nullptr;
    std::size_t element = 0;
  };
  std::optional<ElementRef> find_element(const std::string& name) const;
  // Whether any variable is an array (the typed value functions then count
  // elements, not value references).
  bool has_arrays() const { return has_arrays_; }
  // Rebuilds the lookup tables (the parser calls it; call it after editing `variables`).
  void rebuild_index();

 private:
  std::unordered_map<ValueReference, std::size_t> by_vr_;
  std::unordered_map<std::string, std::size_t> by_name_;
  bool has_arrays_ = false;
};

}  // namespace lsdae

#endif  // LSDAE_MODEL_DESCRIPTION_H
