// runtime/fmu/fmi2/library.h -- an FMI 2.0 Model Exchange FMU's shared library,
// loaded with dlopen, and its table of fmi2 functions.
//
// Required functions (a missing one is Error(binary) naming the symbol):
// those every Model Exchange run calls -- GetVersion, SetDebugLogging,
// Instantiate, FreeInstance, SetupExperiment, Enter/ExitInitializationMode,
// Terminate, Reset, Get/SetReal, EnterEventMode, NewDiscreteStates,
// EnterContinuousTimeMode, CompletedIntegratorStep, SetTime,
// Set/GetContinuousStates, GetDerivatives, GetEventIndicators,
// GetNominalsOfContinuousStates.
// Optional functions (null when missing; using the feature that needs them
// is Error(binary) naming the function): Get/Set Integer, Boolean and String
// (FMI 2.0 requires them, but an FMU with Real variables only runs without),
// GetTypesPlatform (checked to be "default" when exported),
// GetDirectionalDerivative, the FMU state functions, and Najafi et al.'s
// constraint functions (GetNumberOfConstraints, Constraint,
// ConstraintJacobian, ProjectionStep, Projection): a declared but missing
// constraint function is a warning (capability_warnings) that disables that
// path.
// The library is opened with RTLD_NOW | RTLD_LOCAL so unresolved symbols
// fail at load time and two FMUs never see each other's symbols.
#ifndef LSDAE_RUNTIME_FMU_FMI2_LIBRARY_H
#define LSDAE_RUNTIME_FMU_FMI2_LIBRARY_H

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "fmi2_abi.h"
#include "fmu/binary.h"
#include "fmu/shared_object.h"

namespace lsdae {

struct Fmi2Functions {
  // required
  fmi2GetVersionTYPE* GetVersion = nullptr;
  fmi2SetDebugLoggingTYPE* SetDebugLogging = nullptr;
  fmi2InstantiateTYPE* Instantiate = nullptr;
  fmi2FreeInstanceTYPE* FreeInstance = nullptr;
  fmi2SetupExperimentTYPE* SetupExperiment = nullptr;
  fmi2EnterInitializationModeTYPE* EnterInitializationMode = nullptr;
  fmi2ExitInitializationModeTYPE* ExitInitializationMode = nullptr;
  fmi2TerminateTYPE* Terminate = nullptr;
  fmi2ResetTYPE* Reset = nullptr;
  fmi2GetRealTYPE* GetReal = nullptr;
  fmi2SetRealTYPE* SetReal = nullptr;
  fmi2EnterEventModeTYPE* EnterEventMode = nullptr;
  fmi2NewDiscreteStatesTYPE* NewDiscreteStates = nullptr;
  fmi2EnterContinuousTimeModeTYPE* EnterContinuousTimeMode = nullptr;
  fmi2CompletedIntegratorStepTYPE* CompletedIntegratorStep = nullptr;
  fmi2SetTimeTYPE* SetTime = nullptr;
  fmi2SetContinuousStatesTYPE* SetContinuousStates = nullptr;
  fmi2GetContinuousStatesTYPE* GetContinuousStates = nullptr;
  fmi2GetDerivativesTYPE* GetDerivatives = nullptr;
  fmi2GetEventIndicatorsTYPE* GetEventIndicators = nullptr;
  fmi2GetNominalsOfContinuousStatesTYPE* GetNominalsOfContinuousStates = nullptr;
  // optional
  fmi2GetTypesPlatformTYPE* GetTypesPlatform = nullptr;
  fmi2GetIntegerTYPE* GetInteger = nullptr;
  fmi2SetIntegerTYPE* SetInteger = nullptr;
  fmi2GetBooleanTYPE* GetBoolean = nullptr;
  fmi2SetBooleanTYPE* SetBoolean = nullptr;
  fmi2GetStringTYPE* GetString = nullptr;
  fmi2SetStringTYPE* SetString = nullptr;
  fmi2GetDirectionalDerivativeTYPE* GetDirectionalDerivative = nullptr;
  fmi2GetFMUstateTYPE* GetFMUstate = nullptr;
  fmi2SetFMUstateTYPE* SetFMUstate = nullptr;
  fmi2FreeFMUstateTYPE* FreeFMUstate = nullptr;
  fmi2GetNumberOfConstraintsTYPE* GetNumberOfConstraints = nullptr;
  fmi2ConstraintTYPE* Constraint = nullptr;
  fmi2ConstraintJacobianTYPE* ConstraintJacobian = nullptr;
  fmi2ProjectionStepTYPE* ProjectionStep = nullptr;
  fmi2ProjectionTYPE* Projection = nullptr;
};

struct Fmi2Library final : FmuBinary, std::enable_shared_from_this<Fmi2Library> {
  // Loads `path`, resolves the functions, checks fmi2GetVersion() is "2.x"
  // and fmi2GetTypesPlatform() "default". `fmu_name` prefixes the messages.
  // Throws lsdae::Error(binary).
  Fmi2Library(const std::filesystem::path& path, const std::string& fmu_name);
  ~Fmi2Library() override;
  Fmi2Library(const Fmi2Library&) = delete;
  Fmi2Library& operator=(const Fmi2Library&) = delete;

  // FmuBinary: instances are Fmi2Instance (fmi2/instance.h); each keeps the
  // library loaded (so it must be owned by a shared_ptr, as the loader makes it).
  std::unique_ptr<Instance> instantiate(InstanceContext context, const std::string& name) const override;
  bool exports_directional_derivative() const override { return fn.GetDirectionalDerivative != nullptr; }
  bool can_set_dae_switch() const override { return false; }  // FMI 2.0 has no Configuration Mode
  const std::vector<std::string>& missing_optional_functions() const override {
    return library_.missing_optional();
  }
  std::vector<std::string> capability_warnings(const ModelDescription& md) const override;

  Fmi2Functions fn;
  std::string version;  // what fmi2GetVersion returned
  std::filesystem::path path;

 private:
  SharedObject library_;
};

}  // namespace lsdae

#endif  // LSDAE_RUNTIME_FMU_FMI2_LIBRARY_H
