// models/kit/fmi3_functions.cpp -- the exported fmi3 entry points of every kit
// FMU. Each one checks its instance pointer, forwards to Instance and turns
// any exception into fmi3Error with the function name in the message, so no
// C++ exception ever crosses the C ABI.
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>

#include "fmi3_abi.h"
#include "kit/instance.h"

#define LSDAE_EXPORT extern "C" __attribute__((visibility("default")))

using lsdae::kit::Instance;

namespace {

template <typename F>
fmi3Status guarded(fmi3Instance instance, const char* function, F&& body) {
  if (instance == nullptr) return fmi3Error;
  auto* self = static_cast<Instance*>(instance);
  try {
    return body(*self);
  } catch (const std::exception& e) {
    self->log(fmi3Error, "logStatusError", std::string(function) + ": " + e.what());
    return fmi3Error;
  }
}

}  // namespace

LSDAE_EXPORT const char* fmi3GetVersion(void) { return fmi3Version; }

LSDAE_EXPORT fmi3Status fmi3SetDebugLogging(fmi3Instance instance, fmi3Boolean loggingOn, size_t nCategories,
                                           const fmi3String categories[]) {
  return guarded(instance, "fmi3SetDebugLogging",
                 [&](Instance& s) { return s.set_debug_logging(loggingOn, nCategories, categories); });
}

LSDAE_EXPORT fmi3Instance fmi3InstantiateModelExchange(fmi3String instanceName, fmi3String instantiationToken,
                                                       fmi3String resourcePath, fmi3Boolean /*visible*/,
                                                       fmi3Boolean loggingOn,
                                                       fmi3InstanceEnvironment instanceEnvironment,
                                                       fmi3LogMessageCallback logMessage) {
  const std::string name = instanceName ? instanceName : "";
  auto fail = [&](const std::string& message) -> fmi3Instance {
    if (logMessage) logMessage(instanceEnvironment, fmi3Error, "logStatusError", message.c_str());
    return nullptr;
  };
  if (name.find_first_not_of(" \t\r\n") == std::string::npos)
    return fail("fmi3InstantiateModelExchange: instanceName must be a non-empty string");
  if (instantiationToken == nullptr) return fail("fmi3InstantiateModelExchange: instantiationToken is NULL");
  if (resourcePath == nullptr)
    return fail("fmi3InstantiateModelExchange: resourcePath is NULL; this FMU reads its configuration from resources/");
  try {
    auto instance = std::make_unique<Instance>(name, instantiationToken, resourcePath, loggingOn, instanceEnvironment,
                                               logMessage);
    if (instance->description().fmi_version != 3)
      return fail("fmi3InstantiateModelExchange: this FMU's modelDescription.xml is FMI " +
                  std::to_string(instance->description().fmi_version) + "; load it through that version's functions");
    return instance.release();
  } catch (const std::exception& e) {
    return fail(std::string("fmi3InstantiateModelExchange: ") + e.what());
  }
}

LSDAE_EXPORT fmi3Instance fmi3InstantiateCoSimulation(fmi3String, fmi3String, fmi3String, fmi3Boolean, fmi3Boolean,
                                                      fmi3Boolean, fmi3Boolean, const fmi3ValueReference[], size_t,
                                                      fmi3InstanceEnvironment env, fmi3LogMessageCallback log, void*) {
  if (log) log(env, fmi3Error, "logStatusError", "fmi3InstantiateCoSimulation: this FMU supports Model Exchange only");
  return nullptr;
}

LSDAE_EXPORT fmi3Instance fmi3InstantiateScheduledExecution(fmi3String, fmi3String, fmi3String, fmi3Boolean,
                                                            fmi3Boolean, fmi3InstanceEnvironment env,
                                                            fmi3LogMessageCallback log, void*, void*, void*) {
  if (log)
    log(env, fmi3Error, "logStatusError", "fmi3InstantiateScheduledExecution: this FMU supports Model Exchange only");
  return nullptr;
}

LSDAE_EXPORT void fmi3FreeInstance(fmi3Instance instance) {
  auto* s = static_cast<Instance*>(instance);
  const bool abort_now = s != nullptr && s->description().abort_when_freed;  // config free_fault=abort
  delete s;
  if (abort_now) std::abort();
}

