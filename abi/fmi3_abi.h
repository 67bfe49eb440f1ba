/*
 * fmi3_abi.h -- the FMI 3.0 Model Exchange binary interface, as lsdae uses it.
 *
 * Written for lsdae from the FMI 3.0 specification (Modelica Association,
 * "Functional Mock-up Interface Specification 3.0", sections 2.2 "Common
 * Mechanisms" and 3 "FMI for Model Exchange"). It declares the platform types,
 * the status and dependency enumerations, the log callback and one function
 * pointer type per fmi3 function that a Model Exchange importer or exporter
 * touches. Types are ABI-compatible with the standard headers: an FMU built
 * against either set of declarations links with an importer built against the
 * other.
 *
 * Both sides of lsdae include it: the FMU authoring kit (models/kit) defines
 * the functions, the runtime (runtime/) resolves them with dlsym. The clock
 * functions of Model Exchange (section 2.2.9: fmi3Get/SetClock, the interval
 * and shift functions, fmi3IntervalQualifier) are declared in full; functions
 * for Co-Simulation and Scheduled Execution only as far as the kit needs to
 * answer them with fmi3Error.
 */
#ifndef LSDAE_FMI3_ABI_H
#define LSDAE_FMI3_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- platform types (FMI 3.0 section 2.2.2) ---------------------------- */
typedef void* fmi3Instance;
typedef void* fmi3InstanceEnvironment;
typedef void* fmi3FMUState;
typedef uint32_t fmi3ValueReference;
typedef float fmi3Float32;
typedef double fmi3Float64;
typedef int8_t fmi3Int8;
typedef uint8_t fmi3UInt8;
typedef int16_t fmi3Int16;
typedef uint16_t fmi3UInt16;
typedef int32_t fmi3Int32;
typedef uint32_t fmi3UInt32;
typedef int64_t fmi3Int64;
typedef uint64_t fmi3UInt64;
typedef bool fmi3Boolean;
typedef char fmi3Char;
typedef const fmi3Char* fmi3String;
typedef uint8_t fmi3Byte;
typedef const fmi3Byte* fmi3Binary;
typedef bool fmi3Clock;

#define fmi3True true
#define fmi3ClockActive true
#define fmi3ClockInactive false
#define fmi3False false
#define fmi3Version "3.0"

/* ---- enumerations (section 2.2.3) ---------------------------------------- */
typedef enum {
  fmi3OK,
  fmi3Warning,
  fmi3Discard,
  fmi3Error,
  fmi3Fatal
} fmi3Status;

typedef enum {
  fmi3Independent,
  fmi3Constant,
  fmi3Fixed,
  fmi3Tunable,
  fmi3Discrete,
  fmi3Dependent
} fmi3DependencyKind;

typedef enum {
  fmi3IntervalNotYetKnown,
  fmi3IntervalUnchanged,
  fmi3IntervalChanged
} fmi3IntervalQualifier;

/* ---- callbacks ----------------------------------------------------------- */
typedef void (*fmi3LogMessageCallback)(fmi3InstanceEnvironment instanceEnvironment,
                                       fmi3Status status, fmi3String category,
                                       fmi3String message);

/* ---- function types: common ---------------------------------------------- */
typedef const char* fmi3GetVersionTYPE(void);
typedef fmi3Status fmi3SetDebugLoggingTYPE(fmi3Instance instance, fmi3Boolean loggingOn,
                                           size_t nCategories,
                                           const fmi3String categories[]);
typedef fmi3Instance fmi3InstantiateModelExchangeTYPE(
    fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath,
    fmi3Boolean visible, fmi3Boolean loggingOn, fmi3InstanceEnvironment instanceEnvironment,
    fmi3LogMessageCallback logMessage);
typedef void fmi3FreeInstanceTYPE(fmi3Instance instance);
typedef fmi3Status fmi3EnterInitializationModeTYPE(fmi3Instance instance,
                                                   fmi3Boolean toleranceDefined,
                                                   fmi3Float64 tolerance,
                                                   fmi3Float64 startTime,
                                                   fmi3Boolean stopTimeDefined,
                                                   fmi3Float64 stopTime);
typedef fmi3Status fmi3ExitInitializationModeTYPE(fmi3Instance instance);
typedef fmi3Status fmi3EnterEventModeTYPE(fmi3Instance instance);
typedef fmi3Status fmi3TerminateTYPE(fmi3Instance instance);
typedef fmi3Status fmi3ResetTYPE(fmi3Instance instance);

