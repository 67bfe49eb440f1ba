// bench/klu_refactor_scaling/refactor_scaling.c -- what KLU's row scaling costs
// in klu_refactor, and what dropping it there does to a solve's accuracy, on
// matrices recorded from lsdae runs by dump_shim.c (issues 30 and 31).
//
// Why. KLU's default Common.scale = 2 makes every klu_refactor call klu_scale
// (a pass over all nonzeros that checks the indices and takes each row's
// largest |a_ij|, Rs) and divide every entry by Rs[row] while scattering it
// (klu_refactor.c, SCALE_DIV_ASSIGN). With the pivots fixed, row scaling only
// changes rounding: the LU of R⁻¹A with fixed pivots is R⁻¹ times the LU of A
// in exact arithmetic, and both have the componentwise backward error
// |ΔA| ≤ γ_n |L||U| of their own matrix (Higham, Accuracy and Stability of
// Numerical Algorithms, 2nd ed., thm. 9.3), which row scaling carries over.
//
//   time FILE REPEATS   the file's first matrix: klu_analyze (AMD, lsdae's
//                       default), klu_factor (scale 2), then REPEATS rounds of
//                       klu_refactor with scale 2 (KLU's default: klu_scale's
//                       check and row maxima, one division per nonzero), 0 (the
//                       check only), -1 (neither), and klu_scale alone, in turn;
//                       prints the median, 10th and 90th percentile of each.
//   accuracy FILE       the file's sequence: at each klu_factor record, a
//                       factorization (scale 2) for both variants; at each
//                       klu_refactor record, a refactorization with scale 2 and
//                       one with scale -1 (the same pivots), then 4 solves with
//                       random right-hand sides in [-1, 1]; each solution's
//                       error max_i |x̂_i - x_i| / max_i |x_i| against a long
//                       double dense LU with partial pivoting. n ≤ 3000.
// Cost: time: REPEATS × (3 refactorizations + 1 scale); accuracy: O(n³) long
// double per refactorization record (a dense reference). Checks the file's
// record sizes, trusts the matrices (they were KLU's inputs).
//
//   gcc -O2 -I/usr/include/suitesparse refactor_scaling.c -o refactor_scaling -lklu -lm
#include <klu.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
  int kind, n, nnz;
  int *ap, *ai;
  double* ax;
} Record;

