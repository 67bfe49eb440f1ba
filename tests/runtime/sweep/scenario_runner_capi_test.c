/* tests/runtime/sweep/scenario_runner_capi_test.c -- the sweep part of the C
 * interface (lsdae/lsdae.h), from C: the scenario runner (one scenario at a
 * time on a reused model) on an FMU and on an SSP system, and lsdae_sweep
 * with a grid crossed with Monte Carlo draws, resumed, and an HDF5 summary.
 *
 *   scenario_runner_capi_test HelloWorld_ode.fmu coupled_masses.ssp WORK_DIR
 *
 * HelloWorld_ode: x' = 1.4 x, so final:x over [0, 1] is x(0)·e^1.4. Checks:
 * metrics; a reused model gives the bits of a fresh one (and of the same
 * scenario run again); a scenario's own failure (an unknown name) is a
 * failed row, not an error status, and the next scenario runs; bad calls
 * are error statuses with a message; a stop condition ends a scenario early;
 * a system's component parameter swept. Prints "FAIL: ..." and exits 1 on
 * the first failed check. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsdae/lsdae.h"

static int failures = 0;

#define CHECK(cond, ...)                                           \
  do {                                                             \
    if (!(cond)) {                                                 \
      fprintf(stderr, "FAIL (line %d): %s: ", __LINE__, #cond);    \
      fprintf(stderr, __VA_ARGS__);                                \
      fprintf(stderr, "\n");                                       \
      ++failures;                                                  \
    }                                                              \
  } while (0)

static lsdae_scenario_runner* open_hello(const char* fmu, int no_reuse) {
  static const char* metrics[] = {"final:x", "max:der(x)", "tmax:x"};
  static const char* stop_when[] = {"x > 100"};
  lsdae_options options;
  lsdae_options_init(&options);
  options.stop_time = 1.0;
  options.rtol = 1e-9;
  lsdae_sweep_spec spec;
  lsdae_sweep_spec_init(&spec);
  spec.metrics = metrics;
  spec.metric_count = 3;
  spec.stop_when = stop_when;
  spec.stop_when_count = 1;
  spec.no_reuse = no_reuse;
  lsdae_scenario_runner* runner = NULL;
  lsdae_status s = lsdae_scenario_runner_open(fmu, &options, &spec, &runner);
  CHECK(s == LSDAE_OK && runner != NULL, "%s", lsdae_last_error(NULL));
  return runner;
}

static void runner_on_an_fmu(const char* fmu) {
  lsdae_scenario_runner* runner = open_hello(fmu, 0);
  lsdae_scenario_runner* fresh = open_hello(fmu, 1);
  if (runner == NULL || fresh == NULL) return;
  CHECK(lsdae_scenario_metric_count(runner) == 3, "%zu metrics", lsdae_scenario_metric_count(runner));
  CHECK(strcmp(lsdae_scenario_runner_header(runner),
               "id,status,message,reached_time,steps,wall_time_s,final:x,max:der(x),tmax:x") == 0,
        "header %s", lsdae_scenario_runner_header(runner));

  const char* names[] = {"x"};
  const double starts[] = {1.0, 2.0, 0.25, 1.0};
  double first[3] = {0, 0, 0};
  for (int k = 0; k < 4; ++k) {
    lsdae_scenario_result r, f;
    double m[3], mf[3];
    char id[16];
    snprintf(id, sizeof id, "s%d", k);
    lsdae_status s = lsdae_scenario_run_values(runner, id, 1, names, &starts[k], &r, m, 3);
    CHECK(s == LSDAE_OK, "%s", lsdae_scenario_runner_error(runner));
    CHECK(r.status == LSDAE_SCENARIO_OK, "scenario %d: %s", k, r.message);
    CHECK(r.reused == (k > 0), "scenario %d: reused %d", k, r.reused);
    CHECK(r.reached_time == 1.0 && r.steps > 0, "reached %g, %ld steps", r.reached_time, r.steps);
    CHECK(fabs(m[0] - starts[k] * exp(1.4)) < 1e-6 * starts[k] * exp(1.4), "final:x %.17g", m[0]);
    CHECK(fabs(m[1] - 1.4 * m[0]) < 1e-9 * m[0], "max:der(x) %.17g vs 1.4 * %.17g", m[1], m[0]);
    CHECK(m[2] == 1.0, "tmax:x %g", m[2]);
    CHECK(strncmp(r.csv_row, id, strlen(id)) == 0 && strstr(r.csv_row, ",ok,") != NULL, "row %s", r.csv_row);
    s = lsdae_scenario_run_values(fresh, id, 1, names, &starts[k], &f, mf, 3);
    CHECK(s == LSDAE_OK && f.reused == 0, "%s", lsdae_scenario_runner_error(fresh));
    CHECK(memcmp(m, mf, sizeof m) == 0, "scenario %d: reused and fresh differ: %.17g %.17g", k, m[0], mf[0]);
    CHECK(r.steps == f.steps, "steps %ld vs %ld", r.steps, f.steps);
    if (k == 0) memcpy(first, m, sizeof m);
    if (k == 3) CHECK(memcmp(first, m, sizeof m) == 0, "the same scenario again: %.17g vs %.17g", m[0], first[0]);
  }

  /* A scenario's own failure is a row; the next scenario runs on the reset model. */
  {
    const char* bad_names[] = {"x", "nosuch"};
    const char* bad_texts[] = {"1", "3"};
    lsdae_scenario_result r;
    double m[3];
    lsdae_status s = lsdae_scenario_run(runner, "bad", 2, bad_names, bad_texts, &r, m, 3);
    CHECK(s == LSDAE_OK, "%s", lsdae_scenario_runner_error(runner));
    CHECK(r.status == LSDAE_SCENARIO_FAILED && strstr(r.message, "nosuch") != NULL, "%d %s", r.status, r.message);
    CHECK(isnan(r.reached_time) && isnan(m[0]), "reached %g, final %g", r.reached_time, m[0]);
    const char* texts[] = {"1"};
    s = lsdae_scenario_run(runner, "again", 1, names, texts, &r, m, 3);
    CHECK(s == LSDAE_OK && r.status == LSDAE_SCENARIO_OK, "%s", r.message);
    CHECK(memcmp(first, m, sizeof m) == 0, "after a failure: %.17g vs %.17g", m[0], first[0]);
  }

  /* A stop condition: x(0) = 50 passes 100 at t = ln 2 / 1.4 ≈ 0.495. */
  {
    const double big = 50;
    lsdae_scenario_result r;
    double m[3];
    CHECK(lsdae_scenario_run_values(runner, "big", 1, names, &big, &r, m, 3) == LSDAE_OK, "run");
    CHECK(r.status == LSDAE_SCENARIO_STOPPED_EARLY && strstr(r.message, "x > 100") != NULL, "%d %s", r.status,
          r.message);
    CHECK(r.reached_time > 0.49 && r.reached_time < 0.6, "stopped at %g", r.reached_time);
  }

  /* Bad calls: error statuses with a message, nothing run. */
  {
    lsdae_scenario_result r;
    double m[2];
    const double one = 1;
    CHECK(lsdae_scenario_run_values(runner, "x", 1, names, &one, &r, m, 2) == LSDAE_ERR_USAGE, "small metric array");
    CHECK(strstr(lsdae_scenario_runner_error(runner), "room for 2 metrics") != NULL, "%s",
          lsdae_scenario_runner_error(runner));
    CHECK(lsdae_scenario_run(runner, "x", 1, NULL, NULL, &r, m, 3) == LSDAE_ERR_USAGE, "NULL names");
    CHECK(lsdae_scenario_run(NULL, "x", 0, NULL, NULL, &r, m, 3) == LSDAE_ERR_USAGE, "NULL runner");
    CHECK(strstr(lsdae_scenario_runner_error(NULL), "NULL runner") != NULL, "%s", lsdae_scenario_runner_error(NULL));
  }
  lsdae_scenario_runner_close(runner);
  lsdae_scenario_runner_close(fresh);

  /* A bad metric is refused when the runner is opened. */
  {
    const char* bad[] = {"max:nosuch"};
    lsdae_sweep_spec spec;
    lsdae_sweep_spec_init(&spec);
    spec.metrics = bad;
    spec.metric_count = 1;
    lsdae_scenario_runner* r = NULL;
    CHECK(lsdae_scenario_runner_open(fmu, NULL, &spec, &r) == LSDAE_ERR_USAGE && r == NULL, "bad metric accepted");
    CHECK(strstr(lsdae_last_error(NULL), "nosuch") != NULL, "%s", lsdae_last_error(NULL));
    CHECK(lsdae_scenario_runner_open("no-such.fmu", NULL, NULL, &r) != LSDAE_OK, "a missing file was opened");
  }
}