LSDAE_EXPORT fmi3Status fmi3EnterConfigurationMode(fmi3Instance instance) {
  return guarded(instance, "fmi3EnterConfigurationMode", [](Instance& s) { return s.enter_configuration_mode(); });
}
LSDAE_EXPORT fmi3Status fmi3ExitConfigurationMode(fmi3Instance instance) {
  return guarded(instance, "fmi3ExitConfigurationMode", [](Instance& s) { return s.exit_configuration_mode(); });
}
LSDAE_EXPORT fmi3Status fmi3EnterInitializationMode(fmi3Instance instance, fmi3Boolean, fmi3Float64,
                                                    fmi3Float64 startTime, fmi3Boolean, fmi3Float64) {
  return guarded(instance, "fmi3EnterInitializationMode",
                 [&](Instance& s) { return s.enter_initialization_mode(startTime); });
}
LSDAE_EXPORT fmi3Status fmi3ExitInitializationMode(fmi3Instance instance) {
  return guarded(instance, "fmi3ExitInitializationMode", [](Instance& s) { return s.exit_initialization_mode(); });
}
LSDAE_EXPORT fmi3Status fmi3EnterEventMode(fmi3Instance instance) {
  return guarded(instance, "fmi3EnterEventMode", [](Instance& s) { return s.enter_event_mode(); });
}
LSDAE_EXPORT fmi3Status fmi3Terminate(fmi3Instance instance) {
  return guarded(instance, "fmi3Terminate", [](Instance& s) { return s.terminate(); });
}
LSDAE_EXPORT fmi3Status fmi3Reset(fmi3Instance instance) {
  return guarded(instance, "fmi3Reset", [](Instance& s) { return s.reset(); });
}

LSDAE_EXPORT fmi3Status fmi3GetFloat64(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n,
                                       fmi3Float64 values[], size_t nValues) {
  return guarded(instance, "fmi3GetFloat64", [&](Instance& s) {
    const fmi3ValueReference* own = s.internal_vrs("fmi3GetFloat64", vrs, n, 0);
    return own == nullptr ? fmi3Error : s.get_float64(own, n, values, nValues);
  });
}
LSDAE_EXPORT fmi3Status fmi3SetFloat64(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n,
                                       const fmi3Float64 values[], size_t nValues) {
  return guarded(instance, "fmi3SetFloat64", [&](Instance& s) {
    const fmi3ValueReference* own = s.internal_vrs("fmi3SetFloat64", vrs, n, 0);
    return own == nullptr ? fmi3Error : s.set_float64(own, n, values, nValues);
  });
}
LSDAE_EXPORT fmi3Status fmi3GetBoolean(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n,
                                       fmi3Boolean values[], size_t nValues) {
  return guarded(instance, "fmi3GetBoolean", [&](Instance& s) {
    const fmi3ValueReference* own = s.internal_vrs("fmi3GetBoolean", vrs, n, 0);
    return own == nullptr ? fmi3Error : s.get_boolean(own, n, values, nValues);
  });
}
LSDAE_EXPORT fmi3Status fmi3SetBoolean(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n,
                                       const fmi3Boolean values[], size_t nValues) {
  return guarded(instance, "fmi3SetBoolean", [&](Instance& s) {
    const fmi3ValueReference* own = s.internal_vrs("fmi3SetBoolean", vrs, n, 0);
    return own == nullptr ? fmi3Error : s.set_boolean(own, n, values, nValues);
  });
}