// Reads the next record into r (buffers grown as needed); 0 at the end of the file, -1 on a bad record.
static int read_record(FILE* f, Record* r) {
  int head[3];
  if (fread(head, 4, 3, f) != 3) return 0;
  if (head[1] <= 0 || head[2] < 0) return -1;
  r->kind = head[0];
  r->n = head[1];
  r->nnz = head[2];
  r->ap = realloc(r->ap, 4 * ((size_t)r->n + 1));
  r->ai = realloc(r->ai, 4 * (size_t)r->nnz + 4);
  r->ax = realloc(r->ax, 8 * (size_t)r->nnz + 8);
  if (r->ap == NULL || r->ai == NULL || r->ax == NULL) return -1;
  if (fread(r->ap, 4, (size_t)r->n + 1, f) != (size_t)r->n + 1 || fread(r->ai, 4, (size_t)r->nnz, f) != (size_t)r->nnz ||
      fread(r->ax, 8, (size_t)r->nnz, f) != (size_t)r->nnz || r->ap[r->n] != r->nnz)
    return -1;
  return 1;
}

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int by_value(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

static int time_refactor(Record* r, int repeats) {
  klu_common c;
  klu_defaults(&c);
  klu_symbolic* s = klu_analyze(r->n, r->ap, r->ai, &c);
  klu_numeric* num = s == NULL ? NULL : klu_factor(r->ap, r->ai, r->ax, s, &c);
  if (num == NULL) {
    fprintf(stderr, "refactor_scaling: time: KLU could not analyse or factor the matrix (status %d)\n", c.status);
    return 1;
  }
  printf("n %d, nnz %d, L+U %d, blocks %d\n", r->n, r->nnz, (int)(num->lnz + num->unz), s->nblocks);
  enum { kinds = 4 };
  const char* name[kinds] = {"klu_refactor, scale 2", "klu_refactor, scale 0", "klu_refactor, scale -1",
                             "klu_scale (scale 2) alone"};
  double* t[kinds];
  double* rs = malloc(8 * (size_t)r->n);
  for (int k = 0; k < kinds; ++k) t[k] = malloc(8 * (size_t)repeats);
  for (int rep = 0; rep < repeats; ++rep)
    for (int k = 0; k < kinds; ++k) {
      const double t0 = seconds();
      if (k < 3) {
        c.scale = k == 0 ? 2 : k == 1 ? 0 : -1;
        klu_refactor(r->ap, r->ai, r->ax, s, num, &c);
      } else {
        klu_scale(2, r->n, r->ap, r->ai, r->ax, rs, NULL, &c);
      }
      t[k][rep] = seconds() - t0;
    }
  double median[kinds];
  for (int k = 0; k < kinds; ++k) {
    qsort(t[k], (size_t)repeats, 8, by_value);
    median[k] = t[k][repeats / 2];
    printf("%-27s median %8.1f us  p10 %8.1f  p90 %8.1f  (/ scale 2: %.3f)\n", name[k], 1e6 * median[k],
           1e6 * t[k][repeats / 10], 1e6 * t[k][9 * repeats / 10], median[k] / median[0]);
  }
  return 0;
}

// x = A⁻¹ b in long double (dense Gaussian elimination with partial pivoting).
static void dense_solve(const Record* r, const double* b, long double* x) {
  const size_t n = (size_t)r->n;
  long double* m = calloc(n * n, sizeof(long double));
  for (size_t j = 0; j < n; ++j)
    for (int p = r->ap[j]; p < r->ap[j + 1]; ++p) m[(size_t)r->ai[p] * n + j] += r->ax[p];
  for (size_t i = 0; i < n; ++i) x[i] = b[i];
  for (size_t k = 0; k < n; ++k) {
    size_t piv = k;
    for (size_t i = k + 1; i < n; ++i)
      if (fabsl(m[i * n + k]) > fabsl(m[piv * n + k])) piv = i;
    if (piv != k) {
      for (size_t j = 0; j < n; ++j) {
        const long double tmp = m[k * n + j];
        m[k * n + j] = m[piv * n + j];
        m[piv * n + j] = tmp;
      }
      const long double tmp = x[k];
      x[k] = x[piv];
      x[piv] = tmp;
    }
    for (size_t i = k + 1; i < n; ++i) {
      const long double l = m[i * n + k] / m[k * n + k];
      if (l == 0) continue;
      for (size_t j = k; j < n; ++j) m[i * n + j] -= l * m[k * n + j];
      x[i] -= l * x[k];
    }
  }
  for (size_t k = n; k-- > 0;) {
    long double sum = x[k];
    for (size_t j = k + 1; j < n; ++j) sum -= m[k * n + j] * x[j];
    x[k] = sum / m[k * n + k];
  }
  free(m);
}

static double relative_error(const double* xh, const long double* x, int n) {
  double err = 0, size = 0;
  for (int i = 0; i < n; ++i) {
    err = fmax(err, (double)fabsl((long double)xh[i] - x[i]));
    size = fmax(size, (double)fabsl(x[i]));
  }
  return err / size;
}

static int accuracy(FILE* f, Record* r) {
  klu_common c;
  klu_defaults(&c);
  klu_symbolic* s = NULL;
  klu_numeric *scaled = NULL, *unscaled = NULL;
  long solves = 0, worse = 0, better = 0;
  double sum[2] = {0, 0}, most[2] = {0, 0};
  srand(1);
  int got;
  while ((got = read_record(f, r)) == 1) {
    if (r->n > 3000) {
      fprintf(stderr, "refactor_scaling: accuracy: n = %d; the dense reference takes n ≤ 3000: record a smaller run\n", r->n);
      return 1;
    }
    if (s == NULL) s = klu_analyze(r->n, r->ap, r->ai, &c);
    if (s == NULL) return 1;
    if (r->kind == 0) {
      if (scaled != NULL) klu_free_numeric(&scaled, &c);
      if (unscaled != NULL) klu_free_numeric(&unscaled, &c);
      c.scale = 2;
      scaled = klu_factor(r->ap, r->ai, r->ax, s, &c);
      unscaled = klu_factor(r->ap, r->ai, r->ax, s, &c);
      continue;
    }
    if (scaled == NULL) continue;  // a refactorization before any factorization was recorded
    c.scale = 2;
    if (!klu_refactor(r->ap, r->ai, r->ax, s, scaled, &c)) continue;
    c.scale = -1;
    if (!klu_refactor(r->ap, r->ai, r->ax, s, unscaled, &c)) continue;
    double *b = malloc(8 * (size_t)r->n), *x2 = malloc(8 * (size_t)r->n), *x1 = malloc(8 * (size_t)r->n);
    long double* x = malloc(sizeof(long double) * (size_t)r->n);
    for (int rhs = 0; rhs < 4; ++rhs) {
      for (int i = 0; i < r->n; ++i) b[i] = 2.0 * rand() / RAND_MAX - 1.0;
      memcpy(x2, b, 8 * (size_t)r->n);
      memcpy(x1, b, 8 * (size_t)r->n);
      klu_solve(s, scaled, r->n, 1, x2, &c);
      klu_solve(s, unscaled, r->n, 1, x1, &c);
      dense_solve(r, b, x);
      const double e[2] = {relative_error(x2, x, r->n), relative_error(x1, x, r->n)};
      for (int k = 0; k < 2; ++k) {
        sum[k] += e[k];
        most[k] = fmax(most[k], e[k]);
      }
      worse += e[1] > e[0];
      better += e[1] < e[0];
      ++solves;
    }
    free(b);
    free(x2);
    free(x1);
    free(x);
  }
  if (got < 0) {
    fprintf(stderr, "refactor_scaling: accuracy: a truncated or malformed record after %ld solves\n", solves);
    return 1;
  }
  if (solves == 0) {
    fprintf(stderr, "refactor_scaling: accuracy: no refactorization after a factorization in the file\n");
    return 1;
  }
  printf("%ld solves: relative error, mean scale 2 %.3e, scale -1 %.3e; largest %.3e, %.3e; scale -1 worse in %ld, better in %ld\n",
         solves, sum[0] / solves, sum[1] / solves, most[0], most[1], worse, better);
  return 0;
}

int main(int argc, char** argv) {
  const int timing = argc == 4 && strcmp(argv[1], "time") == 0;
  if (!timing && !(argc == 3 && strcmp(argv[1], "accuracy") == 0)) {
    fprintf(stderr, "usage: refactor_scaling time FILE REPEATS | refactor_scaling accuracy FILE\n");
    return 2;
  }
  FILE* f = fopen(argv[2], "rb");
  if (f == NULL) {
    fprintf(stderr, "refactor_scaling: cannot open %s: record one with dump_shim.so\n", argv[2]);
    return 1;
  }
  Record r = {0, 0, 0, NULL, NULL, NULL};
  if (!timing) return accuracy(f, &r);
  const int repeats = atoi(argv[3]);
  if (repeats < 1) {
    fprintf(stderr, "refactor_scaling: time: REPEATS must be a positive count, saw '%s'\n", argv[3]);
    return 2;
  }
  if (read_record(f, &r) != 1) {
    fprintf(stderr, "refactor_scaling: time: %s holds no complete record\n", argv[2]);
    return 1;
  }
  return time_refactor(&r, repeats);
}