#define LSDAE_FMI3_GETSET_TYPES(NAME, T)                                                  \
  typedef fmi3Status fmi3Get##NAME##TYPE(fmi3Instance instance,                           \
                                         const fmi3ValueReference valueReferences[],      \
                                         size_t nValueReferences, T values[],             \
                                         size_t nValues);                                 \
  typedef fmi3Status fmi3Set##NAME##TYPE(fmi3Instance instance,                           \
                                         const fmi3ValueReference valueReferences[],      \
                                         size_t nValueReferences, const T values[],       \
                                         size_t nValues);
LSDAE_FMI3_GETSET_TYPES(Float32, fmi3Float32)
LSDAE_FMI3_GETSET_TYPES(Float64, fmi3Float64)
LSDAE_FMI3_GETSET_TYPES(Int8, fmi3Int8)
LSDAE_FMI3_GETSET_TYPES(UInt8, fmi3UInt8)
LSDAE_FMI3_GETSET_TYPES(Int16, fmi3Int16)
LSDAE_FMI3_GETSET_TYPES(UInt16, fmi3UInt16)
LSDAE_FMI3_GETSET_TYPES(Int32, fmi3Int32)
LSDAE_FMI3_GETSET_TYPES(UInt32, fmi3UInt32)
LSDAE_FMI3_GETSET_TYPES(Int64, fmi3Int64)
LSDAE_FMI3_GETSET_TYPES(UInt64, fmi3UInt64)
LSDAE_FMI3_GETSET_TYPES(Boolean, fmi3Boolean)
LSDAE_FMI3_GETSET_TYPES(String, fmi3String)
#undef LSDAE_FMI3_GETSET_TYPES

typedef fmi3Status fmi3GetBinaryTYPE(fmi3Instance instance,
                                     const fmi3ValueReference valueReferences[],
                                     size_t nValueReferences, size_t valueSizes[],
                                     fmi3Binary values[], size_t nValues);
typedef fmi3Status fmi3SetBinaryTYPE(fmi3Instance instance,
                                     const fmi3ValueReference valueReferences[],
                                     size_t nValueReferences, const size_t valueSizes[],
                                     const fmi3Binary values[], size_t nValues);
typedef fmi3Status fmi3GetClockTYPE(fmi3Instance instance,
                                    const fmi3ValueReference valueReferences[],
                                    size_t nValueReferences, fmi3Clock values[]);
typedef fmi3Status fmi3SetClockTYPE(fmi3Instance instance,
                                    const fmi3ValueReference valueReferences[],
                                    size_t nValueReferences, const fmi3Clock values[]);
/* Clock timing (section 2.2.9.4): intervals and shifts of time-based clocks. */
typedef fmi3Status fmi3GetIntervalDecimalTYPE(fmi3Instance instance,
                                              const fmi3ValueReference valueReferences[],
                                              size_t nValueReferences, fmi3Float64 intervals[],
                                              fmi3IntervalQualifier qualifiers[]);
typedef fmi3Status fmi3GetIntervalFractionTYPE(fmi3Instance instance,
                                               const fmi3ValueReference valueReferences[],
                                               size_t nValueReferences, fmi3UInt64 counters[],
                                               fmi3UInt64 resolutions[],
                                               fmi3IntervalQualifier qualifiers[]);
typedef fmi3Status fmi3GetShiftDecimalTYPE(fmi3Instance instance,
                                           const fmi3ValueReference valueReferences[],
                                           size_t nValueReferences, fmi3Float64 shifts[]);
typedef fmi3Status fmi3GetShiftFractionTYPE(fmi3Instance instance,
                                            const fmi3ValueReference valueReferences[],
                                            size_t nValueReferences, fmi3UInt64 counters[],
                                            fmi3UInt64 resolutions[]);
typedef fmi3Status fmi3SetIntervalDecimalTYPE(fmi3Instance instance,
                                              const fmi3ValueReference valueReferences[],
                                              size_t nValueReferences,
                                              const fmi3Float64 intervals[]);
typedef fmi3Status fmi3SetIntervalFractionTYPE(fmi3Instance instance,
                                               const fmi3ValueReference valueReferences[],
                                               size_t nValueReferences,
                                               const fmi3UInt64 counters[],
                                               const fmi3UInt64 resolutions[]);
typedef fmi3Status fmi3SetShiftDecimalTYPE(fmi3Instance instance,
                                           const fmi3ValueReference valueReferences[],
                                           size_t nValueReferences, const fmi3Float64 shifts[]);
typedef fmi3Status fmi3SetShiftFractionTYPE(fmi3Instance instance,
                                            const fmi3ValueReference valueReferences[],
                                            size_t nValueReferences,
                                            const fmi3UInt64 counters[],
                                            const fmi3UInt64 resolutions[]);

