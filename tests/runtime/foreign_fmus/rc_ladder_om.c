/*
 * tests/runtime/foreign_fmus/rc_ladder_om.c -- the binary of RcLadderOM, an
 * FMI 3.0 Model Exchange FMU written by hand in C, the way an equation-based
 * exporter's generated code looks, NOT with lsdae's kit. Layout and equations:
 * rc_ladder_om_layout.h. Its XML is written by rc_ladder_om_fmu.cpp.
 *
 * ODE mode (the switch off, as every FMU starts): the FMU solves the ladder
 * itself and answers fmi3GetContinuousStateDerivatives. DAE mode: the importer
 * writes the states (fmi3SetContinuousStates), the algebraic variables and the
 * state derivatives (fmi3SetFloat64 on der(C[k].v)) and reads the 3N + 1
 * residuals, which cover the state rows (OpenModelica's fully implicit form).
 *
 * fmi3GetDirectionalDerivative follows FMI-LS-DAE 1.0.0-alpha.1 to the letter:
 * the knowns are states and algebraic variables (DAE mode) or states (ODE
 * mode); a derivative as a known is refused with fmi3Error. Seeding a state
 * gives dF/dx with the derivatives held -- never the dF/dx + cj dF/dẋ an
 * integrator needs, which is why an importer must not use it in this form.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmi3_abi.h"
#include "rc_ladder_om_layout.h"

#define EXPORT __attribute__((visibility("default")))
#define N RCL_N

enum Mode { instantiated, configuration, initialization, event, continuous, terminated };

typedef struct {
  fmi3LogMessageCallback log;
  fmi3InstanceEnvironment env;
  enum Mode mode;
  int dae;  /* the switch */
  double time;
  double R, C, RL, V0;
  double v[N + 2];    /* 1..N */
  double der[N + 2];  /* DAE mode: written by the importer */
  double i[N + 2], vr[N + 2], il;  /* DAE mode: written by the importer; ODE mode: computed */
} Instance;

static void say(Instance* s, fmi3Status status, const char* text) {
  if (s->log != NULL) s->log(s->env, status, status == fmi3Error ? "logStatusError" : "logAll", text);
}

static fmi3Status fail(Instance* s, const char* function, const char* why, unsigned vr) {
  char text[256];
  snprintf(text, sizeof text, "%s: %s (value reference %u)", function, why, vr);
  say(s, fmi3Error, text);
  return fmi3Error;
}

/* ODE mode: the algebraic variables and derivatives from the states. Linear in
 * (v, V0): with V0 = 0 and v a seed it gives the directional derivative. */
static void solve_ladder(const Instance* s, const double* v, double v0, double* der, double* i, double* vr,
                         double* il) {
  *il = v[N] / s->RL;
  for (int k = 1; k <= N; ++k) {
    vr[k] = (k == 1 ? v0 : v[k - 1]) - v[k];
    i[k] = vr[k] / s->R;
  }
  for (int k = 1; k <= N; ++k) der[k] = (i[k] - (k < N ? i[k + 1] : *il)) / s->C;
}

/* Residual j (layout order). Linear in (v, der, i, vr, il, v0). */
static double residual(const Instance* s, int j, const double* v, const double* der, const double* i,
                       const double* vr, double il, double v0) {
  if (j == 3 * N) return s->RL * il - v[N];
  const int k = j / 3 + 1;
  switch (j % 3) {
    case 0: return s->C * der[k] - (i[k] - (k < N ? i[k + 1] : il));
    case 1: return vr[k] - ((k == 1 ? v0 : v[k - 1]) - v[k]);
    default: return vr[k] - s->R * i[k];
  }
}

