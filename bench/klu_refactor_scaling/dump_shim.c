// bench/klu_refactor_scaling/dump_shim.c -- an LD_PRELOAD library that records
// the matrices lsdae's KLU solver (runtime/simulation/ida/klu32_solver.h, KLU's
// 32-bit interface) factors and refactors, for refactor_scaling.c.
//
// What. It interposes klu_factor and klu_refactor (libklu is a shared library),
// appends each call's matrix to the file $LSDAE_KLU_DUMP and calls KLU's own
// function (dlsym RTLD_NEXT): the run itself is unchanged. With
// $LSDAE_KLU_DUMP_CALL=K only the K-th klu_refactor call is recorded (one
// representative matrix for timing); without it, every factor and refactor (a
// run's whole sequence, for the accuracy comparison).
// Record, native byte order: int32 kind (0 klu_factor, 1 klu_refactor), int32 n,
// int32 nnz, int32 Ap[n + 1], int32 Ai[nnz], double Ax[nnz] (CSC, 0-based).
// Cost: one write of the matrix per recorded call. Trusts KLU's inputs (it only
// reads them); the file is opened per call, so a sweep's worker processes append
// to it in turn. Not for production: a measuring aid.
//
//   gcc -O2 -shared -fPIC -I/usr/include/suitesparse dump_shim.c -o dump_shim.so -ldl
//   LSDAE_KLU_DUMP=m.bin LSDAE_KLU_DUMP_CALL=400 LD_PRELOAD=./dump_shim.so lsdae simulate X.fmu ...
#define _GNU_SOURCE
#include <dlfcn.h>
#include <klu.h>
#include <stdio.h>
#include <stdlib.h>

static long refactor_calls = 0;

static void record(int kind, const int* ap, const int* ai, const double* ax, int n) {
  const char* path = getenv("LSDAE_KLU_DUMP");
  const char* only = getenv("LSDAE_KLU_DUMP_CALL");
  if (path == NULL) return;
  if (only != NULL && (kind != 1 || refactor_calls != atol(only))) return;
  FILE* f = fopen(path, "ab");
  if (f == NULL) {
    fprintf(stderr, "dump_shim: cannot open %s for appending; nothing recorded\n", path);
    return;
  }
  const int nnz = ap[n];
  fwrite(&kind, 4, 1, f);
  fwrite(&n, 4, 1, f);
  fwrite(&nnz, 4, 1, f);
  fwrite(ap, 4, (size_t)n + 1, f);
  fwrite(ai, 4, (size_t)nnz, f);
  fwrite(ax, 8, (size_t)nnz, f);
  fclose(f);
}

klu_numeric* klu_factor(int* ap, int* ai, double* ax, klu_symbolic* s, klu_common* c) {
  static klu_numeric* (*real)(int*, int*, double*, klu_symbolic*, klu_common*) = NULL;
  if (real == NULL) real = (klu_numeric * (*)(int*, int*, double*, klu_symbolic*, klu_common*)) dlsym(RTLD_NEXT, "klu_factor");
  record(0, ap, ai, ax, s->n);
  return real(ap, ai, ax, s, c);
}

int klu_refactor(int* ap, int* ai, double* ax, klu_symbolic* s, klu_numeric* num, klu_common* c) {
  static int (*real)(int*, int*, double*, klu_symbolic*, klu_numeric*, klu_common*) = NULL;
  if (real == NULL) real = (int (*)(int*, int*, double*, klu_symbolic*, klu_numeric*, klu_common*))dlsym(RTLD_NEXT, "klu_refactor");
  ++refactor_calls;
  record(1, ap, ai, ax, s->n);
  return real(ap, ai, ax, s, num, c);
}
