/* tests/runtime/cli/fmi2_oscillator_fmu.c -- a complete, hand-written FMI 2.0
 * Model Exchange binary, for the FMI 2.0 tests (fmi2_cli_test.cpp). Plain C,
 * no kit, and the habits of other FMI 2.0 exporters rather than ours:
 *
 *   - value references far apart and unrelated to the variable order: x is
 *     5000000, v is 41, der(x) 13, der(v) 900, w 7;
 *   - an alias: "position" shares x's value reference (FMI 2.0 has no alias
 *     attribute; Dymola and OpenModelica share the reference);
 *   - a value reference used by two types: the Real w and the Integer
 *     crossings are both 7 (FMI 2.0 only promises uniqueness per type);
 *   - the states' order (x, v: <Derivatives> order) unlike the VRs' order;
 *   - no directional derivatives, no independent variable "time";
 *   - a logger message with "#r5000000#" references and "##".
 *
 * The model: x'' = -w^2 x as x' = v, v' = -w^2 x, x(0) = 1, v(0) = 0, w = 2
 * (a parameter), so x = cos(w t), v = -w sin(w t). One event indicator, x:
 * the Integer output "crossings" counts the zero crossings of x
 * (at t = (k + 1/2) pi / w).
 *
 * Najafi et al.'s constraint extension: it exports fmi2GetNumberOfConstraints
 * and fmi2Constraint for the one invariant C = x^2 + (v/w)^2 - 1 (zero on the
 * exact solution), but not fmi2ConstraintJacobian nor fmi2Projection.
 *
 * The guid must be "{4a1c-lsdae-fmi2-oscillator}", else fmi2Instantiate logs
 * an error and returns NULL. Built a second time with
 * OSCILLATOR_WITHOUT_GET_DERIVATIVES, it lacks the required fmi2GetDerivatives.
 * Built a third time with OSCILLATOR_FAULTY, its fmi2GetDerivatives misbehaves
 * on parameter values a user could set, for the messages that must name the
 * fmi2 calls and statuses: w < 0 returns fmi2Discard ("w must be positive"),
 * w = 0 ends the process (exit(3)) instead of returning fmi2Error; and its
 * constraint jumps at t = 0.5 without an event (C is x^2 + (v/w)^2 - 1.01
 * from there: every step across t = 0.5 needs a large projection).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmi2_abi.h"

#define EXPORT __attribute__((visibility("default")))
#define GUID "{4a1c-lsdae-fmi2-oscillator}"

enum { VR_W = 7, VR_CROSSINGS = 7, VR_DER_X = 13, VR_V = 41, VR_DER_V = 900, VR_X = 5000000 };

typedef struct {
  double time, x, v, w;
  int crossings, positive;
  const fmi2CallbackFunctions* cb;
  char name[64];
} Model;

static void say(Model* m, fmi2Status status, const char* category, const char* message, double value) {
  if (m->cb != NULL && m->cb->logger != NULL)
    m->cb->logger(m->cb->componentEnvironment, m->name, status, category, message, value);
}

EXPORT const char* fmi2GetTypesPlatform(void) { return fmi2TypesPlatform; }
EXPORT const char* fmi2GetVersion(void) { return fmi2Version; }
EXPORT fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean on, size_t n, const fmi2String cat[]) {
  (void)c, (void)on, (void)n, (void)cat;
  return fmi2OK;
}

EXPORT fmi2Component fmi2Instantiate(fmi2String name, fmi2Type type, fmi2String guid, fmi2String resources,
                                     const fmi2CallbackFunctions* cb, fmi2Boolean visible, fmi2Boolean logging) {
  (void)resources, (void)visible, (void)logging;
  if (type != fmi2ModelExchange || guid == NULL || strcmp(guid, GUID) != 0) {
    if (cb != NULL && cb->logger != NULL)
      cb->logger(cb->componentEnvironment, name, fmi2Error, "logStatusError",
                 "wrong guid \"%s\", expected \"%s\"", guid != NULL ? guid : "(null)", GUID);
    return NULL;
  }
  Model* m = (Model*)cb->allocateMemory(1, sizeof(Model));
  if (m == NULL) return NULL;
  m->x = 1.0;
  m->v = 0.0;
  m->w = 2.0;
  m->cb = cb;
  snprintf(m->name, sizeof m->name, "%s", name != NULL ? name : "");
  return m;
}

EXPORT void fmi2FreeInstance(fmi2Component c) {
  Model* m = (Model*)c;
  if (m != NULL) m->cb->freeMemory(m);
}

EXPORT fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean tol_defined, fmi2Real tol, fmi2Real start,
                                      fmi2Boolean stop_defined, fmi2Real stop) {
  (void)tol_defined, (void)tol, (void)stop_defined, (void)stop;
  ((Model*)c)->time = start;
  return fmi2OK;
}
EXPORT fmi2Status fmi2EnterInitializationMode(fmi2Component c) { (void)c; return fmi2OK; }
EXPORT fmi2Status fmi2ExitInitializationMode(fmi2Component c) {
  Model* m = (Model*)c;
  m->positive = m->x > 0;
  say(m, fmi2Warning, "logEvents", "#r5000000# starts at %g (## of crossings so far: 0)", m->x);
  return fmi2OK;
}
EXPORT fmi2Status fmi2Terminate(fmi2Component c) { (void)c; return fmi2OK; }
EXPORT fmi2Status fmi2Reset(fmi2Component c) {
  Model* m = (Model*)c;
  m->x = 1.0, m->v = 0.0, m->w = 2.0, m->crossings = 0, m->time = 0.0;
  return fmi2OK;
}

EXPORT fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2Real value[]) {
  Model* m = (Model*)c;
  for (size_t k = 0; k < n; ++k) {
    switch (vr[k]) {
      case VR_X: value[k] = m->x; break;
      case VR_V: value[k] = m->v; break;
      case VR_DER_X: value[k] = m->v; break;
      case VR_DER_V: value[k] = -m->w * m->w * m->x; break;
      case VR_W: value[k] = m->w; break;
      default: return fmi2Error;
    }
  }
  return fmi2OK;
}
EXPORT fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2Real value[]) {
  Model* m = (Model*)c;
  for (size_t k = 0; k < n; ++k) {
    switch (vr[k]) {
      case VR_X: m->x = value[k]; break;
      case VR_V: m->v = value[k]; break;
      case VR_W: m->w = value[k]; break;
      default: return fmi2Error;
    }
  }
  return fmi2OK;
}
EXPORT fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2Integer value[]) {
  Model* m = (Model*)c;
  for (size_t k = 0; k < n; ++k) {
    if (vr[k] != VR_CROSSINGS) return fmi2Error;
    value[k] = m->crossings;
  }
  return fmi2OK;
}
EXPORT fmi2Status fmi2SetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2Integer v[]) {
  (void)c, (void)vr, (void)v;
  return n == 0 ? fmi2OK : fmi2Error;
}
EXPORT fmi2Status fmi2GetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2Boolean v[]) {
  (void)c, (void)vr, (void)v;
  return n == 0 ? fmi2OK : fmi2Error;
}
EXPORT fmi2Status fmi2SetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2Boolean v[]) {
  (void)c, (void)vr, (void)v;
  return n == 0 ? fmi2OK : fmi2Error;
}
EXPORT fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2String v[]) {
  (void)c, (void)vr, (void)v;
  return n == 0 ? fmi2OK : fmi2Error;
}
EXPORT fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2String v[]) {
  (void)c, (void)vr, (void)v;
  return n == 0 ? fmi2OK : fmi2Error;
}

EXPORT fmi2Status fmi2EnterEventMode(fmi2Component c) { (void)c; return fmi2OK; }
EXPORT fmi2Status fmi2NewDiscreteStates(fmi2Component c, fmi2EventInfo* info) {
  Model* m = (Model*)c;
  const int positive = m->x > 0;
  if (positive != m->positive) {
    ++m->crossings;
    m->positive = positive;
  }
  info->newDiscreteStatesNeeded = fmi2False;
  info->terminateSimulation = fmi2False;
  info->nominalsOfContinuousStatesChanged = fmi2False;
  info->valuesOfContinuousStatesChanged = fmi2False;
  info->nextEventTimeDefined = fmi2False;
  info->nextEventTime = 0.0;
  return fmi2OK;
}
EXPORT fmi2Status fmi2EnterContinuousTimeMode(fmi2Component c) { (void)c; return fmi2OK; }
EXPORT fmi2Status fmi2CompletedIntegratorStep(fmi2Component c, fmi2Boolean no_prior, fmi2Boolean* enter,
                                              fmi2Boolean* terminate) {
  (void)c, (void)no_prior;
  *enter = fmi2False;
  *terminate = fmi2False;
  return fmi2OK;
}
EXPORT fmi2Status fmi2SetTime(fmi2Component c, fmi2Real t) {
  ((Model*)c)->time = t;
  return fmi2OK;
}
/* The state vector is (x, v): the <Derivatives> order, not the VR order. */
EXPORT fmi2Status fmi2SetContinuousStates(fmi2Component c, const fmi2Real x[], size_t n) {
  Model* m = (Model*)c;
  if (n != 2) return fmi2Error;
  m->x = x[0], m->v = x[1];
  return fmi2OK;
}
EXPORT fmi2Status fmi2GetContinuousStates(fmi2Component c, fmi2Real x[], size_t n) {
  Model* m = (Model*)c;
  if (n != 2) return fmi2Error;
  x[0] = m->x, x[1] = m->v;
  return fmi2OK;
}
#ifndef OSCILLATOR_WITHOUT_GET_DERIVATIVES
EXPORT fmi2Status fmi2GetDerivatives(fmi2Component c, fmi2Real dx[], size_t n) {
  Model* m = (Model*)c;
  if (n != 2) return fmi2Error;
#ifdef OSCILLATOR_FAULTY
  if (m->w < 0) {
    say(m, fmi2Discard, "logStatusDiscard", "w must be positive, not %g", m->w);
    return fmi2Discard;
  }
  if (m->w == 0) exit(3);
#endif
  dx[0] = m->v, dx[1] = -m->w * m->w * m->x;
  return fmi2OK;
}
#endif
EXPORT fmi2Status fmi2GetEventIndicators(fmi2Component c, fmi2Real z[], size_t n) {
  if (n != 1) return fmi2Error;
  z[0] = ((Model*)c)->x;
  return fmi2OK;
}
EXPORT fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component c, fmi2Real nominal[], size_t n) {
  (void)c;
  for (size_t k = 0; k < n; ++k) nominal[k] = 1.0;
  return fmi2OK;
}
EXPORT fmi2Status fmi2GetNumberOfConstraints(fmi2Component c, size_t* n) {
  (void)c;
  *n = 1;
  return fmi2OK;
}
EXPORT fmi2Status fmi2Constraint(fmi2Component c, fmi2Real C[]) {
  Model* m = (Model*)c;
  C[0] = m->x * m->x + (m->v / m->w) * (m->v / m->w) - 1.0;
#ifdef OSCILLATOR_FAULTY
  if (m->time >= 0.5) C[0] -= 0.01;
#endif
  return fmi2OK;
}
EXPORT fmi2Status fmi2GetDirectionalDerivative(fmi2Component c, const fmi2ValueReference u[], size_t nu,
                                               const fmi2ValueReference k[], size_t nk, const fmi2Real dk[],
                                               fmi2Real du[]) {
  /* Exported like many FMUs do, but providesDirectionalDerivative is not declared: never called. */
  (void)c, (void)u, (void)nu, (void)k, (void)nk, (void)dk, (void)du;
  return fmi2Error;
}
