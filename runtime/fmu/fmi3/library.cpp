// runtime/fmu/fmi3/library.cpp -- see library.h.
#include "fmu/fmi3/library.h"

#include <cstring>

#include "fmu/call_record.h"
#include "fmu/fmi3/instance.h"
#include "lsdae/error.h"

namespace lsdae {

const char* platform_tuple() noexcept {
#if defined(__x86_64__) && defined(__linux__)
  return "x86_64-linux";
#elif defined(__aarch64__) && defined(__linux__)
  return "aarch64-linux";
#else
  return "unknown";
#endif
}

Fmi3Library::Fmi3Library(const std::filesystem::path& lib_path, const std::string& fmu_name)
    : path(lib_path), library_(lib_path, fmu_name, platform_tuple()) {
  auto resolve = [&](FmiFunction function, bool required) -> void* {
    return library_.resolve(fmi_function_name(function), required,
                            "the binary is not an FMI 3.0 Model Exchange FMU, or it was built with a symbol prefix; "
                            "re-export the FMU");
  };
#define LSDAE_REQUIRED(NAME) fn.NAME = reinterpret_cast<fmi3##NAME##TYPE*>(resolve(FmiFunction::fmi3##NAME, true))
#define LSDAE_OPTIONAL(NAME) fn.NAME = reinterpret_cast<fmi3##NAME##TYPE*>(resolve(FmiFunction::fmi3##NAME, false))
  LSDAE_REQUIRED(GetVersion);
  LSDAE_REQUIRED(SetDebugLogging);
  LSDAE_REQUIRED(InstantiateModelExchange);
  LSDAE_REQUIRED(FreeInstance);
  LSDAE_REQUIRED(EnterInitializationMode);
  LSDAE_REQUIRED(ExitInitializationMode);
  LSDAE_REQUIRED(EnterEventMode);
  LSDAE_REQUIRED(Terminate);
  LSDAE_REQUIRED(Reset);
  LSDAE_REQUIRED(GetFloat64);
  LSDAE_REQUIRED(SetFloat64);
  LSDAE_REQUIRED(UpdateDiscreteStates);
  LSDAE_REQUIRED(EnterContinuousTimeMode);
  LSDAE_REQUIRED(CompletedIntegratorStep);
  LSDAE_REQUIRED(SetTime);
  LSDAE_REQUIRED(SetContinuousStates);
  LSDAE_REQUIRED(GetContinuousStates);
  LSDAE_REQUIRED(GetContinuousStateDerivatives);
  LSDAE_REQUIRED(GetEventIndicators);
  LSDAE_REQUIRED(GetNominalsOfContinuousStates);
  LSDAE_REQUIRED(GetNumberOfEventIndicators);
  LSDAE_REQUIRED(GetNumberOfContinuousStates);
  LSDAE_OPTIONAL(GetBoolean);
  LSDAE_OPTIONAL(SetBoolean);
  LSDAE_OPTIONAL(GetInt32);
  LSDAE_OPTIONAL(SetInt32);
  LSDAE_OPTIONAL(GetInt64);
  LSDAE_OPTIONAL(SetInt64);
  LSDAE_OPTIONAL(GetFloat32);
  LSDAE_OPTIONAL(SetFloat32);
  LSDAE_OPTIONAL(GetInt8);
  LSDAE_OPTIONAL(SetInt8);
  LSDAE_OPTIONAL(GetUInt8);
  LSDAE_OPTIONAL(SetUInt8);
  LSDAE_OPTIONAL(GetInt16);
  LSDAE_OPTIONAL(SetInt16);
  LSDAE_OPTIONAL(GetUInt16);
  LSDAE_OPTIONAL(SetUInt16);
  LSDAE_OPTIONAL(GetUInt32);
  LSDAE_OPTIONAL(SetUInt32);
  LSDAE_OPTIONAL(GetUInt64);
  LSDAE_OPTIONAL(SetUInt64);
  LSDAE_OPTIONAL(GetString);
  LSDAE_OPTIONAL(SetString);
  LSDAE_OPTIONAL(GetBinary);
  LSDAE_OPTIONAL(SetBinary);
  LSDAE_OPTIONAL(EnterConfigurationMode);
  LSDAE_OPTIONAL(ExitConfigurationMode);
  LSDAE_OPTIONAL(GetDirectionalDerivative);
  LSDAE_OPTIONAL(GetAdjointDerivative);
  LSDAE_OPTIONAL(GetFMUState);
  LSDAE_OPTIONAL(SetFMUState);
  LSDAE_OPTIONAL(FreeFMUState);
  LSDAE_OPTIONAL(EvaluateDiscreteStates);
  LSDAE_OPTIONAL(GetNumberOfVariableDependencies);
  LSDAE_OPTIONAL(GetVariableDependencies);
  LSDAE_OPTIONAL(GetClock);
  LSDAE_OPTIONAL(SetClock);
  LSDAE_OPTIONAL(GetIntervalDecimal);
  LSDAE_OPTIONAL(GetIntervalFraction);
  LSDAE_OPTIONAL(GetShiftDecimal);
  LSDAE_OPTIONAL(GetShiftFraction);
#undef LSDAE_REQUIRED
#undef LSDAE_OPTIONAL
  const char* v = nullptr;
  {
    call_record::CallScope scope(call_record::loader_slot(), FmiFunction::fmi3GetVersion);
    v = fn.GetVersion();
  }
  version = v != nullptr ? v : "";
  if (version.rfind("3.", 0) != 0)
    library_.fail("fmi3GetVersion() returned \"" + version +
                  "\", expected 3.x → the binary does not match the FMI 3.0 modelDescription.xml");
}

std::unique_ptr<Instance> Fmi3Library::instantiate(InstanceContext context, const std::string& name) const {
  return std::make_unique<Fmi3Instance>(std::move(context), name, shared_from_this());
}

Fmi3Library::~Fmi3Library() = default;

}  // namespace lsdae
