/*
 * fmi2_abi.h -- the FMI 2.0 Model Exchange binary interface, as lsdae uses it.
 *
 * Written for lsdae from the FMI 2.0 specification (Modelica Association,
 * "Functional Mock-up Interface for Model Exchange and Co-Simulation, Version
 * 2.0", sections 2.1 "C-Code Interface" and 3.2 "FMI Application Programming
 * Interface" for Model Exchange). It declares the platform types of the
 * "default" types platform (fmi2TypesPlatform.h: fmi2Boolean is an int,
 * fmi2ValueReference an unsigned int), the status and kind enumerations, the
 * callback structure handed to fmi2Instantiate, the event-info structure of
 * fmi2NewDiscreteStates, and one function type per fmi2 function that a Model
 * Exchange importer or exporter touches. Types are ABI-compatible with the
 * standard headers: an FMU built against either set of declarations links
 * with an importer built against the other.
 *
 * It also declares the constraint and projection functions of the FMI 2.0
 * extension proposed by Najafi et al. (capability flags providesConstraints,
 * providesProjection, providesProjectionStep; attribute maxNumberOfConstraints
 * on fmiModelDescription): fmi2GetNumberOfConstraints, fmi2Constraint,
 * fmi2ConstraintJacobian (row-major, constraints x states), fmi2ProjectionStep
 * and fmi2Projection. They are no part of FMI 2.0; an FMU exports them only
 * when it declares the flags.
 *
 * Both sides of lsdae include it: the FMU authoring kit (models/kit) defines
 * the functions, the runtime (runtime/) resolves them with dlsym. Co-Simulation
 * functions are declared only as far as an FMU must export them to be loadable
 * by importers that resolve every symbol.
 */
#ifndef LSDAE_FMI2_ABI_H
#define LSDAE_FMI2_ABI_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- platform types ("default" types platform, section 2.1.2) ------------ */
typedef void* fmi2Component;
typedef void* fmi2ComponentEnvironment;
typedef void* fmi2FMUstate;
typedef unsigned int fmi2ValueReference;
typedef double fmi2Real;
typedef int fmi2Integer;
typedef int fmi2Boolean;
typedef char fmi2Char;
typedef const fmi2Char* fmi2String;
typedef char fmi2Byte;

#define fmi2True 1
#define fmi2False 0
#define fmi2TypesPlatform "default"
#define fmi2Version "2.0"

/* ---- enumerations (section 2.1.3) ---------------------------------------- */
typedef enum {
  fmi2OK,
  fmi2Warning,
  fmi2Discard,
  fmi2Error,
  fmi2Fatal,
  fmi2Pending
} fmi2Status;

typedef enum {
  fmi2ModelExchange,
  fmi2CoSimulation
} fmi2Type;

typedef enum {
  fmi2DoStepStatus,
  fmi2PendingStatus,
  fmi2LastSuccessfulTime,
  fmi2Terminated
} fmi2StatusKind;

/* ---- callbacks (section 2.1.5) ------------------------------------------- */
/* The logger's message is a printf format; its arguments follow. In the
 * message, "#<Type><valueReference>#" stands for the variable's name
 * (e.g. "#r17#"), and "##" for a single "#". */
typedef void (*fmi2CallbackLogger)(fmi2ComponentEnvironment componentEnvironment, fmi2String instanceName,
                                   fmi2Status status, fmi2String category, fmi2String message, ...);
typedef void* (*fmi2CallbackAllocateMemory)(size_t nobj, size_t size); /* like calloc */
typedef void (*fmi2CallbackFreeMemory)(void* obj);
typedef void (*fmi2StepFinished)(fmi2ComponentEnvironment componentEnvironment, fmi2Status status);

/* FMI 2.0.0 declared the fields const; 2.0.1 dropped the const. The layout is
 * the same, and the FMU may keep the pointer only until fmi2Instantiate
 * returns (it copies what it needs). */
typedef struct {
  fmi2CallbackLogger logger;
  fmi2CallbackAllocateMemory allocateMemory;
  fmi2CallbackFreeMemory freeMemory;
  fmi2StepFinished stepFinished;
  fmi2ComponentEnvironment componentEnvironment;
} fmi2CallbackFunctions;

