// models/kit/fmi2_functions.cpp -- the exported FMI 2.0 Model Exchange entry
// points of every kit FMU (FMI 2.0.4, sections 2.1 and 3.2), over the same
// Instance as fmi3_functions.cpp, plus the constraint functions of Najafi et
// al.'s extension (abi/fmi2_abi.h).
//
// An fmi2Component is a Component: the importer's callbacks, the instance
// name and the Instance (which keeps the start time of fmi2SetupExperiment:
// it is part of the FMU state). The FMI 2.0
// state machine maps onto Instance's modes one to one (Instantiated
// --SetupExperiment, EnterInitializationMode--> Initialization Mode
// --ExitInitializationMode--> Event Mode <--> Continuous-Time Mode,
// --Terminate--> Terminated, any --Reset--> Instantiated); Configuration Mode
// does not exist in 2.0 and no 2.0 function reaches it.
//
// Messages: Instance names the fmi3 functions; the logger adapter below
// rewrites those names to their fmi2 counterparts (fmi3GetFloat64 ->
// fmi2GetReal, ...), so a 2.0 importer reads its own function names. Every
// message goes to the 2.0 logger as the argument of a "%s" format, with '#'
// doubled (a single '#' would start a variable reference, section 2.1.5).
//
// The FMU-state functions are the Instance's (instance_state.cpp), allowed
// when the FMU declares canGetAndSetFMUstate / canSerializeFMUstate.
// Co-Simulation functions and Integer/String variables
// (kit FMUs have none) answer fmi2Error with a message; every function of the
// 2.0 standard is exported so that importers that resolve them all load the
// binary. Each definition is checked against its fmi2_abi.h type.
#include <cstdlib>
#include <cctype>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "fmi2_abi.h"
#include "kit/instance.h"

#define LSDAE_EXPORT extern "C" __attribute__((visibility("default")))

using lsdae::kit::Instance;

namespace {

struct Component {
  fmi2CallbackLogger logger = nullptr;
  fmi2ComponentEnvironment environment = nullptr;
  std::string name;
  std::unique_ptr<Instance> instance;
};

// Instance's fmi3 vocabulary -> fmi2. Longest first where one name contains another.
const std::pair<const char*, const char*> kRenames[] = {
    {"fmi3GetContinuousStateDerivatives", "fmi2GetDerivatives"},
    {"fmi3UpdateDiscreteStates", "fmi2NewDiscreteStates"},
    {"fmi3GetFloat64", "fmi2GetReal"},
    {"fmi3SetFloat64", "fmi2SetReal"},
    {"fmi3InstantiateModelExchange", "fmi2Instantiate"},
    {"providesDirectionalDerivatives", "providesDirectionalDerivative"},
    {"instantiationToken", "guid"},
    {"fmi3DeserializeFMUState", "fmi2DeSerializeFMUstate"},
    {"FMUState", "FMUstate"},
    {"fmi3", "fmi2"},
};

std::string for_fmi2(std::string text) {
  for (const auto& [from, to] : kRenames) {
    const std::size_t from_size = std::strlen(from), to_size = std::strlen(to);
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to_size))
      text.replace(at, from_size, to);
  }
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '#') out += '#';
  }
  return out;
}

void log_to(const Component& c, fmi2Status status, const char* category, const std::string& message) {
  if (c.logger == nullptr) return;
  c.logger(c.environment, c.name.c_str(), status, category, "%s", for_fmi2(message).c_str());
}

// Instance's logger: `env` is the Component.
void forward_log(fmi3InstanceEnvironment env, fmi3Status status, fmi3String category, fmi3String message) {
  log_to(*static_cast<const Component*>(env), static_cast<fmi2Status>(status), category, message);
}

fmi2Status to_fmi2(fmi3Status s) { return static_cast<fmi2Status>(s); }

template <typename F>
fmi2Status fmi2_guarded(fmi2Component c, const char* function, F&& body) {
  if (c == nullptr) return fmi2Error;
  auto* self = static_cast<Component*>(c);
  try {
    return body(*self, *self->instance);
  } catch (const std::exception& e) {
    log_to(*self, fmi2Error, "logStatusError", std::string(function) + ": " + e.what());
    return fmi2Error;
  }
}