// Types no kit FMU has: any value reference is an error naming it.
#define LSDAE_NO_SUCH_TYPE(NAME, T)                                                                        \
  LSDAE_EXPORT fmi3Status fmi3Get##NAME(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n, T[], \
                                        size_t) {                                                           \
    return guarded(instance, "fmi3Get" #NAME, [&](Instance& s) {                                            \
      const fmi3ValueReference* own = s.internal_vrs("fmi3Get" #NAME, vrs, n, 0);                            \
      return own == nullptr ? fmi3Error : s.no_such_type("fmi3Get" #NAME, own, n);                           \
    });                                                                                                     \
  }                                                                                                         \
  LSDAE_EXPORT fmi3Status fmi3Set##NAME(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n,      \
                                        const T[], size_t) {                                                \
    return guarded(instance, "fmi3Set" #NAME, [&](Instance& s) {                                            \
      const fmi3ValueReference* own = s.internal_vrs("fmi3Set" #NAME, vrs, n, 0);                            \
      return own == nullptr ? fmi3Error : s.no_such_type("fmi3Set" #NAME, own, n);                           \
    });                                                                                                     \
  }
LSDAE_NO_SUCH_TYPE(Float32, fmi3Float32)
LSDAE_NO_SUCH_TYPE(Int8, fmi3Int8)
LSDAE_NO_SUCH_TYPE(UInt8, fmi3UInt8)
LSDAE_NO_SUCH_TYPE(Int16, fmi3Int16)
LSDAE_NO_SUCH_TYPE(UInt16, fmi3UInt16)
LSDAE_NO_SUCH_TYPE(UInt32, fmi3UInt32)
LSDAE_NO_SUCH_TYPE(Int64, fmi3Int64)
LSDAE_NO_SUCH_TYPE(UInt64, fmi3UInt64)
LSDAE_NO_SUCH_TYPE(String, fmi3String)
#undef LSDAE_NO_SUCH_TYPE

LSDAE_EXPORT fmi3Status fmi3GetBinary(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n, size_t[],
                                      fmi3Binary[], size_t) {
  return guarded(instance, "fmi3GetBinary", [&](Instance& s) { return s.no_such_type("fmi3GetBinary", vrs, n); });
}
LSDAE_EXPORT fmi3Status fmi3SetBinary(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n, const size_t[],
                                      const fmi3Binary[], size_t) {
  return guarded(instance, "fmi3SetBinary", [&](Instance& s) { return s.no_such_type("fmi3SetBinary", vrs, n); });
}
LSDAE_EXPORT fmi3Status fmi3GetInt32(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n,
                                     fmi3Int32 values[], size_t nValues) {
  return guarded(instance, "fmi3GetInt32", [&](Instance& s) {
    const fmi3ValueReference* own = s.internal_vrs("fmi3GetInt32", vrs, n, 0);
    return own == nullptr ? fmi3Error : s.get_int32(own, n, values, nValues);
  });
}
LSDAE_EXPORT fmi3Status fmi3SetInt32(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n,
                                     const fmi3Int32 values[], size_t nValues) {
  return guarded(instance, "fmi3SetInt32", [&](Instance& s) {
    const fmi3ValueReference* own = s.internal_vrs("fmi3SetInt32", vrs, n, 0);
    return own == nullptr ? fmi3Error : s.set_int32(own, n, values, nValues);
  });
}

// Clocks (instance_clocks.cpp).
LSDAE_EXPORT fmi3Status fmi3GetClock(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n,
                                     fmi3Clock values[]) {
  return guarded(instance, "fmi3GetClock", [&](Instance& s) {
    const fmi3ValueReference* own = s.internal_vrs("fmi3GetClock", vrs, n, 0);
    return own == nullptr ? fmi3Error : s.get_clock(own, n, values);
  });
}
LSDAE_EXPORT fmi3Status fmi3SetClock(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n,
                                     const fmi3Clock values[]) {
  return guarded(instance, "fmi3SetClock", [&](Instance& s) {
    const fmi3ValueReference* own = s.internal_vrs("fmi3SetClock", vrs, n, 0);
    return own == nullptr ? fmi3Error : s.set_clock(own, n, values);
  });
}
LSDAE_EXPORT fmi3Status fmi3GetIntervalDecimal(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n,
                                               fmi3Float64 intervals[], fmi3IntervalQualifier qualifiers[]) {
  return guarded(instance, "fmi3GetIntervalDecimal", [&](Instance& s) {
    const fmi3ValueReference* own = s.internal_vrs("fmi3GetIntervalDecimal", vrs, n, 0);
    return own == nullptr ? fmi3Error
                          : s.get_interval("fmi3GetIntervalDecimal", own, n, intervals, nullptr, nullptr, qualifiers);
  });
}
LSDAE_EXPORT fmi3Status fmi3GetIntervalFraction(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n,
                                                fmi3UInt64 counters[], fmi3UInt64 resolutions[],
                                                fmi3IntervalQualifier qualifiers[]) {
  return guarded(instance, "fmi3GetIntervalFraction", [&](Instance& s) {
    const fmi3ValueReference* own = s.internal_vrs("fmi3GetIntervalFraction", vrs, n, 0);
    return own == nullptr ? fmi3Error
                          : s.get_interval("fmi3GetIntervalFraction", own, n, nullptr, counters, resolutions, qualifiers);
  });
}
LSDAE_EXPORT fmi3Status fmi3GetShiftDecimal(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n,
                                            fmi3Float64 shifts[]) {
  return guarded(instance, "fmi3GetShiftDecimal", [&](Instance& s) {
    const fmi3ValueReference* own = s.internal_vrs("fmi3GetShiftDecimal", vrs, n, 0);
    return own == nullptr ? fmi3Error : s.get_shift("fmi3GetShiftDecimal", own, n, shifts, nullptr, nullptr);
  });
}
LSDAE_EXPORT fmi3Status fmi3GetShiftFraction(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n,
                                             fmi3UInt64 counters[], fmi3UInt64 resolutions[]) {
  return guarded(instance, "fmi3GetShiftFraction", [&](Instance& s) {
    const fmi3ValueReference* own = s.internal_vrs("fmi3GetShiftFraction", vrs, n, 0);
    return own == nullptr ? fmi3Error : s.get_shift("fmi3GetShiftFraction", own, n, nullptr, counters, resolutions);
  });
}
LSDAE_EXPORT fmi3Status fmi3SetIntervalDecimal(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n,
                                               const fmi3Float64 intervals[]) {
  return guarded(instance, "fmi3SetIntervalDecimal", [&](Instance& s) {
    const fmi3ValueReference* own = s.internal_vrs("fmi3SetIntervalDecimal", vrs, n, 0);
    return own == nullptr ? fmi3Error : s.set_interval("fmi3SetIntervalDecimal", own, n, intervals, nullptr, nullptr);
  });
}
LSDAE_EXPORT fmi3Status fmi3SetIntervalFraction(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n,
                                                const fmi3UInt64 counters[], const fmi3UInt64 resolutions[]) {
  return guarded(instance, "fmi3SetIntervalFraction", [&](Instance& s) {
    const fmi3ValueReference* own = s.internal_vrs("fmi3SetIntervalFraction", vrs, n, 0);
    return own == nullptr ? fmi3Error
                          : s.set_interval("fmi3SetIntervalFraction", own, n, nullptr, counters, resolutions);
  });
}
LSDAE_EXPORT fmi3Status fmi3SetShiftDecimal(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n,
                                            const fmi3Float64 shifts[]) {
  return guarded(instance, "fmi3SetShiftDecimal", [&](Instance& s) {
    const fmi3ValueReference* own = s.internal_vrs("fmi3SetShiftDecimal", vrs, n, 0);
    return own == nullptr ? fmi3Error : s.set_shift("fmi3SetShiftDecimal", own, n, shifts, nullptr, nullptr);
  });
}
LSDAE_EXPORT fmi3Status fmi3SetShiftFraction(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n,
                                             const fmi3UInt64 counters[], const fmi3UInt64 resolutions[]) {
  return guarded(instance, "fmi3SetShiftFraction", [&](Instance& s) {
    const fmi3ValueReference* own = s.internal_vrs("fmi3SetShiftFraction", vrs, n, 0);
    return own == nullptr ? fmi3Error : s.set_shift("fmi3SetShiftFraction", own, n, nullptr, counters, resolutions);
  });
}

LSDAE_EXPORT fmi3Status fmi3GetNumberOfVariableDependencies(fmi3Instance instance, fmi3ValueReference, size_t*) {
  return guarded(instance, "fmi3GetNumberOfVariableDependencies", [](Instance& s) {
    s.log(fmi3Error, "logStatusError",
          "fmi3GetNumberOfVariableDependencies: not supported; read the dependencies from the XML files");
    return fmi3Error;
  });
}
LSDAE_EXPORT fmi3Status fmi3GetVariableDependencies(fmi3Instance instance, fmi3ValueReference, size_t[],
                                                    fmi3ValueReference[], size_t[], fmi3DependencyKind[], size_t) {
  return guarded(instance, "fmi3GetVariableDependencies", [](Instance& s) {
    s.log(fmi3Error, "logStatusError",
          "fmi3GetVariableDependencies: not supported; read the dependencies from the XML files");
    return fmi3Error;
  });
}

// FMU state (instance_state.cpp; canGetAndSetFMUState / canSerializeFMUState
// as the configuration key fmu_state declares them).
LSDAE_EXPORT fmi3Status fmi3GetFMUState(fmi3Instance instance, fmi3FMUState* FMUState) {
  return guarded(instance, "fmi3GetFMUState", [&](Instance& s) { return s.get_fmu_state(FMUState); });
}
LSDAE_EXPORT fmi3Status fmi3SetFMUState(fmi3Instance instance, fmi3FMUState FMUState) {
  return guarded(instance, "fmi3SetFMUState", [&](Instance& s) { return s.set_fmu_state(FMUState); });
}
LSDAE_EXPORT fmi3Status fmi3FreeFMUState(fmi3Instance instance, fmi3FMUState* FMUState) {
  return guarded(instance, "fmi3FreeFMUState", [&](Instance& s) { return s.free_fmu_state(FMUState); });
}
LSDAE_EXPORT fmi3Status fmi3SerializedFMUStateSize(fmi3Instance instance, fmi3FMUState FMUState, size_t* size) {
  return guarded(instance, "fmi3SerializedFMUStateSize",
                 [&](Instance& s) { return s.serialized_fmu_state_size(FMUState, size); });
}
LSDAE_EXPORT fmi3Status fmi3SerializeFMUState(fmi3Instance instance, fmi3FMUState FMUState, fmi3Byte serializedState[],
                                              size_t size) {
  return guarded(instance, "fmi3SerializeFMUState",
                 [&](Instance& s) { return s.serialize_fmu_state(FMUState, serializedState, size); });
}
LSDAE_EXPORT fmi3Status fmi3DeserializeFMUState(fmi3Instance instance, const fmi3Byte serializedState[], size_t size,
                                                fmi3FMUState* FMUState) {
  return guarded(instance, "fmi3DeserializeFMUState",
                 [&](Instance& s) { return s.deserialize_fmu_state(serializedState, size, FMUState); });
}
static_assert(std::is_same_v<decltype(&fmi3GetFMUState), fmi3GetFMUStateTYPE*>);
static_assert(std::is_same_v<decltype(&fmi3SetFMUState), fmi3SetFMUStateTYPE*>);
static_assert(std::is_same_v<decltype(&fmi3FreeFMUState), fmi3FreeFMUStateTYPE*>);
static_assert(std::is_same_v<decltype(&fmi3SerializedFMUStateSize), fmi3SerializedFMUStateSizeTYPE*>);
static_assert(std::is_same_v<decltype(&fmi3SerializeFMUState), fmi3SerializeFMUStateTYPE*>);
static_assert(std::is_same_v<decltype(&fmi3DeserializeFMUState), fmi3DeserializeFMUStateTYPE*>);

LSDAE_EXPORT fmi3Status fmi3GetDirectionalDerivative(fmi3Instance instance, const fmi3ValueReference unknowns[],
                                                     size_t nUnknowns, const fmi3ValueReference knowns[],
                                                     size_t nKnowns, const fmi3Float64 seed[], size_t nSeed,
                                                     fmi3Float64 sensitivity[], size_t nSensitivity) {
  return guarded(instance, "fmi3GetDirectionalDerivative", [&](Instance& s) {
    const fmi3ValueReference* own_unknowns = s.internal_vrs("fmi3GetDirectionalDerivative", unknowns, nUnknowns, 0);
    const fmi3ValueReference* own_knowns = s.internal_vrs("fmi3GetDirectionalDerivative", knowns, nKnowns, 1);
    if (own_unknowns == nullptr || own_knowns == nullptr) return fmi3Error;
    return s.get_directional_derivative(own_unknowns, nUnknowns, own_knowns, nKnowns, seed, nSeed, sensitivity,
                                        nSensitivity);
  });
}
LSDAE_EXPORT fmi3Status fmi3GetAdjointDerivative(fmi3Instance instance, const fmi3ValueReference[], size_t,
                                                 const fmi3ValueReference[], size_t, const fmi3Float64[], size_t,
                                                 fmi3Float64[], size_t) {
  return guarded(instance, "fmi3GetAdjointDerivative", [](Instance& s) {
    s.log(fmi3Error, "logStatusError", "fmi3GetAdjointDerivative: providesAdjointDerivatives is false for this FMU");
    return fmi3Error;
  });
}

LSDAE_EXPORT fmi3Status fmi3EvaluateDiscreteStates(fmi3Instance instance) {
  return guarded(instance, "fmi3EvaluateDiscreteStates", [](Instance&) { return fmi3OK; });
}
LSDAE_EXPORT fmi3Status fmi3UpdateDiscreteStates(fmi3Instance instance, fmi3Boolean* discreteStatesNeedUpdate,
                                                 fmi3Boolean* terminateSimulation,
                                                 fmi3Boolean* nominalsOfContinuousStatesChanged,
                                                 fmi3Boolean* valuesOfContinuousStatesChanged,
                                                 fmi3Boolean* nextEventTimeDefined, fmi3Float64* nextEventTime) {
  return guarded(instance, "fmi3UpdateDiscreteStates", [&](Instance& s) {
    return s.update_discrete_states(discreteStatesNeedUpdate, terminateSimulation, nominalsOfContinuousStatesChanged,
                                    valuesOfContinuousStatesChanged, nextEventTimeDefined, nextEventTime);
  });
}

LSDAE_EXPORT fmi3Status fmi3EnterContinuousTimeMode(fmi3Instance instance) {
  return guarded(instance, "fmi3EnterContinuousTimeMode", [](Instance& s) { return s.enter_continuous_time_mode(); });
}
LSDAE_EXPORT fmi3Status fmi3CompletedIntegratorStep(fmi3Instance instance, fmi3Boolean, fmi3Boolean* enterEventMode,
                                                    fmi3Boolean* terminateSimulation) {
  return guarded(instance, "fmi3CompletedIntegratorStep",
                 [&](Instance& s) { return s.completed_integrator_step(enterEventMode, terminateSimulation); });
}
LSDAE_EXPORT fmi3Status fmi3SetTime(fmi3Instance instance, fmi3Float64 time) {
  return guarded(instance, "fmi3SetTime", [&](Instance& s) { return s.set_time(time); });
}
LSDAE_EXPORT fmi3Status fmi3SetContinuousStates(fmi3Instance instance, const fmi3Float64 x[], size_t n) {
  return guarded(instance, "fmi3SetContinuousStates", [&](Instance& s) { return s.set_continuous_states(x, n); });
}
LSDAE_EXPORT fmi3Status fmi3GetContinuousStateDerivatives(fmi3Instance instance, fmi3Float64 dx[], size_t n) {
  return guarded(instance, "fmi3GetContinuousStateDerivatives", [&](Instance& s) { return s.get_derivatives(dx, n); });
}
LSDAE_EXPORT fmi3Status fmi3GetEventIndicators(fmi3Instance instance, fmi3Float64 z[], size_t n) {
  return guarded(instance, "fmi3GetEventIndicators", [&](Instance& s) { return s.get_event_indicators(z, n); });
}
LSDAE_EXPORT fmi3Status fmi3GetContinuousStates(fmi3Instance instance, fmi3Float64 x[], size_t n) {
  return guarded(instance, "fmi3GetContinuousStates", [&](Instance& s) { return s.get_continuous_states(x, n); });
}
LSDAE_EXPORT fmi3Status fmi3GetNominalsOfContinuousStates(fmi3Instance instance, fmi3Float64 nominals[], size_t n) {
  return guarded(instance, "fmi3GetNominalsOfContinuousStates", [&](Instance& s) { return s.get_nominals(nominals, n); });
}
LSDAE_EXPORT fmi3Status fmi3GetNumberOfEventIndicators(fmi3Instance instance, size_t* n) {
  return guarded(instance, "fmi3GetNumberOfEventIndicators",
                 [&](Instance& s) { return s.get_number_of_event_indicators(n); });
}
LSDAE_EXPORT fmi3Status fmi3GetNumberOfContinuousStates(fmi3Instance instance, size_t* n) {
  return guarded(instance, "fmi3GetNumberOfContinuousStates", [&](Instance& s) { return s.get_number_of_states(n); });
}

// The definitions above have the types of fmi3_abi.h (a mismatch would link
// and crash; here it does not compile).
#include <type_traits>
static_assert(std::is_same_v<decltype(fmi3GetInt32), fmi3GetInt32TYPE>);
static_assert(std::is_same_v<decltype(fmi3SetInt32), fmi3SetInt32TYPE>);
static_assert(std::is_same_v<decltype(fmi3GetClock), fmi3GetClockTYPE>);
static_assert(std::is_same_v<decltype(fmi3SetClock), fmi3SetClockTYPE>);
static_assert(std::is_same_v<decltype(fmi3GetIntervalDecimal), fmi3GetIntervalDecimalTYPE>);
static_assert(std::is_same_v<decltype(fmi3GetIntervalFraction), fmi3GetIntervalFractionTYPE>);
static_assert(std::is_same_v<decltype(fmi3GetShiftDecimal), fmi3GetShiftDecimalTYPE>);
static_assert(std::is_same_v<decltype(fmi3GetShiftFraction), fmi3GetShiftFractionTYPE>);
static_assert(std::is_same_v<decltype(fmi3SetIntervalDecimal), fmi3SetIntervalDecimalTYPE>);
static_assert(std::is_same_v<decltype(fmi3SetIntervalFraction), fmi3SetIntervalFractionTYPE>);
static_assert(std::is_same_v<decltype(fmi3SetShiftDecimal), fmi3SetShiftDecimalTYPE>);
static_assert(std::is_same_v<decltype(fmi3SetShiftFraction), fmi3SetShiftFractionTYPE>);