/* fmi2NewDiscreteStates (section 3.2.2). */
typedef struct {
  fmi2Boolean newDiscreteStatesNeeded;
  fmi2Boolean terminateSimulation;
  fmi2Boolean nominalsOfContinuousStatesChanged;
  fmi2Boolean valuesOfContinuousStatesChanged;
  fmi2Boolean nextEventTimeDefined;
  fmi2Real nextEventTime;
} fmi2EventInfo;

/* ---- common functions (section 2.1.4 - 2.1.9) ---------------------------- */
typedef const char* fmi2GetTypesPlatformTYPE(void);
typedef const char* fmi2GetVersionTYPE(void);
typedef fmi2Status fmi2SetDebugLoggingTYPE(fmi2Component c, fmi2Boolean loggingOn, size_t nCategories,
                                           const fmi2String categories[]);
typedef fmi2Component fmi2InstantiateTYPE(fmi2String instanceName, fmi2Type fmuType, fmi2String fmuGUID,
                                          fmi2String fmuResourceLocation, const fmi2CallbackFunctions* functions,
                                          fmi2Boolean visible, fmi2Boolean loggingOn);
typedef void fmi2FreeInstanceTYPE(fmi2Component c);

typedef fmi2Status fmi2SetupExperimentTYPE(fmi2Component c, fmi2Boolean toleranceDefined, fmi2Real tolerance,
                                           fmi2Real startTime, fmi2Boolean stopTimeDefined, fmi2Real stopTime);
typedef fmi2Status fmi2EnterInitializationModeTYPE(fmi2Component c);
typedef fmi2Status fmi2ExitInitializationModeTYPE(fmi2Component c);
typedef fmi2Status fmi2TerminateTYPE(fmi2Component c);
typedef fmi2Status fmi2ResetTYPE(fmi2Component c);

typedef fmi2Status fmi2GetRealTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Real value[]);
typedef fmi2Status fmi2GetIntegerTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                      fmi2Integer value[]);
typedef fmi2Status fmi2GetBooleanTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                      fmi2Boolean value[]);
typedef fmi2Status fmi2GetStringTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                     fmi2String value[]);
typedef fmi2Status fmi2SetRealTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                   const fmi2Real value[]);
typedef fmi2Status fmi2SetIntegerTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                      const fmi2Integer value[]);
typedef fmi2Status fmi2SetBooleanTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                      const fmi2Boolean value[]);
typedef fmi2Status fmi2SetStringTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                     const fmi2String value[]);

typedef fmi2Status fmi2GetFMUstateTYPE(fmi2Component c, fmi2FMUstate* FMUstate);
typedef fmi2Status fmi2SetFMUstateTYPE(fmi2Component c, fmi2FMUstate FMUstate);
typedef fmi2Status fmi2FreeFMUstateTYPE(fmi2Component c, fmi2FMUstate* FMUstate);
typedef fmi2Status fmi2SerializedFMUstateSizeTYPE(fmi2Component c, fmi2FMUstate FMUstate, size_t* size);
typedef fmi2Status fmi2SerializeFMUstateTYPE(fmi2Component c, fmi2FMUstate FMUstate, fmi2Byte serializedState[],
                                             size_t size);
typedef fmi2Status fmi2DeSerializeFMUstateTYPE(fmi2Component c, const fmi2Byte serializedState[], size_t size,
                                               fmi2FMUstate* FMUstate);

/* Partial derivatives dvUnknown = J * dvKnown, J = d(unknowns)/d(knowns)
 * (section 2.1.9): unknowns are derivatives or outputs, knowns are states or
 * inputs, both given by value reference. */
typedef fmi2Status fmi2GetDirectionalDerivativeTYPE(fmi2Component c, const fmi2ValueReference vUnknown_ref[],
                                                    size_t nUnknown, const fmi2ValueReference vKnown_ref[],
                                                    size_t nKnown, const fmi2Real dvKnown[], fmi2Real dvUnknown[]);

