// runtime/fmu/fmi2/library.cpp -- see library.h.
#include "fmu/fmi2/library.h"

#include <cstring>

#include "fmu/call_record.h"
#include "fmu/fmi2/instance.h"
#include "lsdae/error.h"

namespace lsdae {

Fmi2Library::Fmi2Library(const std::filesystem::path& lib_path, const std::string& fmu_name)
    : path(lib_path), library_(lib_path, fmu_name, lib_path.parent_path().filename().string()) {
  auto resolve = [&](FmiFunction function, bool required) -> void* {
    return library_.resolve(fmi_function_name(function), required,
                            "the binary is not an FMI 2.0 Model Exchange FMU, or it was built with a symbol prefix "
                            "(FMI2_FUNCTION_PREFIX); re-export the FMU");
  };
#define LSDAE_REQUIRED(NAME) fn.NAME = reinterpret_cast<fmi2##NAME##TYPE*>(resolve(FmiFunction::fmi2##NAME, true))
#define LSDAE_OPTIONAL(NAME) fn.NAME = reinterpret_cast<fmi2##NAME##TYPE*>(resolve(FmiFunction::fmi2##NAME, false))
  LSDAE_REQUIRED(GetVersion);
  LSDAE_REQUIRED(SetDebugLogging);
  LSDAE_REQUIRED(Instantiate);
  LSDAE_REQUIRED(FreeInstance);
  LSDAE_REQUIRED(SetupExperiment);
  LSDAE_REQUIRED(EnterInitializationMode);
  LSDAE_REQUIRED(ExitInitializationMode);
  LSDAE_REQUIRED(Terminate);
  LSDAE_REQUIRED(Reset);
  LSDAE_REQUIRED(GetReal);
  LSDAE_REQUIRED(SetReal);
  LSDAE_REQUIRED(EnterEventMode);
  LSDAE_REQUIRED(NewDiscreteStates);
  LSDAE_REQUIRED(EnterContinuousTimeMode);
  LSDAE_REQUIRED(CompletedIntegratorStep);
  LSDAE_REQUIRED(SetTime);
  LSDAE_REQUIRED(SetContinuousStates);
  LSDAE_REQUIRED(GetContinuousStates);
  LSDAE_REQUIRED(GetDerivatives);
  LSDAE_REQUIRED(GetEventIndicators);
  LSDAE_REQUIRED(GetNominalsOfContinuousStates);
  LSDAE_OPTIONAL(GetTypesPlatform);
  LSDAE_OPTIONAL(GetInteger);
  LSDAE_OPTIONAL(SetInteger);
  LSDAE_OPTIONAL(GetBoolean);
  LSDAE_OPTIONAL(SetBoolean);
  LSDAE_OPTIONAL(GetString);
  LSDAE_OPTIONAL(SetString);
  LSDAE_OPTIONAL(GetDirectionalDerivative);
  LSDAE_OPTIONAL(GetFMUstate);
  LSDAE_OPTIONAL(SetFMUstate);
  LSDAE_OPTIONAL(FreeFMUstate);
  LSDAE_OPTIONAL(GetNumberOfConstraints);
  LSDAE_OPTIONAL(Constraint);
  LSDAE_OPTIONAL(ConstraintJacobian);
  LSDAE_OPTIONAL(ProjectionStep);
  LSDAE_OPTIONAL(Projection);
#undef LSDAE_REQUIRED
#undef LSDAE_OPTIONAL
  const char* v = nullptr;
  {
    call_record::CallScope scope(call_record::loader_slot(), FmiFunction::fmi2GetVersion);
    v = fn.GetVersion();
  }
  version = v != nullptr ? v : "";
  if (version.rfind("2.", 0) != 0)
    library_.fail("fmi2GetVersion() returned \"" + version +
         "\", expected 2.x → the binary does not match the FMI 2.0 modelDescription.xml");
  if (fn.GetTypesPlatform != nullptr) {
    const char* p = fn.GetTypesPlatform();
    std::string platform = p != nullptr ? p : "";
    if (platform != fmi2TypesPlatform)
      library_.fail("fmi2GetTypesPlatform() returned \"" + platform +
           "\", expected \"default\" → the binary was built with other C types for FMI values; lsdae loads "
           "FMUs of the default types platform only");
  }
}

std::vector<std::string> Fmi2Library::capability_warnings(const ModelDescription& md) const {
  std::vector<std::string> out;
  if (!md.model_exchange) return out;
  const ModelExchange& me = *md.model_exchange;
  auto missing = [&](bool declared, const char* flag, std::initializer_list<std::pair<const char*, bool>> fns) {
    if (!declared) return;
    for (const auto& [name, present] : fns)
      if (!present)
        out.push_back(std::string(flag) + " but the binary does not export " + name + " → lsdae does not use it");
  };
  const bool constraints = me.provides_constraints != ModelExchange::Constraints::none;
  missing(constraints, "providesConstraints is declared",
          {{"fmi2GetNumberOfConstraints", fn.GetNumberOfConstraints != nullptr},
           {"fmi2Constraint", fn.Constraint != nullptr}});
  missing(me.provides_constraints == ModelExchange::Constraints::with_jacobian,
          "providesConstraints=\"withJacobian\"", {{"fmi2ConstraintJacobian", fn.ConstraintJacobian != nullptr}});
  missing(me.provides_projection, "providesProjection=\"true\"", {{"fmi2Projection", fn.Projection != nullptr}});
  missing(me.provides_projection_step, "providesProjectionStep=\"true\"",
          {{"fmi2ProjectionStep", fn.ProjectionStep != nullptr}});
  return out;
}

std::unique_ptr<Instance> Fmi2Library::instantiate(InstanceContext context, const std::string& name) const {
  return std::make_unique<Fmi2Instance>(std::move(context), name, shared_from_this());
}

Fmi2Library::~Fmi2Library() = default;

}  // namespace lsdae
