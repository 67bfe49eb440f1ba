/* examples/simulate_c.c -- drive lsdae from C: open an FMU, set a parameter,
 * initialize, advance output interval by output interval, print a variable,
 * print the statistics. Built and run by the tests (tests/runtime/capi/).
 *
 *   simulate_c <model.fmu> <variable> [name=value]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsdae/lsdae.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s <model.fmu> <variable> [name=value]\n", argv[0]);
    return LSDAE_ERR_USAGE;
  }
  lsdae_options options;
  lsdae_options_init(&options);
  lsdae_simulation* sim = NULL;
  lsdae_status status = lsdae_open(argv[1], &options, &sim);
  if (status != LSDAE_OK) {
    fprintf(stderr, "%s\n", lsdae_last_error(NULL));
    return (int)status;
  }
  if (argc > 3) {
    char* eq = strchr(argv[3], '=');
    if (eq == NULL) {
      fprintf(stderr, "expected name=value, got %s\n", argv[3]);
      lsdae_free(sim);
      return LSDAE_ERR_USAGE;
    }
    *eq = '\0';
    status = lsdae_set(sim, argv[3], strtod(eq + 1, NULL));
    if (status != LSDAE_OK) goto fail;
  }
  status = lsdae_initialize(sim);
  if (status != LSDAE_OK) goto fail;
  double t = lsdae_time(sim), value = 0.0;
  const double stop = lsdae_stop_time(sim), dt = lsdae_output_interval(sim);
  while (t < stop) {
    status = lsdae_advance_to(sim, t + dt, &t);
    if (status != LSDAE_OK) goto fail;
  }
  status = lsdae_get(sim, argv[2], &value);
  if (status != LSDAE_OK) goto fail;
  lsdae_stats stats;
  lsdae_statistics(sim, &stats);
  printf("%s(%.17g) = %.17g\n", argv[2], t, value);
  printf("steps %ld residual_calls %ld jacobians %ld colors %zu\n", stats.steps, stats.residual_calls,
         stats.jacobian_evaluations, stats.colors);
  lsdae_free(sim);
  return 0;
fail:
  fprintf(stderr, "%s\n", lsdae_last_error(sim));
  lsdae_free(sim);
  return (int)status;
}