/* What a value reference names. */
enum Kind { k_none, k_time, k_param, k_switch, k_vload, k_state, k_der, k_i, k_vr, k_il, k_res };
static enum Kind decode(unsigned vr, int* k) {
  *k = 0;
  if (vr == RCL_VR_TIME) return k_time;
  if (vr == RCL_VR_VLOAD) return k_vload;
  if (vr == RCL_VR_SWITCH) return k_switch;
  if (vr >= RCL_VR_R && vr <= RCL_VR_V0) return k_param;
  if (vr == RCL_VR_IL) return k_il;
  if (vr >= rcl_vr_v(1) && vr <= rcl_vr_v(N) && (vr - rcl_vr_v(1)) % 10u == 0) {
    *k = (int)((vr - rcl_vr_v(1)) / 10u) + 1;
    return k_state;
  }
  if (vr >= rcl_vr_der(N) && vr <= rcl_vr_der(1) && (vr - rcl_vr_der(N)) % 7u == 0) {
    *k = N - (int)((vr - rcl_vr_der(N)) / 7u);
    return k_der;
  }
  if (vr >= rcl_vr_i(1) && vr <= rcl_vr_vr(N)) {
    *k = (int)((vr - 500000u) / 2u);
    return (vr % 2u == 0) ? k_i : k_vr;
  }
  if (vr >= rcl_vr_res(0) && vr <= rcl_vr_res(3 * N) && (vr - rcl_vr_res(0)) % 3u == 0) {
    *k = (int)((vr - rcl_vr_res(0)) / 3u);
    return k_res;
  }
  return k_none;
}

static double* param(Instance* s, unsigned vr) {
  switch (vr) {
    case RCL_VR_R: return &s->R;
    case RCL_VR_C: return &s->C;
    case RCL_VR_RL: return &s->RL;
    default: return &s->V0;
  }
}

/* ---- lifecycle ----------------------------------------------------------- */

EXPORT fmi3GetVersionTYPE fmi3GetVersion;
const char* fmi3GetVersion(void) { return fmi3Version; }

EXPORT fmi3InstantiateModelExchangeTYPE fmi3InstantiateModelExchange;
fmi3Instance fmi3InstantiateModelExchange(fmi3String name, fmi3String token, fmi3String resources,
                                          fmi3Boolean visible, fmi3Boolean logging, fmi3InstanceEnvironment env,
                                          fmi3LogMessageCallback log) {
  (void)name, (void)resources, (void)visible, (void)logging;
  if (token == NULL || strcmp(token, "{5b1e0c1e-om-rc-ladder-200}") != 0) {
    if (log != NULL) log(env, fmi3Error, "logStatusError", "fmi3InstantiateModelExchange: wrong instantiation token");
    return NULL;
  }
  Instance* s = calloc(1, sizeof *s);
  if (s == NULL) return NULL;
  s->log = log;
  s->env = env;
  s->R = 0.1;
  s->C = 1e-3;
  s->RL = 10.0;
  s->V0 = 1.0;
  return s;
}

EXPORT fmi3FreeInstanceTYPE fmi3FreeInstance;
void fmi3FreeInstance(fmi3Instance instance) { free(instance); }

EXPORT fmi3SetDebugLoggingTYPE fmi3SetDebugLogging;
fmi3Status fmi3SetDebugLogging(fmi3Instance instance, fmi3Boolean on, size_t n, const fmi3String categories[]) {
  (void)instance, (void)on, (void)n, (void)categories;
  return fmi3OK;
}

EXPORT fmi3EnterConfigurationModeTYPE fmi3EnterConfigurationMode;
fmi3Status fmi3EnterConfigurationMode(fmi3Instance instance) {
  Instance* s = instance;
  if (s->mode != instantiated) return fail(s, "fmi3EnterConfigurationMode", "not in Instantiated", 0);
  s->mode = configuration;
  return fmi3OK;
}

EXPORT fmi3ExitConfigurationModeTYPE fmi3ExitConfigurationMode;
fmi3Status fmi3ExitConfigurationMode(fmi3Instance instance) {
  Instance* s = instance;
  if (s->mode != configuration) return fail(s, "fmi3ExitConfigurationMode", "not in Configuration Mode", 0);
  s->mode = instantiated;
  return fmi3OK;
}

EXPORT fmi3EnterInitializationModeTYPE fmi3EnterInitializationMode;
fmi3Status fmi3EnterInitializationMode(fmi3Instance instance, fmi3Boolean tol_defined, fmi3Float64 tol,
                                       fmi3Float64 start, fmi3Boolean stop_defined, fmi3Float64 stop) {
  Instance* s = instance;
  (void)tol_defined, (void)tol, (void)stop_defined, (void)stop;
  if (s->mode != instantiated) return fail(s, "fmi3EnterInitializationMode", "not in Instantiated", 0);
  s->time = start;
  s->mode = initialization;
  return fmi3OK;
}