fmi2Status refuse(fmi2Component c, const char* function, const std::string& why) {
  return fmi2_guarded(c, function, [&](Component& self, Instance&) {
    log_to(self, fmi2Error, "logStatusError", std::string(function) + ": " + why);
    return fmi2Error;
  });
}

// fmuResourceLocation is a URI (2.0 section 2.1.6): file:///path,
// file://localhost/path or file:/path, percent-encoded. Returns the path.
std::string uri_to_path(const std::string& uri) {
  std::string rest;
  if (uri.rfind("file://localhost/", 0) == 0) rest = uri.substr(16);
  else if (uri.rfind("file:///", 0) == 0) rest = uri.substr(7);
  else if (uri.rfind("file:/", 0) == 0) rest = uri.substr(5);
  else
    throw std::invalid_argument("fmuResourceLocation \"" + uri +
                                "\" is no file URI; pass file:///<unpacked FMU>/resources");
  std::string path;
  for (std::size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '%' && i + 2 < rest.size() && std::isxdigit(static_cast<unsigned char>(rest[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(rest[i + 2]))) {
      path += static_cast<char>(std::stoi(rest.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      path += rest[i];
    }
  }
  return path;
}

}  // namespace

#define LSDAE_CHECK_TYPE(name) static_assert(std::is_same_v<decltype(name), name##TYPE>, #name " differs from fmi2_abi.h")

// ---- common functions ------------------------------------------------------
LSDAE_EXPORT const char* fmi2GetTypesPlatform(void) { return fmi2TypesPlatform; }
LSDAE_EXPORT const char* fmi2GetVersion(void) { return fmi2Version; }
LSDAE_CHECK_TYPE(fmi2GetTypesPlatform);
LSDAE_CHECK_TYPE(fmi2GetVersion);

LSDAE_EXPORT fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean loggingOn, size_t nCategories,
                                           const fmi2String categories[]) {
  return fmi2_guarded(c, "fmi2SetDebugLogging", [&](Component&, Instance& s) {
    return to_fmi2(s.set_debug_logging(loggingOn != fmi2False, nCategories, categories));
  });
}
LSDAE_CHECK_TYPE(fmi2SetDebugLogging);

LSDAE_EXPORT fmi2Component fmi2Instantiate(fmi2String instanceName, fmi2Type fmuType, fmi2String fmuGUID,
                                           fmi2String fmuResourceLocation, const fmi2CallbackFunctions* functions,
                                           fmi2Boolean /*visible*/, fmi2Boolean loggingOn) {
  auto component = std::make_unique<Component>();
  component->name = instanceName ? instanceName : "";
  if (functions != nullptr) {
    component->logger = functions->logger;
    component->environment = functions->componentEnvironment;
  }
  auto fail = [&](const std::string& message) -> fmi2Component {
    log_to(*component, fmi2Error, "logStatusError", "fmi2Instantiate: " + message);
    return nullptr;
  };
  if (functions == nullptr) return nullptr;  // no logger to tell
  if (component->name.find_first_not_of(" \t\r\n") == std::string::npos)
    return fail("instanceName must be a non-empty string");
  if (fmuType != fmi2ModelExchange)
    return fail("fmuType is " + std::to_string(static_cast<int>(fmuType)) +
                "; this FMU supports Model Exchange only (fmi2ModelExchange = 0)");
  if (fmuGUID == nullptr) return fail("fmuGUID is NULL; pass the guid of modelDescription.xml");
  if (fmuResourceLocation == nullptr)
    return fail("fmuResourceLocation is NULL; this FMU reads its configuration from resources/");
  try {
    component->instance = std::make_unique<Instance>(component->name, fmuGUID, uri_to_path(fmuResourceLocation),
                                                     loggingOn != fmi2False, component.get(), &forward_log);
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  if (component->instance->description().fmi_version != 2)
    return fail("this FMU's modelDescription.xml is FMI " +
                std::to_string(component->instance->description().fmi_version) +
                "; load it through that version's functions");
  return component.release();
}
LSDAE_CHECK_TYPE(fmi2Instantiate);

LSDAE_EXPORT void fmi2FreeInstance(fmi2Component c) {
  auto* component = static_cast<Component*>(c);
  const bool abort_now = component != nullptr && component->instance && component->instance->description().abort_when_freed;
  delete component;
  if (abort_now) std::abort();  // config free_fault=abort
}
LSDAE_CHECK_TYPE(fmi2FreeInstance);

LSDAE_EXPORT fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean, fmi2Real, fmi2Real startTime, fmi2Boolean,
                                            fmi2Real) {
  return fmi2_guarded(c, "fmi2SetupExperiment", [&](Component&, Instance& s) {
    if (!s.check_mode("fmi2SetupExperiment", {lsdae::kit::Mode::instantiated})) return fmi2Error;
    s.set_setup_start_time(startTime);
    return fmi2OK;
  });
}
LSDAE_CHECK_TYPE(fmi2SetupExperiment);

LSDAE_EXPORT fmi2Status fmi2EnterInitializationMode(fmi2Component c) {
  return fmi2_guarded(c, "fmi2EnterInitializationMode",
                 [](Component&, Instance& s) { return to_fmi2(s.enter_initialization_mode(s.setup_start_time())); });
}
LSDAE_EXPORT fmi2Status fmi2ExitInitializationMode(fmi2Component c) {
  return fmi2_guarded(c, "fmi2ExitInitializationMode",
                 [](Component&, Instance& s) { return to_fmi2(s.exit_initialization_mode()); });
}
LSDAE_EXPORT fmi2Status fmi2Terminate(fmi2Component c) {
  return fmi2_guarded(c, "fmi2Terminate", [](Component&, Instance& s) { return to_fmi2(s.terminate()); });
}
LSDAE_EXPORT fmi2Status fmi2Reset(fmi2Component c) {
  return fmi2_guarded(c, "fmi2Reset", [](Component&, Instance& s) { return to_fmi2(s.reset()); });
}
LSDAE_CHECK_TYPE(fmi2EnterInitializationMode);
LSDAE_CHECK_TYPE(fmi2ExitInitializationMode);
LSDAE_CHECK_TYPE(fmi2Terminate);
LSDAE_CHECK_TYPE(fmi2Reset);

// ---- variables ---------------------------------------------------------------
LSDAE_EXPORT fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Real value[]) {
  return fmi2_guarded(c, "fmi2GetReal", [&](Component&, Instance& s) {
    const fmi3ValueReference* own = s.internal_vrs("fmi2GetReal", vr, nvr, 0);
    return own == nullptr ? fmi2Error : to_fmi2(s.get_float64(own, nvr, value, nvr));
  });
}
LSDAE_EXPORT fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                    const fmi2Real value[]) {
  return fmi2_guarded(c, "fmi2SetReal", [&](Component&, Instance& s) {
    const fmi3ValueReference* own = s.internal_vrs("fmi2SetReal", vr, nvr, 0);
    return own == nullptr ? fmi2Error : to_fmi2(s.set_float64(own, nvr, value, nvr));
  });
}
LSDAE_EXPORT fmi2Status fmi2GetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                       fmi2Boolean value[]) {
  return fmi2_guarded(c, "fmi2GetBoolean", [&](Component&, Instance& s) {
    const fmi3ValueReference* own = s.internal_vrs("fmi2GetBoolean", vr, nvr, 0);
    if (own == nullptr) return fmi2Error;
    std::unique_ptr<bool[]> values(new bool[nvr == 0 ? 1 : nvr]);
    const fmi3Status status = s.get_boolean(own, nvr, values.get(), nvr);
    if (status == fmi3OK)
      for (size_t i = 0; i < nvr; ++i) value[i] = values[i] ? fmi2True : fmi2False;
    return to_fmi2(status);
  });
}
LSDAE_EXPORT fmi2Status fmi2SetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                       const fmi2Boolean value[]) {
  return fmi2_guarded(c, "fmi2SetBoolean", [&](Component&, Instance& s) {
    const fmi3ValueReference* own = s.internal_vrs("fmi2SetBoolean", vr, nvr, 0);
    if (own == nullptr) return fmi2Error;
    std::unique_ptr<bool[]> values(new bool[nvr == 0 ? 1 : nvr]);
    for (size_t i = 0; i < nvr; ++i) values[i] = value[i] != fmi2False;
    return to_fmi2(s.set_boolean(own, nvr, values.get(), nvr));
  });
}
// Kit FMUs have no Integer and no String variables: any value reference is an error naming it.
LSDAE_EXPORT fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Integer[]) {
  return fmi2_guarded(c, "fmi2GetInteger", [&](Component&, Instance& s) {
    const fmi3ValueReference* own = s.internal_vrs("fmi2GetInteger", vr, nvr, 0);
    return own == nullptr ? fmi2Error : to_fmi2(s.no_such_type("fmi2GetInteger", own, nvr));
  });
}
LSDAE_EXPORT fmi2Status fmi2SetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                       const fmi2Integer[]) {
  return fmi2_guarded(c, "fmi2SetInteger", [&](Component&, Instance& s) {
    const fmi3ValueReference* own = s.internal_vrs("fmi2SetInteger", vr, nvr, 0);
    return own == nullptr ? fmi2Error : to_fmi2(s.no_such_type("fmi2SetInteger", own, nvr));
  });
}
LSDAE_EXPORT fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2String[]) {
  return fmi2_guarded(c, "fmi2GetString", [&](Component&, Instance& s) {
    const fmi3ValueReference* own = s.internal_vrs("fmi2GetString", vr, nvr, 0);
    return own == nullptr ? fmi2Error : to_fmi2(s.no_such_type("fmi2GetString", own, nvr));
  });
}
LSDAE_EXPORT fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                      const fmi2String[]) {
  return fmi2_guarded(c, "fmi2SetString", [&](Component&, Instance& s) {
    const fmi3ValueReference* own = s.internal_vrs("fmi2SetString", vr, nvr, 0);
    return own == nullptr ? fmi2Error : to_fmi2(s.no_such_type("fmi2SetString", own, nvr));
  });
}
LSDAE_CHECK_TYPE(fmi2GetReal);
LSDAE_CHECK_TYPE(fmi2SetReal);
LSDAE_CHECK_TYPE(fmi2GetBoolean);
LSDAE_CHECK_TYPE(fmi2SetBoolean);
LSDAE_CHECK_TYPE(fmi2GetInteger);
LSDAE_CHECK_TYPE(fmi2SetInteger);
LSDAE_CHECK_TYPE(fmi2GetString);
LSDAE_CHECK_TYPE(fmi2SetString);