static void runner_on_a_system(const char* ssp) {
  const char* metrics[] = {"max:mass1.v", "final:mass2.s"};
  const char* sets[] = {"mass2.m=3"};
  lsdae_options options;
  lsdae_options_init(&options);
  options.stop_time = 2.0;
  lsdae_sweep_spec spec;
  lsdae_sweep_spec_init(&spec);
  spec.metrics = metrics;
  spec.metric_count = 2;
  spec.sets = sets;
  spec.set_count = 1;
  lsdae_scenario_runner* runner = NULL;
  if (lsdae_scenario_runner_open(ssp, &options, &spec, &runner) != LSDAE_OK) {
    CHECK(0, "%s", lsdae_last_error(NULL));
    return;
  }
  const char* names[] = {"mass1.F0"};
  const double f0[] = {0.5, 2.5, 0.5};
  double v[3][2];
  for (int k = 0; k < 3; ++k) {
    lsdae_scenario_result r;
    CHECK(lsdae_scenario_run_values(runner, "m", 1, names, &f0[k], &r, v[k], 2) == LSDAE_OK, "run");
    CHECK(r.status == LSDAE_SCENARIO_OK && r.reached_time == 2.0, "%s", r.message);
  }
  CHECK(v[1][0] > v[0][0], "a larger force moves mass1 faster: %g vs %g", v[1][0], v[0][0]);
  CHECK(memcmp(v[0], v[2], sizeof v[0]) == 0, "the same scenario on the reset system: %.17g vs %.17g", v[2][0],
        v[0][0]);
  lsdae_scenario_runner_close(runner);
}