typedef fmi3Status fmi3GetNumberOfVariableDependenciesTYPE(fmi3Instance instance,
                                                           fmi3ValueReference valueReference,
                                                           size_t* nDependencies);
typedef fmi3Status fmi3GetVariableDependenciesTYPE(
    fmi3Instance instance, fmi3ValueReference dependent, size_t elementIndicesOfDependent[],
    fmi3ValueReference independents[], size_t elementIndicesOfIndependents[],
    fmi3DependencyKind dependencyKinds[], size_t nDependencies);

typedef fmi3Status fmi3GetFMUStateTYPE(fmi3Instance instance, fmi3FMUState* FMUState);
typedef fmi3Status fmi3SetFMUStateTYPE(fmi3Instance instance, fmi3FMUState FMUState);
typedef fmi3Status fmi3FreeFMUStateTYPE(fmi3Instance instance, fmi3FMUState* FMUState);
typedef fmi3Status fmi3SerializedFMUStateSizeTYPE(fmi3Instance instance, fmi3FMUState FMUState, size_t* size);
typedef fmi3Status fmi3SerializeFMUStateTYPE(fmi3Instance instance, fmi3FMUState FMUState, fmi3Byte serializedState[],
                                             size_t size);
typedef fmi3Status fmi3DeserializeFMUStateTYPE(fmi3Instance instance, const fmi3Byte serializedState[], size_t size,
                                               fmi3FMUState* FMUState);

typedef fmi3Status fmi3GetDirectionalDerivativeTYPE(
    fmi3Instance instance, const fmi3ValueReference unknowns[], size_t nUnknowns,
    const fmi3ValueReference knowns[], size_t nKnowns, const fmi3Float64 seed[], size_t nSeed,
    fmi3Float64 sensitivity[], size_t nSensitivity);
typedef fmi3GetDirectionalDerivativeTYPE fmi3GetAdjointDerivativeTYPE;

typedef fmi3Status fmi3EnterConfigurationModeTYPE(fmi3Instance instance);
typedef fmi3Status fmi3ExitConfigurationModeTYPE(fmi3Instance instance);
typedef fmi3Status fmi3EvaluateDiscreteStatesTYPE(fmi3Instance instance);
typedef fmi3Status fmi3UpdateDiscreteStatesTYPE(fmi3Instance instance,
                                                fmi3Boolean* discreteStatesNeedUpdate,
                                                fmi3Boolean* terminateSimulation,
                                                fmi3Boolean* nominalsOfContinuousStatesChanged,
                                                fmi3Boolean* valuesOfContinuousStatesChanged,
                                                fmi3Boolean* nextEventTimeDefined,
                                                fmi3Float64* nextEventTime);

/* ---- function types: Model Exchange (section 3.2) ------------------------ */
typedef fmi3Status fmi3EnterContinuousTimeModeTYPE(fmi3Instance instance);
typedef fmi3Status fmi3CompletedIntegratorStepTYPE(fmi3Instance instance,
                                                   fmi3Boolean noSetFMUStatePriorToCurrentPoint,
                                                   fmi3Boolean* enterEventMode,
                                                   fmi3Boolean* terminateSimulation);
typedef fmi3Status fmi3SetTimeTYPE(fmi3Instance instance, fmi3Float64 time);
typedef fmi3Status fmi3SetContinuousStatesTYPE(fmi3Instance instance,
                                               const fmi3Float64 continuousStates[],
                                               size_t nContinuousStates);
typedef fmi3Status fmi3GetContinuousStateDerivativesTYPE(fmi3Instance instance,
                                                         fmi3Float64 derivatives[],
                                                         size_t nContinuousStates);
typedef fmi3Status fmi3GetEventIndicatorsTYPE(fmi3Instance instance,
                                              fmi3Float64 eventIndicators[],
                                              size_t nEventIndicators);
typedef fmi3Status fmi3GetContinuousStatesTYPE(fmi3Instance instance,
                                               fmi3Float64 continuousStates[],
                                               size_t nContinuousStates);
typedef fmi3Status fmi3GetNominalsOfContinuousStatesTYPE(fmi3Instance instance,
                                                         fmi3Float64 nominals[],
                                                         size_t nContinuousStates);
typedef fmi3Status fmi3GetNumberOfEventIndicatorsTYPE(fmi3Instance instance,
                                                      size_t* nEventIndicators);
typedef fmi3Status fmi3GetNumberOfContinuousStatesTYPE(fmi3Instance instance,
                                                       size_t* nContinuousStates);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* LSDAE_FMI3_ABI_H */