// ---- FMU state (instance_state.cpp; the fmi3 rules, messages renamed) -----------
LSDAE_EXPORT fmi2Status fmi2GetFMUstate(fmi2Component c, fmi2FMUstate* FMUstate) {
  return fmi2_guarded(c, "fmi2GetFMUstate", [&](Component&, Instance& s) { return to_fmi2(s.get_fmu_state(FMUstate)); });
}
LSDAE_EXPORT fmi2Status fmi2SetFMUstate(fmi2Component c, fmi2FMUstate FMUstate) {
  return fmi2_guarded(c, "fmi2SetFMUstate", [&](Component&, Instance& s) { return to_fmi2(s.set_fmu_state(FMUstate)); });
}
LSDAE_EXPORT fmi2Status fmi2FreeFMUstate(fmi2Component c, fmi2FMUstate* FMUstate) {
  return fmi2_guarded(c, "fmi2FreeFMUstate", [&](Component&, Instance& s) { return to_fmi2(s.free_fmu_state(FMUstate)); });
}
LSDAE_EXPORT fmi2Status fmi2SerializedFMUstateSize(fmi2Component c, fmi2FMUstate FMUstate, size_t* size) {
  return fmi2_guarded(c, "fmi2SerializedFMUstateSize",
                 [&](Component&, Instance& s) { return to_fmi2(s.serialized_fmu_state_size(FMUstate, size)); });
}
LSDAE_EXPORT fmi2Status fmi2SerializeFMUstate(fmi2Component c, fmi2FMUstate FMUstate, fmi2Byte serializedState[],
                                              size_t size) {
  return fmi2_guarded(c, "fmi2SerializeFMUstate", [&](Component&, Instance& s) {
    return to_fmi2(s.serialize_fmu_state(FMUstate, reinterpret_cast<std::uint8_t*>(serializedState), size));
  });
}
LSDAE_EXPORT fmi2Status fmi2DeSerializeFMUstate(fmi2Component c, const fmi2Byte serializedState[], size_t size,
                                                fmi2FMUstate* FMUstate) {
  return fmi2_guarded(c, "fmi2DeSerializeFMUstate", [&](Component&, Instance& s) {
    return to_fmi2(
        s.deserialize_fmu_state(reinterpret_cast<const std::uint8_t*>(serializedState), size, FMUstate));
  });
}
LSDAE_CHECK_TYPE(fmi2GetFMUstate);
LSDAE_CHECK_TYPE(fmi2SetFMUstate);
LSDAE_CHECK_TYPE(fmi2FreeFMUstate);
LSDAE_CHECK_TYPE(fmi2SerializedFMUstateSize);
LSDAE_CHECK_TYPE(fmi2SerializeFMUstate);
LSDAE_CHECK_TYPE(fmi2DeSerializeFMUstate);

