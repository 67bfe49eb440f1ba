// runtime/fmu/fmi3/library.h -- an FMI 3.0 Model Exchange FMU's shared
// library, loaded with dlopen, and its table of fmi3 functions.
//
// Required functions (a missing one is Error(binary) naming the symbol):
// those every Model Exchange run calls -- GetVersion, SetDebugLogging,
// InstantiateModelExchange, FreeInstance, Enter/ExitInitializationMode,
// EnterEventMode, Terminate, Reset, Get/SetFloat64, UpdateDiscreteStates,
// EnterContinuousTimeMode, CompletedIntegratorStep, SetTime,
// Set/GetContinuousStates, GetContinuousStateDerivatives,
// GetEventIndicators, GetNominalsOfContinuousStates,
// GetNumberOfEventIndicators, GetNumberOfContinuousStates.
// Optional functions (null when missing; the feature that needs them is off
// and a warning is logged once): the other typed getters/setters,
// Enter/ExitConfigurationMode (needed for the DAE switch),
// GetDirectionalDerivative, GetAdjointDerivative, FMU state functions,
// EvaluateDiscreteStates, variable-dependency queries, the clock functions
// (Get/SetClock, GetInterval/GetShift Decimal/Fraction: a model with clocks
// that lacks one is refused when its clocks are set up, naming it).
// The library is opened with RTLD_NOW | RTLD_LOCAL so unresolved symbols
// fail at load time and two FMUs never see each other's symbols.
#ifndef LSDAE_RUNTIME_FMU_FMI3_LIBRARY_H
#define LSDAE_RUNTIME_FMU_FMI3_LIBRARY_H

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "fmi3_abi.h"
#include "fmu/binary.h"
#include "fmu/shared_object.h"