EXPORT fmi3ExitInitializationModeTYPE fmi3ExitInitializationMode;
fmi3Status fmi3ExitInitializationMode(fmi3Instance instance) {
  ((Instance*)instance)->mode = event;
  return fmi3OK;
}

EXPORT fmi3EnterEventModeTYPE fmi3EnterEventMode;
fmi3Status fmi3EnterEventMode(fmi3Instance instance) {
  ((Instance*)instance)->mode = event;
  return fmi3OK;
}

EXPORT fmi3EnterContinuousTimeModeTYPE fmi3EnterContinuousTimeMode;
fmi3Status fmi3EnterContinuousTimeMode(fmi3Instance instance) {
  ((Instance*)instance)->mode = continuous;
  return fmi3OK;
}

EXPORT fmi3UpdateDiscreteStatesTYPE fmi3UpdateDiscreteStates;
fmi3Status fmi3UpdateDiscreteStates(fmi3Instance instance, fmi3Boolean* update, fmi3Boolean* terminate,
                                    fmi3Boolean* nominals, fmi3Boolean* values, fmi3Boolean* next_defined,
                                    fmi3Float64* next) {
  (void)instance;
  *update = *terminate = *nominals = *values = *next_defined = false;
  *next = 0.0;
  return fmi3OK;
}

EXPORT fmi3CompletedIntegratorStepTYPE fmi3CompletedIntegratorStep;
fmi3Status fmi3CompletedIntegratorStep(fmi3Instance instance, fmi3Boolean no_set, fmi3Boolean* enter_event,
                                       fmi3Boolean* terminate) {
  (void)instance, (void)no_set;
  *enter_event = *terminate = false;
  return fmi3OK;
}

EXPORT fmi3TerminateTYPE fmi3Terminate;
fmi3Status fmi3Terminate(fmi3Instance instance) {
  ((Instance*)instance)->mode = terminated;
  return fmi3OK;
}

EXPORT fmi3ResetTYPE fmi3Reset;
fmi3Status fmi3Reset(fmi3Instance instance) {
  Instance* s = instance;
  fmi3LogMessageCallback log = s->log;
  fmi3InstanceEnvironment env = s->env;
  memset(s, 0, sizeof *s);
  s->log = log;
  s->env = env;
  s->R = 0.1;
  s->C = 1e-3;
  s->RL = 10.0;
  s->V0 = 1.0;
  return fmi3OK;
}

/* ---- values -------------------------------------------------------------- */

EXPORT fmi3SetTimeTYPE fmi3SetTime;
fmi3Status fmi3SetTime(fmi3Instance instance, fmi3Float64 time) {
  ((Instance*)instance)->time = time;
  return fmi3OK;
}

EXPORT fmi3SetContinuousStatesTYPE fmi3SetContinuousStates;
fmi3Status fmi3SetContinuousStates(fmi3Instance instance, const fmi3Float64 x[], size_t n) {
  Instance* s = instance;
  if (n != N) return fail(s, "fmi3SetContinuousStates", "wrong number of states", (unsigned)n);
  for (int st = 0; st < N; ++st) s->v[rcl_k_of_state(st)] = x[st];
  return fmi3OK;
}

EXPORT fmi3GetContinuousStatesTYPE fmi3GetContinuousStates;
fmi3Status fmi3GetContinuousStates(fmi3Instance instance, fmi3Float64 x[], size_t n) {
  Instance* s = instance;
  if (n != N) return fail(s, "fmi3GetContinuousStates", "wrong number of states", (unsigned)n);
  for (int st = 0; st < N; ++st) x[st] = s->v[rcl_k_of_state(st)];
  return fmi3OK;
}

EXPORT fmi3GetContinuousStateDerivativesTYPE fmi3GetContinuousStateDerivatives;
fmi3Status fmi3GetContinuousStateDerivatives(fmi3Instance instance, fmi3Float64 dx[], size_t n) {
  Instance* s = instance;
  if (n != N) return fail(s, "fmi3GetContinuousStateDerivatives", "wrong number of states", (unsigned)n);
  if (!s->dae) solve_ladder(s, s->v, s->V0, s->der, s->i, s->vr, &s->il);
  for (int st = 0; st < N; ++st) dx[st] = s->der[rcl_k_of_state(st)];
  return fmi3OK;
}

