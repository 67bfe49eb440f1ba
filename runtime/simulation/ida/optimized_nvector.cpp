// runtime/simulation/ida/optimized_nvector.cpp -- see optimized_nvector.h. Each
// operation follows the definition in SUNDIALS' N_Vector documentation, with
// nvector_serial's element order and special cases (so results are bitwise
// the package's); the loops are plain C++ for the compiler to optimise.
#include "simulation/ida/optimized_nvector.h"

#include <nvector/nvector_serial.h>

#include <cmath>

namespace {

using Index = sunindextype;

Index length(N_Vector v) { return NV_LENGTH_S(v); }
double* data(N_Vector v) { return NV_DATA_S(v); }

// z = a*x + b*y with nvector_serial's special cases. Multiplying by +-1 is
// exact, so the cases with a or b = +-1 equal the general formula; a == b and
// a == -b are evaluated as a*(x + y) and a*(x - y) there, which rounds
// differently, and are reproduced.
void linear_sum(double a, N_Vector x, double b, N_Vector y, N_Vector z) {
  const Index n = length(z);
  const double* xd = data(x);
  const double* yd = data(y);
  double* zd = data(z);
  const bool unit = a == 1.0 || a == -1.0 || b == 1.0 || b == -1.0;
  if (!unit && a == b) {
    for (Index i = 0; i < n; ++i) zd[i] = a * (xd[i] + yd[i]);
  } else if (!unit && a == -b) {
    for (Index i = 0; i < n; ++i) zd[i] = a * (xd[i] - yd[i]);
  } else if (b == 1.0) {  // axpy and Lin1: a*x + y
    for (Index i = 0; i < n; ++i) zd[i] = a * xd[i] + yd[i];
  } else if (a == 1.0) {  // x + b*y
    for (Index i = 0; i < n; ++i) zd[i] = xd[i] + b * yd[i];
  } else {
    for (Index i = 0; i < n; ++i) zd[i] = a * xd[i] + b * yd[i];
  }
}

void scale(double c, N_Vector x, N_Vector z);

// z = c[0] X[0] + ... + c[nvec-1] X[nvec-1] as SUNDIALS' generic fallback for
// N_VLinearCombination computes it (N_VScale(c[0], X[0], z), then
// N_VLinearSum(c[i], X[i], 1, z, z) for each further vector, i.e. z = c[i]*x + z
// above), in one pass instead of nvec: per element the same products and sums
// in the same order, so bitwise the same z (IDA's prediction and
// interpolation: 4-6 vectors a call, each pass over the unknowns). A z that is
// one of X[1..] is read back as the running sum there: that case takes the
// fallback's passes.
int linear_combination(int nvec, double* c, N_Vector* x, N_Vector z) {
  if (nvec < 1) return -1;
  for (int i = 1; i < nvec; ++i)
    if (x[i] == z) {
      scale(c[0], x[0], z);
      for (int k = 1; k < nvec; ++k) linear_sum(c[k], x[k], 1.0, z, z);
      return 0;
    }
  const Index n = length(z);
  double* zd = data(z);
  constexpr int kInline = 8;
  const double* xs[kInline];
  for (int first = 0; first < nvec; first += kInline) {  // z so far, then the next (up to) 8 vectors
    const int count = nvec - first < kInline ? nvec - first : kInline;
    for (int k = 0; k < count; ++k) xs[k] = data(x[first + k]);
    const double* cs = c + first;
    if (first == 0) {
      for (Index i = 0; i < n; ++i) {
        double sum = cs[0] * xs[0][i];
        for (int k = 1; k < count; ++k) sum = cs[k] * xs[k][i] + sum;
        zd[i] = sum;
      }
    } else {
      for (Index i = 0; i < n; ++i) {
        double sum = zd[i];
        for (int k = 0; k < count; ++k) sum = cs[k] * xs[k][i] + sum;
        zd[i] = sum;
      }
    }
  }
  return 0;
}

void constant(double c, N_Vector z) {
  const Index n = length(z);
  double* zd = data(z);
  for (Index i = 0; i < n; ++i) zd[i] = c;
}

void prod(N_Vector x, N_Vector y, N_Vector z) {
  const Index n = length(x);
  const double *xd = data(x), *yd = data(y);
  double* zd = data(z);
  for (Index i = 0; i < n; ++i) zd[i] = xd[i] * yd[i];
}

void divide(N_Vector x, N_Vector y, N_Vector z) {
  const Index n = length(x);
  const double *xd = data(x), *yd = data(y);
  double* zd = data(z);
  for (Index i = 0; i < n; ++i) zd[i] = xd[i] / yd[i];
}

void scale(double c, N_Vector x, N_Vector z) {  // c = +-1 (copy, negation) is exact as c*x
  const Index n = length(x);
  const double* xd = data(x);
  double* zd = data(z);
  for (Index i = 0; i < n; ++i) zd[i] = c * xd[i];
}

void absolute(N_Vector x, N_Vector z) {
  const Index n = length(x);
  const double* xd = data(x);
  double* zd = data(z);
  for (Index i = 0; i < n; ++i) zd[i] = std::fabs(xd[i]);
}

void inverse(N_Vector x, N_Vector z) {
  const Index n = length(x);
  const double* xd = data(x);
  double* zd = data(z);
  for (Index i = 0; i < n; ++i) zd[i] = 1.0 / xd[i];
}

void add_const(N_Vector x, double b, N_Vector z) {
  const Index n = length(x);
  const double* xd = data(x);
  double* zd = data(z);
  for (Index i = 0; i < n; ++i) zd[i] = xd[i] + b;
}

double dot(N_Vector x, N_Vector y) {
  const Index n = length(x);
  const double *xd = data(x), *yd = data(y);
  double sum = 0.0;
  for (Index i = 0; i < n; ++i) sum += xd[i] * yd[i];
  return sum;
}

double max_norm(N_Vector x) {
  const Index n = length(x);
  const double* xd = data(x);
  double max = 0.0;
  for (Index i = 0; i < n; ++i)
    if (std::fabs(xd[i]) > max) max = std::fabs(xd[i]);
  return max;
}

double wsqr_sum(N_Vector x, N_Vector w) {
  const Index n = length(x);
  const double *xd = data(x), *wd = data(w);
  double sum = 0.0;
  for (Index i = 0; i < n; ++i) {
    const double p = xd[i] * wd[i];
    sum += p * p;
  }
  return sum;
}

double wsqr_sum_mask(N_Vector x, N_Vector w, N_Vector id) {
  const Index n = length(x);
  const double *xd = data(x), *wd = data(w), *idd = data(id);
  double sum = 0.0;
  for (Index i = 0; i < n; ++i)
    if (idd[i] > 0.0) {
      const double p = xd[i] * wd[i];
      sum += p * p;
    }
  return sum;
}

double wrms_norm(N_Vector x, N_Vector w) {
  return std::sqrt(wsqr_sum(x, w) / static_cast<double>(length(x)));
}

double wrms_norm_mask(N_Vector x, N_Vector w, N_Vector id) {
  return std::sqrt(wsqr_sum_mask(x, w, id) / static_cast<double>(length(x)));
}

double minimum(N_Vector x) {
  const Index n = length(x);
  const double* xd = data(x);
  double min = xd[0];
  for (Index i = 1; i < n; ++i)
    if (xd[i] < min) min = xd[i];
  return min;
}

double wl2_norm(N_Vector x, N_Vector w) { return std::sqrt(wsqr_sum(x, w)); }

double l1_norm(N_Vector x) {
  const Index n = length(x);
  const double* xd = data(x);
  double sum = 0.0;
  for (Index i = 0; i < n; ++i) sum += std::fabs(xd[i]);
  return sum;
}

void compare(double c, N_Vector x, N_Vector z) {
  const Index n = length(x);
  const double* xd = data(x);
  double* zd = data(z);
  for (Index i = 0; i < n; ++i) zd[i] = std::fabs(xd[i]) >= c ? 1.0 : 0.0;
}

booleantype inv_test(N_Vector x, N_Vector z) {
  const Index n = length(x);
  const double* xd = data(x);
  double* zd = data(z);
  booleantype no_zero = SUNTRUE;
  for (Index i = 0; i < n; ++i) {
    if (xd[i] == 0.0)
      no_zero = SUNFALSE;
    else
      zd[i] = 1.0 / xd[i];
  }
  return no_zero;
}

booleantype constr_mask(N_Vector c, N_Vector x, N_Vector m) {
  const Index n = length(x);
  const double *cd = data(c), *xd = data(x);
  double* md = data(m);
  bool violated = false;
  for (Index i = 0; i < n; ++i) {
    md[i] = 0.0;
    if (cd[i] == 0.0) continue;
    const bool test = (std::fabs(cd[i]) > 1.5 && xd[i] * cd[i] <= 0.0) || (std::fabs(cd[i]) > 0.5 && xd[i] * cd[i] < 0.0);
    if (test) {
      md[i] = 1.0;
      violated = true;
    }
  }
  return violated ? SUNFALSE : SUNTRUE;
}

double min_quotient(N_Vector num, N_Vector denom) {
  const Index n = length(num);
  const double *nd = data(num), *dd = data(denom);
  bool first = true;
  double min = BIG_REAL;
  for (Index i = 0; i < n; ++i) {
    if (dd[i] == 0.0) continue;
    const double q = nd[i] / dd[i];
    if (first) {
      min = q;
      first = false;
    } else {
      min = min < q ? min : q;  // SUNMIN(min, q), NaN included
    }
  }
  return min;
}

}  // namespace

