/* examples/scenario_loop_c.c -- a pipeline that drives its own loop of
 * scenarios from C (lsdae/lsdae.h, "One scenario at a time on a reused
 * model"): the smallest value of a parameter at which a stop condition fires,
 * found by bisection. Each step's scenario depends on the last one's
 * outcome, which a fixed table or grid cannot express; the model is opened,
 * analysed and instantiated once and reset between the steps.
 *
 *   scenario_loop_c <model> <names> <lo> <hi> <condition> [name=value ...]
 *
 * <model> an .fmu (or an .ssp/.ssd system); <names> one or more variables,
 * comma-separated, all set to the value tried (e.g. the fault clearing time
 * and the branch trip time together); <condition> a stop condition
 * ("SELECTOR OP NUMBER", docs/sweeps.md); name=value: values common to every
 * scenario. The condition must not fire at <lo> and must fire at <hi>.
 * E.g. the critical clearing time of a fault at bus 16 (from t = 1) cleared
 * by opening branch 26 of case39 (unstable: a rotor-angle separation above
 * pi), which this prints as 1.49017 after 16 scenarios on one model:
 *
 *   scenario_loop_c PowerGrid_case39_all_disturbances.fmu fault.t_off,trip.time 1.02 1.6 \
 *       'maxdev(gen[*].delta) > 3.14159' fault.bus=16 trip.branch=26
 *
 * Prints one line per step and then `critical <names> = <value> (± <half width>)`;
 * exits with the lsdae_status of a failure, or LSDAE_ERR_USAGE when the
 * interval does not bracket the change.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsdae/lsdae.h"

#define MAX_NAMES 8

/* Runs one scenario with every name set to `value`; *fired: the condition ended it. */
static lsdae_status try_value(lsdae_scenario_runner* runner, const char* const* names, size_t n, double value,
                              int* fired) {
  double values[MAX_NAMES];
  for (size_t i = 0; i < n; ++i) values[i] = value;
  char id[64];
  snprintf(id, sizeof id, "%.17g", value);
  lsdae_scenario_result result;
  lsdae_status s = lsdae_scenario_run_values(runner, id, n, names, values, &result, NULL, 0);
  if (s != LSDAE_OK) {
    fprintf(stderr, "scenario_loop_c: %s\n", lsdae_scenario_runner_error(runner));
    return s;
  }
  if (result.status == LSDAE_SCENARIO_FAILED) {
    fprintf(stderr, "scenario_loop_c: the scenario at %.17g failed: %s\n", value, result.message);
    return LSDAE_ERR_SOLVER;
  }
  *fired = result.status == LSDAE_SCENARIO_STOPPED_EARLY;
  printf("%-24.17g %s (t = %g, %ld steps%s)\n", value, *fired ? "fires " : "quiet ", result.reached_time,
         result.steps, result.reused ? ", model reused" : "");
  return LSDAE_OK;
}

int main(int argc, char** argv) {
  if (argc < 6) {
    fprintf(stderr, "usage: %s <model> <name[,name...]> <lo> <hi> <condition> [name=value ...]\n", argv[0]);
    return LSDAE_ERR_USAGE;
  }
  char label[256];
  snprintf(label, sizeof label, "%s", argv[2]);
  const char* names[MAX_NAMES];
  size_t n = 0;
  for (char* name = strtok(argv[2], ","); name != NULL && n < MAX_NAMES; name = strtok(NULL, ",")) names[n++] = name;
  char* end = NULL;
  double lo = strtod(argv[3], &end);
  const int bad_lo = *end != '\0';
  double hi = strtod(argv[4], &end);
  if (n == 0 || bad_lo || *end != '\0' || !(lo < hi)) {
    fprintf(stderr, "scenario_loop_c: expected names and lo < hi, got \"%s\" \"%s\" \"%s\" → e.g. x 0.1 10\n",
            argv[2], argv[3], argv[4]);
    return LSDAE_ERR_USAGE;
  }
  const char* conditions[] = {argv[5]};
  lsdae_sweep_spec spec;
  lsdae_sweep_spec_init(&spec);
  spec.stop_when = conditions;
  spec.stop_when_count = 1;
  spec.sets = (const char* const*)&argv[6];
  spec.set_count = (size_t)(argc - 6);
  lsdae_scenario_runner* runner = NULL;
  lsdae_status s = lsdae_scenario_runner_open(argv[1], NULL, &spec, &runner);
  if (s != LSDAE_OK) {
    fprintf(stderr, "scenario_loop_c: %s\n", lsdae_last_error(NULL));
    return s;
  }
  int fired_lo = 0, fired_hi = 0;
  if ((s = try_value(runner, names, n, lo, &fired_lo)) != LSDAE_OK ||
      (s = try_value(runner, names, n, hi, &fired_hi)) != LSDAE_OK) {
    lsdae_scenario_runner_close(runner);
    return s;
  }
  if (fired_lo || !fired_hi) {
    fprintf(stderr, "scenario_loop_c: the condition %s at %g and %s at %g → give an interval where it changes\n",
            fired_lo ? "fires" : "does not fire", lo, fired_hi ? "fires" : "does not fire", hi);
    lsdae_scenario_runner_close(runner);
    return LSDAE_ERR_USAGE;
  }
  /* Bisection to a relative width of 1e-4 of the interval. */
  const double tolerance = 1e-4 * (hi - lo);
  while (hi - lo > tolerance) {
    const double mid = 0.5 * (lo + hi);
    int fired = 0;
    if ((s = try_value(runner, names, n, mid, &fired)) != LSDAE_OK) break;
    if (fired) hi = mid;
    else lo = mid;
  }
  lsdae_scenario_runner_close(runner);
  if (s != LSDAE_OK) return s;
  printf("critical %s = %.6g (± %.2g)\n", label, 0.5 * (lo + hi), 0.5 * (hi - lo));
  return LSDAE_OK;
}
