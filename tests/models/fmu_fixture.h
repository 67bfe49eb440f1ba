// tests/models/fmu_fixture.h -- test-only access to one unpacked kit FMU:
// its XML parsed with pugixml and its binary loaded with dlopen, driven
// through the fmi3 functions directly (no lsdae runtime involved), so the
// model corpus is checked independently of the importer it will test.
#ifndef LSDAE_TESTS_MODELS_FMU_FIXTURE_H
#define LSDAE_TESTS_MODELS_FMU_FIXTURE_H

#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "fmi3_abi.h"

namespace lsdae::test {

struct CatalogEntry {
  std::string name, stage_dir, fmu_path, identifier, reference_csv;
  // Catalog column 6: what the runtime does not handle yet for this FMU
  // (models/CMakeLists.txt, PENDING): "clocks", "claims", "zeno", "chatter",
  // comma-separated.
  std::string pending;
  bool pending_on(const std::string& feature) const;
};
// gtest prints parameters with this (instead of a byte dump).
inline void PrintTo(const CatalogEntry& e, std::ostream* os) { *os << e.name; }
// Reads build/fmus/catalog.tsv (path compiled in as LSDAE_FMU_CATALOG).
std::vector<CatalogEntry> read_catalog();

struct XmlVariable {
  std::string name, type, causality, variability, initial;
  fmi3ValueReference vr = 0;
  std::optional<fmi3ValueReference> derivative;
  std::vector<fmi3ValueReference> clocks;        // attribute clocks (a clocked variable)
  std::optional<fmi3ValueReference> previous;    // attribute previous (a clocked state)
  // Clocks only: intervalVariability, intervalDecimal, shiftDecimal.
  std::string interval_variability;
  std::optional<double> interval_decimal, shift_decimal;
  int line = 0;
};

struct XmlUnknown {
  fmi3ValueReference vr = 0;
  bool has_dependencies = false;
  std::vector<fmi3ValueReference> dependencies;
  std::vector<std::string> kinds;
  std::optional<int> index;  // Formulation index
  int line = 0;
};

struct ParsedFmu {
  std::string model_identifier, token;
  bool provides_directional = false;
  std::vector<XmlVariable> variables;
  std::map<fmi3ValueReference, std::size_t> by_vr;  // -> variables index
  std::map<std::string, fmi3ValueReference> by_name;
  std::vector<XmlUnknown> core_outputs, core_derivatives, core_event_indicators, core_initial_unknowns,
      core_clocked_states;
  std::vector<fmi3ValueReference> clocks;  // every Clock, in ModelVariables order
  // Manifest (empty `shape` when the FMU has none).
  std::string shape;  // "A" or "B"
  std::optional<fmi3ValueReference> dae_switch;
  std::vector<fmi3ValueReference> algebraic;
  std::vector<XmlUnknown> dae_outputs, dae_derivatives, dae_event_indicators;
  std::vector<std::vector<XmlUnknown>> residual_groups;  // shape B: one formulation each
  std::vector<XmlUnknown> invariants;                    // shape B only
  bool fully_implicit = false;  // some residual depends on a derivative, or the OpenModelica form
  // OpenModelica's form: no ContinuousStateDerivative in the manifest, one
  // residual per state and algebraic variable, and a state in dependencies
  // standing for both x and der(x) (runtime/import/dae_form.h).
  bool state_stands_for_derivative = false;