LSDAE_EXPORT fmi2Status fmi2GetDirectionalDerivative(fmi2Component c, const fmi2ValueReference vUnknown_ref[],
                                                     size_t nUnknown, const fmi2ValueReference vKnown_ref[],
                                                     size_t nKnown, const fmi2Real dvKnown[], fmi2Real dvUnknown[]) {
  return fmi2_guarded(c, "fmi2GetDirectionalDerivative", [&](Component&, Instance& s) {
    const fmi3ValueReference* unknowns = s.internal_vrs("fmi2GetDirectionalDerivative", vUnknown_ref, nUnknown, 0);
    const fmi3ValueReference* knowns = s.internal_vrs("fmi2GetDirectionalDerivative", vKnown_ref, nKnown, 1);
    if (unknowns == nullptr || knowns == nullptr) return fmi2Error;
    return to_fmi2(
        s.get_directional_derivative(unknowns, nUnknown, knowns, nKnown, dvKnown, nKnown, dvUnknown, nUnknown));
  });
}
LSDAE_CHECK_TYPE(fmi2GetDirectionalDerivative);

// ---- Model Exchange ------------------------------------------------------------
LSDAE_EXPORT fmi2Status fmi2EnterEventMode(fmi2Component c) {
  return fmi2_guarded(c, "fmi2EnterEventMode", [](Component&, Instance& s) { return to_fmi2(s.enter_event_mode()); });
}
LSDAE_EXPORT fmi2Status fmi2NewDiscreteStates(fmi2Component c, fmi2EventInfo* info) {
  return fmi2_guarded(c, "fmi2NewDiscreteStates", [&](Component& self, Instance& s) {
    if (info == nullptr) {
      log_to(self, fmi2Error, "logStatusError", "fmi2NewDiscreteStates: fmi2eventInfo is NULL");
      return fmi2Error;
    }
    bool need = false, terminate = false, nominals = false, values = false, defined = false;
    double next = 0.0;
    const fmi3Status status = s.update_discrete_states(&need, &terminate, &nominals, &values, &defined, &next);
    info->newDiscreteStatesNeeded = need ? fmi2True : fmi2False;
    info->terminateSimulation = terminate ? fmi2True : fmi2False;
    info->nominalsOfContinuousStatesChanged = nominals ? fmi2True : fmi2False;
    info->valuesOfContinuousStatesChanged = values ? fmi2True : fmi2False;
    info->nextEventTimeDefined = defined ? fmi2True : fmi2False;
    info->nextEventTime = next;
    return to_fmi2(status);
  });
}
LSDAE_EXPORT fmi2Status fmi2EnterContinuousTimeMode(fmi2Component c) {
  return fmi2_guarded(c, "fmi2EnterContinuousTimeMode",
                 [](Component&, Instance& s) { return to_fmi2(s.enter_continuous_time_mode()); });
}
LSDAE_EXPORT fmi2Status fmi2CompletedIntegratorStep(fmi2Component c, fmi2Boolean, fmi2Boolean* enterEventMode,
                                                    fmi2Boolean* terminateSimulation) {
  return fmi2_guarded(c, "fmi2CompletedIntegratorStep", [&](Component&, Instance& s) {
    bool enter = false, terminate = false;
    const fmi3Status status = s.completed_integrator_step(&enter, &terminate);
    if (enterEventMode) *enterEventMode = enter ? fmi2True : fmi2False;
    if (terminateSimulation) *terminateSimulation = terminate ? fmi2True : fmi2False;
    return to_fmi2(status);
  });
}
LSDAE_EXPORT fmi2Status fmi2SetTime(fmi2Component c, fmi2Real time) {
  return fmi2_guarded(c, "fmi2SetTime", [&](Component&, Instance& s) { return to_fmi2(s.set_time(time)); });
}
LSDAE_EXPORT fmi2Status fmi2SetContinuousStates(fmi2Component c, const fmi2Real x[], size_t nx) {
  return fmi2_guarded(c, "fmi2SetContinuousStates",
                 [&](Component&, Instance& s) { return to_fmi2(s.set_continuous_states(x, nx)); });
}
LSDAE_EXPORT fmi2Status fmi2GetDerivatives(fmi2Component c, fmi2Real derivatives[], size_t nx) {
  return fmi2_guarded(c, "fmi2GetDerivatives",
                 [&](Component&, Instance& s) { return to_fmi2(s.get_derivatives(derivatives, nx)); });
}
LSDAE_EXPORT fmi2Status fmi2GetEventIndicators(fmi2Component c, fmi2Real eventIndicators[], size_t ni) {
  return fmi2_guarded(c, "fmi2GetEventIndicators",
                 [&](Component&, Instance& s) { return to_fmi2(s.get_event_indicators(eventIndicators, ni)); });
}
LSDAE_EXPORT fmi2Status fmi2GetContinuousStates(fmi2Component c, fmi2Real x[], size_t nx) {
  return fmi2_guarded(c, "fmi2GetContinuousStates",
                 [&](Component&, Instance& s) { return to_fmi2(s.get_continuous_states(x, nx)); });
}
LSDAE_EXPORT fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component c, fmi2Real x_nominal[], size_t nx) {
  return fmi2_guarded(c, "fmi2GetNominalsOfContinuousStates",
                 [&](Component&, Instance& s) { return to_fmi2(s.get_nominals(x_nominal, nx)); });
}
LSDAE_CHECK_TYPE(fmi2EnterEventMode);
LSDAE_CHECK_TYPE(fmi2NewDiscreteStates);
LSDAE_CHECK_TYPE(fmi2EnterContinuousTimeMode);
LSDAE_CHECK_TYPE(fmi2CompletedIntegratorStep);
LSDAE_CHECK_TYPE(fmi2SetTime);
LSDAE_CHECK_TYPE(fmi2SetContinuousStates);
LSDAE_CHECK_TYPE(fmi2GetDerivatives);
LSDAE_CHECK_TYPE(fmi2GetEventIndicators);
LSDAE_CHECK_TYPE(fmi2GetContinuousStates);
LSDAE_CHECK_TYPE(fmi2GetNominalsOfContinuousStates);

