/* tests/runtime/capi/lsdae_run_c.c -- a whole run from C through lsdae_run,
 * for the tests that compare the front doors (tests/python/test_front_doors.py):
 * the same run from the command line, from C and from Python gives the same
 * result file and the same statistics JSON, and the same bad option value
 * is refused with the same words.
 *
 *   lsdae_run_c MODEL RESULT STATS [KEY=VALUE ...]
 *
 * MODEL is an .fmu, an unpacked folder, an .ssp or an .ssd; RESULT and STATS
 * the files (- for none). Keys: rtol, atol, stop_time, output_interval (numbers),
 * threads, max_steps (integers), jacobian (0..3), output_vars (a comma-separated list
 * handed in one entry), set:NAME (a value for lsdae_set_text).
 * Exit status: the lsdae_status; a failure prints lsdae_last_error on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsdae/lsdae.h"

static int fail(lsdae_simulation* sim, lsdae_status status) {
  fprintf(stderr, "%s\n", lsdae_last_error(sim));
  lsdae_free(sim);
  return (int)status;
}

int main(int argc, char** argv) {
  lsdae_options options;
  lsdae_output output;
  const char* vars = NULL;
  lsdae_simulation* sim = NULL;
  lsdae_status status;
  int i;
  if (argc < 4) {
    fprintf(stderr, "usage: lsdae_run_c MODEL RESULT STATS [KEY=VALUE ...]\n");
    return 2;
  }
  lsdae_options_init(&options);
  lsdae_output_init(&output);
  for (i = 4; i < argc; ++i) {
    const char* eq = strchr(argv[i], '=');
    const char* value = eq != NULL ? eq + 1 : "";
    const size_t n = eq != NULL ? (size_t)(eq - argv[i]) : strlen(argv[i]);
    if (strncmp(argv[i], "rtol", n) == 0) options.rtol = atof(value);
    else if (strncmp(argv[i], "atol", n) == 0) options.atol = atof(value);
    else if (strncmp(argv[i], "stop_time", n) == 0) options.stop_time = atof(value);
    else if (strncmp(argv[i], "output_interval", n) == 0) options.output_interval = atof(value);
    else if (strncmp(argv[i], "threads", n) == 0) options.threads = atoi(value);
    else if (strncmp(argv[i], "max_steps", n) == 0) options.max_steps = atol(value);
    else if (strncmp(argv[i], "jacobian", n) == 0) options.jacobian = (lsdae_jacobian)atoi(value);
    else if (strncmp(argv[i], "output_vars", n) == 0) vars = value;
    else if (strncmp(argv[i], "set:", 4) != 0) {
      fprintf(stderr, "lsdae_run_c: unknown key in \"%s\"\n", argv[i]);
      return 2;
    }
  }
  status = lsdae_open(argv[1], &options, &sim);
  if (status != LSDAE_OK) return fail(NULL, status);
  for (i = 4; i < argc; ++i) {
    if (strncmp(argv[i], "set:", 4) == 0) {
      char name[256];
      const char* eq = strchr(argv[i], '=');
      size_t n = eq != NULL ? (size_t)(eq - argv[i] - 4) : 0;
      if (eq == NULL || n >= sizeof name) return 2;
      memcpy(name, argv[i] + 4, n);
      name[n] = '\0';
      status = lsdae_set_text(sim, name, eq + 1);
      if (status != LSDAE_OK) return fail(sim, status);
    }
  }
  if (strcmp(argv[2], "-") != 0) output.result_file = argv[2];
  if (strcmp(argv[3], "-") != 0) output.statistics_file = argv[3];
  if (vars != NULL) {
    output.output_vars = &vars;
    output.output_var_count = 1;
  }
  status = lsdae_run(sim, &output);
  if (status != LSDAE_OK) return fail(sim, status);
  printf("lsdae_run_c: ran %s to t = %.17g\n", argv[1], lsdae_time(sim));
  lsdae_free(sim);
  return 0;
}