/* ---- Model Exchange functions (section 3.2) ------------------------------ */
typedef fmi2Status fmi2EnterEventModeTYPE(fmi2Component c);
typedef fmi2Status fmi2NewDiscreteStatesTYPE(fmi2Component c, fmi2EventInfo* fmi2eventInfo);
typedef fmi2Status fmi2EnterContinuousTimeModeTYPE(fmi2Component c);
typedef fmi2Status fmi2CompletedIntegratorStepTYPE(fmi2Component c, fmi2Boolean noSetFMUStatePriorToCurrentPoint,
                                                   fmi2Boolean* enterEventMode, fmi2Boolean* terminateSimulation);
typedef fmi2Status fmi2SetTimeTYPE(fmi2Component c, fmi2Real time);
typedef fmi2Status fmi2SetContinuousStatesTYPE(fmi2Component c, const fmi2Real x[], size_t nx);
typedef fmi2Status fmi2GetDerivativesTYPE(fmi2Component c, fmi2Real derivatives[], size_t nx);
typedef fmi2Status fmi2GetEventIndicatorsTYPE(fmi2Component c, fmi2Real eventIndicators[], size_t ni);
typedef fmi2Status fmi2GetContinuousStatesTYPE(fmi2Component c, fmi2Real x[], size_t nx);
typedef fmi2Status fmi2GetNominalsOfContinuousStatesTYPE(fmi2Component c, fmi2Real x_nominal[], size_t nx);

/* ---- Co-Simulation functions (section 4.2), for completeness of exports -- */
typedef fmi2Status fmi2SetRealInputDerivativesTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                                   const fmi2Integer order[], const fmi2Real value[]);
typedef fmi2Status fmi2GetRealOutputDerivativesTYPE(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                                    const fmi2Integer order[], fmi2Real value[]);
typedef fmi2Status fmi2DoStepTYPE(fmi2Component c, fmi2Real currentCommunicationPoint,
                                  fmi2Real communicationStepSize, fmi2Boolean noSetFMUStatePriorToCurrentPoint);
typedef fmi2Status fmi2CancelStepTYPE(fmi2Component c);
typedef fmi2Status fmi2GetStatusTYPE(fmi2Component c, const fmi2StatusKind s, fmi2Status* value);
typedef fmi2Status fmi2GetRealStatusTYPE(fmi2Component c, const fmi2StatusKind s, fmi2Real* value);
typedef fmi2Status fmi2GetIntegerStatusTYPE(fmi2Component c, const fmi2StatusKind s, fmi2Integer* value);
typedef fmi2Status fmi2GetBooleanStatusTYPE(fmi2Component c, const fmi2StatusKind s, fmi2Boolean* value);
typedef fmi2Status fmi2GetStringStatusTYPE(fmi2Component c, const fmi2StatusKind s, fmi2String* value);

/* ---- constraint extension (Najafi et al.; not part of FMI 2.0) ----------- */
/* The number of constraints active now (<= maxNumberOfConstraints); it may
 * change at events. Only the first N entries of C and rows of J are written. */
typedef fmi2Status fmi2GetNumberOfConstraintsTYPE(fmi2Component c, size_t* N);
/* C[maxNumberOfConstraints]: the constraint residuals; zero on the manifold. */
typedef fmi2Status fmi2ConstraintTYPE(fmi2Component c, fmi2Real C[]);
/* J[maxNumberOfConstraints * numberOfContinuousStates], row-major: dC/dx. */
typedef fmi2Status fmi2ConstraintJacobianTYPE(fmi2Component c, fmi2Real J[]);
/* S[numberOfContinuousStates]: one local projection step, e.g.
 * S = (D^T D)^-1 D^T C with D the constraint Jacobian; fmi2Error when it
 * cannot be computed. */
typedef fmi2Status fmi2ProjectionStepTYPE(fmi2Component c, fmi2Real S[]);
/* P[numberOfContinuousStates]: the correction that brings the states onto the
 * manifold to within projectionTolerance in at most iterationLimit
 * iterations; applied to the FMU's states when apply is fmi2True.
 * fmi2Discard: no projection found, the states are unchanged. */
typedef fmi2Status fmi2ProjectionTYPE(fmi2Component c, fmi2Real P[], fmi2Real projectionTolerance,
                                      size_t iterationLimit, fmi2Boolean apply);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif /* LSDAE_FMI2_ABI_H */
