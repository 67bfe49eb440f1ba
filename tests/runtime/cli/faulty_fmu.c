/* tests/runtime/cli/faulty_fmu.c -- a complete, hand-written FMI 3.0 Model
 * Exchange binary that misbehaves on demand, for the supervisor tests
 * (isolation_test.cpp). Plain C, no kit: the conventions of other exporters
 * (odd value references, no directional derivatives, time last).
 *
 * The model: x' = -k·x, x(0) = 1 (x: vr 17, der(x): vr 18, k: vr 42 = 1),
 * an output y = 2x (vr 30), and a time event at t = 0.5 that changes
 * nothing. With the LS-DAE manifest the test writes (Shape A, no enable
 * switch: DAE only) it also has an algebraic variable z (vr 3) and a
 * residual g = z - 2x (vr 25). Time is vr 9000.
 *
 * The fault comes from resources/fault.txt, one line:
 *     <action> <function> [<from time>] [<number>]
 * <function> is an fmi3 function without the prefix (GetFloat64,
 * UpdateDiscreteStates, InstantiateModelExchange, ...); the fault hits every
 * call of it at simulation time >= <from time> (default 0):
 *     segv     write through a null pointer (SIGSEGV)
 *     abort    abort() (SIGABRT)
 *     exit     exit(1)
 *     hang     an endless busy loop
 *     slow     sleep <number> milliseconds, then work normally
 *     nan      return NaN for every value the call returns
 *     discard  return fmi3Discard
 *     print    printf <number> lines to stdout, then work normally
 *     chatter  (UpdateDiscreteStates) announce the next time event <number>
 *              seconds ahead, at every event: events that never stop
 *     none     behave
 * When the fault first hits, the file named by $FAULTY_FMU_READY is
 * created, so a test knows the FMU is inside that call.
 */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmi3_abi.h"

#define EXPORT __attribute__((visibility("default")))

enum { VR_Z = 3, VR_X = 17, VR_DER_X = 18, VR_G = 25, VR_Y = 30, VR_K = 42, VR_TIME = 9000 };
enum Action { NONE, SEGV, ABORT, EXIT, HANG, SLOW, NAN_VALUES, DISCARD, PRINT, CHATTER };

typedef struct {
  enum Action action;
  char function[64];
  double from_time;
  double number;
  int announced;
  double time, x, z, k;
  fmi3InstanceEnvironment env;
  fmi3LogMessageCallback log;
} Instance;

static void read_fault(Instance* m, const char* resources) {
  char path[4096], action[32] = "none";
  m->action = NONE;
  m->function[0] = '\0';
  m->from_time = 0.0;
  m->number = 0.0;
  snprintf(path, sizeof path, "%sfault.txt", resources != NULL ? resources : "");
  FILE* f = fopen(path, "r");
  if (f == NULL) return;
  if (fscanf(f, "%31s %63s %lf %lf", action, m->function, &m->from_time, &m->number) < 2) m->function[0] = '\0';
  fclose(f);
  static const char* names[] = {"none", "segv", "abort", "exit", "hang", "slow", "nan", "discard", "print", "chatter"};
  for (int i = 0; i < (int)(sizeof names / sizeof names[0]); ++i)
    if (strcmp(action, names[i]) == 0) m->action = (enum Action)i;
}

static void announce(Instance* m) {
  if (m->announced) return;
  m->announced = 1;
  const char* ready = getenv("FAULTY_FMU_READY");
  if (ready != NULL) {
    int fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) close(fd);
  }
}

/* Acts on a fault for `function`; returns the action still to be done by
 * the caller (NAN_VALUES, DISCARD) or NONE. */
static enum Action fault(Instance* m, const char* function) {
  if (m->action == NONE || strcmp(function, m->function) != 0 || m->time < m->from_time) return NONE;
  announce(m);
  switch (m->action) {
    case SEGV: {
      volatile int* volatile nowhere = NULL;
      *nowhere = 1;
      return NONE;
    }
    case ABORT: abort();
    case EXIT: exit(1);
    case HANG: {
      volatile unsigned long spins = 0;
      for (;;) ++spins;
    }
    case SLOW: usleep((useconds_t)(m->number * 1000.0)); return NONE;
    case PRINT:
      for (int i = 0; i < (int)m->number; ++i) printf("faulty FMU chatter %d at t = %g\n", i, m->time);
      return NONE;
    default: return m->action;
  }
}

