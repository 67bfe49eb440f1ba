// runtime/common/fmi_names.cpp -- see lsdae/fmi_names.h.
#include "lsdae/fmi_names.h"

namespace lsdae {

const char* fmi_call_name(FmiVersion version, FmiCall call) noexcept {
  const bool v2 = version == FmiVersion::fmi2;
  switch (call) {
    case FmiCall::instantiate: return v2 ? "fmi2Instantiate" : "fmi3InstantiateModelExchange";
    case FmiCall::enter_configuration_mode:
      return v2 ? "Configuration Mode (which FMI 2.0 lacks)" : "fmi3EnterConfigurationMode";
    case FmiCall::enter_initialization_mode: return v2 ? "fmi2EnterInitializationMode" : "fmi3EnterInitializationMode";
    case FmiCall::update_discrete_states: return v2 ? "fmi2NewDiscreteStates" : "fmi3UpdateDiscreteStates";
    case FmiCall::get_continuous_state_derivatives:
      return v2 ? "fmi2GetDerivatives" : "fmi3GetContinuousStateDerivatives";
    case FmiCall::get_event_indicators: return v2 ? "fmi2GetEventIndicators" : "fmi3GetEventIndicators";
    case FmiCall::get_directional_derivative:
      return v2 ? "fmi2GetDirectionalDerivative" : "fmi3GetDirectionalDerivative";
    case FmiCall::set_time: return v2 ? "fmi2SetTime" : "fmi3SetTime";
  }
  return "?";
}

const char* fmi_type_name(FmiVersion version, VariableType type) noexcept {
  if (version == FmiVersion::fmi2 && type == VariableType::float64) return "Real";
  if (version == FmiVersion::fmi2 && type == VariableType::int32) return "Integer";
  return to_string(type);
}

std::string fmi_accessor_name(FmiVersion version, VariableType type, bool set) {
  const std::string verb = set ? "Set" : "Get";
  if (version == FmiVersion::fmi2) {
    switch (type) {
      case VariableType::float64: return "fmi2" + verb + "Real";
      case VariableType::int32:
      case VariableType::enumeration: return "fmi2" + verb + "Integer";
      default: return "fmi2" + verb + to_string(type);
    }
  }
  if (type == VariableType::enumeration) return "fmi3" + verb + "Int64";
  if (type == VariableType::clock) return "fmi3" + verb + "Clock";
  return "fmi3" + verb + to_string(type);
}

std::string fmi_status_name(FmiVersion version, int status) {
  const std::string prefix = version == FmiVersion::fmi2 ? "fmi2" : "fmi3";
  switch (status) {
    case 0: return prefix + "OK";
    case 1: return prefix + "Warning";
    case 2: return prefix + "Discard";
    case 3: return prefix + "Error";
    case 4: return prefix + "Fatal";
    case 5:
      if (version == FmiVersion::fmi2) return "fmi2Pending (a Co-Simulation status)";
      break;
  }
  return "an invalid " + prefix + "Status (" + std::to_string(status) + ")";
}

std::string fmi_status_name_for(const std::string& function_name, int status) {
  const bool v2 = function_name.rfind("fmi2", 0) == 0;
  return fmi_status_name(v2 ? FmiVersion::fmi2 : FmiVersion::fmi3, status);
}

}  // namespace lsdae