extern "C" int lsdae_use_optimized_ops(N_Vector v) {
  if (v == nullptr || v->ops == nullptr || N_VGetVectorID(v) != SUNDIALS_NVEC_SERIAL) return -1;
  N_Vector_Ops ops = v->ops;
  // Only what the package defines for a serial vector is replaced, so the
  // set of available operations (and IDA's choice of fallbacks) is unchanged.
  auto set = [](auto& slot, auto fn) {
    if (slot != nullptr) slot = fn;
  };
  set(ops->nvlinearsum, &linear_sum);
  set(ops->nvconst, &constant);
  set(ops->nvprod, &prod);
  set(ops->nvdiv, &divide);
  set(ops->nvscale, &scale);
  set(ops->nvabs, &absolute);
  set(ops->nvinv, &inverse);
  set(ops->nvaddconst, &add_const);
  set(ops->nvdotprod, &dot);
  set(ops->nvmaxnorm, &max_norm);
  set(ops->nvwrmsnorm, &wrms_norm);
  set(ops->nvwrmsnormmask, &wrms_norm_mask);
  set(ops->nvmin, &minimum);
  set(ops->nvwl2norm, &wl2_norm);
  set(ops->nvl1norm, &l1_norm);
  set(ops->nvcompare, &compare);
  set(ops->nvinvtest, &inv_test);
  set(ops->nvconstrmask, &constr_mask);
  set(ops->nvminquotient, &min_quotient);
  set(ops->nvdotprodlocal, &dot);
  set(ops->nvmaxnormlocal, &max_norm);
  set(ops->nvminlocal, &minimum);
  set(ops->nvl1normlocal, &l1_norm);
  set(ops->nvinvtestlocal, &inv_test);
  set(ops->nvconstrmasklocal, &constr_mask);
  set(ops->nvminquotientlocal, &min_quotient);
  set(ops->nvwsqrsumlocal, &wsqr_sum);
  set(ops->nvwsqrsummasklocal, &wsqr_sum_mask);
  // The one fused operation given where the package has none: the fallback's
  // arithmetic in one pass (linear_combination above).
  ops->nvlinearcombination = &linear_combination;
  return 0;
}