  const XmlVariable& var(fmi3ValueReference vr) const { return variables.at(by_vr.at(vr)); }
  std::vector<fmi3ValueReference> states() const;       // in ContinuousStateDerivative order
  std::vector<fmi3ValueReference> derivatives() const;  // same order
};

// Parses <stage>/modelDescription.xml and the manifest; throws
// std::runtime_error with file:line on anything malformed.
ParsedFmu parse_fmu(const std::string& stage_dir);

// The kit's key=value configuration of a variant (<stage>/resources/lsdae_model.cfg).
std::map<std::string, std::string> read_model_config(const std::string& stage_dir);

// The binary, loaded with dlopen(RTLD_LOCAL), with the functions the tests use.
struct Fmi3Functions {
  void* handle = nullptr;
  fmi3InstantiateModelExchangeTYPE* instantiate = nullptr;
  fmi3FreeInstanceTYPE* free_instance = nullptr;
  fmi3EnterConfigurationModeTYPE* enter_configuration = nullptr;
  fmi3ExitConfigurationModeTYPE* exit_configuration = nullptr;
  fmi3EnterInitializationModeTYPE* enter_initialization = nullptr;
  fmi3ExitInitializationModeTYPE* exit_initialization = nullptr;
  fmi3EnterContinuousTimeModeTYPE* enter_continuous_time = nullptr;
  fmi3EnterEventModeTYPE* enter_event = nullptr;
  fmi3UpdateDiscreteStatesTYPE* update_discrete_states = nullptr;
  fmi3SetTimeTYPE* set_time = nullptr;
  fmi3GetFloat64TYPE* get_float64 = nullptr;
  fmi3SetFloat64TYPE* set_float64 = nullptr;
  fmi3SetBooleanTYPE* set_boolean = nullptr;
  fmi3GetBooleanTYPE* get_boolean = nullptr;
  fmi3SetContinuousStatesTYPE* set_states = nullptr;
  fmi3GetContinuousStatesTYPE* get_states = nullptr;
  fmi3GetContinuousStateDerivativesTYPE* get_derivatives = nullptr;
  fmi3GetEventIndicatorsTYPE* get_event_indicators = nullptr;
  fmi3GetDirectionalDerivativeTYPE* get_directional_derivative = nullptr;
  fmi3TerminateTYPE* terminate = nullptr;
  fmi3GetVersionTYPE* get_version = nullptr;
  fmi3SetDebugLoggingTYPE* set_debug_logging = nullptr;
  fmi3GetInt32TYPE* get_int32 = nullptr;
  fmi3GetClockTYPE* get_clock = nullptr;
  fmi3SetClockTYPE* set_clock = nullptr;
  fmi3GetIntervalDecimalTYPE* get_interval_decimal = nullptr;
  fmi3GetIntervalFractionTYPE* get_interval_fraction = nullptr;
  fmi3GetShiftDecimalTYPE* get_shift_decimal = nullptr;
  fmi3GetShiftFractionTYPE* get_shift_fraction = nullptr;
  fmi3SetIntervalDecimalTYPE* set_interval_decimal = nullptr;
  fmi3SetIntervalFractionTYPE* set_interval_fraction = nullptr;
  fmi3SetShiftDecimalTYPE* set_shift_decimal = nullptr;
  fmi3SetShiftFractionTYPE* set_shift_fraction = nullptr;
  fmi3GetFMUStateTYPE* get_fmu_state = nullptr;
  fmi3SetFMUStateTYPE* set_fmu_state = nullptr;
  fmi3FreeFMUStateTYPE* free_fmu_state = nullptr;
  fmi3SerializedFMUStateSizeTYPE* serialized_fmu_state_size = nullptr;
  fmi3SerializeFMUStateTYPE* serialize_fmu_state = nullptr;
  fmi3DeserializeFMUStateTYPE* deserialize_fmu_state = nullptr;
};
Fmi3Functions load_binary(const std::string& stage_dir, const std::string& identifier);
void unload_binary(Fmi3Functions& f);

// Messages the FMU logged, for assertions.
struct LogSink {
  std::vector<std::string> messages;
  static void callback(fmi3InstanceEnvironment env, fmi3Status status, fmi3String category, fmi3String message);
};

// Reads a reference CSV: header names, rows of numbers.
struct ReferenceTable {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
};
ReferenceTable read_reference(const std::string& path);

}  // namespace lsdae::test

#endif  // LSDAE_TESTS_MODELS_FMU_FIXTURE_H
