// runtime/fmu/fmi_names.cpp -- the table of fmu/fmi_functions.h, and the
// names messages use (lsdae/fmi_names.h), taken from it.
#include "lsdae/fmi_names.h"

#include <iterator>

#include "fmu/fmi_functions.h"

namespace lsdae {

const char* const kFmiFunctionNames[] = {
    "(no call)",
    "loading the binary (dlopen)",
#define LSDAE_FMI_NAME(NAME) #NAME,
    LSDAE_FMI3_FUNCTIONS(LSDAE_FMI_NAME) LSDAE_FMI2_FUNCTIONS(LSDAE_FMI_NAME)
#undef LSDAE_FMI_NAME
};
// The array's declared bound (fmi_functions.h) makes one name too many an
// error; one too few leaves a null name, which this catches.
static_assert(std::size(kFmiFunctionNames) == static_cast<std::size_t>(FmiFunction::count_));

namespace {

using F = FmiFunction;


// The getter (or setter) of a variable type in one FMI version; none where
// the version has no such function.
FmiFunction accessor(FmiVersion version, VariableType type, bool set) noexcept {
  if (version == FmiVersion::fmi2) {
    switch (type) {
      case VariableType::float64: return set ? F::fmi2SetReal : F::fmi2GetReal;
      case VariableType::int32:
      case VariableType::enumeration: return set ? F::fmi2SetInteger : F::fmi2GetInteger;
      case VariableType::boolean: return set ? F::fmi2SetBoolean : F::fmi2GetBoolean;
      case VariableType::string: return set ? F::fmi2SetString : F::fmi2GetString;
      default: return F::none;
    }
  }
  switch (type) {
    case VariableType::float32: return set ? F::fmi3SetFloat32 : F::fmi3GetFloat32;
    case VariableType::float64: return set ? F::fmi3SetFloat64 : F::fmi3GetFloat64;
    case VariableType::int8: return set ? F::fmi3SetInt8 : F::fmi3GetInt8;
    case VariableType::uint8: return set ? F::fmi3SetUInt8 : F::fmi3GetUInt8;
    case VariableType::int16: return set ? F::fmi3SetInt16 : F::fmi3GetInt16;
    case VariableType::uint16: return set ? F::fmi3SetUInt16 : F::fmi3GetUInt16;
    case VariableType::int32: return set ? F::fmi3SetInt32 : F::fmi3GetInt32;
    case VariableType::uint32: return set ? F::fmi3SetUInt32 : F::fmi3GetUInt32;
    case VariableType::int64:
    case VariableType::enumeration: return set ? F::fmi3SetInt64 : F::fmi3GetInt64;
    case VariableType::uint64: return set ? F::fmi3SetUInt64 : F::fmi3GetUInt64;
    case VariableType::boolean: return set ? F::fmi3SetBoolean : F::fmi3GetBoolean;
    case VariableType::string: return set ? F::fmi3SetString : F::fmi3GetString;
    case VariableType::binary: return set ? F::fmi3SetBinary : F::fmi3GetBinary;
    case VariableType::clock: return set ? F::fmi3SetClock : F::fmi3GetClock;
  }
  return F::none;
}

}  // namespace

FmiVersion fmi_version_of(FmiFunction function) noexcept {
  return function >= F::fmi2GetVersion && function < F::count_ ? FmiVersion::fmi2 : FmiVersion::fmi3;
}

const char* fmi_call_name(FmiVersion version, FmiCall call) noexcept {
  const bool v2 = version == FmiVersion::fmi2;
  auto name = [v2](F fmi2, F fmi3) { return fmi_function_name(v2 ? fmi2 : fmi3); };
  switch (call) {
    case FmiCall::instantiate: return name(F::fmi2Instantiate, F::fmi3InstantiateModelExchange);
    case FmiCall::enter_configuration_mode:
      return v2 ? "Configuration Mode (which FMI 2.0 lacks)" : fmi_function_name(F::fmi3EnterConfigurationMode);
    case FmiCall::enter_initialization_mode:
      return name(F::fmi2EnterInitializationMode, F::fmi3EnterInitializationMode);
    case FmiCall::update_discrete_states: return name(F::fmi2NewDiscreteStates, F::fmi3UpdateDiscreteStates);
    case FmiCall::get_continuous_state_derivatives:
      return name(F::fmi2GetDerivatives, F::fmi3GetContinuousStateDerivatives);
    case FmiCall::get_event_indicators: return name(F::fmi2GetEventIndicators, F::fmi3GetEventIndicators);
    case FmiCall::get_directional_derivative:
      return name(F::fmi2GetDirectionalDerivative, F::fmi3GetDirectionalDerivative);
    case FmiCall::set_time: return name(F::fmi2SetTime, F::fmi3SetTime);
  }
  return "?";
}

std::string fmi_accessor_name(FmiVersion version, VariableType type, bool set) {
  if (const FmiFunction f = accessor(version, type, set); f != F::none) return fmi_function_name(f);
  // A type the version lacks: no such function (the instance refuses it
  // before any message could name it).
  return std::string(version == FmiVersion::fmi2 ? "fmi2" : "fmi3") + (set ? "Set" : "Get") + to_string(type);
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