static double value_of(const Instance* m, fmi3ValueReference vr, int* ok) {
  *ok = 1;
  switch (vr) {
    case VR_Z: return m->z;
    case VR_X: return m->x;
    case VR_DER_X: return -m->k * m->x;
    case VR_G: return m->z - 2.0 * m->x;
    case VR_Y: return 2.0 * m->x;
    case VR_K: return m->k;
    case VR_TIME: return m->time;
    default: *ok = 0; return 0.0;
  }
}

EXPORT const char* fmi3GetVersion(void) { return fmi3Version; }
EXPORT fmi3Status fmi3SetDebugLogging(fmi3Instance i, fmi3Boolean on, size_t n, const fmi3String c[]) {
  (void)i, (void)on, (void)n, (void)c;
  return fmi3OK;
}

EXPORT fmi3Instance fmi3InstantiateModelExchange(fmi3String name, fmi3String token, fmi3String resources,
                                                 fmi3Boolean visible, fmi3Boolean logging,
                                                 fmi3InstanceEnvironment env, fmi3LogMessageCallback log) {
  (void)name, (void)token, (void)visible, (void)logging;
  Instance* m = calloc(1, sizeof *m);
  if (m == NULL) return NULL;
  read_fault(m, resources);
  m->env = env;
  m->log = log;
  m->x = 1.0;
  m->k = 1.0;
  if (fault(m, "InstantiateModelExchange") != NONE) {
    free(m);
    return NULL;
  }
  return m;
}

EXPORT void fmi3FreeInstance(fmi3Instance i) {
  fault((Instance*)i, "FreeInstance");
  free(i);
}

#define SIMPLE(NAME)                                          \
  EXPORT fmi3Status fmi3##NAME(fmi3Instance i) {              \
    return fault((Instance*)i, #NAME) == DISCARD ? fmi3Discard : fmi3OK; \
  }
SIMPLE(ExitInitializationMode)
SIMPLE(EnterEventMode)
SIMPLE(Terminate)
SIMPLE(EnterContinuousTimeMode)

EXPORT fmi3Status fmi3Reset(fmi3Instance i) {
  Instance* m = (Instance*)i;
  m->x = 1.0;
  m->time = 0.0;
  return fmi3OK;
}

EXPORT fmi3Status fmi3EnterInitializationMode(fmi3Instance i, fmi3Boolean tolerance_defined, fmi3Float64 tolerance,
                                              fmi3Float64 start, fmi3Boolean stop_defined, fmi3Float64 stop) {
  (void)tolerance_defined, (void)tolerance, (void)stop_defined, (void)stop;
  Instance* m = (Instance*)i;
  m->time = start;
  return fault(m, "EnterInitializationMode") == DISCARD ? fmi3Discard : fmi3OK;
}

EXPORT fmi3Status fmi3SetTime(fmi3Instance i, fmi3Float64 t) {
  Instance* m = (Instance*)i;
  m->time = t;
  return fault(m, "SetTime") == DISCARD ? fmi3Discard : fmi3OK;
}

EXPORT fmi3Status fmi3GetFloat64(fmi3Instance i, const fmi3ValueReference vrs[], size_t n, fmi3Float64 values[],
                                 size_t n_values) {
  Instance* m = (Instance*)i;
  enum Action a = fault(m, "GetFloat64");
  if (a == DISCARD) return fmi3Discard;
  if (n != n_values) return fmi3Error;
  for (size_t k = 0; k < n; ++k) {
    int ok = 0;
    values[k] = a == NAN_VALUES ? NAN : value_of(m, vrs[k], &ok);
    if (a != NAN_VALUES && !ok) return fmi3Error;
  }
  return fmi3OK;
}

