/* lsdae/lsdae.h -- the plain C interface to lsdae, for pipelines written in C
 * (or any language with a C FFI). It wraps lsdae::Simulation (lsdae/simulation.h).
 *
 *   lsdae_options options;
 *   lsdae_options_init(&options);            // every field "use the default"
 *   options.threads = 2;
 *   lsdae_simulation* sim = NULL;
 *   if (lsdae_open("model.fmu", &options, &sim) != LSDAE_OK) {
 *     fprintf(stderr, "%s\n", lsdae_last_error(NULL));  // errors before a handle exists
 *     return 1;
 *   }
 *   lsdae_set(sim, "L", 2.5e-7);
 *   lsdae_initialize(sim);
 *   double t = 0, v = 0;
 *   while (lsdae_advance_to(sim, t + 1e-9, &t) == LSDAE_OK && t < lsdae_stop_time(sim))
 *     lsdae_get(sim, "v_load", &v);
 *   lsdae_free(sim);
 *
 * Every function returns an lsdae_status; the values equal the exit codes of
 * the `lsdae` program (README.md). After a failure, lsdae_last_error(sim)
 * (or lsdae_last_error(NULL) for lsdae_open) returns the message, in the
 * `where → what → value seen → what to do` shape; the string stays valid
 * until the next call on that handle (NULL: on that thread).
 * A handle is used by one thread at a time. No function throws or aborts.
 */
#ifndef LSDAE_LSDAE_H
#define LSDAE_LSDAE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  LSDAE_OK = 0,
  LSDAE_ERR_INVALID = 1,       /* the FMU breaks a rule, or structural analysis failed */
  LSDAE_ERR_USAGE = 2,         /* bad argument, unknown variable, wrong call order */
  LSDAE_ERR_ARCHIVE = 3,
  LSDAE_ERR_XML = 4,
  LSDAE_ERR_BINARY = 5,
  LSDAE_ERR_FMU_CALL = 6,      /* the FMU returned fmi3Error/fmi3Fatal */
  LSDAE_ERR_SOLVER = 7,        /* IDA failed; lsdae_time() tells where it stopped */
  LSDAE_ERR_INTERNAL = 70
} lsdae_status;

typedef enum {
  LSDAE_JACOBIAN_AUTO = 0,
  LSDAE_JACOBIAN_FINITE_DIFFERENCES = 1,
  LSDAE_JACOBIAN_DIRECTIONAL = 2
} lsdae_jacobian;

/* NaN in a double field and 0 in an integer field mean "the default"
 * (DefaultExperiment, else lsdae's default; see lsdae/simulation.h). */
typedef struct {
  double start_time, stop_time, rtol, atol, output_interval;
  int threads;
  lsdae_jacobian jacobian;
  long max_steps;
} lsdae_options;

typedef struct {
  size_t unknowns, differential, algebraic, jacobian_nonzeros, colors, threads;
  long steps, residual_calls, jacobian_evaluations, jacobian_residual_calls, directional_calls;
  long nonlinear_iterations, error_test_failures;
  long klu_lnz, klu_unz;
  double time_structure, time_initialize, time_integrate, reached_time;
} lsdae_stats;

typedef struct lsdae_simulation lsdae_simulation;

void lsdae_options_init(lsdae_options* options);
lsdae_status lsdae_open(const char* fmu_path, const lsdae_options* options, lsdae_simulation** simulation);
void lsdae_free(lsdae_simulation* simulation);

/* Before lsdae_initialize: parameters, inputs, start values. */
lsdae_status lsdae_set(lsdae_simulation* simulation, const char* name, double value);
lsdae_status lsdae_initialize(lsdae_simulation* simulation);
/* Integrates to t (clipped to the stop time); *reached (may be NULL) gets the time reached. */
lsdae_status lsdae_advance_to(lsdae_simulation* simulation, double t, double* reached);
lsdae_status lsdae_get(lsdae_simulation* simulation, const char* name, double* value);
double lsdae_time(const lsdae_simulation* simulation);
double lsdae_stop_time(const lsdae_simulation* simulation);
double lsdae_output_interval(const lsdae_simulation* simulation);
lsdae_status lsdae_statistics(lsdae_simulation* simulation, lsdae_stats* stats);
const char* lsdae_last_error(const lsdae_simulation* simulation);

#ifdef __cplusplus
}
#endif

#endif /* LSDAE_LSDAE_H */
