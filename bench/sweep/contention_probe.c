/* bench/sweep/contention_probe.c -- is a machine's loss at many processes its clock or its memory?
 *
 * Issue 30: 16 independent `lsdae simulate`s on the lent 16-core machine each ran 1.39x slower
 * than one alone. This probe tells the two usual causes apart, run as N copies at once
 * (bench/sweep/device_checks.sh): `spin` keeps everything in registers (only the clock can slow
 * it), `cache MB` sweeps a working set of MB megabytes (the size of one ACTIVSg10k run's
 * Jacobian, KLU factors and IDA vectors, ~10 MB), `dram` streams 3 x 128 MB arrays (a triad,
 * McCalpin's STREAM kernel) so the memory bus is the limit. Prints the seconds of its own work.
 * Not a test; built static so that it runs on a machine with nothing installed.
 *
 *   cc -O2 -static -o contention_probe contention_probe.c
 *   contention_probe spin | cache 10 | dram
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static double triad(size_t n, int passes) {
  double* a = malloc(n * sizeof(double));
  double* b = malloc(n * sizeof(double));
  double* c = malloc(n * sizeof(double));
  if (!a || !b || !c) { fprintf(stderr, "contention_probe: out of memory\n"); exit(2); }
  for (size_t i = 0; i < n; ++i) { a[i] = 0; b[i] = 1.0 + i % 7; c[i] = 2.0 - i % 5; }
  double t0 = now();
  for (int p = 0; p < passes; ++p)
    for (size_t i = 0; i < n; ++i) a[i] = b[i] + 1.000001 * c[i] + 1e-9 * a[i];
  double t = now() - t0;
  double s = 0;
  for (size_t i = 0; i < n; i += 4096) s += a[i];
  if (s == 42.4242) puts("");  /* keeps the loop */
  free(a); free(b); free(c);
  return t;
}

int main(int argc, char** argv) {
  if (argc < 2) { fprintf(stderr, "usage: contention_probe spin | cache MB | dram\n"); return 2; }
  double t;
  if (!strcmp(argv[1], "spin")) {
    volatile double sink;
    double x = 1.0, y = 1.0000001;
    double t0 = now();
    for (long i = 0; i < 400000000L; ++i) { x = x * y + 1e-12; y = y * 0.9999999 + 1e-7; }
    t = now() - t0;
    sink = x + y;
    (void)sink;
  } else if (!strcmp(argv[1], "cache") && argc > 2) {
    size_t mb = (size_t)atol(argv[2]);
    size_t n = mb * 1024 * 1024 / (3 * sizeof(double));
    t = triad(n, (int)(30000 / (mb ? mb : 1)));
  } else if (!strcmp(argv[1], "dram")) {
    t = triad(16u * 1024 * 1024, 12);  /* 3 x 128 MB */
  } else {
    fprintf(stderr, "contention_probe: mode %s unknown -> spin, cache MB or dram\n", argv[1]);
    return 2;
  }
  printf("%.4f\n", t);
  return 0;
}