EXPORT fmi3Status fmi3SetFloat64(fmi3Instance i, const fmi3ValueReference vrs[], size_t n, const fmi3Float64 values[],
                                 size_t n_values) {
  Instance* m = (Instance*)i;
  if (fault(m, "SetFloat64") == DISCARD) return fmi3Discard;
  if (n != n_values) return fmi3Error;
  for (size_t k = 0; k < n; ++k) {
    if (vrs[k] == VR_Z) m->z = values[k];
    else if (vrs[k] == VR_X) m->x = values[k];
    else if (vrs[k] == VR_K) m->k = values[k];
    else return fmi3Error;
  }
  return fmi3OK;
}

EXPORT fmi3Status fmi3UpdateDiscreteStates(fmi3Instance i, fmi3Boolean* need_update, fmi3Boolean* terminate,
                                           fmi3Boolean* nominals_changed, fmi3Boolean* values_changed,
                                           fmi3Boolean* next_defined, fmi3Float64* next) {
  Instance* m = (Instance*)i;
  const enum Action action = fault(m, "UpdateDiscreteStates");
  if (action == DISCARD) return fmi3Discard;
  *need_update = fmi3False;
  *terminate = fmi3False;
  *nominals_changed = fmi3False;
  *values_changed = fmi3False;
  *next_defined = m->time < 0.5 ? fmi3True : fmi3False;
  *next = 0.5;
  if (action == CHATTER) {
    *next_defined = fmi3True;
    *next = m->time + m->number;
  }
  return fmi3OK;
}

EXPORT fmi3Status fmi3CompletedIntegratorStep(fmi3Instance i, fmi3Boolean no_prior, fmi3Boolean* enter_event,
                                              fmi3Boolean* terminate) {
  (void)no_prior;
  *enter_event = fmi3False;
  *terminate = fmi3False;
  return fault((Instance*)i, "CompletedIntegratorStep") == DISCARD ? fmi3Discard : fmi3OK;
}

EXPORT fmi3Status fmi3SetContinuousStates(fmi3Instance i, const fmi3Float64 x[], size_t n) {
  Instance* m = (Instance*)i;
  if (fault(m, "SetContinuousStates") == DISCARD) return fmi3Discard;
  if (n != 1) return fmi3Error;
  m->x = x[0];
  return fmi3OK;
}

EXPORT fmi3Status fmi3GetContinuousStates(fmi3Instance i, fmi3Float64 x[], size_t n) {
  Instance* m = (Instance*)i;
  if (n != 1) return fmi3Error;
  x[0] = fault(m, "GetContinuousStates") == NAN_VALUES ? NAN : m->x;
  return fmi3OK;
}

EXPORT fmi3Status fmi3GetContinuousStateDerivatives(fmi3Instance i, fmi3Float64 dx[], size_t n) {
  Instance* m = (Instance*)i;
  enum Action a = fault(m, "GetContinuousStateDerivatives");
  if (a == DISCARD) return fmi3Discard;
  if (n != 1) return fmi3Error;
  dx[0] = a == NAN_VALUES ? NAN : -m->k * m->x;
  return fmi3OK;
}

EXPORT fmi3Status fmi3GetEventIndicators(fmi3Instance i, fmi3Float64 z[], size_t n) {
  (void)i, (void)z;
  return n == 0 ? fmi3OK : fmi3Error;
}

EXPORT fmi3Status fmi3GetNominalsOfContinuousStates(fmi3Instance i, fmi3Float64 nominals[], size_t n) {
  (void)i;
  for (size_t k = 0; k < n; ++k) nominals[k] = 1.0;
  return fmi3OK;
}

EXPORT fmi3Status fmi3GetNumberOfEventIndicators(fmi3Instance i, size_t* n) {
  (void)i;
  *n = 0;
  return fmi3OK;
}

EXPORT fmi3Status fmi3GetNumberOfContinuousStates(fmi3Instance i, size_t* n) {
  (void)i;
  *n = 1;
  return fmi3OK;
}
