// tests/models/fmi2_harness.h -- test-only access to one unpacked FMI 2.0
// kit FMU: its modelDescription.xml parsed with pugixml (ScalarVariables,
// 1-based ModelStructure indices, the constraint extension's attributes) and
// its binaries/linux64 library loaded with dlopen, every function resolved
// with the types of abi/fmi2_abi.h. No lsdae runtime involved: the
// kit's FMI 2.0 output is checked independently of the 2.0 importer.
#ifndef LSDAE_TESTS_MODELS_FMI2_HARNESS_H
#define LSDAE_TESTS_MODELS_FMI2_HARNESS_H

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fmi2_abi.h"
#include "fmu_fixture.h"

namespace lsdae::test::fmi2 {

// Reads build/fmus/catalog_fmi2.tsv (path compiled in as LSDAE_FMU_CATALOG_FMI2).
std::vector<CatalogEntry> read_catalog_fmi2();

struct Variable {
  std::size_t index = 0;  // 1-based position in ModelVariables
  std::string name, type, causality, variability, initial;
  fmi2ValueReference vr = 0;
  std::optional<std::size_t> derivative;  // index of the state
  std::optional<double> start;
};

struct Unknown {
  std::size_t index = 0;
  bool has_dependencies = false;
  std::vector<std::size_t> dependencies;
  std::vector<std::string> kinds;
};

struct Description {
  std::string fmi_version, guid, model_identifier;
  std::size_t number_of_event_indicators = 0;
  std::size_t max_number_of_constraints = 0;  // 0 when absent
  bool provides_directional = false;
  std::string provides_constraints = "false";  // false | true | withJacobian
  bool provides_projection = false, provides_projection_step = false;
  std::vector<Variable> variables;  // in file order: variables[i].index == i + 1
  std::vector<Unknown> outputs, derivatives, initial_unknowns;

  const Variable& at(std::size_t index) const { return variables.at(index - 1); }
  const Variable& named(const std::string& name) const;
  std::vector<std::size_t> state_indices() const;  // in Derivatives order
};

// Parses <stage>/modelDescription.xml; throws std::runtime_error on anything
// malformed (a missing attribute, an index out of range).
Description parse(const std::string& stage_dir);

struct Functions {
  void* handle = nullptr;
  fmi2GetVersionTYPE* get_version = nullptr;
  fmi2GetTypesPlatformTYPE* get_types_platform = nullptr;
  fmi2InstantiateTYPE* instantiate = nullptr;
  fmi2FreeInstanceTYPE* free_instance = nullptr;
  fmi2SetupExperimentTYPE* setup_experiment = nullptr;
  fmi2EnterInitializationModeTYPE* enter_initialization = nullptr;
  fmi2ExitInitializationModeTYPE* exit_initialization = nullptr;
  fmi2EnterEventModeTYPE* enter_event = nullptr;
  fmi2NewDiscreteStatesTYPE* new_discrete_states = nullptr;
  fmi2EnterContinuousTimeModeTYPE* enter_continuous_time = nullptr;
  fmi2CompletedIntegratorStepTYPE* completed_integrator_step = nullptr;
  fmi2SetTimeTYPE* set_time = nullptr;
  fmi2SetContinuousStatesTYPE* set_states = nullptr;
  fmi2GetContinuousStatesTYPE* get_states = nullptr;
  fmi2GetDerivativesTYPE* get_derivatives = nullptr;
  fmi2GetEventIndicatorsTYPE* get_event_indicators = nullptr;
  fmi2GetNominalsOfContinuousStatesTYPE* get_nominals = nullptr;
  fmi2GetRealTYPE* get_real = nullptr;
  fmi2SetRealTYPE* set_real = nullptr;
  fmi2GetIntegerTYPE* get_integer = nullptr;
  fmi2GetBooleanTYPE* get_boolean = nullptr;
  fmi2GetStringTYPE* get_string = nullptr;
  fmi2GetDirectionalDerivativeTYPE* get_directional_derivative = nullptr;
  fmi2TerminateTYPE* terminate = nullptr;
  fmi2ResetTYPE* reset = nullptr;
  fmi2DoStepTYPE* do_step = nullptr;
  fmi2GetFMUstateTYPE* get_fmu_state = nullptr;
  fmi2SetFMUstateTYPE* set_fmu_state = nullptr;
  fmi2FreeFMUstateTYPE* free_fmu_state = nullptr;
  fmi2SerializedFMUstateSizeTYPE* serialized_fmu_state_size = nullptr;
  fmi2SerializeFMUstateTYPE* serialize_fmu_state = nullptr;
  fmi2DeSerializeFMUstateTYPE* deserialize_fmu_state = nullptr;
  // Najafi et al.'s extension: always exported by kit binaries.
  fmi2GetNumberOfConstraintsTYPE* get_number_of_constraints = nullptr;
  fmi2ConstraintTYPE* constraint = nullptr;
  fmi2ConstraintJacobianTYPE* constraint_jacobian = nullptr;
  fmi2ProjectionStepTYPE* projection_step = nullptr;
  fmi2ProjectionTYPE* projection = nullptr;
};
// dlopen of <stage>/binaries/linux64/<identifier>.so; throws naming a missing symbol.
Functions load(const std::string& stage_dir, const std::string& identifier);
void unload(Functions& f);

// Collects what the FMU logs (the printf-style message formatted).
struct Log {
  std::vector<std::string> messages;
  std::string all() const;
  static void logger(fmi2ComponentEnvironment env, fmi2String instance, fmi2Status status, fmi2String category,
                     fmi2String message, ...);
};

// The file URI of <stage>/resources, as fmi2Instantiate expects it.
std::string resource_uri(const std::string& stage_dir);

// One instance driven to Continuous-Time Mode (instantiate, setup, init,
// event iteration); the destructor frees it.
class Session {
 public:
  Session(const Functions& f, const Description& d, const std::string& stage_dir, Log& log);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  fmi2Component c() const { return c_; }
  const fmi2EventInfo& first_event_info() const { return info_; }

 private:
  const Functions& f_;
  fmi2CallbackFunctions callbacks_{};
  fmi2Component c_ = nullptr;
  fmi2EventInfo info_{};
};

}  // namespace lsdae::test::fmi2

#endif  // LSDAE_TESTS_MODELS_FMI2_HARNESS_H