EXPORT fmi3GetNominalsOfContinuousStatesTYPE fmi3GetNominalsOfContinuousStates;
fmi3Status fmi3GetNominalsOfContinuousStates(fmi3Instance instance, fmi3Float64 nominals[], size_t n) {
  (void)instance;
  for (size_t k = 0; k < n; ++k) nominals[k] = 1.0;
  return fmi3OK;
}

EXPORT fmi3GetNumberOfContinuousStatesTYPE fmi3GetNumberOfContinuousStates;
fmi3Status fmi3GetNumberOfContinuousStates(fmi3Instance instance, size_t* n) {
  (void)instance;
  *n = N;
  return fmi3OK;
}

EXPORT fmi3GetNumberOfEventIndicatorsTYPE fmi3GetNumberOfEventIndicators;
fmi3Status fmi3GetNumberOfEventIndicators(fmi3Instance instance, size_t* n) {
  (void)instance;
  *n = 0;
  return fmi3OK;
}

EXPORT fmi3GetEventIndicatorsTYPE fmi3GetEventIndicators;
fmi3Status fmi3GetEventIndicators(fmi3Instance instance, fmi3Float64 z[], size_t n) {
  (void)instance, (void)z;
  return n == 0 ? fmi3OK : fmi3Error;
}

EXPORT fmi3GetFloat64TYPE fmi3GetFloat64;
fmi3Status fmi3GetFloat64(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n, fmi3Float64 values[],
                          size_t n_values) {
  Instance* s = instance;
  if (n != n_values) return fail(s, "fmi3GetFloat64", "nValues differs from nValueReferences", (unsigned)n_values);
  if (!s->dae) solve_ladder(s, s->v, s->V0, s->der, s->i, s->vr, &s->il);
  for (size_t q = 0; q < n; ++q) {
    int k = 0;
    switch (decode(vrs[q], &k)) {
      case k_time: values[q] = s->time; break;
      case k_param: values[q] = *param(s, vrs[q]); break;
      case k_vload: values[q] = s->v[N]; break;
      case k_state: values[q] = s->v[k]; break;
      case k_der: values[q] = s->der[k]; break;
      case k_i: values[q] = s->i[k]; break;
      case k_vr: values[q] = s->vr[k]; break;
      case k_il: values[q] = s->il; break;
      case k_res: values[q] = residual(s, k, s->v, s->der, s->i, s->vr, s->il, s->V0); break;
      default: return fail(s, "fmi3GetFloat64", "no Float64 variable", vrs[q]);
    }
  }
  return fmi3OK;
}

EXPORT fmi3SetFloat64TYPE fmi3SetFloat64;
fmi3Status fmi3SetFloat64(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n, const fmi3Float64 values[],
                          size_t n_values) {
  Instance* s = instance;
  if (n != n_values) return fail(s, "fmi3SetFloat64", "nValues differs from nValueReferences", (unsigned)n_values);
  for (size_t q = 0; q < n; ++q) {
    int k = 0;
    const enum Kind kind = decode(vrs[q], &k);
    const int setup = s->mode == instantiated || s->mode == initialization;
    if (kind == k_param && setup) *param(s, vrs[q]) = values[q];
    else if (kind == k_state && setup) s->v[k] = values[q];
    else if ((kind == k_i || kind == k_vr || kind == k_il || kind == k_der) && s->dae) {
      if (kind == k_i) s->i[k] = values[q];
      else if (kind == k_vr) s->vr[k] = values[q];
      else if (kind == k_il) s->il = values[q];
      else s->der[k] = values[q];
    } else if ((kind == k_i || kind == k_vr || kind == k_il) && setup) {
      if (kind == k_i) s->i[k] = values[q];  /* start values (initial="approx") */
      else if (kind == k_vr) s->vr[k] = values[q];
      else s->il = values[q];
    } else {
      return fail(s, "fmi3SetFloat64", "the variable cannot be set now", vrs[q]);
    }
  }
  return fmi3OK;
}