// ---- Co-Simulation (this FMU is Model Exchange only) ----------------------------
namespace {
constexpr const char* kNoCoSimulation = "this FMU supports Model Exchange only (no <CoSimulation> element)";
}
LSDAE_EXPORT fmi2Status fmi2SetRealInputDerivatives(fmi2Component c, const fmi2ValueReference[], size_t,
                                                    const fmi2Integer[], const fmi2Real[]) {
  return refuse(c, "fmi2SetRealInputDerivatives", kNoCoSimulation);
}
LSDAE_EXPORT fmi2Status fmi2GetRealOutputDerivatives(fmi2Component c, const fmi2ValueReference[], size_t,
                                                     const fmi2Integer[], fmi2Real[]) {
  return refuse(c, "fmi2GetRealOutputDerivatives", kNoCoSimulation);
}
LSDAE_EXPORT fmi2Status fmi2DoStep(fmi2Component c, fmi2Real, fmi2Real, fmi2Boolean) {
  return refuse(c, "fmi2DoStep", kNoCoSimulation);
}
LSDAE_EXPORT fmi2Status fmi2CancelStep(fmi2Component c) {
  return refuse(c, "fmi2CancelStep", kNoCoSimulation);
}
LSDAE_EXPORT fmi2Status fmi2GetStatus(fmi2Component c, const fmi2StatusKind, fmi2Status*) {
  return refuse(c, "fmi2GetStatus", kNoCoSimulation);
}
LSDAE_EXPORT fmi2Status fmi2GetRealStatus(fmi2Component c, const fmi2StatusKind, fmi2Real*) {
  return refuse(c, "fmi2GetRealStatus", kNoCoSimulation);
}
LSDAE_EXPORT fmi2Status fmi2GetIntegerStatus(fmi2Component c, const fmi2StatusKind, fmi2Integer*) {
  return refuse(c, "fmi2GetIntegerStatus", kNoCoSimulation);
}
LSDAE_EXPORT fmi2Status fmi2GetBooleanStatus(fmi2Component c, const fmi2StatusKind, fmi2Boolean*) {
  return refuse(c, "fmi2GetBooleanStatus", kNoCoSimulation);
}
LSDAE_EXPORT fmi2Status fmi2GetStringStatus(fmi2Component c, const fmi2StatusKind, fmi2String*) {
  return refuse(c, "fmi2GetStringStatus", kNoCoSimulation);
}
LSDAE_CHECK_TYPE(fmi2SetRealInputDerivatives);
LSDAE_CHECK_TYPE(fmi2GetRealOutputDerivatives);
LSDAE_CHECK_TYPE(fmi2DoStep);
LSDAE_CHECK_TYPE(fmi2CancelStep);
LSDAE_CHECK_TYPE(fmi2GetStatus);
LSDAE_CHECK_TYPE(fmi2GetRealStatus);
LSDAE_CHECK_TYPE(fmi2GetIntegerStatus);
LSDAE_CHECK_TYPE(fmi2GetBooleanStatus);
LSDAE_CHECK_TYPE(fmi2GetStringStatus);

