// lsdae/fmi_names.h -- the names of FMI functions and statuses as the FMU's
// own FMI version spells them, for messages.
//
// lsdae's engine is version-neutral ("one model, two ABIs", docs/fmi2.md):
// a message that names an FMI call or status must name the one the FMU
// actually got -- fmi2GetDerivatives for an FMI 2.0 FMU, not
// fmi3GetContinuousStateDerivatives. Every message outside the FMU binding
// (runtime/fmu/) takes the name from here (or from Instance::function_name,
// which asks with the instance's version), never from a literal.
//
// The names come from the binding's one table of FMI functions
// (runtime/fmu/fmi_functions.h), and the correspondence is the one the two
// binary interfaces implement (runtime/fmu/fmi2/instance.cpp,
// runtime/fmu/fmi3/instance.cpp). The names of variable types in each
// version (fmi_type_name) are vocabulary of the model description
// (lsdae/model_description.h).
#ifndef LSDAE_FMI_NAMES_H
#define LSDAE_FMI_NAMES_H

#include <string>

#include "lsdae/model_description.h"

namespace lsdae {

// The calls messages name; each has one name per FMI version.
enum class FmiCall {
  instantiate,                  // fmi3InstantiateModelExchange / fmi2Instantiate
  enter_configuration_mode,     // fmi3EnterConfigurationMode / (none in 2.0)
  enter_initialization_mode,    // fmi3EnterInitializationMode / fmi2SetupExperiment + fmi2EnterInitializationMode
  update_discrete_states,       // fmi3UpdateDiscreteStates / fmi2NewDiscreteStates
  get_continuous_state_derivatives,  // fmi3GetContinuousStateDerivatives / fmi2GetDerivatives
  get_event_indicators,         // fmi3GetEventIndicators / fmi2GetEventIndicators
  get_directional_derivative,   // fmi3GetDirectionalDerivative / fmi2GetDirectionalDerivative
  set_time,                     // fmi3SetTime / fmi2SetTime
};

// "fmi3GetContinuousStateDerivatives", "fmi2GetDerivatives", ...
const char* fmi_call_name(FmiVersion version, FmiCall call) noexcept;
// The getter/setter of a variable type: "fmi3GetFloat64", "fmi2GetReal",
// "fmi2SetInteger" (Int32 and Enumeration), "fmi3GetInt64" (Enumeration).
// A type the FMI version lacks gives "fmi2Get<Type>" (no such call: the
// instance refuses it before any message could name it).
std::string fmi_accessor_name(FmiVersion version, VariableType type, bool set);
// "fmi3Discard", "fmi2Error", ... for the status values OK=0 ... Fatal=4
// (the same in fmi2Status and fmi3Status); "fmi2Pending (a Co-Simulation
// status)" for 5 in FMI 2.0; "an invalid fmi3Status (7)" otherwise.
std::string fmi_status_name(FmiVersion version, int status);
// The status name for the FMI version a function name belongs to
// ("fmi2GetReal" -> fmi2), for code that only has the name (the supervisor
// reads it from the call record); FMI 3.0 when the name says neither.
std::string fmi_status_name_for(const std::string& function_name, int status);

}  // namespace lsdae

#endif