EXPORT fmi3GetBooleanTYPE fmi3GetBoolean;
fmi3Status fmi3GetBoolean(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n, fmi3Boolean values[],
                          size_t n_values) {
  Instance* s = instance;
  for (size_t q = 0; q < n && q < n_values; ++q) {
    if (vrs[q] != RCL_VR_SWITCH) return fail(s, "fmi3GetBoolean", "no Boolean variable", vrs[q]);
    values[q] = s->dae != 0;
  }
  return fmi3OK;
}

EXPORT fmi3SetBooleanTYPE fmi3SetBoolean;
fmi3Status fmi3SetBoolean(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n, const fmi3Boolean values[],
                          size_t n_values) {
  Instance* s = instance;
  for (size_t q = 0; q < n && q < n_values; ++q) {
    if (vrs[q] != RCL_VR_SWITCH) return fail(s, "fmi3SetBoolean", "no Boolean variable", vrs[q]);
    if (s->mode != configuration)
      return fail(s, "fmi3SetBoolean", "the DAE switch is a structural parameter: Configuration Mode only", vrs[q]);
    s->dae = values[q] ? 1 : 0;
  }
  return fmi3OK;
}

/* ---- partial derivatives ------------------------------------------------- */

EXPORT fmi3GetDirectionalDerivativeTYPE fmi3GetDirectionalDerivative;
fmi3Status fmi3GetDirectionalDerivative(fmi3Instance instance, const fmi3ValueReference unknowns[], size_t n_unknowns,
                                        const fmi3ValueReference knowns[], size_t n_knowns, const fmi3Float64 seed[],
                                        size_t n_seed, fmi3Float64 sensitivity[], size_t n_sensitivity) {
  Instance* s = instance;
  static const char* const fn = "fmi3GetDirectionalDerivative";
  if (n_seed != n_knowns || n_sensitivity != n_unknowns) return fail(s, fn, "array sizes differ", 0);
  double v[N + 2] = {0}, der[N + 2] = {0}, i[N + 2] = {0}, vr[N + 2] = {0}, il = 0;
  for (size_t q = 0; q < n_knowns; ++q) {
    int k = 0;
    switch (decode(knowns[q], &k)) {
      case k_state: v[k] += seed[q]; break;
      case k_i: if (s->dae) { i[k] += seed[q]; break; } return fail(s, fn, "not a known in ODE mode", knowns[q]);
      case k_vr: if (s->dae) { vr[k] += seed[q]; break; } return fail(s, fn, "not a known in ODE mode", knowns[q]);
      case k_il: if (s->dae) { il += seed[q]; break; } return fail(s, fn, "not a known in ODE mode", knowns[q]);
      case k_der:
        return fail(s, fn,
                    "a state derivative is not a known: FMI-LS-DAE 1.0.0-alpha.1 admits inputs, states, parameters, "
                    "algebraic variables and time",
                    knowns[q]);
      default: return fail(s, fn, "not a known this FMU differentiates by", knowns[q]);
    }
  }
  if (!s->dae) solve_ladder(s, v, 0.0, der, i, vr, &il);
  for (size_t q = 0; q < n_unknowns; ++q) {
    int k = 0;
    switch (decode(unknowns[q], &k)) {
      case k_vload: sensitivity[q] = v[N]; break;
      case k_res:
        if (!s->dae) return fail(s, fn, "residuals are unknowns in DAE mode only", unknowns[q]);
        sensitivity[q] = residual(s, k, v, der, i, vr, il, 0.0);
        break;
      case k_der:
        if (s->dae) return fail(s, fn, "derivatives are knowns in DAE mode", unknowns[q]);
        sensitivity[q] = der[k];
        break;
      case k_i: case k_vr: case k_il:
        if (s->dae) return fail(s, fn, "algebraic variables are knowns in DAE mode", unknowns[q]);
        sensitivity[q] = decode(unknowns[q], &k) == k_il ? il : decode(unknowns[q], &k) == k_i ? i[k] : vr[k];
        break;
      default: return fail(s, fn, "not an unknown", unknowns[q]);
    }
  }
  return fmi3OK;
}