namespace lsdae {

struct Fmi3Functions {
  // required
  fmi3GetVersionTYPE* GetVersion = nullptr;
  fmi3SetDebugLoggingTYPE* SetDebugLogging = nullptr;
  fmi3InstantiateModelExchangeTYPE* InstantiateModelExchange = nullptr;
  fmi3FreeInstanceTYPE* FreeInstance = nullptr;
  fmi3EnterInitializationModeTYPE* EnterInitializationMode = nullptr;
  fmi3ExitInitializationModeTYPE* ExitInitializationMode = nullptr;
  fmi3EnterEventModeTYPE* EnterEventMode = nullptr;
  fmi3TerminateTYPE* Terminate = nullptr;
  fmi3ResetTYPE* Reset = nullptr;
  fmi3GetFloat64TYPE* GetFloat64 = nullptr;
  fmi3SetFloat64TYPE* SetFloat64 = nullptr;
  fmi3UpdateDiscreteStatesTYPE* UpdateDiscreteStates = nullptr;
  fmi3EnterContinuousTimeModeTYPE* EnterContinuousTimeMode = nullptr;
  fmi3CompletedIntegratorStepTYPE* CompletedIntegratorStep = nullptr;
  fmi3SetTimeTYPE* SetTime = nullptr;
  fmi3SetContinuousStatesTYPE* SetContinuousStates = nullptr;
  fmi3GetContinuousStatesTYPE* GetContinuousStates = nullptr;
  fmi3GetContinuousStateDerivativesTYPE* GetContinuousStateDerivatives = nullptr;
  fmi3GetEventIndicatorsTYPE* GetEventIndicators = nullptr;
  fmi3GetNominalsOfContinuousStatesTYPE* GetNominalsOfContinuousStates = nullptr;
  fmi3GetNumberOfEventIndicatorsTYPE* GetNumberOfEventIndicators = nullptr;
  fmi3GetNumberOfContinuousStatesTYPE* GetNumberOfContinuousStates = nullptr;
  // optional
  fmi3GetBooleanTYPE* GetBoolean = nullptr;
  fmi3SetBooleanTYPE* SetBoolean = nullptr;
  fmi3GetInt32TYPE* GetInt32 = nullptr;
  fmi3SetInt32TYPE* SetInt32 = nullptr;
  fmi3GetInt64TYPE* GetInt64 = nullptr;
  fmi3SetInt64TYPE* SetInt64 = nullptr;
  fmi3GetFloat32TYPE* GetFloat32 = nullptr;
  fmi3SetFloat32TYPE* SetFloat32 = nullptr;
  fmi3GetInt8TYPE* GetInt8 = nullptr;
  fmi3SetInt8TYPE* SetInt8 = nullptr;
  fmi3GetUInt8TYPE* GetUInt8 = nullptr;
  fmi3SetUInt8TYPE* SetUInt8 = nullptr;
  fmi3GetInt16TYPE* GetInt16 = nullptr;
  fmi3SetInt16TYPE* SetInt16 = nullptr;
  fmi3GetUInt16TYPE* GetUInt16 = nullptr;
  fmi3SetUInt16TYPE* SetUInt16 = nullptr;
  fmi3GetUInt32TYPE* GetUInt32 = nullptr;
  fmi3SetUInt32TYPE* SetUInt32 = nullptr;
  fmi3GetUInt64TYPE* GetUInt64 = nullptr;
  fmi3SetUInt64TYPE* SetUInt64 = nullptr;
  fmi3GetStringTYPE* GetString = nullptr;
  fmi3SetStringTYPE* SetString = nullptr;
  fmi3GetBinaryTYPE* GetBinary = nullptr;
  fmi3SetBinaryTYPE* SetBinary = nullptr;
  fmi3EnterConfigurationModeTYPE* EnterConfigurationMode = nullptr;
  fmi3ExitConfigurationModeTYPE* ExitConfigurationMode = nullptr;
  fmi3GetDirectionalDerivativeTYPE* GetDirectionalDerivative = nullptr;
  fmi3GetAdjointDerivativeTYPE* GetAdjointDerivative = nullptr;
  fmi3GetFMUStateTYPE* GetFMUState = nullptr;
  fmi3SetFMUStateTYPE* SetFMUState = nullptr;
  fmi3FreeFMUStateTYPE* FreeFMUState = nullptr;
  fmi3EvaluateDiscreteStatesTYPE* EvaluateDiscreteStates = nullptr;
  fmi3GetNumberOfVariableDependenciesTYPE* GetNumberOfVariableDependencies = nullptr;
  fmi3GetVariableDependenciesTYPE* GetVariableDependencies = nullptr;
  fmi3GetClockTYPE* GetClock = nullptr;
  fmi3SetClockTYPE* SetClock = nullptr;
  fmi3GetIntervalDecimalTYPE* GetIntervalDecimal = nullptr;
  fmi3GetIntervalFractionTYPE* GetIntervalFraction = nullptr;
  fmi3GetShiftDecimalTYPE* GetShiftDecimal = nullptr;
  fmi3GetShiftFractionTYPE* GetShiftFraction = nullptr;
};

struct Fmi3Library final : FmuBinary, std::enable_shared_from_this<Fmi3Library> {
  // Loads `path`, resolves the functions, checks fmi3GetVersion() is "3.x".
  // `fmu_name` prefixes the messages. Throws lsdae::Error(binary).
  Fmi3Library(const std::filesystem::path& path, const std::string& fmu_name);
  ~Fmi3Library() override;

  // FmuBinary: instances are Fmi3Instance (fmi3/instance.h); each keeps the
  // library loaded (so it must be owned by a shared_ptr, as the loader makes it).
  std::unique_ptr<Instance> instantiate(InstanceContext context, const std::string& name) const override;
  bool exports_directional_derivative() const override { return fn.GetDirectionalDerivative != nullptr; }
  bool can_set_dae_switch() const override {
    return fn.EnterConfigurationMode != nullptr && fn.SetBoolean != nullptr;
  }
  const std::vector<std::string>& missing_optional_functions() const override {
    return library_.missing_optional();
  }
  Fmi3Library(const Fmi3Library&) = delete;
  Fmi3Library& operator=(const Fmi3Library&) = delete;

  Fmi3Functions fn;
  std::string version;  // what fmi3GetVersion returned
  std::filesystem::path path;

 private:
  SharedObject library_;
};

// binaries/<platform>/ folder name of this build, e.g. "x86_64-linux".
const char* platform_tuple() noexcept;

}  // namespace lsdae

#endif  // LSDAE_RUNTIME_FMU_FMI3_LIBRARY_H