// ---- Najafi et al.'s constraint extension (not part of FMI 2.0) ------------------
LSDAE_EXPORT fmi2Status fmi2GetNumberOfConstraints(fmi2Component c, size_t* N) {
  return fmi2_guarded(c, "fmi2GetNumberOfConstraints", [&](Component& self, Instance& s) {
    if (N == nullptr) {
      log_to(self, fmi2Error, "logStatusError", "fmi2GetNumberOfConstraints: N is NULL");
      return fmi2Error;
    }
    return to_fmi2(s.get_number_of_constraints(N));
  });
}
LSDAE_EXPORT fmi2Status fmi2Constraint(fmi2Component c, fmi2Real C[]) {
  return fmi2_guarded(c, "fmi2Constraint", [&](Component&, Instance& s) { return to_fmi2(s.constraints(C)); });
}
LSDAE_EXPORT fmi2Status fmi2ConstraintJacobian(fmi2Component c, fmi2Real J[]) {
  return fmi2_guarded(c, "fmi2ConstraintJacobian", [&](Component&, Instance& s) { return to_fmi2(s.constraint_jacobian(J)); });
}
LSDAE_EXPORT fmi2Status fmi2ProjectionStep(fmi2Component c, fmi2Real S[]) {
  return fmi2_guarded(c, "fmi2ProjectionStep", [&](Component&, Instance& s) { return to_fmi2(s.projection_step(S)); });
}
LSDAE_EXPORT fmi2Status fmi2Projection(fmi2Component c, fmi2Real P[], fmi2Real projectionTolerance,
                                       size_t iterationLimit, fmi2Boolean apply) {
  return fmi2_guarded(c, "fmi2Projection", [&](Component&, Instance& s) {
    return to_fmi2(s.projection(P, projectionTolerance, iterationLimit, apply != fmi2False));
  });
}
LSDAE_CHECK_TYPE(fmi2GetNumberOfConstraints);
LSDAE_CHECK_TYPE(fmi2Constraint);
LSDAE_CHECK_TYPE(fmi2ConstraintJacobian);
LSDAE_CHECK_TYPE(fmi2ProjectionStep);
LSDAE_CHECK_TYPE(fmi2Projection);
#undef LSDAE_CHECK_TYPE
