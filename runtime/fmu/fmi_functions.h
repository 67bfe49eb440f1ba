// runtime/fmu/fmi_functions.h -- the one table of FMI function names: every
// fmi3 and fmi2 function lsdae resolves in a binary or calls.
//
// One list (LSDAE_FMI3_FUNCTIONS, LSDAE_FMI2_FUNCTIONS) makes both the
// enumeration FmiFunction, whose enumerators are the functions' own names
// (FmiFunction::fmi3GetFloat64, FmiFunction::fmi2GetReal), and the names
// fmi_function_name() returns, so an id and its name cannot drift apart.
// Its users: the libraries resolve their symbols by these names
// (fmi3/library.cpp, fmi2/library.cpp); the instances name the function in
// every state check, status and discard (fmu_instance.h); the call record
// stores the id of the function in progress (call_record.h), which the
// supervisor turns back into the name; lsdae/fmi_names.h answers the
// version-neutral questions of messages (FmiCall) from it.
//
// Cost: fmi_function_name is one bounds check and one array load (inline).
#ifndef LSDAE_RUNTIME_FMU_FMI_FUNCTIONS_H
#define LSDAE_RUNTIME_FMU_FMI_FUNCTIONS_H

#include <cstddef>
#include <cstdint>

#include "lsdae/model_description.h"

// FMI 3.0 Model Exchange (and the typed accessors of every FMI 3.0 type).
#define LSDAE_FMI3_FUNCTIONS(X)                                                                          \
  X(fmi3GetVersion) X(fmi3SetDebugLogging) X(fmi3InstantiateModelExchange) X(fmi3FreeInstance)          \
  X(fmi3EnterConfigurationMode) X(fmi3ExitConfigurationMode) X(fmi3EnterInitializationMode)             \
  X(fmi3ExitInitializationMode) X(fmi3EnterEventMode) X(fmi3UpdateDiscreteStates)                       \
  X(fmi3EnterContinuousTimeMode) X(fmi3CompletedIntegratorStep) X(fmi3Terminate) X(fmi3Reset)           \
  X(fmi3SetTime) X(fmi3SetContinuousStates) X(fmi3GetContinuousStates)                                  \
  X(fmi3GetContinuousStateDerivatives) X(fmi3GetEventIndicators) X(fmi3GetNominalsOfContinuousStates)   \
  X(fmi3GetNumberOfContinuousStates) X(fmi3GetNumberOfEventIndicators) X(fmi3GetDirectionalDerivative)  \
  X(fmi3GetAdjointDerivative) X(fmi3GetFMUState) X(fmi3SetFMUState) X(fmi3FreeFMUState)                \
  X(fmi3EvaluateDiscreteStates) X(fmi3GetNumberOfVariableDependencies) X(fmi3GetVariableDependencies)   \
  X(fmi3GetFloat64) X(fmi3SetFloat64) X(fmi3GetFloat32) X(fmi3SetFloat32) X(fmi3GetInt8) X(fmi3SetInt8) \
  X(fmi3GetUInt8) X(fmi3SetUInt8) X(fmi3GetInt16) X(fmi3SetInt16) X(fmi3GetUInt16) X(fmi3SetUInt16)     \
  X(fmi3GetInt32) X(fmi3SetInt32) X(fmi3GetUInt32) X(fmi3SetUInt32) X(fmi3GetInt64) X(fmi3SetInt64)     \
  X(fmi3GetUInt64) X(fmi3SetUInt64) X(fmi3GetBoolean) X(fmi3SetBoolean) X(fmi3GetString)                \
  X(fmi3SetString) X(fmi3GetBinary) X(fmi3SetBinary) X(fmi3GetClock) X(fmi3SetClock)    \
  X(fmi3GetIntervalDecimal) X(fmi3GetIntervalFraction) X(fmi3GetShiftDecimal) X(fmi3GetShiftFraction)

// FMI 2.0 Model Exchange, with Najafi et al.'s constraint functions.
#define LSDAE_FMI2_FUNCTIONS(X)                                                                          \
  X(fmi2GetVersion) X(fmi2GetTypesPlatform) X(fmi2SetDebugLogging) X(fmi2Instantiate) X(fmi2FreeInstance) \
  X(fmi2SetupExperiment) X(fmi2EnterInitializationMode) X(fmi2ExitInitializationMode) X(fmi2EnterEventMode) \
  X(fmi2NewDiscreteStates) X(fmi2EnterContinuousTimeMode) X(fmi2CompletedIntegratorStep) X(fmi2Terminate) \
  X(fmi2Reset) X(fmi2SetTime) X(fmi2SetContinuousStates) X(fmi2GetContinuousStates) X(fmi2GetDerivatives) \
  X(fmi2GetEventIndicators) X(fmi2GetNominalsOfContinuousStates) X(fmi2GetDirectionalDerivative)        \
  X(fmi2GetFMUstate) X(fmi2SetFMUstate) X(fmi2FreeFMUstate) X(fmi2GetReal) X(fmi2SetReal)               \
  X(fmi2GetInteger) X(fmi2SetInteger) X(fmi2GetBoolean) X(fmi2SetBoolean) X(fmi2GetString)              \
  X(fmi2SetString) X(fmi2GetNumberOfConstraints) X(fmi2Constraint) X(fmi2ConstraintJacobian)            \
  X(fmi2ProjectionStep) X(fmi2Projection)

namespace lsdae {

// What FMU code is running: an FMI function, or the binary's own
// initialisers while it is loaded (load_binary); `none` between calls.
enum class FmiFunction : std::uint32_t {
  none = 0,
  load_binary,
#define LSDAE_FMI_ENUMERATOR(NAME) NAME,
  LSDAE_FMI3_FUNCTIONS(LSDAE_FMI_ENUMERATOR) LSDAE_FMI2_FUNCTIONS(LSDAE_FMI_ENUMERATOR)
#undef LSDAE_FMI_ENUMERATOR
  count_  // not a function
};

// The names, indexed by FmiFunction (fmi_names.cpp).
extern const char* const kFmiFunctionNames[static_cast<std::size_t>(FmiFunction::count_)];

// "fmi3GetFloat64", "fmi2GetReal", ...; "(no call)" for none, "loading the
// binary (dlopen)" for load_binary; "?" for a value out of range (the call
// record is read from an untrusted page).
inline const char* fmi_function_name(std::uint32_t function) noexcept {
  return function < static_cast<std::uint32_t>(FmiFunction::count_) ? kFmiFunctionNames[function] : "?";
}
inline const char* fmi_function_name(FmiFunction function) noexcept {
  return fmi_function_name(static_cast<std::uint32_t>(function));
}
// The FMI version a function belongs to (FMI 3.0 for none and load_binary).
FmiVersion fmi_version_of(FmiFunction function) noexcept;

}  // namespace lsdae

#endif  // LSDAE_RUNTIME_FMU_FMI_FUNCTIONS_H