static int count_lines(const char* path) {
  FILE* in = fopen(path, "r");
  if (in == NULL) return -1;
  int lines = 0;
  for (int c = fgetc(in); c != EOF; c = fgetc(in)) lines += c == '\n';
  fclose(in);
  return lines;
}

static void sweep_with_a_grid_and_draws(const char* fmu, const char* dir) {
  char summary[4096];
  snprintf(summary, sizeof summary, "%s/capi-summary.csv", dir);
  const char* metrics[] = {"final:x"};
  const char* grid[] = {"x=1,2"};
  const char* draws[] = {"x=uniform(0.5,1.5)"};
  lsdae_options options;
  lsdae_options_init(&options);
  options.stop_time = 0.5;
  lsdae_sweep_spec spec;
  lsdae_sweep_spec_init(&spec);
  spec.metrics = metrics;
  spec.metric_count = 1;
  spec.monte_carlo = 3;
  spec.draws = draws;
  spec.draw_count = 1;
  spec.seed = 42;
  spec.grid = grid;  /* crossed: the grid's x wins over the draw (it is applied after) */
  spec.grid_count = 1;
  spec.jobs = 2;
  spec.summary_csv = summary;
  size_t failed = 99;
  lsdae_status s = lsdae_sweep(fmu, &options, &spec, &failed);
  CHECK(s == LSDAE_OK && failed == 0, "%d %zu %s", s, failed, lsdae_last_error(NULL));
  FILE* in = fopen(summary, "r");
  CHECK(in != NULL, "no summary %s", summary);
  if (in == NULL) return;
  char line[4096];
  int rows = 0, with_id = 0;
  while (fgets(line, sizeof line, in) != NULL) {
    ++rows;
    if (strncmp(line, "2/1,ok,", 7) == 0) with_id = 1;
  }
  fclose(in);
  CHECK(rows == 7, "%d lines (header and 6 rows expected)", rows);
  CHECK(with_id, "no row with id 2/1 (draw 2, grid point 1)");

  /* resume = 1: every id is in the summary already, so nothing runs and no row is added. */
  spec.resume = 1;
  failed = 99;
  s = lsdae_sweep(fmu, &options, &spec, &failed);
  CHECK(s == LSDAE_OK && failed == 0, "resumed: %d %zu %s", s, failed, lsdae_last_error(NULL));
  CHECK(count_lines(summary) == 7, "%d lines after a resume with nothing to run", count_lines(summary));
  spec.resume = 0;

  /* No source at all; a draw without a count. */
  lsdae_sweep_spec_init(&spec);
  spec.summary_csv = summary;
  CHECK(lsdae_sweep(fmu, &options, &spec, &failed) == LSDAE_ERR_USAGE, "no scenarios accepted");
  CHECK(strstr(lsdae_last_error(NULL), "no scenarios") != NULL, "%s", lsdae_last_error(NULL));
  spec.draws = draws;
  spec.draw_count = 1;
  spec.grid = grid;
  spec.grid_count = 1;
  CHECK(lsdae_sweep(fmu, &options, &spec, &failed) == LSDAE_ERR_USAGE, "a draw without monte_carlo accepted");
  /* An HDF5 name gives an HDF5 summary (as `lsdae sweep --summary x.h5`); resuming it
   * with other metrics is refused, naming the spec's fields. */
  lsdae_sweep_spec_init(&spec);
  spec.grid = grid;
  spec.grid_count = 1;
  spec.metrics = metrics;
  spec.metric_count = 1;
  snprintf(summary, sizeof summary, "%s/capi-summary.h5", dir);
  spec.summary_csv = summary;
  s = lsdae_sweep(fmu, &options, &spec, &failed);
  CHECK(s == LSDAE_OK && failed == 0, "an .h5 summary: %d %zu %s", s, failed, lsdae_last_error(NULL));
  char signature[8] = {0};
  in = fopen(summary, "rb");
  CHECK(in != NULL && fread(signature, 1, 8, in) == 8 && memcmp(signature, "\x89HDF\r\n\x1a\n", 8) == 0,
        "%s is not HDF5", summary);
  if (in != NULL) fclose(in);
  spec.metric_count = 0;
  spec.resume = 1;
  CHECK(lsdae_sweep(fmu, &options, &spec, &failed) == LSDAE_ERR_USAGE, "a resume with other metrics accepted");
  CHECK(strstr(lsdae_last_error(NULL), "spec->resume") != NULL && strstr(lsdae_last_error(NULL), "spec->metrics"),
        "%s", lsdae_last_error(NULL));
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s HelloWorld_ode.fmu coupled_masses.ssp WORK_DIR\n", argv[0]);
    return 2;
  }
  /* lsdae_sweep forks its workers: before this process loads any FMU binary (the runners do). */
  sweep_with_a_grid_and_draws(argv[1], argv[3]);
  runner_on_an_fmu(argv[1]);
  runner_on_a_system(argv[2]);
  if (failures == 0) printf("scenario runner C API: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
